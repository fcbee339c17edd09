# Optional BLAS for the host kernels and the benchmarks: OpenBLAS from
# Debian's libopenblas-dev. Sets PORTA_HAVE_BLAS, BLAS_LIBRARIES and
# PORTA_CBLAS_INCLUDE_DIR. Without it GEMM falls back to a built-in loop
# (scripts/gpu-check.sh may build on machines that lack OpenBLAS).
set(BLA_VENDOR OpenBLAS)
find_package(BLAS QUIET)
find_path(PORTA_CBLAS_INCLUDE_DIR cblas.h PATHS /usr/include/x86_64-linux-gnu/openblas-pthread /usr/include/openblas)
if(BLAS_FOUND AND PORTA_CBLAS_INCLUDE_DIR)
  set(PORTA_HAVE_BLAS ON)
else()
  set(PORTA_HAVE_BLAS OFF)
  message(WARNING "No OpenBLAS found: GEMM uses Porta's built-in loop (slow). Install libopenblas-dev.")
endif()
