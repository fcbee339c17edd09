// The BLAS entry points GEMM uses, resolved by load_blas() (NULL: not loaded).
#pragma once

#include <cstdint>

#ifdef PORTA_HAVE_CBLAS
#include <cblas.h>
#endif

namespace porta::host {

struct BlasFunctions {
#ifdef PORTA_HAVE_CBLAS
  decltype(&cblas_sgemm) sgemm = nullptr;
  decltype(&cblas_dgemm) dgemm = nullptr;
#endif
  void (*set_num_threads)(int) = nullptr;  // openblas_set_num_threads
  // oneDNN's row-major sgemm (dnnl_sgemm: transa, transb, M, N, K, alpha, A,
  // lda, B, ldb, beta, C, ldc; 0 is success), float32 GEMM's first choice,
  // called inside onednn::OneOmpThread (the calling thread alone: OpenMP
  // starts no team).
  int (*dnnl_sgemm)(char, char, int64_t, int64_t, int64_t, float, const float*, int64_t, const float*, int64_t, float,
                    float*, int64_t) = nullptr;
};

extern BlasFunctions g_blas;

}  // namespace porta::host
