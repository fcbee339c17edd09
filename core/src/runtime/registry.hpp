// The device registry: the plugin files found (cheaply, without opening
// them), the backends loaded from them on first use of their device type
// (one per DLPack device type), their devices, and the record of every
// plugin load attempt.
#pragma once

#include <porta/porta.h>
#include <porta/plugin.h>

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "runtime/caching_allocator.hpp"
#include "runtime/dtype.hpp"

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
  // Set in a child forked after this backend initialized when the plugin does
  // not declare PORTA_PLUGIN_CAP_FORK_SAFE: every use then fails, saying why.
  std::atomic<bool> lost_to_fork{false};
};

// Registers the pthread_atfork handlers of fork_safety.cpp (once, with the registry).
void install_fork_handlers();
// Throws PORTA_ERROR_BACKEND: `device`'s backend did not survive the fork() that made this process.
[[noreturn]] void fail_lost_to_fork(const std::string& device);
// Before any call into `b` for `device`.
inline void require_usable(const Backend& b, const std::string& device) {
  if (b.lost_to_fork.load(std::memory_order_relaxed)) fail_lost_to_fork(device);
}

struct PluginAttempt {
  std::string path, name, version, reason;
  std::string file_type;  // the device type its file name announces ("" when it does not)
  porta_plugin_state state = PORTA_PLUGIN_FAILED;
  int32_t device_type = 0, device_count = 0;
  uint32_t abi_major = 0, abi_minor = 0;
};

// A plugin file found by the search, not necessarily opened yet.
struct PluginCandidate {
  std::string path;
  std::string file_type;  // libporta_plugin_<file_type>.so, or "" for a file named otherwise
  bool from_default_dir = false;
};

class Registry {
 public:
  // The process-wide registry; lists the plugin files on first call (no dlopen).
  static Registry& get();
  // The registry without triggering the search (for explicit loads, which
  // then come before the searched plugins).
  static Registry& undiscovered();

  // Loads one plugin file now (recorded whatever the outcome). Throws on failure.
  void load(const std::string& path);
  // Adds a directory or file to the search, after PORTA_PLUGIN_PATH and
  // before the install's plugin directory; nothing is loaded yet.
  void add_search_path(const std::string& path);
  // The device for `d` (loading its plugin on first use), or NO_SUCH_DEVICE
  // with a message listing what exists.
  DeviceState& device(DLDevice d);
  // The device named by "type[:index]".
  DeviceState& parse(const char* text);
  // The backend serving the device type named `type` (loading it on first
  // use), or nullptr.
  Backend* backend_named(const std::string& type);
  // Introspection loads every plugin the search found (and PORTA_DEVICES allows).
  std::vector<PluginAttempt> attempts();
  std::vector<Backend*> backends();
  // "cpu, mock, cuda [0 devices: no driver]"
  std::string describe_types();
  // Why no plugin serves `type`: a failed load's reason or a PORTA_DEVICES
  // exclusion, as a clause for an error message; "" when nothing is known.
  std::string why_unavailable(const std::string& type);
  // Throws NO_SUCH_DEVICE for a device type no plugin serves, with the reason
  // when one is known and what is available.
  [[noreturn]] void fail_unknown_type(const std::string& type);

  // fork() with other threads inside Porta (fork_safety.cpp): the forking
  // thread takes the registry's and every allocator's lock before, both
  // processes release them after, and the child marks the backends that do
  // not survive fork.
  void lock_for_fork();
  void unlock_after_fork(bool in_child);

 private:
  Registry() = default;
  // Lists the candidates of PORTA_PLUGIN_PATH, added paths and the default directory.
  void discover();
  void add_entry_locked(const std::string& entry, std::vector<PluginCandidate>& out) const;
  // Loads the candidates `wanted` selects that were not tried yet, in search order.
  template <typename Wanted>
  void load_candidates_locked(Wanted wanted);
  void load_all_locked();
  void load_for_dl_type_locked(int32_t type);
  bool allowed(const std::string& file_type) const;
  Backend* find_named_locked(const std::string& type);
  void load_locked(const std::string& path);
  Backend* backend_for_type_locked(int32_t type);

  std::recursive_mutex mu_;
  std::atomic<bool> discovered_{false};
  bool discovering_ = false;  // guarded by mu_
  // Lock-free lookup by DLDeviceType for the per-op hot path; entries are
  // written once under mu_ and backends are never unloaded.
  std::array<std::atomic<Backend*>, 64> by_type_{};
  std::vector<PluginCandidate> candidates_;
  std::vector<std::string> added_paths_;
  std::set<std::string> tried_paths_;
  // PORTA_DEVICES: the device types that may load (nullopt: all).
  std::optional<std::set<std::string>> allowed_types_;
  std::string allowed_spec_;
  std::vector<PluginAttempt> attempts_;
  std::vector<std::unique_ptr<Backend>> backends_;
};

// "cuda" for ".../libporta_plugin_cuda.so"; "" when the file name does not
// follow that pattern (with a valid device type name).
std::string plugin_file_type(const std::string& path);

// Throws the plugin's error as a porta::Error when `st` is not OK.
void check_plugin(porta_status st, const Backend& backend, const std::string& what);

}  // namespace porta
