// The test plugin's mock backend: device type "mock" (DLPack kDLExtDev),
// devices mock:0 and mock:1. Memory is host RAM, but handles are encoded so
// that only this plugin can dereference them: a core that touched device
// memory directly would crash, which is what the tests want to prove it
// never does. Kernels are the shared host kernels, run on decoded pointers.
//
// PORTA_MOCK_MEMORY caps each device's memory in bytes (default 4 GiB), so
// tests can provoke OUT_OF_MEMORY; mock_faults.hpp injects failures into
// allocations, kernel launches and copies. PORTA_MOCK_MISSING_OPS="a,b"
// names ops (porta/ops.h's names) the plugin then has no kernel for, as a
// plugin built before them, and PORTA_MOCK_DECLINE_OPS ops whose kernels
// return PORTA_ERROR_NOT_IMPLEMENTED when called (as an optional kernel
// whose library is missing), so tests reach the core's fallbacks. An entry
// "op:dtype" ("matmul:bfloat16") names that op's kernel of one dtype only.
#include <porta/plugin.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <pthread.h>
#include <string>
#include <unordered_map>
#include <utility>

#include "blas_loader.hpp"
#include "mock_faults.hpp"
#include "host_kernels.hpp"
#include "thread_pool.hpp"
#include "plugin_support.hpp"

namespace {

constexpr int32_t kDevices = 2;
// XOR-ed into every pointer: the result is a non-canonical x86-64 address.
constexpr uintptr_t kHandleKey = 0xA5A5000000000000ull;

void* encode(void* p) { return reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(p) ^ kHandleKey); }
char* decode(const void* h) { return reinterpret_cast<char*>(reinterpret_cast<uintptr_t>(h) ^ kHandleKey); }

struct Device {
  std::mutex mu;
  // live handle -> (pointer, bytes); keeping the plain pointer also lets
  // LeakSanitizer see that the memory is still reachable.
  std::unordered_map<void*, std::pair<char*, size_t>> blocks;
  size_t in_use = 0;
};
// Never destroyed, so blocks the core still caches at exit stay reachable
// (LeakSanitizer runs after static destructors).
std::array<Device, kDevices>& g_devices = *new std::array<Device, kDevices>();
constexpr size_t kDefaultCapacity = size_t{4} << 30;
std::atomic<size_t> g_capacity{kDefaultCapacity};

bool valid_device(int32_t d) { return d >= 0 && d < kDevices; }

// A fork() must not leave the child a device lock another thread held (the
// plugin declares PORTA_PLUGIN_CAP_FORK_SAFE).
void lock_devices() {
  for (Device& d : g_devices) d.mu.lock();
}
void unlock_devices() {
  for (Device& d : g_devices) d.mu.unlock();
}

porta_status initialize(const porta_host_api* host) {
  pthread_atfork(lock_devices, unlock_devices, unlock_devices);
  porta::host::set_host_api(host);
  porta::host::load_blas(porta::host::num_threads());
  if (const char* cap = std::getenv("PORTA_MOCK_MEMORY")) g_capacity = std::strtoull(cap, nullptr, 10);
  const char* why = nullptr;
  if (!porta::mock::configure_from_env(&why)) return porta::host::report(PORTA_ERROR_INVALID_ARGUMENT, why);
  return PORTA_OK;
}

porta_status device_count(int32_t* out) {
  *out = kDevices;
  return PORTA_OK;
}

porta_status device_props(int32_t device, porta_device_props* out) {
  if (!valid_device(device)) return porta::host::report(PORTA_ERROR_INVALID_ARGUMENT, "no such mock device");
  porta_device_props p{};
  std::snprintf(p.name, sizeof(p.name), "Porta mock device %d (host RAM behind opaque handles)", device);
  Device& d = g_devices[device];
  std::lock_guard<std::mutex> lock(d.mu);
  p.memory_total = g_capacity;
  p.memory_free = g_capacity > d.in_use ? g_capacity - d.in_use : 0;
  p.compute_units = 1;
  p.kind = PORTA_DEVICE_KIND_VIRTUAL;
  porta::plugin::copy_device_props(p, out);
  return PORTA_OK;
}

porta_status alloc(int32_t device, size_t bytes, void** out) {
  if (!valid_device(device)) return porta::host::report(PORTA_ERROR_INVALID_ARGUMENT, "no such mock device");
  Device& d = g_devices[device];
  std::lock_guard<std::mutex> lock(d.mu);
  if (porta::mock::should_fail(porta::mock::Fault::Alloc))
    return porta::host::report(PORTA_ERROR_OUT_OF_MEMORY, "mock: injected allocation fault");
  const size_t capacity = g_capacity;
  if (d.in_use > capacity || bytes > capacity - d.in_use)
    return porta::host::report(PORTA_ERROR_OUT_OF_MEMORY, "mock device memory is full");
  void* p = std::malloc(bytes);
  if (p == nullptr) return porta::host::report(PORTA_ERROR_OUT_OF_MEMORY, "host allocation failed");
  void* h = encode(p);
  d.blocks.emplace(h, std::make_pair(static_cast<char*>(p), bytes));
  d.in_use += bytes;
  *out = h;
  return PORTA_OK;
}

void release(int32_t device, void* handle) {
  if (!valid_device(device)) return;
  Device& d = g_devices[device];
  std::lock_guard<std::mutex> lock(d.mu);
  auto it = d.blocks.find(handle);
  if (it == d.blocks.end()) return;
  d.in_use -= it->second.second;
  std::free(it->second.first);
  d.blocks.erase(it);
}

porta_status injected_copy_fault() {
  return porta::host::report(PORTA_ERROR_BACKEND, "mock: injected copy fault");
}

porta_status copy_to_device(int32_t, void* dst, size_t dst_offset, const void* src, size_t bytes, uint32_t) {
  if (porta::mock::should_fail(porta::mock::Fault::Copy)) return injected_copy_fault();
  std::memcpy(decode(dst) + dst_offset, src, bytes);
  return PORTA_OK;
}

porta_status copy_to_host(int32_t, void* dst, const void* src, size_t src_offset, size_t bytes, uint32_t) {
  if (porta::mock::should_fail(porta::mock::Fault::Copy)) return injected_copy_fault();
  std::memcpy(dst, decode(src) + src_offset, bytes);
  return PORTA_OK;
}

porta_status copy_on_device(int32_t, void* dst, size_t dst_offset, const void* src, size_t src_offset, size_t bytes,
                            uint32_t) {
  if (porta::mock::should_fail(porta::mock::Fault::Copy)) return injected_copy_fault();
  std::memmove(decode(dst) + dst_offset, decode(src) + src_offset, bytes);
  return PORTA_OK;
}

porta_status copy_between_devices(int32_t, void* dst, size_t dst_offset, int32_t, const void* src, size_t src_offset,
                                  size_t bytes, uint32_t) {
  if (porta::mock::should_fail(porta::mock::Fault::Copy)) return injected_copy_fault();
  std::memcpy(decode(dst) + dst_offset, decode(src) + src_offset, bytes);
  return PORTA_OK;
}

porta_status synchronize(int32_t) { return PORTA_OK; }

// ---- kernels: decode every operand's handle, then run the host kernel.

DLDataType dtype_of(int dt) {
  constexpr DLDataType kTypes[] = {{kDLBool, 8, 1},  {kDLUInt, 8, 1}, {kDLInt, 32, 1},   {kDLInt, 64, 1},
                                   {kDLFloat, 32, 1}, {kDLFloat, 64, 1}, {kDLInt, 8, 1},  {kDLInt, 16, 1},
                                   {kDLFloat, 16, 1}, {kDLBfloat, 16, 1}};
  static_assert(sizeof kTypes / sizeof kTypes[0] == porta::plugin::kDtAllCount);
  return kTypes[dt];
}

// Whether the variable's comma-separated list names op, for every dtype
// ("matmul") or for dtype index dt ("matmul:bfloat16").
bool listed(const char* variable, uint32_t op, int dt) {
  constexpr const char* kNames[] = {"bool",    "uint8", "int32", "int64",   "float32",
                                    "float64", "int8",  "int16", "float16", "bfloat16"};
  static_assert(sizeof kNames / sizeof kNames[0] == porta::plugin::kDtAllCount);
  const char* list = std::getenv(variable);
  if (list == nullptr) return false;
  const std::string names = std::string(",") + list + ",", name = std::string(",") + porta::plugin::op_name(op);
  return names.find(name + ",") != std::string::npos ||
         (dt >= 0 && dt < porta::plugin::kDtAllCount && names.find(name + ":" + kNames[dt] + ",") != std::string::npos);
}

template <uint32_t Op, int Dt>
porta_status mock_kernel(const porta_kernel_call* call) {
  static const porta_kernel_fn host_kernel = porta::host::find_host_kernel(Op, dtype_of(Dt));
  DLTensor ins[6], outs[4];  // LSTM_CELL_BACKWARD has six inputs; SORT four outputs (two are scratch)
  if (call->num_inputs > 6 || call->num_outputs < 1 || call->num_outputs > 4)
    return porta::host::report(PORTA_ERROR_INVALID_ARGUMENT, "mock: unexpected operand count");
  if (porta::mock::should_fail(porta::mock::Fault::Kernel))
    return porta::host::report(PORTA_ERROR_BACKEND, "mock: injected kernel launch fault");
  static const bool declined = listed("PORTA_MOCK_DECLINE_OPS", Op, Dt);
  if (declined) return porta::host::report(PORTA_ERROR_NOT_IMPLEMENTED, "mock: declined (PORTA_MOCK_DECLINE_OPS)");
  for (int32_t i = 0; i < call->num_inputs; ++i) ins[i] = call->inputs[i], ins[i].data = decode(ins[i].data);
  for (int32_t i = 0; i < call->num_outputs; ++i) outs[i] = call->outputs[i], outs[i].data = decode(outs[i].data);
  porta_kernel_call decoded = *call;
  decoded.inputs = ins;
  decoded.outputs = outs;
  return host_kernel(&decoded);
}

template <uint32_t Op, int... Dt>
constexpr std::array<porta_kernel_fn, sizeof...(Dt)> row(std::integer_sequence<int, Dt...>) {
  return {&mock_kernel<Op, Dt>...};
}

template <uint32_t... Op>
constexpr std::array<std::array<porta_kernel_fn, porta::plugin::kDtAllCount>, sizeof...(Op)> table(
    std::integer_sequence<uint32_t, Op...>) {
  return {row<Op>(std::make_integer_sequence<int, porta::plugin::kDtAllCount>{})...};
}

constexpr auto kKernels = table(std::make_integer_sequence<uint32_t, PORTA_OP_COUNT>{});

porta_kernel_fn find_kernel(uint32_t op, DLDataType dtype) {
  const int dt = porta::host::host_dtype(dtype);
  if (dt < 0 || op >= PORTA_OP_COUNT || porta::host::find_host_kernel(op, dtype) == nullptr ||
      listed("PORTA_MOCK_MISSING_OPS", op, dt))
    return nullptr;
  return kKernels[op][dt];
}

const porta_plugin_api kApi = {
    sizeof(porta_plugin_api),
    PORTA_PLUGIN_ABI_MAJOR,
    PORTA_PLUGIN_ABI_MINOR,
    "mock",
    kDLExtDev,
    "0.1.0",
    initialize,
    device_count,
    nullptr,
    device_props,
    alloc,
    release,
    copy_to_device,
    copy_to_host,
    copy_on_device,
    synchronize,
    find_kernel,
    copy_between_devices,
    nullptr,
    nullptr,    PORTA_PLUGIN_CAP_FORK_SAFE,  // host memory; the shared thread pool is re-created in a forked child
    nullptr,                                 // native_stream: no streams
};

}  // namespace

extern "C" PORTA_EXPORT const porta_plugin_api* porta_plugin_get_api(void) { return &kApi; }

extern "C" void porta_mock_set_memory_cap(uint64_t bytes) { g_capacity = bytes ? bytes : kDefaultCapacity; }
