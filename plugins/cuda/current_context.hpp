// The calling thread's current CUDA context: the plugin makes its device's
// primary context current for its own work and puts the caller's back when
// the call ends, so raw CUDA, cuBLAS or PyTorch code running on the same
// thread is never moved to another GPU by a Porta call (as a c10 DeviceGuard
// restores the device it changed).
//
// Through the driver API (cuCtxGetCurrent / cuCtxSetCurrent /
// cuDevicePrimaryCtxRetain), found at run time with
// cudaGetDriverEntryPointByVersion, so the plugin does not link libcuda.
// Unlike cudaSetDevice this neither changes the runtime's notion of the
// thread's device nor creates a context to restore "no context": a caller
// that had none has none again. Where the driver lacks the entry points
// (never on CUDA 12+), the plugin falls back to cudaSetDevice and restores
// the caller's device with it, creating that device's context if it had none.
#pragma once

#include <cuda.h>
#include <porta/plugin.h>

namespace porta::cuda {

// Finds the driver entry points (once, after the runtime has initialized the
// driver); false when they are missing and the fallback is in use.
bool find_driver_entry_points();
bool have_driver_entry_points();

// The primary context of `device`, retained (and created) now; nullptr on
// failure, reported.
CUcontext retain_primary_context(int32_t device);

// Makes `ctx` current on the calling thread unless it already is.
porta_status make_current(CUcontext ctx);

// Saves the calling thread's current context (or, in the fallback, device)
// and restores it when the scope ends. Every entry point of the plugin's
// table and every kernel call holds one.
class CallerContext {
 public:
  CallerContext();
  ~CallerContext();
  CallerContext(const CallerContext&) = delete;
  CallerContext& operator=(const CallerContext&) = delete;

 private:
  CUcontext saved_ = nullptr;
  int saved_device_ = -1;
  bool known_ = false;
};

// `F` with a CallerContext around it: the form in which the table exposes
// its entry points.
template <auto F>
struct KeepCallerContext;
template <class R, class... A, R (*F)(A...)>
struct KeepCallerContext<F> {
  static R call(A... a) {
    CallerContext keep;
    return F(a...);
  }
};

}  // namespace porta::cuda
