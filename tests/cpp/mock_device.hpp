// Tests that need the mock plugin's devices (mock:0, mock:1) derive from
// MockDeviceTest, which skips them when PORTA_PLUGIN_PATH does not reach it.
#pragma once

#include <gtest/gtest.h>
#include <porta/porta.hpp>

// Porta's dtype comparison lives in its namespace; EXPECT_EQ on dtypes finds it here.
using porta::operator==;

class MockDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    int count = 0;
    if (porta_device_count("mock", &count) != PORTA_OK || count < 2)
      GTEST_SKIP() << "the mock plugin is not loaded: set PORTA_PLUGIN_PATH to its directory (ctest does)";
  }
};
