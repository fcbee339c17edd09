#include "current_context.hpp"

#include <cuda_runtime.h>

#include <cstdio>

#include "errors.hpp"

namespace porta::cuda {
namespace {

// The driver functions, in the ABI of CUDA 12.0 (the version asked for).
struct Driver {
  CUresult (*ctx_get_current)(CUcontext*) = nullptr;
  CUresult (*ctx_set_current)(CUcontext) = nullptr;
  CUresult (*device_get)(CUdevice*, int) = nullptr;
  CUresult (*primary_ctx_retain)(CUcontext*, CUdevice) = nullptr;
  bool found = false;
};
Driver g_driver;

template <class Fn>
bool find(const char* symbol, Fn* out) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult result{};
  if (cudaGetDriverEntryPointByVersion(symbol, &fn, 12000, cudaEnableDefault, &result) != cudaSuccess ||
      result != cudaDriverEntryPointSuccess || !fn) {
    (void)cudaGetLastError();
    return false;
  }
  *out = reinterpret_cast<Fn>(fn);
  return true;
}

}  // namespace

bool find_driver_entry_points() {
  Driver d;
  d.found = find("cuCtxGetCurrent", &d.ctx_get_current) && find("cuCtxSetCurrent", &d.ctx_set_current) &&
            find("cuDeviceGet", &d.device_get) && find("cuDevicePrimaryCtxRetain", &d.primary_ctx_retain);
  if (!d.found)
    log(PORTA_LOG_INFO, "cuda: the driver's context entry points are missing; using cudaSetDevice, which keeps the "
                        "caller's device only when it has a context");
  g_driver = d;
  return d.found;
}

bool have_driver_entry_points() { return g_driver.found; }

CUcontext retain_primary_context(int32_t device) {
  CUdevice dev{};
  CUcontext ctx = nullptr;
  CUresult r = g_driver.device_get(&dev, device);
  if (r == CUDA_SUCCESS) r = g_driver.primary_ctx_retain(&ctx, dev);
  if (r != CUDA_SUCCESS) {
    reportf(r == CUDA_ERROR_OUT_OF_MEMORY ? PORTA_ERROR_OUT_OF_MEMORY : PORTA_ERROR_BACKEND,
            "cuda:%d: cuDevicePrimaryCtxRetain failed (CUresult %d)", device, static_cast<int>(r));
    return nullptr;
  }
  return ctx;
}

porta_status make_current(CUcontext ctx) {
  CUcontext now = nullptr;
  if (g_driver.ctx_get_current(&now) == CUDA_SUCCESS && now == ctx) return PORTA_OK;
  const CUresult r = g_driver.ctx_set_current(ctx);
  if (r != CUDA_SUCCESS) return reportf(PORTA_ERROR_BACKEND, "cuCtxSetCurrent failed (CUresult %d)", static_cast<int>(r));
  return PORTA_OK;
}

CallerContext::CallerContext() {
  if (g_driver.found) {
    known_ = g_driver.ctx_get_current(&saved_) == CUDA_SUCCESS;
  } else if (cudaGetDevice(&saved_device_) == cudaSuccess) {
    known_ = true;
  } else {
    (void)cudaGetLastError();
  }
}

CallerContext::~CallerContext() {
  if (!known_) return;
  if (g_driver.found) {
    CUcontext now = nullptr;
    if (g_driver.ctx_get_current(&now) == CUDA_SUCCESS && now != saved_) (void)g_driver.ctx_set_current(saved_);
    return;
  }
  int now = -1;
  if (cudaGetDevice(&now) != cudaSuccess) {
    (void)cudaGetLastError();
    return;
  }
  // This creates the caller's device's context if it had none: the context
  // its next CUDA call would have created.
  if (now != saved_device_ && cudaSetDevice(saved_device_) != cudaSuccess) (void)cudaGetLastError();
}

}  // namespace porta::cuda
