// OpenBLAS at plugin initialize and oneDNN's sgemm at the first float32
// GEMM (onednn.hpp), loaded rather than linked. OpenBLAS for one reason: it
// fixes how long its idle threads spin (OPENBLAS_THREAD_TIMEOUT) when it is
// loaded, and its default spin competes with Porta's own pool for the cores
// between GEMMs (about 6% of a training step on 2 cores); loading it
// ourselves lets us choose first. oneDNN for float32 GEMM, which it runs 1.3
// to 3 times as fast as OpenBLAS 0.3.21 at a network's small and middle
// sizes (docs/benchmarks.md). Without OpenBLAS, GEMM uses a built-in loop;
// without oneDNN, float32 GEMM uses OpenBLAS.
#pragma once

namespace porta::host {

// Loads OpenBLAS once (later calls do nothing) with `threads` threads,
// setting OPENBLAS_THREAD_TIMEOUT=4 unless the environment already sets it.
// Logs a warning through the host table when it cannot be loaded.
void load_blas(int threads);
// Whether oneDNN's sgemm is there, loading oneDNN (onednn.hpp) at the
// first call: the first float32 GEMM.
bool dnnl_loaded();
// Gives OpenBLAS the pool's thread count (num_threads()) when it changed since
// the last call; GEMM calls it first.
void sync_blas_threads();
// Gives OpenBLAS `n` threads when it has another count (1 while the pool runs
// several single-threaded GEMMs side by side).
void set_blas_threads(int n);

}  // namespace porta::host
