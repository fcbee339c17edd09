// PORTA_LOG takes any case and error/off; porta_set_log_level and a log
// callback (C ABI) see every line that passes the threshold. Fresh processes.
#include <gtest/gtest.h>
#include <porta/porta.h>
#include <stdlib.h>

#include <string>

#include "../support/fresh_process.hpp"

namespace {

using porta_test::in_fresh_process;

std::string level_with_env(const char* value) {
  return in_fresh_process([value] {
    setenv("PORTA_LOG", value, 1);
    int32_t level = -1;
    CHILD_REQUIRE(porta_get_log_level(&level) == PORTA_OK, porta_last_error());
    return std::to_string(level);
  });
}

TEST(Logging, PortaLogTakesAnyCaseAndErrorAndOff) {
  EXPECT_EQ(level_with_env("DEBUG"), std::to_string(PORTA_LOG_DEBUG));
  EXPECT_EQ(level_with_env("Info"), std::to_string(PORTA_LOG_INFO));
  EXPECT_EQ(level_with_env("warn"), std::to_string(PORTA_LOG_WARN));
  EXPECT_EQ(level_with_env("Error"), std::to_string(PORTA_LOG_ERROR));
  EXPECT_EQ(level_with_env("OFF"), std::to_string(PORTA_LOG_OFF));
  EXPECT_EQ(level_with_env("loud"), std::to_string(PORTA_LOG_WARN));  // warned about, then the default
}

// A warning the core writes: a second release of a tensor handle.
void provoke_warning() {
  const int64_t shape[1] = {1};
  porta_tensor* t = nullptr;
  porta_full(shape, 1, 0.0, porta_float32, DLDevice{kDLCPU, 0}, &t);
  porta_tensor_release(t);
  porta_tensor_release(t);
}

TEST(Logging, TheCallbackReceivesWhatPassesTheThreshold) {
  EXPECT_EQ(in_fresh_process([] {
              setenv("PORTA_PLUGIN_PATH", PORTA_TEST_MOCK_PLUGIN_DIR, 1);
              static std::string lines;
              static int calls = 0;
              auto sink = [](int32_t level, const char* m, void* user) {
                lines += std::to_string(level) + ":" + m + "\n";
                calls += *static_cast<int*>(user);
              };
              static int one = 1;
              CHILD_REQUIRE(porta_set_log_callback(sink, &one) == PORTA_OK, porta_last_error());
              provoke_warning();
              CHILD_REQUIRE(calls == 1 && lines.find("2:") == 0 && lines.find("dead handle") != std::string::npos,
                      "after one warning the callback saw: " + lines);
              CHILD_REQUIRE(porta_set_log_level(PORTA_LOG_ERROR) == PORTA_OK, porta_last_error());
              provoke_warning();
              CHILD_REQUIRE(calls == 1, "a warning passed the error threshold: " + lines);
              CHILD_REQUIRE(porta_set_log_level(PORTA_LOG_DEBUG) == PORTA_OK, porta_last_error());
              DLDevice d{};
              porta_device_parse("mock:0", &d);  // loading a plugin logs at debug
              CHILD_REQUIRE(lines.find("0:trying plugin ") != std::string::npos, "no debug line: " + lines);
              CHILD_REQUIRE(porta_set_log_level(5) == PORTA_ERROR_INVALID_ARGUMENT, "level 5 accepted");
              CHILD_REQUIRE(porta_set_log_level(-1) == PORTA_ERROR_INVALID_ARGUMENT, "level -1 accepted");
              CHILD_REQUIRE(porta_set_log_callback(nullptr, nullptr) == PORTA_OK, porta_last_error());
              const int before = calls;
              provoke_warning();
              CHILD_REQUIRE(calls == before, "the callback was called after it was removed");
              return std::string();
            }),
            "");
}

}  // namespace
