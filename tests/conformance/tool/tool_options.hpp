// The tool's own command line, taken out of argv before GoogleTest parses
// what is left (its --gtest_* flags pass through).
#pragma once

#include <porta/porta.h>

#include <string>
#include <vector>

#include "run_tool.hpp"

namespace conformance {

struct ToolOptions {
  bool help = false;
  bool strict = false;               // a missing kernel fails, as under ctest
  std::vector<std::string> devices;  // --device values as given; empty: every loaded device
};

// A command line the tool cannot run; the message says what is wrong and how to fix it.
struct UsageError {
  std::string message;
};

// Removes the tool's options from argv (shifting the rest down) and returns them.
ToolOptions take_tool_options(int& argc, char** argv);

// The loaded device each --device value names; UsageError for one that does not parse or is not loaded.
std::vector<DLDevice> resolve_devices(const std::vector<std::string>& specs);

std::string usage(const ToolInfo& tool);

}  // namespace conformance
