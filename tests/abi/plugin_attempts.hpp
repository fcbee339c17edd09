// Every plugin load attempt the core recorded, read through porta.h.
#pragma once

#include <gtest/gtest.h>
#include <porta/porta.h>

#include <vector>

inline std::vector<porta_plugin_info> plugin_attempts() {
  std::vector<porta_plugin_info> all;
  int32_t n = 0;
  EXPECT_EQ(porta_plugin_count(&n), PORTA_OK);
  for (int32_t i = 0; i < n; ++i) {
    porta_plugin_info info{};
    info.struct_size = sizeof(info);
    EXPECT_EQ(porta_plugin_get_info(i, &info), PORTA_OK) << porta_last_error();
    all.push_back(info);
  }
  return all;
}
