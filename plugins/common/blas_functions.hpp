// The BLAS entry points GEMM uses, resolved by load_blas() (NULL: not loaded).
#pragma once

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
};

extern BlasFunctions g_blas;

}  // namespace porta::host
