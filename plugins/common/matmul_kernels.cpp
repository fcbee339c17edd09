// Host kernel of the MATMUL kind: oneDNN's sgemm for float32 and OpenBLAS
// (see blas_loader.hpp) when they are loaded, else a row-parallel loop. Layout rules are those of
// PORTA_OP_KIND_MATMUL.
#include <algorithm>
#include <type_traits>
#include <vector>

#include "blas_functions.hpp"
#include "blas_loader.hpp"
#include "dtype_dispatch.hpp"
#include "gemm_blocks.hpp"
#include "onednn.hpp"
#include "strided_loop.hpp"
#include "thread_pool.hpp"

namespace porta::host {
namespace {

// One operand matrix: element (r, c) at base[r * rs + c * cs].
template <class T>
struct Mat {
  const T* base;
  int64_t rs, cs;
  bool row_major() const { return cs == 1; }
  int64_t ld() const { return row_major() ? rs : cs; }
};

template <class T>
Mat<T> matrix(const DLTensor& t, int64_t batch) {
  return Mat<T>{data_of<T>(t) + batch * t.strides[0], t.strides[1], t.strides[2]};
}

template <class T>
void gemm_loop(const Mat<T>& a, const Mat<T>& b, T* c, int64_t M, int64_t N, int64_t K, T alpha, T beta) {
  parallel_for(M, 16, [&](int64_t r0, int64_t r1) {
    std::vector<T> row(static_cast<size_t>(N));
    for (int64_t i = r0; i < r1; ++i) {
      std::fill(row.begin(), row.end(), T(0));
      for (int64_t k = 0; k < K; ++k) {
        const T av = a.base[i * a.rs + k * a.cs];
        const T* brow = b.base + k * b.rs;
        for (int64_t j = 0; j < N; ++j) row[j] += av * brow[j * b.cs];
      }
      for (int64_t j = 0; j < N; ++j) c[i * N + j] = alpha * row[j] + (beta == T(0) ? T(0) : beta * c[i * N + j]);
    }
  });
}

template <class T>
void gemm(const Mat<T>& a, const Mat<T>& b, T* c, int64_t M, int64_t N, int64_t K, T alpha, T beta) {
#ifdef PORTA_HAVE_CBLAS
  const CBLAS_TRANSPOSE ta = a.row_major() ? CblasNoTrans : CblasTrans;
  const CBLAS_TRANSPOSE tb = b.row_major() ? CblasNoTrans : CblasTrans;
  if constexpr (std::is_same_v<T, float>) {
    if (g_blas.sgemm)
      return g_blas.sgemm(CblasRowMajor, ta, tb, M, N, K, alpha, a.base, a.ld(), b.base, b.ld(), beta, c, N);
  } else {
    if (g_blas.dgemm)
      return g_blas.dgemm(CblasRowMajor, ta, tb, M, N, K, alpha, a.base, a.ld(), b.base, b.ld(), beta, c, N);
  }
#endif
  gemm_loop(a, b, c, M, N, K, alpha, beta);
}

// oneDNN's sgemm of C's rows [m0, m1) and columns [n0, n1) (ldc: C's row
// length), on the calling thread alone; false when oneDNN refused it.
bool dnnl_block(const Mat<float>& a, const Mat<float>& b, float* c, int64_t ldc, int64_t m0, int64_t m1, int64_t n0,
                int64_t n1, int64_t K, float alpha, float beta) {
  const onednn::OneOmpThread one;
  return g_blas.dnnl_sgemm(a.row_major() ? 'N' : 'T', b.row_major() ? 'N' : 'T', m1 - m0, n1 - n0, K, alpha,
                           a.base + m0 * a.rs, a.ld(), b.base + n0 * b.cs, b.ld(), beta, c + m0 * ldc + n0, ldc) == 0;
}

// float32 GEMMs on oneDNN, every call single-threaded on Porta's pool, cut
// as gemm_blocks.hpp says. False when oneDNN refused an operand (then
// nothing was written).
bool dnnl_matmul(const DLTensor& A, const DLTensor& B, const DLTensor& C, float alpha, float beta) {
  const int64_t batch = A.shape[0], M = A.shape[1], K = A.shape[2], N = B.shape[2];
  float* out = data_of<float>(C);
  return run_gemm_blocks(gemm_blocks(batch, M, N, K, num_threads()),
                         [&](int64_t i, int64_t m0, int64_t m1, int64_t n0, int64_t n1) {
                           return dnnl_block(matrix<float>(A, i), matrix<float>(B, i), out + i * C.strides[0], N, m0,
                                             m1, n0, n1, K, alpha, beta);
                         });
}

template <class T>
porta_status matmul_kernel(const porta_kernel_call* c) {
  const DLTensor &A = c->inputs[0], &B = c->inputs[1], &C = c->outputs[0];
  double a_scale = 1, b_scale = 0;
  if (!plugin::matmul_scales(c, &a_scale, &b_scale))
    return report(PORTA_ERROR_INVALID_ARGUMENT, "matmul: porta_matmul_params is too small (its struct_size)");
  const T alpha = static_cast<T>(a_scale), beta = static_cast<T>(b_scale);
  const int64_t batch = A.shape[0], M = A.shape[1], K = A.shape[2], N = B.shape[2];
  if constexpr (std::is_same_v<T, float>)
    if (K > 0 && dnnl_loaded() && dnnl_matmul(A, B, C, alpha, beta)) return PORTA_OK;
  T* out = data_of<T>(C);
  const auto one = [&](int64_t i) {
    gemm(matrix<T>(A, i), matrix<T>(B, i), out + i * C.strides[0], M, N, K, alpha, beta);
  };
  const int threads = num_threads();
  if (threads > 1 && gemm_blocks(batch, M, N, K, threads).whole) {  // the batch side by side
    set_blas_threads(1);
    parallel_for(batch, 1, [&](int64_t b0, int64_t b1) {
      for (int64_t i = b0; i < b1; ++i) one(i);
    });
  } else {
    sync_blas_threads();
    for (int64_t i = 0; i < batch; ++i) one(i);
  }
  return PORTA_OK;
}

}  // namespace

porta_kernel_fn find_matmul_kernel(uint32_t op, int dtype) {
  if (op != PORTA_OP_MATMUL) return nullptr;
  if (dtype == kDtFloat32) return &matmul_kernel<float>;
  if (dtype == kDtFloat64) return &matmul_kernel<double>;
  if (dtype == kDtBFloat16) return find_bf16_matmul_kernel();
  return nullptr;
}

}  // namespace porta::host
