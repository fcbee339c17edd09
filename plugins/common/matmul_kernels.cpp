// Host kernel of the MATMUL kind: oneDNN's sgemm for float32 and OpenBLAS
// (see blas_loader.hpp) when they are loaded, else a row-parallel loop. Layout rules are those of
// PORTA_OP_KIND_MATMUL.
#include <algorithm>
#include <atomic>
#include <type_traits>
#include <vector>

#include "blas_functions.hpp"
#include "blas_loader.hpp"
#include "dtype_dispatch.hpp"
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
  g_blas.omp_set_num_threads(1);
  return g_blas.dnnl_sgemm(a.row_major() ? 'N' : 'T', b.row_major() ? 'N' : 'T', m1 - m0, n1 - n0, K, alpha,
                           a.base + m0 * a.rs, a.ld(), b.base + n0 * b.cs, b.ld(), beta, c + m0 * ldc + n0, ldc) == 0;
}

// Whether a batch of GEMMs runs as single-threaded GEMMs side by side on the
// pool rather than one after another, each on every thread: when the batch
// splits evenly across the threads (or is long enough that the last round's
// imbalance is small). Measured on [32, 128, 64] @ [32, 64, 128], 2 threads:
// 0.84 ms one after another (threading a small GEMM costs more than it gains),
// 0.52 ms on one thread, half that side by side.
bool batch_side_by_side(int64_t batch, int threads) {
  return threads > 1 && batch >= threads && (batch % threads == 0 || batch >= 4 * threads);
}

// float32 GEMMs on oneDNN, every call single-threaded on Porta's pool: a
// batch side by side, or each GEMM cut along its longer side into a block
// per thread. Its own OpenMP threads would spin between GEMMs against the
// pool's (a GPT training step 42 -> 56 ms on 2 cores, docs/benchmarks.md).
// False when oneDNN refused an operand (then nothing was written).
bool dnnl_matmul(const DLTensor& A, const DLTensor& B, const DLTensor& C, float alpha, float beta) {
  const int64_t batch = A.shape[0], M = A.shape[1], K = A.shape[2], N = B.shape[2];
  float* out = data_of<float>(C);
  const int threads = num_threads();
  std::atomic<bool> ok{true};
  if (threads == 1 || batch_side_by_side(batch, threads)) {
    parallel_for(batch, 1, [&](int64_t b0, int64_t b1) {
      for (int64_t i = b0; i < b1 && ok; ++i)
        if (!dnnl_block(matrix<float>(A, i), matrix<float>(B, i), out + i * C.strides[0], N, 0, M, 0, N, K, alpha, beta))
          ok = false;
    });
    return ok;
  }
  // Blocks of at least 16 rows or columns, and 2^16 multiply-adds each, and
  // one per thread: each block is a oneDNN call that packs its operands, and
  // more, smaller blocks repacked them for nothing (an LSTM step's
  // [32, 512] @ [512, 128] on 2 threads: 22 -> 18 us).
  const bool rows = M >= N;
  const int64_t side = rows ? M : N;
  const int64_t grain = std::max<int64_t>(
      {16, (int64_t{1} << 16) / std::max<int64_t>(1, (rows ? N : M) * K), (side + threads - 1) / threads});
  for (int64_t i = 0; i < batch && ok; ++i) {
    const Mat<float> a = matrix<float>(A, i), b = matrix<float>(B, i);
    float* c = out + i * C.strides[0];
    parallel_for(side, grain, [&](int64_t s0, int64_t s1) {
      if (!(rows ? dnnl_block(a, b, c, N, s0, s1, 0, N, K, alpha, beta)
                 : dnnl_block(a, b, c, N, 0, M, s0, s1, K, alpha, beta)))
        ok = false;
    });
  }
  return ok;
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
  if (batch_side_by_side(batch, threads)) {
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
  return nullptr;
}

}  // namespace porta::host
