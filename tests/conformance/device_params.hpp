// Every test of the suite runs once per device under test: every loaded
// device (cpu:0, mock:0, mock:1 here, and opencl:0 / cuda:0 wherever those
// plugins load), or those a tool selected (porta-conformance --device).
#pragma once

#include <gtest/gtest.h>
#include <porta/porta.h>

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "op_case.hpp"

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

// The loaded devices the parameterized suites run on: all of them, or those
// of select_devices_under_test. Cross-device tests still pair them with every
// loaded device.
const std::vector<DeviceCase>& devices_under_test();

// Restricts devices_under_test() to `devices` (each a loaded device). Call it
// before testing::InitGoogleTest, which instantiates the suites.
void select_devices_under_test(std::vector<DLDevice> devices);

// GoogleTest parameter name: the label.
std::string device_case_name(const testing::TestParamInfo<DeviceCase>& info);

void PrintTo(const DeviceCase& c, std::ostream* os);

class DeviceTest : public testing::TestWithParam<DeviceCase> {
 protected:
  DLDevice dev() const { return GetParam().device; }
  // Every other loaded device (for cross-device tests).
  std::vector<DeviceCase> other_devices() const;
  // Runs `body` as the case (op, dtype) on this device (op_case.hpp).
  template <typename Body>
  void op_case(const std::string& op, DLDataType dtype, Body&& body) const {
    run_op_case(GetParam().name, op, dtype, std::forward<Body>(body));
  }
};

}  // namespace conformance

#define PORTA_INSTANTIATE_FOR_EVERY_DEVICE(Suite)                                                  \
  INSTANTIATE_TEST_SUITE_P(Devices, Suite, testing::ValuesIn(::conformance::devices_under_test()), \
                           ::conformance::device_case_name)
