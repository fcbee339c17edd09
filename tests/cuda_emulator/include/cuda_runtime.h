// The CUDA runtime as the cuda plugin uses it, emulated on the CPU: the
// subset of <cuda_runtime.h> the plugin calls, and the device-side language
// its kernels use (__global__, threadIdx, __syncthreads, __shfl_xor_sync,
// atomicAdd), so that plugins/cuda compiles with g++ and runs its kernels on
// the host. See tests/cuda_emulator/README.md for what this checks and what
// it cannot.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

// ------------------------------------------------------------- the language
// Kernels and device functions are plain host functions here. strided_index.cuh
// and host_device.hpp enable their device parts under __CUDACC__.
#define __CUDACC__ 1
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
// A block's threads run as fibers of one host thread, one block at a time,
// so a static per host thread is exactly a block's shared memory.
#define __shared__ static thread_local

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

extern thread_local dim3 threadIdx, blockIdx, blockDim, gridDim;

namespace cuda_emulator {
void sync_block();                                                // __syncthreads
void shuffle(void* value, size_t bytes, unsigned mask, int lane_xor);  // __shfl_xor_sync
}  // namespace cuda_emulator

inline void __syncthreads() { cuda_emulator::sync_block(); }

template <class T>
T __shfl_xor_sync(unsigned mask, T value, int lane_mask, int width = 32) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 16, "__shfl_xor_sync: up to 16-byte values");
  (void)width;
  cuda_emulator::shuffle(&value, sizeof(T), mask, lane_mask);
  return value;
}

// Blocks run one at a time and their threads cooperatively, so a plain
// read-modify-write is atomic.
template <class T>
T atomicAdd(T* address, T value) {
  const T old = *address;
  *address = old + value;
  return old;
}

// ----------------------------------------------------------------- the API
enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorPeerAccessAlreadyEnabled = 704,
  cudaErrorPeerAccessUnsupported = 217,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
};

struct CUstream_st;
struct CUevent_st;
using cudaStream_t = CUstream_st*;
using cudaEvent_t = CUevent_st*;
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01

enum cudaMemcpyKind {
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
};

enum cudaDeviceAttr { cudaDevAttrMultiProcessorCount = 16 };

#define cudaHostAllocPortable 0x01
#define cudaEventDisableTiming 0x02

enum cudaDriverEntryPointQueryResult {
  cudaDriverEntryPointSuccess = 0,
  cudaDriverEntryPointSymbolNotFound = 1,
  cudaDriverEntryPointVersionNotSufficent = 2,
};
#define cudaEnableDefault 0x0

struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  int multiProcessorCount;
  int major;
  int minor;
};

// Default visibility, as a real libcudart's: the emulated plugin exports these
// (emulated_plugin.map) for a plugin linked against it.
#pragma GCC visibility push(default)
extern "C" {
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes);
cudaError_t cudaGetLastError(void);
const char* cudaGetErrorName(cudaError_t error);
const char* cudaGetErrorString(cudaError_t error);

cudaError_t cudaMalloc(void** ptr, size_t bytes);
cudaError_t cudaFree(void* ptr);
cudaError_t cudaHostAlloc(void** ptr, size_t bytes, unsigned flags);
cudaError_t cudaFreeHost(void* ptr);

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, size_t bytes,
                                cudaStream_t stream);
cudaError_t cudaMemsetAsync(void* ptr, int value, size_t bytes, cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
// A created stream names its device's one queue (README.md): ordered with the legacy stream.
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags);

cudaError_t cudaGetDriverEntryPointByVersion(const char* symbol, void** fn, unsigned cuda_version,
                                             unsigned long long flags, cudaDriverEntryPointQueryResult* result);

cudaError_t cudaDeviceCanAccessPeer(int* can, int device, int peer);
cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned flags);
}
#pragma GCC visibility pop

// -------------------------------------------------------------- launches
// tests/cuda_emulator/translate_launches.py rewrites
//   kernel<<<grid, block, shared, stream>>>(args...)
// as
//   ::cuda_emulator::launch(::cuda_emulator::Config(grid, block, shared, stream), "kernel",
//                           [](auto... a) { kernel(a...); }, args...)
// The arguments are evaluated and copied at the launch, as CUDA does; the
// kernel runs when its stream's work is executed (see README.md).
namespace cuda_emulator {

struct Config {
  dim3 grid, block;
  size_t shared_bytes = 0;
  cudaStream_t stream = nullptr;
  Config(dim3 g, dim3 b, size_t shared = 0, cudaStream_t s = nullptr) : grid(g), block(b), shared_bytes(shared), stream(s) {}
};

// Aborts the process unless `p` (argument `index` of kernel `name`) is
// memory a kernel on `device` may touch: its own, a peer's it enabled, or
// pinned host memory.
void check_kernel_argument(const char* name, int index, const void* p, int device);

// A kernel's body for one thread: called once per thread of the grid.
struct KernelBody {
  virtual ~KernelBody() = default;
  virtual void run_thread() = 0;
  virtual void check_arguments(const char* name, int device) const = 0;
};

template <class F, class... A>
struct BoundKernel final : KernelBody {
  F f;
  std::tuple<A...> args;
  BoundKernel(F f_, A... a) : f(std::move(f_)), args(std::move(a)...) {}
  void run_thread() override {
    std::tuple<A...> copy = args;  // each thread gets its own parameters
    std::apply(f, std::move(copy));
  }
  void check_arguments(const char* name, int device) const override {
    int index = 0;
    std::apply([&](const A&... a) { (check_one(name, index++, a, device), ...); }, args);
  }
  template <class X>
  static void check_one(const char* name, int index, const X& x, int device) {
    if constexpr (std::is_pointer_v<X>) check_kernel_argument(name, index, x, device);
  }
};

// Checks the configuration (sticky launch error as CUDA reports it) and
// enqueues the kernel on the stream of the current device.
void enqueue_kernel(const Config& config, const char* name, KernelBody* body);

template <class F, class... A>
void launch(const Config& config, const char* name, F f, A&&... args) {
  enqueue_kernel(config, name, new BoundKernel<F, std::decay_t<A>...>(std::move(f), std::forward<A>(args)...));
}

}  // namespace cuda_emulator
