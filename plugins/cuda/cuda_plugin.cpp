// The cuda plugin: device memory from cudaMalloc, copies on each device's
// default stream, kernels for every op of PORTA_OP_LIST (one .cu file per op
// family; GEMM through cuBLAS). See README.md for streams, copies and TF32.
#include <porta/plugin.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <vector>

#include "current_context.hpp"
#include "devices.hpp"
#include "errors.hpp"
#include "kernels.hpp"
#include "pinned_cache.hpp"
#include "plugin_support.hpp"

namespace porta::cuda {
namespace {

constexpr size_t kStagingBytes = size_t{8} << 20;  // pinned bounce buffer for copies without peer access

porta_status initialize(const porta_host_api* host) {
  set_host_api(host);
  count_devices();
  return PORTA_OK;
}

porta_status count(int32_t* out) {
  *out = device_count();
  return PORTA_OK;
}

porta_status device_props(int32_t device, porta_device_props* out) {
  if (device < 0 || device >= device_count())
    return reportf(PORTA_ERROR_NO_SUCH_DEVICE, "cuda:%d does not exist (%d CUDA devices)", device, device_count());
  cudaDeviceProp prop{};
  if (porta_status st = check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties"); st != PORTA_OK)
    return st;
  porta_device_props p{};
  std::snprintf(p.name, sizeof p.name, "%.127s", prop.name);
  p.memory_total = prop.totalGlobalMem;
  p.memory_free = 0;  // unknown until the device has a context: reading it must not create one
  if (device_was_used(device) && use_device(device) == PORTA_OK) {
    size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess)
      p.memory_free = free_bytes;
    else
      (void)cudaGetLastError();
  }
  p.compute_units = prop.multiProcessorCount;
  p.kind = PORTA_DEVICE_KIND_GPU;
  p.capability_major = prop.major;
  p.capability_minor = prop.minor;
  porta::plugin::copy_device_props(p, out);
  return PORTA_OK;
}

porta_status alloc(int32_t device, size_t bytes, void** out) {
  if (porta_status st = use_device(device); st != PORTA_OK) return st;
  void* p = nullptr;
  if (porta_status st = check(cudaMalloc(&p, bytes), "cudaMalloc"); st != PORTA_OK) return st;
  *out = p;
  return PORTA_OK;
}

void release(int32_t device, void* handle) {
  if (use_device(device) != PORTA_OK) return;
  // cudaFree waits for work already enqueued on the block.
  if (cudaFree(handle) != cudaSuccess) (void)cudaGetLastError();
}

// Waits for the default stream unless the caller allowed a stream-ordered copy.
porta_status finish_copy(uint32_t flags, const char* what) {
  if (flags & PORTA_COPY_NONBLOCKING) return PORTA_OK;
  return check(cudaStreamSynchronize(default_stream()), what);
}

porta_status copy_to_device(int32_t device, void* dst, size_t dst_offset, const void* src, size_t bytes,
                            uint32_t flags) {
  if (porta_status st = use_device(device); st != PORTA_OK) return st;
  if (porta_status st = check(
          cudaMemcpyAsync(static_cast<char*>(dst) + dst_offset, src, bytes, cudaMemcpyHostToDevice, default_stream()),
          "copy to device (cudaMemcpyAsync)");
      st != PORTA_OK)
    return st;
  return finish_copy(flags, "copy to device (cudaStreamSynchronize)");
}

porta_status copy_to_host(int32_t device, void* dst, const void* src, size_t src_offset, size_t bytes, uint32_t flags) {
  if (porta_status st = use_device(device); st != PORTA_OK) return st;
  // Stream order puts the copy after every kernel already enqueued.
  if (porta_status st = check(cudaMemcpyAsync(dst, static_cast<const char*>(src) + src_offset, bytes,
                                              cudaMemcpyDeviceToHost, default_stream()),
                              "copy to host (cudaMemcpyAsync)");
      st != PORTA_OK)
    return st;
  return finish_copy(flags, "copy to host (cudaStreamSynchronize)");
}

porta_status copy_on_device(int32_t device, void* dst, size_t dst_offset, const void* src, size_t src_offset,
                            size_t bytes, uint32_t) {
  if (porta_status st = use_device(device); st != PORTA_OK) return st;
  return check(cudaMemcpyAsync(static_cast<char*>(dst) + dst_offset, static_cast<const char*>(src) + src_offset, bytes,
                               cudaMemcpyDeviceToDevice, default_stream()),
               "copy on device (cudaMemcpyAsync)");
}

porta_status synchronize(int32_t device) {
  if (porta_status st = use_device(device); st != PORTA_OK) return st;
  return check(cudaStreamSynchronize(default_stream()), "synchronize (cudaStreamSynchronize)");
}

// Makes `device`'s default stream wait for `event`, then destroys the event
// (the runtime keeps it until it completes).
porta_status wait_event(int32_t device, cudaEvent_t event) {
  porta_status st = use_device(device);
  if (st == PORTA_OK) st = check(cudaStreamWaitEvent(default_stream(), event, 0), "cudaStreamWaitEvent");
  cudaEventDestroy(event);
  return st;
}

// Peer access from dst to src, enabled once per pair; false when impossible.
bool peer_access(int32_t dst, int32_t src) {
  static std::mutex mutex;
  static unsigned char state[64][64];  // 0 unknown, 1 enabled, 2 impossible
  if (dst >= 64 || src >= 64) return false;
  std::lock_guard<std::mutex> lock(mutex);
  if (state[dst][src] == 0) {
    int can = 0;
    state[dst][src] = 2;
    if (cudaDeviceCanAccessPeer(&can, dst, src) == cudaSuccess && can && use_device(dst) == PORTA_OK) {
      const cudaError_t err = cudaDeviceEnablePeerAccess(src, 0);
      if (err == cudaSuccess || err == cudaErrorPeerAccessAlreadyEnabled) state[dst][src] = 1;
    }
    (void)cudaGetLastError();
  }
  return state[dst][src] == 1;
}

// Through a pinned host buffer, chunk by chunk; blocking.
porta_status copy_staged(int32_t dst_device, char* dst, int32_t src_device, const char* src, size_t bytes) {
  static std::mutex mutex;
  static void* staging = nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  if (!staging) {
    if (porta_status st = use_device(src_device); st != PORTA_OK) return st;
    if (porta_status st =
            check(cudaHostAlloc(&staging, kStagingBytes, cudaHostAllocPortable), "cudaHostAlloc (staging buffer)");
        st != PORTA_OK) {
      staging = nullptr;
      return st;
    }
  }
  for (size_t done = 0; done < bytes; done += kStagingBytes) {
    const size_t n = bytes - done < kStagingBytes ? bytes - done : kStagingBytes;
    if (porta_status st = copy_to_host(src_device, staging, src, done, n, 0); st != PORTA_OK) return st;
    if (porta_status st = copy_to_device(dst_device, dst, done, staging, n, 0); st != PORTA_OK) return st;
  }
  return PORTA_OK;
}

porta_status copy_between_devices(int32_t dst_device, void* dst, size_t dst_offset, int32_t src_device, const void* src,
                                  size_t src_offset, size_t bytes, uint32_t flags) {
  if (dst_device == src_device) {
    if (porta_status st = copy_on_device(dst_device, dst, dst_offset, src, src_offset, bytes, flags); st != PORTA_OK)
      return st;
    return finish_copy(flags, "copy on device (cudaStreamSynchronize)");  // copy_on_device made it current
  }
  char* d = static_cast<char*>(dst) + dst_offset;
  const char* s = static_cast<const char*>(src) + src_offset;
  if (!peer_access(dst_device, src_device)) return copy_staged(dst_device, d, src_device, s, bytes);
  // Stream-ordered on both sides: the copy runs on dst's stream after src's
  // pending work, and src's later work (which may reuse the block) waits for it.
  cudaEvent_t src_ready = nullptr, copied = nullptr;
  if (porta_status st = record_event(src_device, &src_ready); st != PORTA_OK) return st;
  if (porta_status st = wait_event(dst_device, src_ready); st != PORTA_OK) return st;
  if (porta_status st = check(cudaMemcpyPeerAsync(d, dst_device, s, src_device, bytes, default_stream()),
                              "copy between devices (cudaMemcpyPeerAsync)");
      st != PORTA_OK)
    return st;
  if (porta_status st = record_event(dst_device, &copied); st != PORTA_OK) return st;
  if (porta_status st = wait_event(src_device, copied); st != PORTA_OK) return st;
  if (porta_status st = use_device(dst_device); st != PORTA_OK) return st;
  return finish_copy(flags, "copy between devices (cudaStreamSynchronize)");
}

// Every kernel and copy goes to the legacy default stream of the device
// current on the calling thread: the stream communicator plugins (NCCL) order
// their operations on.
porta_status native_stream(int32_t device, void** out) {
  if (!out) return report(PORTA_ERROR_INVALID_ARGUMENT, "native_stream: out is NULL");
  if (device < 0 || device >= device_count())
    return report(PORTA_ERROR_INVALID_ARGUMENT, "native_stream: no such device");
  *out = static_cast<void*>(default_stream());
  return PORTA_OK;
}

// Every entry point that may touch a device puts the caller's CUDA context
// back when it returns (current_context.hpp); kernels do so through Launch.
template <auto F>
constexpr auto keep = &KeepCallerContext<F>::call;

const porta_plugin_api kApi = {
    sizeof(porta_plugin_api),
    PORTA_PLUGIN_ABI_MAJOR,
    PORTA_PLUGIN_ABI_MINOR,
    "cuda",
    kDLCUDA,
    "0.1.0",
    keep<initialize>,
    count,
    unavailable_reason,
    keep<device_props>,
    keep<alloc>,
    keep<release>,
    keep<copy_to_device>,
    keep<copy_to_host>,
    keep<copy_on_device>,
    keep<synchronize>,
    find_cuda_kernel,
    keep<copy_between_devices>,
    keep<alloc_pinned_host>,
    keep<free_pinned_host>,
    0,  // capabilities: CUDA does not survive fork()
    native_stream,
};

}  // namespace
}  // namespace porta::cuda

extern "C" PORTA_EXPORT const porta_plugin_api* porta_plugin_get_api(void) { return &porta::cuda::kApi; }
