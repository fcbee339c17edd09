// Error reporting for the cuda plugin: every failure becomes a porta_status
// plus a message (sent to the core through host->set_error) that names the
// operation and CUDA's own error name and text.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <porta/plugin.h>

namespace porta::cuda {

// The core's services (set once in initialize()).
void set_host_api(const porta_host_api* host);
const porta_host_api* host_api();

// Records `message` with the core and returns `status`.
porta_status report(porta_status status, const char* message);
// printf-style report.
porta_status reportf(porta_status status, const char* format, ...) __attribute__((format(printf, 2, 3)));

// PORTA_OK for cudaSuccess; otherwise reports "<what>: <name>: <text>" and
// returns OUT_OF_MEMORY for cudaErrorMemoryAllocation, else BACKEND. Clears
// the runtime's (non-sticky) last error.
porta_status check(cudaError_t err, const char* what);
// The same for cuBLAS statuses.
porta_status check(cublasStatus_t st, const char* what);

// Logs through the core (PORTA_LOG=info/debug shows it).
void log(porta_log_level level, const char* message);

}  // namespace porta::cuda
