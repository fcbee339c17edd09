#include "device_params.hpp"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <optional>

namespace conformance {
namespace {

std::vector<DeviceCase> enumerate() {
  std::vector<DeviceCase> out;
  int32_t attempts = 0;
  if (porta_plugin_count(&attempts) != PORTA_OK) return out;
  for (int32_t i = 0; i < attempts; ++i) {
    porta_plugin_info info{};
    info.struct_size = sizeof(info);
    if (porta_plugin_get_info(i, &info) != PORTA_OK || info.state != PORTA_PLUGIN_LOADED) continue;
    int count = 0;
    if (porta_device_count(info.name, &count) != PORTA_OK) continue;
    for (int d = 0; d < count; ++d) {
      const std::string spec = std::string(info.name) + ":" + std::to_string(d);
      DLDevice dev{};
      char name[32];
      if (porta_device_parse(spec.c_str(), &dev) != PORTA_OK ||
          porta_device_to_string(dev, name, sizeof(name)) != PORTA_OK)
        continue;
      out.push_back({dev, name, std::string(info.name) + "_" + std::to_string(d)});
    }
  }
  return out;
}

std::optional<std::vector<DLDevice>>& selection() {
  static std::optional<std::vector<DLDevice>> devices;
  return devices;
}

bool selected(const DeviceCase& c) {
  if (!selection()) return true;
  return std::any_of(selection()->begin(), selection()->end(), [&](DLDevice d) {
    return d.device_type == c.device.device_type && d.device_id == c.device.device_id;
  });
}

}  // namespace

const std::vector<DeviceCase>& loaded_devices() {
  static const std::vector<DeviceCase> devices = enumerate();
  return devices;
}

const std::vector<DeviceCase>& devices_under_test() {
  static const std::vector<DeviceCase> devices = [] {
    std::vector<DeviceCase> out;
    std::copy_if(loaded_devices().begin(), loaded_devices().end(), std::back_inserter(out), selected);
    return out;
  }();
  return devices;
}

void select_devices_under_test(std::vector<DLDevice> devices) { selection() = std::move(devices); }

std::string device_case_name(const testing::TestParamInfo<DeviceCase>& info) {
  std::string s = info.param.label;
  for (char& c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) c = '_';
  return s;
}

void PrintTo(const DeviceCase& c, std::ostream* os) { *os << c.name; }

std::vector<DeviceCase> DeviceTest::other_devices() const {
  std::vector<DeviceCase> out;
  for (const DeviceCase& c : loaded_devices())
    if (c.name != GetParam().name) out.push_back(c);
  return out;
}

}  // namespace conformance
