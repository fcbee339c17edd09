// The CUDA devices the runtime shows (CUDA_VISIBLE_DEVICES applies). They
// are counted once, at initialize, with cudaGetDeviceCount alone, which
// creates no context; a device's context, cuBLAS handle and reduction
// scratch are created on its first use.
//
// Streams: all of Porta's work on a device goes to that device's legacy
// default stream (see README.md): no stream to create, ordered with every
// other library's default-stream work (PyTorch, CuPy) in the process, and
// the one-stream-per-device model the core's caching allocator assumes.
#pragma once

#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <porta/plugin.h>

#include <atomic>
#include <cstddef>
#include <mutex>

namespace porta::cuda {

// The stream for runtime calls: the legacy default stream of the device
// current on the calling thread.
inline cudaStream_t default_stream() { return cudaStreamLegacy; }

// The stream a kernel call enqueues on (NULL: the device's default stream).
inline cudaStream_t stream_of(const porta_kernel_call* c) {
  return c->stream ? static_cast<cudaStream_t>(c->stream) : default_stream();
}

// Counts the devices (once, at initialize); never fails.
void count_devices();
int32_t device_count();
// Why there are no devices (CUDA's error text), or nullptr when there are.
const char* unavailable_reason();

// What the plugin keeps per device, created on first use.
struct Device {
  int32_t index = 0;
  int32_t sm_count = 1;           // multiprocessors, for grid sizes
  std::atomic<bool> used{false};  // its context exists
  CUcontext primary = nullptr;    // its primary context (set once; nullptr in the cudaSetDevice fallback)
  std::once_flag init_once;
  porta_status init_status = PORTA_OK;

  std::mutex blas_mutex;  // guards blas and its use
  cublasHandle_t blas = nullptr;

  std::mutex scratch_mutex;  // held while a reduction uses scratch
  void* scratch = nullptr;
  size_t scratch_bytes = 0;
};

// Makes `device`'s primary context current on the calling thread (created
// on first use) and returns its state. NO_SUCH_DEVICE for a bad index. The
// caller's context comes back at the end of the entry point
// (current_context.hpp).
porta_status use_device(int32_t device, Device** out = nullptr);

// An event recorded now on `device`'s default stream (made current).
porta_status record_event(int32_t device, cudaEvent_t* out);

// Whether the device has been used (its context exists), without using it.
bool device_was_used(int32_t device);

// The device's cuBLAS handle, created on first use and bound to the default
// stream; TF32 tensor-core math only when PORTA_CUDA_ALLOW_TF32=1. The caller
// holds d.blas_mutex.
porta_status blas_handle(Device& d, cublasHandle_t* out);

// Device memory of at least `bytes` that the caller may use for work it
// enqueues while holding d.scratch_mutex (stream order keeps later users
// after it). Grows on demand; never freed before exit.
porta_status scratch(Device& d, size_t bytes, void** out);

}  // namespace porta::cuda
