// cuBLAS, emulated: argument checks as cuBLAS makes them (a bad leading
// dimension is CUBLAS_STATUS_INVALID_VALUE, an operand outside device memory
// is a misuse), then the arithmetic by OpenBLAS, enqueued on the handle's
// device in stream order. Scalars are read at the call (host pointer mode).
// float16 and bfloat16 (the Ex calls, float32 compute) widen their operands
// to float32 exactly, run sgemm and round C once (porta/float16.h).
#include <cblas.h>
#include <cublas_v2.h>
#include <porta/float16.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <set>
#include <vector>

#include "emulator.hpp"

struct cublasContext {
  int device = 0;
};

namespace {

using cuda_emulator::misuse;

// Every live handle, as the library keeps them: a plugin may hold its
// handles until the process exits (LeakSanitizer then finds them reachable).
std::mutex g_handles_mutex;
std::set<cublasHandle_t>* g_handles = new std::set<cublasHandle_t>;

CBLAS_TRANSPOSE trans(cublasOperation_t op) { return op == CUBLAS_OP_N ? CblasNoTrans : CblasTrans; }

// A column-major operand of `rows` x `cols` as stored (after op), batch by batch.
void check_operand(const char* what, int device, const void* p, size_t element, int ld, int rows, int cols,
                   long long stride, int batch) {
  if (rows == 0 || cols == 0 || batch == 0) return;
  const size_t last = static_cast<size_t>(stride) * static_cast<size_t>(batch - 1) +
                      static_cast<size_t>(ld) * static_cast<size_t>(cols - 1) + static_cast<size_t>(rows);
  if (!cuda_emulator::is_device_memory(p, last * element, device))
    misuse("cuBLAS GEMM: operand %s (%p, %d x %d, ld %d, stride %lld, batch %d) is not within memory of cuda:%d", what,
           p, rows, cols, ld, stride, batch, device);
}

template <class T, class Gemm>
cublasStatus_t gemm_batched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                            const T* alpha, const T* A, int lda, long long sa, const T* B, int ldb, long long sb,
                            const T* beta, T* C, int ldc, long long sc, int batch, Gemm gemm) {
  if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
  const int a_rows = ta == CUBLAS_OP_N ? m : k, b_rows = tb == CUBLAS_OP_N ? k : n;
  if (m < 0 || n < 0 || k < 0 || batch < 0 || !alpha || !beta || lda < std::max(1, a_rows) ||
      ldb < std::max(1, b_rows) || ldc < std::max(1, m))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0 || batch == 0) return CUBLAS_STATUS_SUCCESS;
  check_operand("A", h->device, A, sizeof(T), lda, a_rows, ta == CUBLAS_OP_N ? k : m, sa, batch);
  check_operand("B", h->device, B, sizeof(T), ldb, b_rows, tb == CUBLAS_OP_N ? n : k, sb, batch);
  check_operand("C", h->device, C, sizeof(T), ldc, m, n, sc, batch);
  const T a = *alpha, b = *beta;
  cuda_emulator::enqueue(h->device, [=] {
    for (int i = 0; i < batch; ++i)
      gemm(CblasColMajor, trans(ta), trans(tb), m, n, k, a, A + i * sa, lda, B + i * sb, ldb, b, C + i * sc, ldc);
  });
  return CUBLAS_STATUS_SUCCESS;
}

// A 16-bit float type's conversions to and from float32, or nullptrs.
struct HalfType {
  float (*widen)(uint16_t) = nullptr;
  uint16_t (*narrow)(float) = nullptr;
};

HalfType half_type(cudaDataType t) {
  if (t == CUDA_R_16F) return {porta_float16_to_float32, porta_float32_to_float16};
  if (t == CUDA_R_16BF) return {porta_bfloat16_to_float32, porta_float32_to_bfloat16};
  return {};
}

// A column-major rows x cols matrix (leading dimension ld) widened into a
// dense float32 one (leading dimension rows).
void widen_matrix(const HalfType& t, const uint16_t* p, int ld, int rows, int cols, float* out) {
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) out[size_t(j) * rows + i] = t.widen(p[size_t(j) * ld + i]);
}

template <class T, class Scal>
cublasStatus_t scal(cublasHandle_t h, int n, const T* alpha, T* x, int incx, Scal s) {
  if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!alpha || n < 0 || incx <= 0) return CUBLAS_STATUS_INVALID_VALUE;
  if (n == 0) return CUBLAS_STATUS_SUCCESS;
  if (!cuda_emulator::is_device_memory(x, sizeof(T) * (static_cast<size_t>(n - 1) * incx + 1), h->device))
    misuse("cuBLAS SCAL: x (%p, %d elements, increment %d) is not within memory of cuda:%d", static_cast<void*>(x), n,
           incx, h->device);
  const T a = *alpha;
  cuda_emulator::enqueue(h->device, [=] { s(n, a, x, incx); });
  return CUBLAS_STATUS_SUCCESS;
}

}  // namespace

extern "C" {

cublasStatus_t cublasCreate(cublasHandle_t* handle) {
  if (!handle) return CUBLAS_STATUS_INVALID_VALUE;
  *handle = new cublasContext{cuda_emulator::current_device()};
  std::lock_guard<std::mutex> lock(g_handles_mutex);
  g_handles->insert(*handle);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy(cublasHandle_t handle) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  std::lock_guard<std::mutex> lock(g_handles_mutex);
  if (g_handles->erase(handle) == 0) misuse("cublasDestroy: %p is not a live handle", static_cast<void*>(handle));
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t stream) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (stream != nullptr && stream != cudaStreamLegacy)
    misuse("cublasSetStream: stream %p was not created by this runtime", static_cast<void*>(stream));
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  return mode == CUBLAS_DEFAULT_MATH || mode == CUBLAS_TF32_TENSOR_OP_MATH ? CUBLAS_STATUS_SUCCESS
                                                                          : CUBLAS_STATUS_INVALID_VALUE;
}

const char* cublasGetStatusName(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_NOT_SUPPORTED:
      return "CUBLAS_STATUS_NOT_SUPPORTED";
  }
  return "CUBLAS_STATUS_UNKNOWN";
}

const char* cublasGetStatusString(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
    case CUBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
    case CUBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "the GPU program failed to execute";
    case CUBLAS_STATUS_NOT_SUPPORTED:
      return "the functionality requested is not supported";
  }
  return "unknown error";
}

cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                         int k, const float* alpha, const float* A, int lda, long long sa,
                                         const float* B, int ldb, long long sb, const float* beta, float* C, int ldc,
                                         long long sc, int batch) {
  return gemm_batched(h, ta, tb, m, n, k, alpha, A, lda, sa, B, ldb, sb, beta, C, ldc, sc, batch, cblas_sgemm);
}

cublasStatus_t cublasDgemmStridedBatched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                         int k, const double* alpha, const double* A, int lda, long long sa,
                                         const double* B, int ldb, long long sb, const double* beta, double* C,
                                         int ldc, long long sc, int batch) {
  return gemm_batched(h, ta, tb, m, n, k, alpha, A, lda, sa, B, ldb, sb, beta, C, ldc, sc, batch, cblas_dgemm);
}

cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                          int k, const void* alpha, const void* A, cudaDataType a_type, int lda,
                                          long long sa, const void* B, cudaDataType b_type, int ldb, long long sb,
                                          const void* beta, void* C, cudaDataType c_type, int ldc, long long sc,
                                          int batch, cublasComputeType_t compute, cublasGemmAlgo_t algo) {
  if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
  const HalfType t = half_type(a_type);
  if (!t.widen || b_type != a_type || c_type != a_type || compute != CUBLAS_COMPUTE_32F || algo != CUBLAS_GEMM_DEFAULT)
    return CUBLAS_STATUS_NOT_SUPPORTED;  // the emulation knows float16/bfloat16 in, out, float32 compute
  const int a_rows = ta == CUBLAS_OP_N ? m : k, a_cols = ta == CUBLAS_OP_N ? k : m;
  const int b_rows = tb == CUBLAS_OP_N ? k : n, b_cols = tb == CUBLAS_OP_N ? n : k;
  if (m < 0 || n < 0 || k < 0 || batch < 0 || !alpha || !beta || lda < std::max(1, a_rows) ||
      ldb < std::max(1, b_rows) || ldc < std::max(1, m))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0 || batch == 0) return CUBLAS_STATUS_SUCCESS;
  check_operand("A", h->device, A, sizeof(uint16_t), lda, a_rows, a_cols, sa, batch);
  check_operand("B", h->device, B, sizeof(uint16_t), ldb, b_rows, b_cols, sb, batch);
  check_operand("C", h->device, C, sizeof(uint16_t), ldc, m, n, sc, batch);
  const float a = *static_cast<const float*>(alpha), b = *static_cast<const float*>(beta);
  const auto* pa = static_cast<const uint16_t*>(A);
  const auto* pb = static_cast<const uint16_t*>(B);
  auto* pc = static_cast<uint16_t*>(C);
  cuda_emulator::enqueue(h->device, [=] {
    std::vector<float> fa(size_t(a_rows) * a_cols), fb(size_t(b_rows) * b_cols), fc(size_t(m) * n);
    for (int i = 0; i < batch; ++i) {
      widen_matrix(t, pa + i * sa, lda, a_rows, a_cols, fa.data());
      widen_matrix(t, pb + i * sb, ldb, b_rows, b_cols, fb.data());
      if (b != 0.0f) widen_matrix(t, pc + i * sc, ldc, m, n, fc.data());  // beta 0: C is not read
      cblas_sgemm(CblasColMajor, trans(ta), trans(tb), m, n, k, a, fa.data(), std::max(1, a_rows), fb.data(),
                  std::max(1, b_rows), b, fc.data(), m);
      for (int j = 0; j < n; ++j)
        for (int r = 0; r < m; ++r) pc[i * sc + size_t(j) * ldc + r] = t.narrow(fc[size_t(j) * m + r]);
    }
  });
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasScalEx(cublasHandle_t h, int n, const void* alpha, cudaDataType alpha_type, void* x,
                            cudaDataType x_type, int incx, cudaDataType execution_type) {
  if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
  const HalfType t = half_type(x_type);
  if (!t.widen || alpha_type != CUDA_R_32F || execution_type != CUDA_R_32F) return CUBLAS_STATUS_NOT_SUPPORTED;
  if (!alpha || n < 0 || incx <= 0) return CUBLAS_STATUS_INVALID_VALUE;
  if (n == 0) return CUBLAS_STATUS_SUCCESS;
  auto* p = static_cast<uint16_t*>(x);
  if (!cuda_emulator::is_device_memory(p, sizeof(uint16_t) * (static_cast<size_t>(n - 1) * incx + 1), h->device))
    misuse("cuBLAS SCAL: x (%p, %d elements, increment %d) is not within memory of cuda:%d", x, n, incx, h->device);
  const float a = *static_cast<const float*>(alpha);
  cuda_emulator::enqueue(h->device, [=] {
    for (int i = 0; i < n; ++i) p[size_t(i) * incx] = t.narrow(a * t.widen(p[size_t(i) * incx]));
  });
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSscal(cublasHandle_t h, int n, const float* alpha, float* x, int incx) {
  return scal(h, n, alpha, x, incx, cblas_sscal);
}

cublasStatus_t cublasDscal(cublasHandle_t h, int n, const double* alpha, double* x, int incx) {
  return scal(h, n, alpha, x, incx, cblas_dscal);
}

}  // extern "C"
