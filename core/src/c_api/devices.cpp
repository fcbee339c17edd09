// C API: versions, values for FFIs, plugins, logging, threads, devices,
// memory statistics.
#include <vector>

#include "c_api/c_api.hpp"
#include "ops/ops.hpp"
#include "runtime/dtype.hpp"
#include "runtime/log.hpp"
#include "runtime/op_descriptors.hpp"
#include "runtime/threads.hpp"

namespace porta {
namespace {

// Versions are baked in by CMake from the project() version.
#ifndef PORTA_VERSION_MAJOR
#define PORTA_VERSION_MAJOR 0
#define PORTA_VERSION_MINOR 0
#define PORTA_VERSION_PATCH 0
#endif

std::vector<DeviceState*> accelerators() {
  std::vector<Backend*> backends = Registry::get().backends();
  std::sort(backends.begin(), backends.end(), [](Backend* a, Backend* b) {
    const bool ca = a->device_type == kDLCUDA, cb = b->device_type == kDLCUDA;
    return ca != cb ? ca : a->device_type < b->device_type;
  });
  std::vector<DeviceState*> out;
  for (Backend* b : backends)
    for (auto& d : b->devices) {
      porta_device_props props{};
      props.struct_size = sizeof(props);
      if (b->api.device_props(d->index, &props) != PORTA_OK) continue;
      if (props.kind == PORTA_DEVICE_KIND_GPU || props.kind == PORTA_DEVICE_KIND_ACCELERATOR) out.push_back(d.get());
    }
  return out;
}

}  // namespace
}  // namespace porta

using namespace porta;

PORTA_API porta_status porta_version(int32_t* major, int32_t* minor, int32_t* patch, int32_t* abi_major,
                                     int32_t* abi_minor) {
  if (major) *major = PORTA_VERSION_MAJOR;
  if (minor) *minor = PORTA_VERSION_MINOR;
  if (patch) *patch = PORTA_VERSION_PATCH;
  if (abi_major) *abi_major = PORTA_ABI_MAJOR;
  if (abi_minor) *abi_minor = PORTA_ABI_MINOR;
  return PORTA_OK;
}

// The header's constants as data symbols (literals, so they are constant-
// initialized: readable before any constructor has run).
PORTA_API const DLDataType porta_dtype_float32 = {kDLFloat, 32, 1};
PORTA_API const DLDataType porta_dtype_float64 = {kDLFloat, 64, 1};
PORTA_API const DLDataType porta_dtype_int32 = {kDLInt, 32, 1};
PORTA_API const DLDataType porta_dtype_int64 = {kDLInt, 64, 1};
PORTA_API const DLDataType porta_dtype_uint8 = {kDLUInt, 8, 1};
PORTA_API const DLDataType porta_dtype_bool = {kDLBool, 8, 1};
PORTA_API const DLDataType porta_dtype_int8 = {kDLInt, 8, 1};
PORTA_API const DLDataType porta_dtype_int16 = {kDLInt, 16, 1};
PORTA_API const DLDataType porta_dtype_float16 = {kDLFloat, 16, 1};
PORTA_API const DLDataType porta_dtype_bfloat16 = {kDLBfloat, 16, 1};
PORTA_API const int32_t porta_max_dims = PORTA_MAX_DIMS;
PORTA_API const int32_t porta_all_dims = PORTA_ALL_DIMS;

PORTA_API porta_status porta_dtype_by_name(const char* name, DLDataType* out) {
  return guard([&] {
    require(name, "name");
    require(out, "out");
    std::string known;
    for (int i = 0; i < kDtypeCount; ++i) {
      const DLDataType dtype = to_dl(static_cast<Dtype>(i));
      const std::string candidate = dtype_name(dtype);
      if (candidate == name) {
        *out = dtype;
        return;
      }
      known += (i ? ", " : "") + candidate;
    }
    fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_dtype_by_name: unknown dtype name '", name, "' (Porta's dtypes: ", known,
         ")");
  });
}

PORTA_API porta_status porta_promote_types(DLDataType a, DLDataType b, DLDataType* out) {
  return guard([&] {
    require(out, "out");
    *out = to_dl(promote(checked_dtype(a), checked_dtype(b)));
  });
}

PORTA_API porta_status porta_result_type(porta_tensor* const* operands, int32_t n, DLDataType* out) {
  return guard([&] {
    require(out, "out");
    if (n < 1 || !operands) fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_result_type: give at least one operand");
    std::vector<const porta_tensor*> all;
    for (int32_t i = 0; i < n; ++i) all.push_back(&check_handle(operands[i], "operands[i]"));
    *out = to_dl(ops::result_type(all));
  });
}

PORTA_API porta_status porta_op_count(int32_t* out) {
  return guard([&] {
    require(out, "out");
    *out = PORTA_OP_COUNT;
  });
}

PORTA_API porta_status porta_op_get_info(int32_t id, porta_op_info* out) {
  return guard([&] {
    require(out, "out");
    const OpDescriptor* d = find_op(id);
    if (!d)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_op_get_info: op id ", id, " is not one of this library's 0 .. ",
           PORTA_OP_COUNT - 1, " (porta_op_count)");
    if (out->struct_size < sizeof(porta_op_info))
      fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_op_get_info: out->struct_size is ", out->struct_size,
           "; set it to sizeof(porta_op_info) (", sizeof(porta_op_info), ")");
    out->name = d->name;
    out->id = id;
    out->kind = d->kind;
    out->inputs = d->inputs;
    out->dtypes = d->dtypes;
    out->result = d->result;
    out->differentiable = d->differentiable ? 1 : 0;
    out->doc = d->doc;
    out->kind_name = kind_name(d->kind);
  });
}

PORTA_API porta_status porta_load_plugin(const char* path) {
  return guard([&] {
    require(path, "path");
    if (*path == '\0') fail(PORTA_ERROR_INVALID_ARGUMENT, "path must not be empty");
    Registry::undiscovered().load(path);
  });
}

PORTA_API porta_status porta_add_plugin_path(const char* path) {
  return guard([&] {
    require(path, "path");
    if (path[0] != '/')
      fail(PORTA_ERROR_INVALID_ARGUMENT, "plugin path '", path, "' must be absolute (the current directory is never searched)");
    Registry::undiscovered().add_search_path(path);
  });
}

PORTA_API porta_status porta_set_log_callback(porta_log_callback callback, void* user_data) {
  return guard([&] { set_log_callback(callback, user_data); });
}

PORTA_API porta_status porta_set_log_level(int32_t level) {
  return guard([&] { set_log_threshold(level); });
}

PORTA_API porta_status porta_get_log_level(int32_t* out) {
  return guard([&] {
    require(out, "out");
    *out = log_threshold();
  });
}

PORTA_API porta_status porta_set_num_threads(int32_t n) {
  return guard([&] { set_num_threads(n); });
}

PORTA_API porta_status porta_get_num_threads(int32_t* out) {
  return guard([&] {
    require(out, "out");
    *out = num_threads();
  });
}

PORTA_API porta_status porta_plugin_count(int32_t* out) {
  return guard([&] {
    require(out, "out");
    *out = static_cast<int32_t>(Registry::get().attempts().size());
  });
}

PORTA_API porta_status porta_plugin_get_info(int32_t index, porta_plugin_info* out) {
  return guard([&] {
    require(out, "out");
    // Attempts are append-only and never freed, so their strings stay valid.
    static std::mutex mu;
    static std::vector<std::unique_ptr<PluginAttempt>> pinned;
    std::vector<PluginAttempt> all = Registry::get().attempts();
    if (index < 0 || index >= static_cast<int32_t>(all.size()))
      fail(PORTA_ERROR_INVALID_ARGUMENT, "plugin index ", index, " is out of range (", all.size(), " attempts recorded)");
    std::lock_guard<std::mutex> lock(mu);
    while (pinned.size() < all.size()) pinned.push_back(std::make_unique<PluginAttempt>(all[pinned.size()]));
    const PluginAttempt& a = *pinned[index];
    porta_plugin_info info{};
    info.struct_size = sizeof(info);
    info.path = a.path.c_str();
    info.name = a.name.c_str();
    info.version = a.version.c_str();
    info.reason = a.reason.c_str();
    info.state = a.state;
    info.device_type = a.device_type;
    info.device_count = a.device_count;
    info.abi_major = a.abi_major;
    info.abi_minor = a.abi_minor;
    copy_out(out, info, "porta_plugin_info");
  });
}

PORTA_API porta_status porta_device_parse(const char* str, DLDevice* out) {
  return guard([&] {
    require(out, "out");
    *out = Registry::get().parse(str).dl;
  });
}

PORTA_API porta_status porta_device_count(const char* type, int* out) {
  return guard([&] {
    require(type, "type");
    require(out, "out");
    Backend* b = Registry::get().backend_named(type);
    if (b == nullptr) Registry::get().fail_unknown_type(type);
    *out = static_cast<int>(b->devices.size());
  });
}

PORTA_API porta_status porta_device_to_string(DLDevice device, char* buf, size_t buf_size) {
  return guard([&] {
    require(buf, "buf");
    const std::string& name = device_of(device).name;
    if (buf_size < name.size() + 1)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "buf_size ", buf_size, " is too small for '", name, "' (need ", name.size() + 1, ")");
    std::memcpy(buf, name.c_str(), name.size() + 1);
  });
}

PORTA_API porta_status porta_device_get_info(DLDevice device, porta_device_info* out) {
  return guard([&] {
    require(out, "out");
    DeviceState& d = device_of(device);
    porta_device_props props{};
    props.struct_size = sizeof(props);
    check_plugin(d.backend->api.device_props(d.index, &props), *d.backend, cat("device_props of ", d.name));
    porta_device_info info{};
    info.struct_size = sizeof(info);
    std::memcpy(info.name, props.name, sizeof(info.name));
    info.name[sizeof(info.name) - 1] = '\0';
    info.memory_total = props.memory_total;
    info.memory_free = props.memory_free;
    info.compute_units = props.compute_units;
    info.kind = props.kind;
    info.capability_major = props.capability_major;
    info.capability_minor = props.capability_minor;
    copy_out(out, info, "porta_device_info");
  });
}

PORTA_API porta_status porta_accelerator_count(int32_t* out) {
  return guard([&] {
    require(out, "out");
    *out = static_cast<int32_t>(accelerators().size());
  });
}

PORTA_API porta_status porta_accelerator_get(int32_t index, DLDevice* out) {
  return guard([&] {
    require(out, "out");
    auto acc = accelerators();
    if (index < 0 || index >= static_cast<int32_t>(acc.size()))
      fail(PORTA_ERROR_NO_SUCH_DEVICE, "accelerator ", index, " does not exist (", acc.size(), " accelerators)");
    *out = acc[index]->dl;
  });
}

PORTA_API porta_status porta_synchronize(DLDevice device) {
  return guard([&] {
    DeviceState& d = device_of(device);
    check_plugin(d.backend->api.synchronize(d.index), *d.backend, cat("synchronize ", d.name));
  });
}

PORTA_API porta_status porta_device_memory_stats(DLDevice device, porta_memory_stats* out) {
  return guard([&] {
    require(out, "out");
    DeviceState& d = device_of(device);
    porta_memory_stats s{};
    s.struct_size = sizeof(s);
    d.allocator->fill_stats(&s);
    s.bytes_to_device = d.bytes_in.load(std::memory_order_relaxed);
    s.bytes_from_device = d.bytes_out.load(std::memory_order_relaxed);
    copy_out(out, s, "porta_memory_stats");
  });
}

PORTA_API porta_status porta_device_empty_cache(DLDevice device) {
  return guard([&] { device_of(device).allocator->empty_cache(); });
}
