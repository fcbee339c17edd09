// The device registry: loaded backends (one per DLPack device type), their
// devices, and the record of every plugin load attempt.
#pragma once

#include <porta/porta.h>
#include <porta/plugin.h>

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "caching_allocator.hpp"
#include "dtype.hpp"

namespace porta {

struct Backend;

// One device of a backend.
struct DeviceState {
  Backend* backend = nullptr;
  int32_t index = 0;
  DLDevice dl{};
  std::string name;  // "cuda:1"
  std::unique_ptr<CachingAllocator> allocator;
  std::atomic<uint64_t> bytes_in{0}, bytes_out{0};
};

// A loaded plugin.
struct Backend {
  porta_plugin_api api{};  // copied; fields beyond the plugin's struct_size are NULL
  std::string path, name, version, unavailable_reason;
  int32_t device_type = 0;
  std::vector<std::unique_ptr<DeviceState>> devices;
  // The dispatch table: filled once at load, read without locks.
  std::array<std::array<porta_kernel_fn, kDtypeCount>, PORTA_OP_COUNT> kernels{};
};

struct PluginAttempt {
  std::string path, name, version, reason;
  porta_plugin_state state = PORTA_PLUGIN_FAILED;
  int32_t device_type = 0, device_count = 0;
  uint32_t abi_major = 0, abi_minor = 0;
};

class Registry {
 public:
  // The process-wide registry; discovers plugins on first call.
  static Registry& get();
  // The registry without triggering discovery (for explicit loads, which
  // then come before the discovered plugins in the search order).
  static Registry& undiscovered();

  // Loads one plugin file now (recorded whatever the outcome). Throws on failure.
  void load(const std::string& path);
  // The device for `d`, or NO_SUCH_DEVICE with a message listing what exists.
  DeviceState& device(DLDevice d);
  // The device named by "type[:index]".
  DeviceState& parse(const char* text);
  // The backend serving the device type named `type`, or nullptr.
  Backend* backend_named(const std::string& type);
  std::vector<PluginAttempt> attempts();
  std::vector<Backend*> backends();
  // "cpu, mock, cuda [0 devices: no driver]"
  std::string describe_types();

 private:
  Registry() = default;
  void discover();
  void load_locked(const std::string& path);
  Backend* backend_for_type_locked(int32_t type);

  std::recursive_mutex mu_;
  std::atomic<bool> discovered_{false};
  bool discovering_ = false;  // guarded by mu_
  // Lock-free lookup by DLDeviceType for the per-op hot path; entries are
  // written once under mu_ and backends are never unloaded.
  std::array<std::atomic<Backend*>, 64> by_type_{};
  std::vector<PluginAttempt> attempts_;
  std::vector<std::unique_ptr<Backend>> backends_;
};

// Throws the plugin's error as a porta::Error when `st` is not OK.
void check_plugin(porta_status st, const Backend& backend, const std::string& what);

}  // namespace porta
