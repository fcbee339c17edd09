// Loading one plugin file: the trust check, dlopen, validation of the
// plugin's table, initialize and device enumeration, and a record of the
// attempt with its reason. Which files are tried when: plugin_search.cpp.
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "runtime/error.hpp"
#include "runtime/log.hpp"
#include "runtime/op_descriptors.hpp"
#include "runtime/plugin_errors.hpp"
#include "runtime/plugin_guard.hpp"
#include "runtime/plugin_table.hpp"
#include "runtime/plugin_files.hpp"
#include "runtime/registry.hpp"

namespace porta {
namespace {

// More devices than any machine has: a count above it is a plugin bug, and
// honouring it would allocate per-device state until memory runs out.
constexpr int32_t kMaxDevicesPerPlugin = 4096;

}  // namespace

void Registry::load_locked(const std::string& path) {
  PluginAttempt rec;
  rec.path = path;
  rec.file_type = plugin_file_type(path);
  tried_paths_.insert(path);
  auto finish = [&](porta_plugin_state state, std::string reason) {
    rec.state = state;
    rec.reason = std::move(reason);
    attempts_.push_back(rec);
    const char* what = state == PORTA_PLUGIN_LOADED ? "loaded" : state == PORTA_PLUGIN_NO_DEVICES ? "loaded, no devices"
                       : state == PORTA_PLUGIN_REJECTED ? "rejected" : "failed";
    if (state == PORTA_PLUGIN_LOADED && !rec.file_type.empty() && rec.file_type != rec.name)
      log_line(PORTA_LOG_WARN, cat("plugin ", path, " serves '", rec.name, "', not the '", rec.file_type,
                                   "' its file name announces: it is loaded only when every plugin is; rename it "
                                   "libporta_plugin_", rec.name, ".so"));
    log_line(state == PORTA_PLUGIN_LOADED ? PORTA_LOG_DEBUG : PORTA_LOG_INFO,
             cat("plugin ", path, ": ", what, rec.reason.empty() ? "" : ": ", rec.reason));
    if (state == PORTA_PLUGIN_FAILED || state == PORTA_PLUGIN_REJECTED)
      fail(PORTA_ERROR_BACKEND, "plugin ", path, " ", what, ": ", rec.reason);
  };

  log_line(PORTA_LOG_DEBUG, cat("trying plugin ", path));
  if (auto refusal = untrusted_plugin_file(path)) return finish(PORTA_PLUGIN_FAILED, *refusal);

  PluginCallGuard guard(path);  // names the plugin on stderr if one of the calls below crashes or hangs
  void* dl = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (dl == nullptr) {
    const char* e = dlerror();
    return finish(PORTA_PLUGIN_FAILED, cat("dlopen failed: ", e ? e : "unknown error"));
  }
  auto entry = reinterpret_cast<porta_plugin_get_api_fn>(dlsym(dl, PORTA_PLUGIN_ENTRY_SYMBOL));
  if (entry == nullptr) {
    dlclose(dl);
    return finish(PORTA_PLUGIN_FAILED,
                  cat("no symbol ", PORTA_PLUGIN_ENTRY_SYMBOL, " (not a Porta plugin)"));
  }
  // From here on the library stays loaded: it may have run constructors.
  guard.entering(PORTA_PLUGIN_ENTRY_SYMBOL);
  const porta_plugin_api* table = entry();
  if (table == nullptr) return finish(PORTA_PLUGIN_FAILED, "porta_plugin_get_api returned NULL");
  auto b = std::make_unique<Backend>();
  const auto refusal = check_plugin_table(table, static_cast<int32_t>(by_type_.size()), &b->api);
  rec.abi_major = b->api.abi_major;
  rec.abi_minor = b->api.abi_minor;
  if (valid_device_type_name(b->api.name)) {
    b->name = b->api.name;
    b->version = b->api.version ? b->api.version : "";
    b->device_type = b->api.device_type;
    rec.name = b->name;
    rec.version = b->version;
    rec.device_type = b->device_type;
  }
  if (refusal) return finish(PORTA_PLUGIN_FAILED, *refusal);
  b->path = path;
  for (auto& other : backends_) {
    if (other->device_type == b->device_type)
      return finish(PORTA_PLUGIN_REJECTED, cat("DLPack device type ", b->device_type, " ('", b->name,
                                               "') is already served by ", other->path));
    if (other->name == b->name)
      return finish(PORTA_PLUGIN_REJECTED,
                    cat("device type name '", b->name, "' is already served by ", other->path));
  }

  take_plugin_error();
  guard.entering("initialize");
  porta_status s = b->api.initialize(host_api());
  if (s != PORTA_OK) {
    std::string why = take_plugin_error();
    return finish(PORTA_PLUGIN_FAILED, cat("initialize failed: ", why.empty() ? porta_status_name(s) : why));
  }
  int32_t count = 0;
  guard.entering("device_count");
  s = b->api.device_count(&count);
  if (s != PORTA_OK) {
    std::string why = take_plugin_error();
    return finish(PORTA_PLUGIN_FAILED, cat("device_count failed: ", why.empty() ? porta_status_name(s) : why));
  }
  if (count < 0 || count > kMaxDevicesPerPlugin)
    return finish(PORTA_PLUGIN_FAILED, cat("device_count returned PORTA_OK with ", count, " devices; a plugin may ",
                                           "report 0 to ", kMaxDevicesPerPlugin, " (a bug in the plugin)"));
  rec.device_count = count;
  const int32_t known_ops = ops_known_at_plugin_minor(b->api.abi_minor);
  const int known_dtypes = dtypes_known_at_plugin_minor(b->api.abi_minor);
  for (int op = 0; op < known_ops; ++op)
    for (int d = 0; d < known_dtypes; ++d)
      b->kernels[op][d] = b->api.find_kernel(static_cast<uint32_t>(op), to_dl(static_cast<Dtype>(d)));
  for (int32_t i = 0; i < count; ++i) {
    auto dev = std::make_unique<DeviceState>();
    dev->backend = b.get();
    dev->index = i;
    dev->dl = DLDevice{static_cast<DLDeviceType>(b->device_type), i};
    // A lone CPU is "cpu", as PyTorch prints it; everything else is "type:index".
    dev->name = b->device_type == kDLCPU && count == 1 ? b->name : cat(b->name, ":", i);
    dev->allocator = std::make_unique<CachingAllocator>(&b->api, i, dev->name, &b->lost_to_fork);
    b->devices.push_back(std::move(dev));
  }
  porta_plugin_state state = PORTA_PLUGIN_LOADED;
  std::string reason;
  if (count == 0) {
    state = PORTA_PLUGIN_NO_DEVICES;
    const char* r = b->api.unavailable_reason ? b->api.unavailable_reason() : nullptr;
    b->unavailable_reason = r && *r ? r : "the plugin reported no devices";
    reason = b->unavailable_reason;
  }
  by_type_[b->device_type].store(b.get(), std::memory_order_release);
  backends_.push_back(std::move(b));
  finish(state, reason);
}

}  // namespace porta
