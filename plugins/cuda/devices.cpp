#include "devices.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "current_context.hpp"
#include "errors.hpp"

namespace porta::cuda {
namespace {

int32_t g_count = 0;
std::string g_reason;
std::unique_ptr<Device[]> g_devices;

bool tf32_allowed() {
  const char* v = std::getenv("PORTA_CUDA_ALLOW_TF32");
  return v && std::strcmp(v, "1") == 0;
}

}  // namespace

void count_devices() {
  int n = 0;
  const cudaError_t err = cudaGetDeviceCount(&n);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    g_reason = std::string(cudaGetErrorString(err)) + " (" + cudaGetErrorName(err) + " from cudaGetDeviceCount)";
    n = 0;
  } else if (n == 0) {
    g_reason = "cudaGetDeviceCount found no CUDA device";
  }
  if (n > 0) find_driver_entry_points();
  g_count = n;
  g_devices = std::make_unique<Device[]>(static_cast<size_t>(n > 0 ? n : 0));
  for (int32_t i = 0; i < n; ++i) g_devices[i].index = i;
}

int32_t device_count() { return g_count; }

const char* unavailable_reason() { return g_count > 0 ? nullptr : g_reason.c_str(); }

porta_status use_device(int32_t device, Device** out) {
  if (device < 0 || device >= g_count)
    return reportf(PORTA_ERROR_NO_SUCH_DEVICE, "cuda:%d does not exist (%d CUDA devices)", device, g_count);
  Device& d = g_devices[device];
  std::call_once(d.init_once, [&] {
    if (have_driver_entry_points()) {
      d.primary = retain_primary_context(device);
      d.init_status = d.primary ? PORTA_OK : PORTA_ERROR_BACKEND;
    } else {
      d.init_status = check(cudaSetDevice(device), "cudaSetDevice");
    }
    if (d.init_status != PORTA_OK) return;
    int sms = 0;
    d.init_status = check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
                          "cudaDeviceGetAttribute(multiProcessorCount)");
    d.sm_count = sms > 0 ? sms : 1;
    d.used.store(true, std::memory_order_release);
  });
  if (d.init_status != PORTA_OK) return report(d.init_status, "cuda: the device failed to initialize");
  if (d.primary) {
    if (porta_status st = make_current(d.primary); st != PORTA_OK) return st;
  } else {
    int current = -1;
    if (cudaGetDevice(&current) != cudaSuccess || current != device) {
      if (porta_status st = check(cudaSetDevice(device), "cudaSetDevice"); st != PORTA_OK) return st;
    }
  }
  if (out) *out = &d;
  return PORTA_OK;
}

porta_status record_event(int32_t device, cudaEvent_t* out) {
  if (porta_status st = use_device(device); st != PORTA_OK) return st;
  if (porta_status st = check(cudaEventCreateWithFlags(out, cudaEventDisableTiming), "cudaEventCreate"); st != PORTA_OK)
    return st;
  return check(cudaEventRecord(*out, default_stream()), "cudaEventRecord");
}

bool device_was_used(int32_t device) {
  return device >= 0 && device < g_count && g_devices[device].used.load(std::memory_order_acquire);
}

porta_status blas_handle(Device& d, cublasHandle_t* out) {
  if (!d.blas) {
    cublasHandle_t h = nullptr;
    if (porta_status st = check(cublasCreate(&h), "cublasCreate"); st != PORTA_OK) return st;
    // NULL is the legacy default stream for cuBLAS, as for the plugin's work.
    porta_status st = check(cublasSetStream(h, nullptr), "cublasSetStream");
    const bool tf32 = tf32_allowed();
    if (st == PORTA_OK)
      st = check(cublasSetMathMode(h, tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    if (st != PORTA_OK) {
      cublasDestroy(h);
      return st;
    }
    char msg[96];
    std::snprintf(msg, sizeof msg, "cuda:%d: cuBLAS ready, TF32 %s", d.index,
                  tf32 ? "on (PORTA_CUDA_ALLOW_TF32=1)" : "off");
    log(PORTA_LOG_DEBUG, msg);
    d.blas = h;
  }
  *out = d.blas;
  return PORTA_OK;
}

porta_status scratch(Device& d, size_t bytes, void** out) {
  if (bytes > d.scratch_bytes) {
    if (d.scratch) {
      // Work enqueued on the old block must finish before it goes.
      if (porta_status st = check(cudaStreamSynchronize(default_stream()), "scratch resize"); st != PORTA_OK) return st;
      cudaFree(d.scratch);
      d.scratch = nullptr;
      d.scratch_bytes = 0;
    }
    const size_t want = bytes < (size_t{1} << 20) ? (size_t{1} << 20) : bytes;
    if (porta_status st = check(cudaMalloc(&d.scratch, want), "cudaMalloc (reduction scratch)"); st != PORTA_OK) {
      d.scratch = nullptr;
      return st;
    }
    d.scratch_bytes = want;
  }
  *out = d.scratch;
  return PORTA_OK;
}

}  // namespace porta::cuda
