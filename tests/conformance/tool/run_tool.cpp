#include "run_tool.hpp"

#include <gtest/gtest.h>

#include <iostream>

#include "device_params.hpp"
#include "missing_kernel.hpp"
#include "summary_table.hpp"
#include "tool_options.hpp"
#include "whole_test_rows.hpp"

namespace conformance {

int run_tool(const ToolInfo& tool, int argc, char** argv) {
  try {
    const ToolOptions options = take_tool_options(argc, argv);
    if (options.help) {
      std::cout << usage(tool);
      return 0;
    }
    // Before InitGoogleTest, which instantiates the device suites.
    if (!options.devices.empty()) select_devices_under_test(resolve_devices(options.devices));
    allow_missing_kernels(!options.strict);
    testing::InitGoogleTest(&argc, argv);
    if (argc > 1) throw UsageError{std::string("unknown option '") + argv[1] + "' (see --help)"};
  } catch (const UsageError& e) {
    std::cerr << tool.name << ": " << e.message << "\n";
    return 2;
  }
  auto* rows = new WholeTestRows;  // owned by GoogleTest's listener list
  testing::UnitTest::GetInstance()->listeners().Append(rows);
  const int gtest_status = RUN_ALL_TESTS();
  if (rows->tests_ended() == 0) return gtest_status;  // --gtest_list_tests, --gtest_help, or a filter matching nothing
  const Totals totals = print_summary(std::cout, recorded_cases());
  return gtest_status != 0 || totals.failed > 0 ? 1 : 0;
}

}  // namespace conformance
