#include "runtime/registry.hpp"

#include "runtime/error.hpp"
#include "runtime/plugin_errors.hpp"

namespace porta {

Registry& Registry::undiscovered() {
  static Registry* instance = [] {
    auto* r = new Registry();  // never destroyed: plugins outlive static teardown
    install_fork_handlers();
    return r;
  }();
  return *instance;
}

Registry& Registry::get() {
  Registry* instance = &undiscovered();
  if (!instance->discovered_.load(std::memory_order_acquire)) {
    // Other threads wait here until discovery has finished; the discovering
    // thread itself may re-enter (the mutex is recursive) and proceeds.
    std::lock_guard<std::recursive_mutex> lock(instance->mu_);
    if (!instance->discovered_.load(std::memory_order_relaxed) && !instance->discovering_) {
      instance->discovering_ = true;
      instance->discover();
      instance->discovered_.store(true, std::memory_order_release);
    }
  }
  return *instance;
}

Backend* Registry::backend_for_type_locked(int32_t type) {
  if (type < 0 || type >= static_cast<int32_t>(by_type_.size())) return nullptr;
  return by_type_[type].load(std::memory_order_acquire);
}

std::string Registry::describe_types() {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  load_all_locked();
  std::string s;
  for (auto& b : backends_) {
    if (!s.empty()) s += ", ";
    s += b->name;
    if (b->devices.empty())
      s += cat(" [0 devices", b->unavailable_reason.empty() ? "" : ": ", b->unavailable_reason, "]");
  }
  return s.empty() ? "none: no plugin loaded; see porta-smi" : s;
}

void Registry::fail_unknown_type(const std::string& type) {
  const std::string why = why_unavailable(type);
  if (!why.empty())
    fail(PORTA_ERROR_NO_SUCH_DEVICE, "device type '", type, "' is unavailable: ", why, " (available: ", describe_types(),
         ")");
  fail(PORTA_ERROR_NO_SUCH_DEVICE, "unknown device type '", type, "' (available: ", describe_types(), ")");
}

static std::string list_devices(const Backend& b) {
  std::string s;
  for (auto& d : b.devices) s += (s.empty() ? "" : ", ") + d->name;
  return s;
}

DeviceState& Registry::device(DLDevice d) {
  Backend* b = backend_for_type_locked(d.device_type);
  if (b == nullptr) {  // first use of this device type: load the plugin serving it
    std::lock_guard<std::recursive_mutex> lock(mu_);
    load_for_dl_type_locked(d.device_type);
    b = backend_for_type_locked(d.device_type);
  }
  if (b == nullptr)
    fail(PORTA_ERROR_NO_SUCH_DEVICE, "unknown device type ", int(d.device_type),
         " (no plugin serves this DLPack device type; available: ", describe_types(), ")");
  if (d.device_id < 0 || d.device_id >= static_cast<int32_t>(b->devices.size())) {
    if (b->devices.empty())
      fail(PORTA_ERROR_NO_SUCH_DEVICE, "device ", b->name, ":", d.device_id, " does not exist (0 ",
           b->name, " devices", b->unavailable_reason.empty() ? "" : ": ", b->unavailable_reason, ")");
    fail(PORTA_ERROR_NO_SUCH_DEVICE, "device ", b->name, ":", d.device_id, " does not exist (",
         b->devices.size(), " ", b->name, " device", b->devices.size() == 1 ? "" : "s", ": ",
         list_devices(*b), ")");
  }
  DeviceState& dev = *b->devices[d.device_id];
  require_usable(*b, dev.name);
  return dev;
}

std::vector<PluginAttempt> Registry::attempts() {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  load_all_locked();
  return attempts_;
}

std::vector<Backend*> Registry::backends() {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  load_all_locked();
  std::vector<Backend*> v;
  for (auto& b : backends_) v.push_back(b.get());
  return v;
}

void Registry::load(const std::string& path) {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  load_locked(path);
}

void check_plugin(porta_status st, const Backend& backend, const std::string& what) {
  if (st == PORTA_OK) return;
  std::string why = take_plugin_error();
  if (why.empty()) why = porta_status_name(st);
  throw Error(st, cat(what, ": [", backend.name, " plugin] ", why));
}

}  // namespace porta
