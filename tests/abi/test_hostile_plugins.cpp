// Plugins that misbehave in ways the table check cannot see: a crash or a
// hang while loading names the plugin on stderr; absurd or negative device
// counts and an alloc that returns no handle are refused with what the
// plugin did. Each case loads one file of test-plugins/hostile in a fresh
// process.
#include <gtest/gtest.h>
#include <porta/porta.h>
#include <stdlib.h>

#include <string>

#include "../support/fresh_process.hpp"

namespace {

using porta_test::in_fresh_process;

std::string plugin(const std::string& name) { return PORTA_TEST_HOSTILE_PLUGIN_DIR "/libporta_plugin_" + name + ".so"; }

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// Uses device `name`:0 with only that plugin on the search path; returns the
// error (or "parsed") and, with capture, whatever the process wrote to stderr.
std::string use_device(const std::string& name, const char* extra_env = nullptr) {
  return in_fresh_process(
      [&] {
        setenv("PORTA_PLUGIN_PATH", plugin(name).c_str(), 1);
        if (extra_env) putenv(const_cast<char*>(extra_env));
        DLDevice d{};
        if (porta_device_parse((name + ":0").c_str(), &d) == PORTA_OK) return std::string("parsed\n");
        return std::string(porta_last_error()) + "\n";
      },
      /*capture_stderr=*/true);
}

TEST(HostilePlugins, ACrashInInitializeNamesThePluginBeforeTheProcessDies) {
  const std::string out = use_device("crash_init");
  EXPECT_TRUE(contains(out, "the child died (signal 11)")) << out;
  EXPECT_TRUE(contains(out, "porta: fatal signal in initialize of plugin " + plugin("crash_init"))) << out;
  EXPECT_TRUE(contains(out, "exclude it with PORTA_DEVICES")) << out;
}

TEST(HostilePlugins, ACrashInGetApiNamesThePluginToo) {
  const std::string out = use_device("crash_get_api");
  EXPECT_TRUE(contains(out, "the child died (signal 6)")) << out;
  EXPECT_TRUE(contains(out, "porta: fatal signal in porta_plugin_get_api of plugin " + plugin("crash_get_api")))
      << out;
}

TEST(HostilePlugins, ASlowInitializeIsReportedWhileItRuns) {
  const std::string out = use_device("slow_init", "PORTA_PLUGIN_LOAD_WARN_SECONDS=1");
  EXPECT_TRUE(contains(out, "plugin " + plugin("slow_init") + " has been in initialize for 1 s; if it hangs"))
      << out;
  EXPECT_TRUE(contains(out, "parsed")) << "a slow plugin still loads: " << out;
}

TEST(HostilePlugins, AbsurdAndNegativeDeviceCountsAreRefused) {
  const std::string huge = use_device("huge_count");
  EXPECT_TRUE(contains(huge, "device type 'huge_count' is unavailable")) << huge;
  EXPECT_TRUE(contains(huge, "device_count returned PORTA_OK with 2147483647 devices; a plugin may report 0 to 4096"))
      << huge;
  const std::string negative = use_device("negative_count");
  EXPECT_TRUE(contains(negative, "device_count returned PORTA_OK with -1 devices")) << negative;
}

TEST(HostilePlugins, AnAllocWithoutAHandleIsNamedAsSuch) {
  EXPECT_EQ(in_fresh_process([] {
              setenv("PORTA_PLUGIN_PATH", plugin("null_alloc").c_str(), 1);
              DLDevice d{};
              CHILD_REQUIRE(porta_device_parse("null_alloc:0", &d) == PORTA_OK, porta_last_error());
              const int64_t shape[1] = {8};
              porta_tensor* t = nullptr;
              CHILD_REQUIRE(porta_full(shape, 1, 1.0, porta_float32, d, &t) == PORTA_ERROR_BACKEND, "full succeeded");
              const std::string e = porta_last_error();
              CHILD_REQUIRE(contains(e, "the plugin's alloc returned PORTA_OK but no handle") && !contains(e, "out of memory"),
                      "message: " + e);
              return std::string();
            }),
            "");
}

}  // namespace
