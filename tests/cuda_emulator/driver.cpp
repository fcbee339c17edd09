// The CUDA driver API the cuda plugin finds through
// cudaGetDriverEntryPointByVersion: the thread's current context and the
// devices' primary contexts (one per device, as in a process on hardware).
// PORTA_CUDA_EMULATOR_DRIVER=0 makes the entry points missing, as with a
// driver older than the runtime, so the plugin's cudaSetDevice fallback runs.
#include <cuda.h>

#include <cstdlib>
#include <cstring>

#include "emulator.hpp"

struct CUctx_st {
  int device;
};

namespace cuda_emulator {
namespace {

constexpr int kMaxDevices = 64;
// Device i's primary context is g_primary[i], written once, before any thread runs.
CUctx_st g_primary[kMaxDevices] = {};
const bool g_primary_numbered = [] {
  for (int i = 0; i < kMaxDevices; ++i) g_primary[i].device = i;
  return true;
}();

CUcontext primary_of(int device) { return device >= 0 && device < kMaxDevices ? &g_primary[device] : nullptr; }

CUresult ctx_get_current(CUcontext* out) {
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  *out = primary_of(context_device());
  return CUDA_SUCCESS;
}

CUresult ctx_set_current(CUcontext ctx) {
  if (ctx && (ctx < g_primary || ctx >= g_primary + kMaxDevices))
    misuse("cuCtxSetCurrent(%p): not a context of this driver", static_cast<void*>(ctx));
  set_context_device(ctx ? ctx->device : -1);
  return CUDA_SUCCESS;
}

CUresult device_get(CUdevice* out, int ordinal) {
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || ordinal < 0 || ordinal >= count) {
    (void)cudaGetLastError();
    return CUDA_ERROR_INVALID_DEVICE;
  }
  *out = ordinal;
  return CUDA_SUCCESS;
}

CUresult primary_ctx_retain(CUcontext* out, CUdevice device) {
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  if (device >= kMaxDevices || !create_context(device)) return CUDA_ERROR_INVALID_DEVICE;
  *out = primary_of(device);
  return CUDA_SUCCESS;
}

bool driver_enabled() {
  const char* v = std::getenv("PORTA_CUDA_EMULATOR_DRIVER");
  return !(v && std::strcmp(v, "0") == 0);
}

}  // namespace
}  // namespace cuda_emulator

using namespace cuda_emulator;

extern "C" {

cudaError_t cudaGetDriverEntryPointByVersion(const char* symbol, void** fn, unsigned cuda_version,
                                             unsigned long long flags, cudaDriverEntryPointQueryResult* result) {
  if (!symbol || !fn || flags != cudaEnableDefault) return fail_with(cudaErrorInvalidValue);
  struct Entry {
    const char* name;
    void* fn;
  };
  const Entry entries[] = {
      {"cuCtxGetCurrent", reinterpret_cast<void*>(&ctx_get_current)},
      {"cuCtxSetCurrent", reinterpret_cast<void*>(&ctx_set_current)},
      {"cuDeviceGet", reinterpret_cast<void*>(&device_get)},
      {"cuDevicePrimaryCtxRetain", reinterpret_cast<void*>(&primary_ctx_retain)},
  };
  *fn = nullptr;
  if (result) *result = cudaDriverEntryPointSymbolNotFound;
  if (cuda_version < 12000 || !driver_enabled()) return cudaSuccess;
  for (const Entry& e : entries) {
    if (std::strcmp(e.name, symbol) == 0) {
      *fn = e.fn;
      if (result) *result = cudaDriverEntryPointSuccess;
      break;
    }
  }
  return cudaSuccess;
}

// Test hooks, found with dlsym in the loaded plugin, standing in for a
// caller's own CUDA code on the calling thread: which device's context is
// current (-1: none), and making `device`'s current (-1: none), as
// cudaSetDevice or torch.cuda.set_device would.
__attribute__((visibility("default"))) int porta_cuda_emulator_current_context(int) { return context_device(); }

__attribute__((visibility("default"))) int porta_cuda_emulator_make_current(int device) {
  if (device >= 0 && !create_context(device)) return -1;
  set_context_device(device);
  return 0;
}

}  // extern "C"
