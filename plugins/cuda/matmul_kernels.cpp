// MATMUL through cuBLAS: C[b] = alpha A[b] @ B[b] + beta C[b] for row-major C.
// cuBLAS is column-major, so it computes C^T = B^T A^T: a row-major operand
// is its own transpose in column-major terms (no transposition), a
// transposed one (stride[1] == 1) is passed with CUBLAS_OP_T. A batch stride
// of 0 reuses one matrix for every batch. TF32: see devices.hpp. float16 and
// bfloat16 multiply natively (cublasGemmStridedBatchedEx, float32 compute);
// every other op of theirs runs through float32 in the core.
#include <cublas_v2.h>

#include <climits>
#include <mutex>

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

// One GEMM's cuBLAS arguments: the element types and the calls for them.
// float32 and float64 compute in their own type; float16 and bfloat16 go
// through cublasGemmStridedBatchedEx with float32 compute (and float32 alpha,
// beta), rounding C once, as PyTorch's half GEMMs do.
template <int Dt>
struct Blas;
// float32 and float64: cuBLAS's typed calls, `Gemm` (cublas?gemmStridedBatched) and `Scal` (cublas?scal).
template <class T, auto Gemm, auto Scal, const char* Name>
struct TypedBlas {
  using Element = T;
  using Scalar = T;
  static constexpr const char* gemm_name = Name;
  static cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                             const Scalar* alpha, const void* a, int lda, long long sa, const void* b, int ldb,
                             long long sb, const Scalar* beta, void* c, int ldc, long long sc, int batch) {
    return Gemm(h, ta, tb, m, n, k, alpha, static_cast<const T*>(a), lda, sa, static_cast<const T*>(b), ldb, sb, beta,
                static_cast<T*>(c), ldc, sc, batch);
  }
  static cublasStatus_t scal(cublasHandle_t h, int n, const Scalar* alpha, void* x) {
    return Scal(h, n, alpha, static_cast<T*>(x), 1);
  }
};
constexpr char kSgemmName[] = "matmul: cublasSgemmStridedBatched";
constexpr char kDgemmName[] = "matmul: cublasDgemmStridedBatched";
template <>
struct Blas<kDtFloat32> : TypedBlas<float, cublasSgemmStridedBatched, cublasSscal, kSgemmName> {};
template <>
struct Blas<kDtFloat64> : TypedBlas<double, cublasDgemmStridedBatched, cublasDscal, kDgemmName> {};
template <cudaDataType_t Type>
struct HalfBlas {
  using Element = uint16_t;
  using Scalar = float;
  static constexpr const char* gemm_name = "matmul: cublasGemmStridedBatchedEx";
  static cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                             const Scalar* alpha, const void* a, int lda, long long sa, const void* b, int ldb,
                             long long sb, const Scalar* beta, void* c, int ldc, long long sc, int batch) {
    return cublasGemmStridedBatchedEx(h, ta, tb, m, n, k, alpha, a, Type, lda, sa, b, Type, ldb, sb, beta, c, Type, ldc,
                                      sc, batch, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  }
  static cublasStatus_t scal(cublasHandle_t h, int n, const Scalar* alpha, void* x) {
    return cublasScalEx(h, n, alpha, CUDA_R_32F, x, Type, 1, CUDA_R_32F);
  }
};
template <>
struct Blas<kDtFloat16> : HalfBlas<CUDA_R_16F> {};
template <>
struct Blas<kDtBFloat16> : HalfBlas<CUDA_R_16BF> {};

template <int Dt>
porta_status matmul_kernel(const porta_kernel_call* c) {
  using B = Blas<Dt>;
  using T = typename B::Element;
  using S = typename B::Scalar;
  Launch l;
  if (porta_status st = begin(c, &l); st != PORTA_OK) return st;
  const DLTensor &A = c->inputs[0], &Bm = c->inputs[1], &C = c->outputs[0];
  if (A.ndim != 3 || Bm.ndim != 3 || C.ndim != 3)
    return reportf(PORTA_ERROR_INVALID_ARGUMENT,
                   "matmul: expected 3-D [batch, M, K] @ [batch, K, N], got %d-D and %d-D", A.ndim, Bm.ndim);
  double a_scale = 1, b_scale = 0;
  if (!plugin::matmul_scales(c, &a_scale, &b_scale))
    return report(PORTA_ERROR_INVALID_ARGUMENT, "matmul: porta_matmul_params is too small (its struct_size)");
  const S alpha = static_cast<S>(a_scale), beta = static_cast<S>(b_scale);
  const int64_t batch = A.shape[0], M = A.shape[1], K = A.shape[2], N = Bm.shape[2];
  const Operand a = operand(A, M, K), b = operand(Bm, K, N);
  const int64_t stride_a = A.strides ? A.strides[0] : M * K, stride_b = Bm.strides ? Bm.strides[0] : K * N;
  if (!fits_int(M) || !fits_int(N) || !fits_int(K) || !fits_int(batch) || !fits_int(a.ld) || !fits_int(b.ld))
    return reportf(PORTA_ERROR_INVALID_ARGUMENT,
                   "matmul: [%lld, %lld, %lld] @ [.., %lld, %lld] exceeds cuBLAS's 32-bit sizes", (long long)batch,
                   (long long)M, (long long)K, (long long)K, (long long)N);
  const T* pa = data_of<const T>(A);
  const T* pb = data_of<const T>(Bm);
  T* pc = data_of<T>(C);

  std::lock_guard<std::mutex> lock(l.device->blas_mutex);
  cublasHandle_t h = nullptr;
  if (porta_status st = blas_handle(*l.device, &h); st != PORTA_OK) return st;
  // cuBLAS takes NULL for the legacy default stream.
  cudaStream_t stream = l.stream == cudaStreamLegacy ? nullptr : l.stream;
  if (porta_status st = check(cublasSetStream(h, stream), "matmul: cublasSetStream"); st != PORTA_OK) return st;
  if (K == 0) {  // an empty sum: C = beta C
    const int64_t n = batch * M * N;
    if (beta == S(0))
      return check(cudaMemsetAsync(pc, 0, sizeof(T) * static_cast<size_t>(n), l.stream), "matmul: cudaMemsetAsync");
    if (!fits_int(n)) return report(PORTA_ERROR_INVALID_ARGUMENT, "matmul: C exceeds cuBLAS's 32-bit sizes");
    return check(B::scal(h, int(n), &beta, pc), "matmul: cuBLAS SCAL");
  }
  // Column-major C^T [N x M] = op(B^T) [N x K] * op(A^T) [K x M].
  return check(B::gemm(h, b.op, a.op, int(N), int(M), int(K), &alpha, pb, int(b.ld), stride_b, pa, int(a.ld), stride_a,
                       &beta, pc, int(N), M * N, int(batch)),
               B::gemm_name);
}

}  // namespace

porta_kernel_fn find_matmul_kernel(uint32_t op, int dtype) {
  if (op != PORTA_OP_MATMUL) return nullptr;
  switch (dtype) {
    case kDtFloat32:
      return &matmul_kernel<kDtFloat32>;
    case kDtFloat64:
      return &matmul_kernel<kDtFloat64>;
    case kDtFloat16:
      return &matmul_kernel<kDtFloat16>;
    case kDtBFloat16:
      return &matmul_kernel<kDtBFloat16>;
    default:
      return nullptr;
  }
}

}  // namespace porta::cuda
