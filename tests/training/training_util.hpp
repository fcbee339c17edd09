// Helpers for the training tests: the devices to run on (cpu and every
// other loaded device), over the C++ binding.
#pragma once

#include <gtest/gtest.h>
#include <porta/nn.hpp>
#include <porta/optim.hpp>

#include <string>
#include <vector>

namespace training_test {

// Every loaded device ("cpu", "mock:0", "mock:1", "opencl:0", ...).
inline std::vector<porta::Device> loaded_devices() {
  std::vector<porta::Device> out;
  int32_t n = 0;
  porta::detail::check(porta_plugin_count(&n));
  for (int32_t i = 0; i < n; ++i) {
    porta_plugin_info info{};
    info.struct_size = sizeof(info);
    porta::detail::check(porta_plugin_get_info(i, &info));
    if (info.state != PORTA_PLUGIN_LOADED) continue;
    int count = 0;
    porta::detail::check(porta_device_count(info.name, &count));
    for (int d = 0; d < count; ++d) out.emplace_back(std::string(info.name) + ":" + std::to_string(d));
  }
  return out;
}

inline std::string label(const testing::TestParamInfo<porta::Device>& info) {
  std::string s = info.param.str();
  for (char& c : s)
    if (c == ':') c = '_';
  return s;
}

}  // namespace training_test

#define PORTA_FOR_EVERY_DEVICE(Suite) \
  INSTANTIATE_TEST_SUITE_P(Devices, Suite, testing::ValuesIn(training_test::loaded_devices()), training_test::label)
