// The cpu plugin: host memory, memcpy transfers, and the shared host
// kernels (multi-threaded; GEMM through OpenBLAS).
#include <porta/plugin.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "blas_loader.hpp"
#include "host_kernels.hpp"
#include "plugin_support.hpp"
#include "thread_pool.hpp"


namespace {

constexpr size_t kAlignment = 64;

std::string cpu_model_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  return "host CPU";
}

porta_status initialize(const porta_host_api* host) {
  porta::host::set_host_api(host);
  porta::host::load_blas(porta::host::num_threads());
  return PORTA_OK;
}

porta_status device_count(int32_t* out) {
  *out = 1;
  return PORTA_OK;
}

porta_status device_props(int32_t device, porta_device_props* out) {
  porta_device_props p{};
  std::snprintf(p.name, sizeof(p.name), "%s", cpu_model_name().c_str());
  const long pages = sysconf(_SC_PHYS_PAGES), avail = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  p.memory_total = pages > 0 ? static_cast<uint64_t>(pages) * page : 0;
  p.memory_free = avail > 0 ? static_cast<uint64_t>(avail) * page : 0;
  p.compute_units = porta::host::num_threads();
  p.kind = PORTA_DEVICE_KIND_CPU;
  porta::plugin::copy_device_props(p, out);
  return PORTA_OK;
}

porta_status alloc(int32_t, size_t bytes, void** out) {
  const size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  void* p = std::aligned_alloc(kAlignment, rounded);
  if (p == nullptr) return porta::host::report(PORTA_ERROR_OUT_OF_MEMORY, "host allocation failed");
  *out = p;
  return PORTA_OK;
}

void release(int32_t, void* handle) { std::free(handle); }

porta_status copy_to_device(int32_t, void* dst, size_t dst_offset, const void* src, size_t bytes, uint32_t) {
  std::memcpy(static_cast<char*>(dst) + dst_offset, src, bytes);
  return PORTA_OK;
}

porta_status copy_to_host(int32_t, void* dst, const void* src, size_t src_offset, size_t bytes, uint32_t) {
  std::memcpy(dst, static_cast<const char*>(src) + src_offset, bytes);
  return PORTA_OK;
}

porta_status copy_on_device(int32_t, void* dst, size_t dst_offset, const void* src, size_t src_offset, size_t bytes,
                            uint32_t) {
  std::memmove(static_cast<char*>(dst) + dst_offset, static_cast<const char*>(src) + src_offset, bytes);
  return PORTA_OK;
}

porta_status synchronize(int32_t) { return PORTA_OK; }

const porta_plugin_api kApi = {
    sizeof(porta_plugin_api),
    PORTA_PLUGIN_ABI_MAJOR,
    PORTA_PLUGIN_ABI_MINOR,
    "cpu",
    kDLCPU,
    "0.1.0",
    initialize,
    device_count,
    nullptr,  // unavailable_reason: there is always one CPU
    device_props,
    alloc,
    release,
    copy_to_device,
    copy_to_host,
    copy_on_device,
    synchronize,
    porta::host::find_host_kernel,
    nullptr,  // copy_between_devices: one device only
    nullptr,  // alloc_pinned_host: host memory is already host memory
    nullptr,
    // Host memory; the shared thread pool is re-created in a forked child. The
    // index kernels (plugins/common/index_kernels.cpp) report an index out of range.
    PORTA_PLUGIN_CAP_FORK_SAFE | PORTA_PLUGIN_CAP_CHECKS_INDEX_RANGE,
    nullptr,  // native_stream: kernels run before they return
};

}  // namespace

extern "C" PORTA_EXPORT const porta_plugin_api* porta_plugin_get_api(void) { return &kApi; }
