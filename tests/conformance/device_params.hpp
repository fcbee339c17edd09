// Every test of the suite runs once per loaded device: cpu:0, mock:0,
// mock:1 here, and opencl:0 / cuda:0 wherever those plugins load.
#pragma once

#include <gtest/gtest.h>
#include <porta/porta.h>

#include <ostream>
#include <string>
#include <vector>

namespace conformance {

struct DeviceCase {
  DLDevice device;
  std::string name;   // as porta_device_to_string writes it: "mock:1", "cpu" (a lone CPU)
  std::string label;  // for test names, always type_index: "mock_1", "cpu_0"
};

// Devices of every plugin attempt in state PORTA_PLUGIN_LOADED, by plugin
// then index (computed once; empty if enumeration fails, which makes every
// parameterized suite report that it generated no tests).
const std::vector<DeviceCase>& loaded_devices();

// GoogleTest parameter name: the label.
std::string device_case_name(const testing::TestParamInfo<DeviceCase>& info);

void PrintTo(const DeviceCase& c, std::ostream* os);

class DeviceTest : public testing::TestWithParam<DeviceCase> {
 protected:
  DLDevice dev() const { return GetParam().device; }
  // Every other loaded device (for cross-device tests).
  std::vector<DeviceCase> other_devices() const;
};

}  // namespace conformance

#define PORTA_INSTANTIATE_FOR_EVERY_DEVICE(Suite)                                              \
  INSTANTIATE_TEST_SUITE_P(Devices, Suite, testing::ValuesIn(::conformance::loaded_devices()), \
                           ::conformance::device_case_name)
