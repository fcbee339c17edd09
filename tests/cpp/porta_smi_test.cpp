// porta-smi lists what Porta sees, as tables and as JSON.
#include <gmock/gmock.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "mock_device.hpp"

using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

struct SmiOutput {
  std::string out;
  int exit_code;
};

// Runs porta-smi with `args` through the shell (prefix e.g. "env -u VAR") and captures stdout.
SmiOutput smi(const std::string& args, const std::string& prefix = "") {
  const std::string command = prefix + " '" PORTA_SMI_PATH "' " + args;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return {"", -1};
  std::string out;
  std::array<char, 4096> buf;
  for (size_t n; (n = fread(buf.data(), 1, buf.size(), pipe)) > 0;) out.append(buf.data(), n);
  const int status = pclose(pipe);
  return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
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
  const SmiOutput r = smi("--help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("usage: porta-smi"));
  EXPECT_EQ(smi("--bogus 2>/dev/null").exit_code, 2);
}

TEST(PortaSmi, TablesListCpuWithoutTheMockPlugin) {
  const SmiOutput r = smi("", "env -u PORTA_PLUGIN_PATH");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("Plugins"));
  EXPECT_THAT(r.out, HasSubstr("Devices"));
  EXPECT_THAT(r.out, HasSubstr("libporta_plugin_cpu.so"));
  EXPECT_THAT(r.out, ContainsRegex("\ncpu +cpu +[0-9]+ "));  // the device row: DEVICE KIND UNITS
  EXPECT_THAT(r.out, HasSubstr("loaded"));
  EXPECT_THAT(r.out, Not(HasSubstr("mock")));
}

TEST(PortaSmi, JsonListsCpuWithoutTheMockPlugin) {
  const SmiOutput r = smi("--json", "env -u PORTA_PLUGIN_PATH");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(looks_like_one_json_object(r.out)) << r.out;
  EXPECT_THAT(r.out, HasSubstr("\"version\": \""));
  EXPECT_THAT(r.out, HasSubstr("\"plugins\": ["));
  EXPECT_THAT(r.out, HasSubstr("\"devices\": ["));
  EXPECT_THAT(r.out, HasSubstr("\"device\": \"cpu\""));
  EXPECT_THAT(r.out, HasSubstr("\"status\": \"loaded\""));
  EXPECT_THAT(r.out, Not(HasSubstr("mock")));
}

class PortaSmiWithMock : public MockDeviceTest {};

TEST_F(PortaSmiWithMock, ListsTheMockDevices) {
  const SmiOutput text = smi("");
  ASSERT_EQ(text.exit_code, 0);
  EXPECT_THAT(text.out, ContainsRegex("\ncpu +cpu +[0-9]+ "));
  EXPECT_THAT(text.out, HasSubstr("mock:0"));
  EXPECT_THAT(text.out, HasSubstr("mock:1"));
  EXPECT_THAT(text.out, HasSubstr("virtual"));
  const SmiOutput json = smi("--json");
  ASSERT_EQ(json.exit_code, 0);
  EXPECT_TRUE(looks_like_one_json_object(json.out)) << json.out;
  EXPECT_THAT(json.out, HasSubstr("\"device\": \"cpu\""));
  EXPECT_THAT(json.out, HasSubstr("\"device\": \"mock:1\""));
  EXPECT_THAT(json.out, HasSubstr("\"kind\": \"virtual\""));
}
