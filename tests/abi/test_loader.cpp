// Plugin loading: broken plugins are each recorded with a reason and never
// stop the others; a plugin built against the 1.0 table works. Runs with
// PORTA_PLUGIN_PATH=<mock dir>:<abi dir> (see CMakeLists.txt).
#include <gtest/gtest.h>
#include <porta/porta.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>

#include "plugin_attempts.hpp"

namespace {

std::map<std::string, porta_plugin_info> attempts_by_file() {
  std::map<std::string, porta_plugin_info> m;
  for (const porta_plugin_info& info : plugin_attempts()) {
    const std::string path = info.path;
    m[path.substr(path.rfind('/') + 1)] = info;
  }
  return m;
}

porta_plugin_info attempt(const char* file) {
  auto all = attempts_by_file();
  auto it = all.find(file);
  EXPECT_NE(it, all.end()) << file << " was never tried";
  return it == all.end() ? porta_plugin_info{} : it->second;
}

bool contains(const char* haystack, const char* needle) {
  return haystack && std::string(haystack).find(needle) != std::string::npos;
}

}  // namespace

TEST(Loader, GoodPluginsLoadDespiteBrokenNeighbours) {
  EXPECT_EQ(attempt("libporta_plugin_cpu.so").state, PORTA_PLUGIN_LOADED);
  EXPECT_EQ(attempt("libporta_plugin_mock.so").state, PORTA_PLUGIN_LOADED);
  int n = 0;
  ASSERT_EQ(porta_device_count("mock", &n), PORTA_OK);
  EXPECT_EQ(n, 2);
}

TEST(Loader, MissingEntrySymbolIsReported) {
  porta_plugin_info a = attempt("libporta_plugin_no_entry.so");
  EXPECT_EQ(a.state, PORTA_PLUGIN_FAILED);
  EXPECT_TRUE(contains(a.reason, "no symbol porta_plugin_get_api")) << a.reason;
}

TEST(Loader, WrongMajorIsRefusedWithBothVersions) {
  porta_plugin_info a = attempt("libporta_plugin_wrong_major.so");
  EXPECT_EQ(a.state, PORTA_PLUGIN_FAILED);
  EXPECT_EQ(a.abi_major, 99u);
  EXPECT_TRUE(contains(a.reason, "plugin ABI 99.")) << a.reason;
  EXPECT_TRUE(contains(a.reason, "supports 1.x")) << a.reason;
}

TEST(Loader, FailingInitializeIsReportedWithThePluginsMessage) {
  porta_plugin_info a = attempt("libporta_plugin_init_fails.so");
  EXPECT_EQ(a.state, PORTA_PLUGIN_FAILED);
  EXPECT_TRUE(contains(a.reason, "simulated driver failure")) << a.reason;
  int n = 0;
  EXPECT_EQ(porta_device_count("init_fails", &n), PORTA_ERROR_NO_SUCH_DEVICE);
}

TEST(Loader, ZeroDevicesLoadsWithItsReason) {
  porta_plugin_info a = attempt("libporta_plugin_zero_devices.so");
  EXPECT_EQ(a.state, PORTA_PLUGIN_NO_DEVICES);
  EXPECT_EQ(a.device_count, 0);
  EXPECT_TRUE(contains(a.reason, "no hardware present")) << a.reason;
  int n = -1;
  ASSERT_EQ(porta_device_count("zero_devices", &n), PORTA_OK);
  EXPECT_EQ(n, 0);
  DLDevice d{};
  EXPECT_EQ(porta_device_parse("zero_devices", &d), PORTA_ERROR_NO_SUCH_DEVICE);
  EXPECT_TRUE(contains(porta_last_error(), "0 zero_devices devices: no hardware present")) << porta_last_error();
  EXPECT_EQ(porta_device_parse("xpu", &d), PORTA_ERROR_NO_SUCH_DEVICE);
  EXPECT_TRUE(contains(porta_last_error(), "zero_devices [0 devices: no hardware present")) << porta_last_error();
}

TEST(Loader, SecondClaimOnADeviceTypeIsRejected) {
  porta_plugin_info a = attempt("libporta_plugin_duplicate_type.so");
  EXPECT_EQ(a.state, PORTA_PLUGIN_REJECTED);
  EXPECT_TRUE(contains(a.reason, "already served by")) << a.reason;
  EXPECT_TRUE(contains(a.reason, "libporta_plugin_mock.so")) << a.reason;
}

TEST(Loader, PluginBuiltAgainstTheOlderMinorLoadsAndWorks) {
  porta_plugin_info a = attempt("libporta_plugin_old_minor.so");
  ASSERT_EQ(a.state, PORTA_PLUGIN_LOADED) << a.reason;
  EXPECT_EQ(a.abi_minor, 0u);
  DLDevice d{};
  ASSERT_EQ(porta_device_parse("old_minor", &d), PORTA_OK) << porta_last_error();
  const int64_t shape[1] = {4};
  porta_tensor* t = nullptr;
  ASSERT_EQ(porta_full(shape, 1, 2.5, porta_float32, d, &t), PORTA_OK) << porta_last_error();
  float v[4] = {};
  ASSERT_EQ(porta_tensor_to_host(t, v, sizeof v), PORTA_OK) << porta_last_error();
  EXPECT_EQ(v[3], 2.5f);
  // Absent 1.1 slots (copy_between_devices) fall back to staging: a copy to cpu works.
  DLDevice cpu{};
  ASSERT_EQ(porta_device_parse("cpu", &cpu), PORTA_OK);
  porta_tensor* c = nullptr;
  ASSERT_EQ(porta_tensor_to(t, cpu, &c), PORTA_OK) << porta_last_error();
  // What the plugin lacks is NOT_IMPLEMENTED naming op, dtype and plugin.
  porta_tensor* sum = nullptr;
  EXPECT_EQ(porta_add(t, t, &sum), PORTA_ERROR_NOT_IMPLEMENTED);
  EXPECT_TRUE(contains(porta_last_error(), "add (float32) is not implemented by plugin 'old_minor'"))
      << porta_last_error();
  porta_tensor_release(c);
  porta_tensor_release(t);
}

// A plugin declaring plugin ABI 1.1, whose float32 -> int32 cast is a C cast
// (written before ops.h made such casts saturate, a rule of 1.3): the core
// applies the rule itself (runtime/kernel_rules.hpp), so the plugin's device
// answers as every other device does (issue 49 item 16). In-range values
// too come back from the host's conversion.
TEST(Loader, ARuleNewerThanThePluginsMinorIsAppliedByTheCore) {
  porta_plugin_info a = attempt("libporta_plugin_minor_1_1.so");
  ASSERT_EQ(a.state, PORTA_PLUGIN_LOADED) << a.reason;
  EXPECT_EQ(a.abi_minor, 1u);
  DLDevice d{}, cpu{};
  ASSERT_EQ(porta_device_parse("minor_1_1", &d), PORTA_OK) << porta_last_error();
  ASSERT_EQ(porta_device_parse("cpu", &cpu), PORTA_OK);
  const float nan = std::nanf(""), inf = INFINITY;
  const float in[] = {nan, inf, -inf, 3e9f, -3e9f, -2.5f, 7.9f, 2147483520.0f};
  const int32_t want[] = {0, INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN, -2, 7, 2147483520};
  const int64_t shape[1] = {8};
  porta_tensor *host = nullptr, *t = nullptr, *c = nullptr;
  ASSERT_EQ(porta_tensor_from_host(in, porta_float32, shape, 1, cpu, &host), PORTA_OK) << porta_last_error();
  ASSERT_EQ(porta_tensor_to(host, d, &t), PORTA_OK) << porta_last_error();
  ASSERT_EQ(porta_cast(t, porta_int32, &c), PORTA_OK) << porta_last_error();
  DLDevice where{};
  ASSERT_EQ(porta_tensor_device(c, &where), PORTA_OK);
  EXPECT_EQ(where.device_type, d.device_type) << "the result stays on the plugin's device";
  int32_t got[8] = {};
  ASSERT_EQ(porta_tensor_to_host(c, got, sizeof got), PORTA_OK) << porta_last_error();
  for (int i = 0; i < 8; ++i) EXPECT_EQ(got[i], want[i]) << "element " << i << " (" << in[i] << ")";
  porta_tensor_release(c);
  porta_tensor_release(t);
  porta_tensor_release(host);
}

TEST(Loader, ExplicitLoadsAreRecordedToo) {
  EXPECT_EQ(porta_load_plugin("/nonexistent/libporta_plugin_x.so"), PORTA_ERROR_BACKEND);
  EXPECT_TRUE(contains(porta_last_error(), "no such file")) << porta_last_error();
  porta_plugin_info a = attempt("libporta_plugin_x.so");
  EXPECT_EQ(a.state, PORTA_PLUGIN_FAILED);
  EXPECT_EQ(porta_load_plugin(nullptr), PORTA_ERROR_INVALID_ARGUMENT);
}
