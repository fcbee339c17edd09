#include "errors.hpp"

#include <cstdarg>
#include <cstdio>

namespace porta::cuda {
namespace {
const porta_host_api* g_host = nullptr;
}

void set_host_api(const porta_host_api* host) { g_host = host; }
const porta_host_api* host_api() { return g_host; }

porta_status report(porta_status status, const char* message) {
  if (g_host && g_host->set_error) g_host->set_error(message);
  return status;
}

porta_status reportf(porta_status status, const char* format, ...) {
  char msg[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(msg, sizeof msg, format, args);
  va_end(args);
  return report(status, msg);
}

porta_status check(cudaError_t err, const char* what) {
  if (err == cudaSuccess) return PORTA_OK;
  (void)cudaGetLastError();  // clear it, so the next call does not see it again
  const porta_status status = err == cudaErrorMemoryAllocation ? PORTA_ERROR_OUT_OF_MEMORY : PORTA_ERROR_BACKEND;
  return reportf(status, "%s: %s: %s", what, cudaGetErrorName(err), cudaGetErrorString(err));
}

porta_status check(cublasStatus_t st, const char* what) {
  if (st == CUBLAS_STATUS_SUCCESS) return PORTA_OK;
  const porta_status status = st == CUBLAS_STATUS_ALLOC_FAILED ? PORTA_ERROR_OUT_OF_MEMORY : PORTA_ERROR_BACKEND;
  return reportf(status, "%s: cuBLAS %s: %s", what, cublasGetStatusName(st), cublasGetStatusString(st));
}

void log(porta_log_level level, const char* message) {
  if (g_host && g_host->log) g_host->log(level, message);
}

}  // namespace porta::cuda
