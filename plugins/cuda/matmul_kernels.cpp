// MATMUL through cuBLAS: C[b] = alpha A[b] @ B[b] + beta C[b] for row-major C.
// cuBLAS is column-major, so it computes C^T = B^T A^T: a row-major operand
// is its own transpose in column-major terms (no transposition), a
// transposed one (stride[1] == 1) is passed with CUBLAS_OP_T. A batch stride
// of 0 reuses one matrix for every batch. TF32: see devices.hpp.
#include <cublas_v2.h>

#include <climits>
#include <mutex>
#include <type_traits>

#include "kernels.hpp"

namespace porta::cuda {
namespace {

// One operand as cuBLAS sees it: op and leading dimension, for a matrix of
// `rows` x `cols` (row-major view) with element strides rs, cs.
struct Operand {
  cublasOperation_t op;
  int64_t ld;
};

Operand operand(const DLTensor& t, int64_t rows, int64_t cols) {
  const int64_t rs = t.strides ? t.strides[1] : cols, cs = t.strides ? t.strides[2] : 1;
  if (cs == 1) return {CUBLAS_OP_N, rows == 1 ? (cols > 1 ? cols : 1) : rs};  // row-major: ld is the row stride
  return {CUBLAS_OP_T, cols == 1 ? (rows > 1 ? rows : 1) : cs};               // transposed: ld is the column stride
}

bool fits_int(int64_t v) { return v >= 0 && v <= INT_MAX; }

template <class T>
porta_status matmul_kernel(const porta_kernel_call* c) {
  Launch l;
  if (porta_status st = begin(c, &l); st != PORTA_OK) return st;
  const DLTensor &A = c->inputs[0], &B = c->inputs[1], &C = c->outputs[0];
  if (A.ndim != 3 || B.ndim != 3 || C.ndim != 3)
    return reportf(PORTA_ERROR_INVALID_ARGUMENT,
                   "matmul: expected 3-D [batch, M, K] @ [batch, K, N], got %d-D and %d-D", A.ndim, B.ndim);
  double a_scale = 1, b_scale = 0;
  if (!plugin::matmul_scales(c, &a_scale, &b_scale))
    return report(PORTA_ERROR_INVALID_ARGUMENT, "matmul: porta_matmul_params is too small (its struct_size)");
  const T alpha = static_cast<T>(a_scale), beta = static_cast<T>(b_scale);
  const int64_t batch = A.shape[0], M = A.shape[1], K = A.shape[2], N = B.shape[2];
  const Operand a = operand(A, M, K), b = operand(B, K, N);
  const int64_t stride_a = A.strides ? A.strides[0] : M * K, stride_b = B.strides ? B.strides[0] : K * N;
  if (!fits_int(M) || !fits_int(N) || !fits_int(K) || !fits_int(batch) || !fits_int(a.ld) || !fits_int(b.ld))
    return reportf(PORTA_ERROR_INVALID_ARGUMENT,
                   "matmul: [%lld, %lld, %lld] @ [.., %lld, %lld] exceeds cuBLAS's 32-bit sizes", (long long)batch,
                   (long long)M, (long long)K, (long long)K, (long long)N);
  const T* pa = data_of<const T>(A);
  const T* pb = data_of<const T>(B);
  T* pc = data_of<T>(C);

  std::lock_guard<std::mutex> lock(l.device->blas_mutex);
  cublasHandle_t h = nullptr;
  if (porta_status st = blas_handle(*l.device, &h); st != PORTA_OK) return st;
  // cuBLAS takes NULL for the legacy default stream.
  cudaStream_t stream = l.stream == cudaStreamLegacy ? nullptr : l.stream;
  if (porta_status st = check(cublasSetStream(h, stream), "matmul: cublasSetStream"); st != PORTA_OK) return st;
  if (K == 0) {  // an empty sum: C = beta C
    const int64_t n = batch * M * N;
    if (beta == T(0))
      return check(cudaMemsetAsync(pc, 0, sizeof(T) * static_cast<size_t>(n), l.stream), "matmul: cudaMemsetAsync");
    if (!fits_int(n)) return report(PORTA_ERROR_INVALID_ARGUMENT, "matmul: C exceeds cuBLAS's 32-bit sizes");
    if constexpr (std::is_same_v<T, float>)
      return check(cublasSscal(h, int(n), &beta, pc, 1), "matmul: cublasSscal");
    else
      return check(cublasDscal(h, int(n), &beta, pc, 1), "matmul: cublasDscal");
  }
  // Column-major C^T [N x M] = op(B^T) [N x K] * op(A^T) [K x M].
  cublasStatus_t s;
  if constexpr (std::is_same_v<T, float>)
    s = cublasSgemmStridedBatched(h, b.op, a.op, int(N), int(M), int(K), &alpha, pb, int(b.ld), stride_b, pa, int(a.ld),
                                  stride_a, &beta, pc, int(N), M * N, int(batch));
  else
    s = cublasDgemmStridedBatched(h, b.op, a.op, int(N), int(M), int(K), &alpha, pb, int(b.ld), stride_b, pa, int(a.ld),
                                  stride_a, &beta, pc, int(N), M * N, int(batch));
  return check(s, std::is_same_v<T, float> ? "matmul: cublasSgemmStridedBatched" : "matmul: cublasDgemmStridedBatched");
}

}  // namespace

porta_kernel_fn find_matmul_kernel(uint32_t op, int dtype) {
  if (op != PORTA_OP_MATMUL) return nullptr;
  if (dtype == kDtFloat32) return &matmul_kernel<float>;
  if (dtype == kDtFloat64) return &matmul_kernel<double>;
  return nullptr;
}

}  // namespace porta::cuda
