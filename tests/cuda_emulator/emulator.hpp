// The CUDA emulator's insides, shared by runtime.cpp (the API), executor.cpp
// (kernels as fibers) and cublas.cpp.
//
// The model (README.md has the why):
// * Each device has one stream, its legacy default stream: a queue of work
//   (a created stream names that same queue). Work is executed lazily, in
//   order, only when something waits for it (cudaStreamSynchronize,
//   cudaEventQuery or cudaEventSynchronize, a copy to pageable host memory,
//   cudaFree, a cross-device event wait). A plugin that reads results without
//   synchronizing reads stale memory, every time.
// * Device memory is host memory, 256-byte aligned, filled with 0xFF bytes
//   (NaN for floats) when allocated, and known: copies, kernels' pointer
//   arguments and cuBLAS operands are checked against the allocations.
// * One mutex serializes everything; kernels run on the thread that drains.
#pragma once

#include <cuda_runtime.h>

#include <functional>

namespace cuda_emulator {

using Task = std::function<void()>;

// Reports a misuse that real hardware would punish with undefined behaviour
// (a fault, a hang, garbage) and aborts the process.
[[noreturn]] void misuse(const char* format, ...);

// Records `error` as the calling thread's last error and returns it.
cudaError_t fail_with(cudaError_t error);

// The device current on the calling thread, its context created.
int current_device();

// The device whose primary context is current on the calling thread (-1:
// none), set by cudaSetDevice, by a runtime call with none current, and by
// the emulated driver's cuCtxSetCurrent (driver.cpp); create_context makes a
// device's primary context exist (false for a bad index).
int context_device();
void set_context_device(int device);
bool create_context(int device);

// The device whose queue `stream` names: the current device's for NULL and
// cudaStreamLegacy, its own for a created stream (misuse for an unknown one).
int stream_device(cudaStream_t stream);

// Appends `task` to `device`'s stream.
void enqueue(int device, Task task);

// Whether [p, p + bytes) lies in one device allocation of `device` (of any
// device for -1).
bool is_device_memory(const void* p, size_t bytes, int device);

// Runs a kernel's grid, block after block, each block's threads as fibers (executor.cpp).
void run_grid(const Config& config, const char* name, KernelBody& body);

}  // namespace cuda_emulator
