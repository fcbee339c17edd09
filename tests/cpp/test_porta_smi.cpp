// porta-smi lists what Porta sees, as tables and as JSON.
#include <gmock/gmock.h>

#include <string>

#include "../support/run_command.hpp"
#include "mock_device.hpp"

using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

using porta_test::CommandResult;

// Runs porta-smi with `args` through the shell (prefix e.g. "env -u VAR") and captures stdout.
CommandResult smi(const std::string& args, const std::string& prefix = "") {
  return porta_test::run_command(prefix + " '" PORTA_SMI_PATH "' " + args);
}

// Brackets and braces balance outside strings, and the text is one object.
bool looks_like_one_json_object(const std::string& s) {
  std::string stack;
  bool in_string = false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      else if (static_cast<unsigned char>(c) < 0x20) return false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      stack += c;
    } else if (c == '}' || c == ']') {
      if (stack.empty() || stack.back() != (c == '}' ? '{' : '[')) return false;
      stack.pop_back();
      if (stack.empty() && s.find_first_not_of(" \n", i + 1) != std::string::npos) return false;
    }
  }
  return stack.empty() && !in_string && s.find_first_not_of(" \n") == s.find('{');
}

}  // namespace

TEST(PortaSmi, Help) {
  const CommandResult r = smi("--help");
  EXPECT_EQ(r.exit_status, 0);
  EXPECT_THAT(r.output, HasSubstr("usage: porta-smi"));
  EXPECT_EQ(smi("--bogus 2>/dev/null").exit_status, 2);
}

TEST(PortaSmi, Version) {
  const CommandResult r = smi("--version");
  EXPECT_EQ(r.exit_status, 0);
  EXPECT_THAT(r.output, ContainsRegex("^porta-smi [0-9]+\\.[0-9]+\\.[0-9]+ \\(libporta [0-9.]+, ABI [0-9]+\\.[0-9]+, "
                                      "plugin ABI [0-9]+\\.[0-9]+\\)\n$"));
}

TEST(PortaSmi, ExitStatusSaysWhenNothingLoadedOrADeviceIsMissing) {
  const CommandResult none = smi("2>/dev/null", "PORTA_DEVICES=nothing");
  EXPECT_EQ(none.exit_status, 3) << none.output;
  EXPECT_THAT(none.output, HasSubstr("excluded"));  // the table still says why
  const CommandResult missing = smi("--device cpu:5 2>&1");
  EXPECT_EQ(missing.exit_status, 4) << missing.output;
  EXPECT_THAT(missing.output, HasSubstr("device cpu:5 does not exist"));
  const CommandResult one = smi("-d cpu");
  EXPECT_EQ(one.exit_status, 0) << one.output;
  EXPECT_THAT(one.output, ContainsRegex("\ncpu +cpu +[0-9]+ "));
  EXPECT_EQ(smi("--device 2>/dev/null").exit_status, 2);
}

TEST(PortaSmi, JsonHasASchemaVersionAndMachineReadableStatuses) {
  const CommandResult r = smi("--json", "PORTA_DEVICES=cpu");
  ASSERT_EQ(r.exit_status, 0) << r.output;
  EXPECT_TRUE(looks_like_one_json_object(r.output)) << r.output;
  EXPECT_THAT(r.output, HasSubstr("\"schema_version\": 1,"));
  EXPECT_THAT(r.output, HasSubstr("\"plugin_abi_version\": \""));
  EXPECT_THAT(r.output, HasSubstr("\"status\": \"loaded\""));
  EXPECT_THAT(r.output, HasSubstr("\"name\": \"mock\", \"path\": \"" PORTA_TEST_MOCK_PLUGIN_DIR));
  EXPECT_THAT(r.output, HasSubstr("\"status\": \"excluded\""));
  EXPECT_THAT(r.output, Not(HasSubstr("\"status\": \"no devices\"")));
}

TEST(PortaSmi, TablesListCpuWithoutTheMockPlugin) {
  const CommandResult r = smi("", "env -u PORTA_PLUGIN_PATH");
  ASSERT_EQ(r.exit_status, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("Plugins"));
  EXPECT_THAT(r.output, HasSubstr("Devices"));
  EXPECT_THAT(r.output, HasSubstr("libporta_plugin_cpu.so"));
  EXPECT_THAT(r.output, ContainsRegex("\ncpu +cpu +[0-9]+ "));  // the device row: DEVICE KIND UNITS
  EXPECT_THAT(r.output, HasSubstr("loaded"));
  EXPECT_THAT(r.output, Not(HasSubstr("mock")));
}

TEST(PortaSmi, JsonListsCpuWithoutTheMockPlugin) {
  const CommandResult r = smi("--json", "env -u PORTA_PLUGIN_PATH");
  ASSERT_EQ(r.exit_status, 0) << r.output;
  EXPECT_TRUE(looks_like_one_json_object(r.output)) << r.output;
  EXPECT_THAT(r.output, HasSubstr("\"version\": \""));
  EXPECT_THAT(r.output, HasSubstr("\"plugins\": ["));
  EXPECT_THAT(r.output, HasSubstr("\"devices\": ["));
  EXPECT_THAT(r.output, HasSubstr("\"device\": \"cpu\""));
  EXPECT_THAT(r.output, HasSubstr("\"status\": \"loaded\""));
  EXPECT_THAT(r.output, Not(HasSubstr("mock")));
}

class PortaSmiWithMock : public MockDeviceTest {};

TEST_F(PortaSmiWithMock, ListsTheMockDevices) {
  const CommandResult text = smi("");
  ASSERT_EQ(text.exit_status, 0);
  EXPECT_THAT(text.output, ContainsRegex("\ncpu +cpu +[0-9]+ "));
  EXPECT_THAT(text.output, HasSubstr("mock:0"));
  EXPECT_THAT(text.output, HasSubstr("mock:1"));
  EXPECT_THAT(text.output, HasSubstr("virtual"));
  const CommandResult json = smi("--json");
  ASSERT_EQ(json.exit_status, 0);
  EXPECT_TRUE(looks_like_one_json_object(json.output)) << json.output;
  EXPECT_THAT(json.output, HasSubstr("\"device\": \"cpu\""));
  EXPECT_THAT(json.output, HasSubstr("\"device\": \"mock:1\""));
  EXPECT_THAT(json.output, HasSubstr("\"kind\": \"virtual\""));
}
