// porta-conformance and porta-gradcheck as a plugin author meets them: from
// an installed tree (install_for_tool_tests.sh), against the mock plugin, the
// guide's minimal plugin (almost every kernel missing) and an injected fault.
#include <gmock/gmock.h>

#include <string>

#include "../../support/run_command.hpp"

using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

using porta_test::CommandResult;

const std::string kPrefix = PORTA_TOOL_TEST_PREFIX;
const std::string kMinimalPluginDir = PORTA_TOOL_TEST_MINIMAL_PLUGIN_DIR;

// Runs an installed tool with `args` (stderr too), the plugins of `plugin_path` and extra `env` ("VAR=value").
CommandResult run(const std::string& tool, const std::string& args, const std::string& plugin_path,
                  const std::string& env = "") {
  CommandResult r = porta_test::run_command("env PORTA_PLUGIN_PATH='" + plugin_path + "' " + env + " '" + kPrefix +
                                            "/bin/" + tool + "' " + args + " 2>&1");
  // Shown in a failure message, the tool's "[  SKIPPED ]" lines would make ctest report this test skipped.
  for (size_t at; (at = r.output.find("[  SKIPPED ]")) != std::string::npos;) r.output.replace(at, 12, "[  skipped ]");
  return r;
}

// The totals line that ends a run.
std::string totals(int failed, const std::string& not_implemented) {
  return "\n[0-9]+ passed, " + std::to_string(failed) + " failed, " + not_implemented + " not implemented\n";
}

TEST(InstalledTools, AreInstalledWithWhatTheGuideNeeds) {
  for (const char* f :
       {"bin/porta-conformance", "bin/porta-gradcheck", "share/porta/plugin.map", "share/porta/minimal_plugin.c"})
    EXPECT_EQ(porta_test::run_command("test -f '" + kPrefix + "/" + f + "'").exit_status, 0) << f;
  for (const char* tool : {"porta-conformance", "porta-gradcheck"}) {
    const CommandResult ldd = porta_test::run_command("ldd '" + kPrefix + "/bin/" + tool + "'");
    ASSERT_EQ(ldd.exit_status, 0) << ldd.output;
    EXPECT_THAT(ldd.output, Not(ContainsRegex("gtest|gmock"))) << tool << " needs GoogleTest at run time";
    EXPECT_THAT(ldd.output, ContainsRegex("libporta\\.so[.0-9]* => " + kPrefix + "/"))
        << "libporta.so is found beside it through its RUNPATH";
  }
}

TEST(InstalledTools, HelpAndBadCommandLines) {
  const CommandResult help = run("porta-conformance", "--help", PORTA_TEST_MOCK_PLUGIN_DIR);
  EXPECT_EQ(help.exit_status, 0);
  EXPECT_THAT(help.output, HasSubstr("--device D"));
  EXPECT_THAT(help.output, HasSubstr("not implemented"));
  const CommandResult unknown = run("porta-conformance", "--device acme:0", PORTA_TEST_MOCK_PLUGIN_DIR);
  EXPECT_EQ(unknown.exit_status, 2);
  EXPECT_THAT(unknown.output, HasSubstr("--device 'acme:0': unknown device type 'acme'"));
  EXPECT_THAT(unknown.output, HasSubstr("available: mock"));
  EXPECT_EQ(run("porta-conformance", "--device mock:7", PORTA_TEST_MOCK_PLUGIN_DIR).exit_status, 2);
  EXPECT_EQ(run("porta-conformance", "--device", PORTA_TEST_MOCK_PLUGIN_DIR).exit_status, 2);
  EXPECT_EQ(run("porta-gradcheck", "--bogus", PORTA_TEST_MOCK_PLUGIN_DIR).exit_status, 2);
}

TEST(InstalledTools, MockDevicePassesWithATable) {
  const CommandResult r = run("porta-conformance", "--device mock:0 --gtest_brief=1", PORTA_TEST_MOCK_PLUGIN_DIR);
  EXPECT_EQ(r.exit_status, 0) << r.output;
  EXPECT_THAT(r.output, ContainsRegex("\nDEVICE +OP +DTYPE +STATUS +CASES +DETAIL\n"));
  EXPECT_THAT(r.output, ContainsRegex("\nmock:0 +add +float32 +passed +[0-9]+/[0-9]+\n"));
  EXPECT_THAT(r.output, ContainsRegex("\nmock:0 +DeviceInfo.InfoAndSynchronize +passed\n"));
  EXPECT_THAT(r.output, Not(ContainsRegex("\n(mock:1|cpu) ")));  // only the device asked for has rows
  EXPECT_THAT(r.output, ContainsRegex(totals(0, "0")));
}

TEST(InstalledTools, MissingKernelsAreNotImplementedNotFailed) {
  const CommandResult r = run("porta-conformance", "--device minimal:0 --gtest_brief=1", kMinimalPluginDir);
  EXPECT_EQ(r.exit_status, 0) << r.output;
  EXPECT_THAT(r.output, ContainsRegex("\nminimal:0 +full +float32 +passed "));  // its one kernel
  EXPECT_THAT(r.output,
              ContainsRegex("\nminimal:0 +add +float32 +not implemented +[0-9]+/[0-9]+ +missing add \\(float32\\)"));
  EXPECT_THAT(r.output, ContainsRegex("\nminimal:0 +DeviceInfo.InfoAndSynchronize +passed\n"));
  EXPECT_THAT(r.output, HasSubstr("[not implemented] neg (float32) is not implemented by plugin 'minimal'"));
  EXPECT_THAT(r.output, ContainsRegex(totals(0, "[1-9][0-9]*")));
}

TEST(InstalledTools, StrictCountsMissingKernelsAsFailed) {
  const CommandResult r = run(
      "porta-conformance", "--device minimal:0 --strict --gtest_filter='*Factories.ZerosAndOnes*'", kMinimalPluginDir);
  EXPECT_EQ(r.exit_status, 1) << r.output;
  EXPECT_THAT(r.output, ContainsRegex("\nminimal:0 +zeros +float64 +failed "));
  EXPECT_THAT(r.output, ContainsRegex("\nminimal:0 +zeros +float32 +passed "));
}

// PORTA_MOCK_FAULT fails the 20th kernel launch: a wrong status is a failure, never "not implemented".
TEST(InstalledTools, AnInjectedFaultFails) {
  const CommandResult r = run("porta-conformance", "--device mock:0 --gtest_filter='*Unary.EveryDtypeAndLayout*'",
                              PORTA_TEST_MOCK_PLUGIN_DIR, "PORTA_MOCK_FAULT=kernel:20");
  EXPECT_EQ(r.exit_status, 1) << r.output;
  EXPECT_THAT(r.output, ContainsRegex("\nmock:0 +[a-z]+ +[a-z0-9]+ +failed +[0-9]+/[0-9]+ +[a-z_]+\\.cpp:[0-9]+: "
                                      ".* returned PORTA_ERROR_BACKEND: "));
  EXPECT_THAT(r.output, HasSubstr("[mock plugin] mock: injected kernel launch fault"));
  EXPECT_THAT(r.output, ContainsRegex(totals(1, "0")));
}

TEST(InstalledTools, GradcheckToo) {
  const CommandResult mock =
      run("porta-gradcheck", "--device mock:1 --gtest_filter='*Elementwise*'", PORTA_TEST_MOCK_PLUGIN_DIR);
  EXPECT_EQ(mock.exit_status, 0) << mock.output;
  EXPECT_THAT(mock.output, ContainsRegex("\nmock:1 +add_broadcast +float64 +passed +1/1\n"));
  const CommandResult minimal = run("porta-gradcheck", "--device minimal:0", kMinimalPluginDir);
  EXPECT_EQ(minimal.exit_status, 0) << minimal.output;
  EXPECT_THAT(minimal.output, ContainsRegex("\nminimal:0 +conv2d +float64 +not implemented +0/1 +missing "));
  EXPECT_THAT(minimal.output, ContainsRegex(totals(0, "[1-9][0-9]*")));
}

}  // namespace
