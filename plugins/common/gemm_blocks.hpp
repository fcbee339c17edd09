// How a host GEMM kernel cuts a batch of GEMMs (C[b] = A[b] @ B[b], each
// M x N with inner dimension K) into blocks that each run single-threaded on
// Porta's pool: oneDNN's own OpenMP threads would spin between GEMMs against
// the pool's (a GPT training step 42 -> 56 ms on 2 cores, docs/benchmarks.md).
// One policy for every dtype (matmul_kernels.cpp, matmul_bf16_kernels.cpp).
#pragma once

#include <cstdint>
#include <functional>

namespace porta::host {

struct GemmBlocks {
  int64_t batch = 0, M = 0, N = 0;
  bool whole = true;  // each GEMM is one block, the batch's GEMMs side by side
  bool rows = true;   // else each GEMM is cut along its rows (M >= N) or its columns
  int64_t per = 0;    // rows or columns of each block, but the last
  int64_t count = 1;  // blocks per GEMM
  int64_t last = 0;   // rows or columns of the last block
  int64_t block_m(bool is_last) const { return whole || !rows ? M : (is_last ? last : per); }
  int64_t block_n(bool is_last) const { return whole || rows ? N : (is_last ? last : per); }
};

// The cut for `threads` threads.
GemmBlocks gemm_blocks(int64_t batch, int64_t M, int64_t N, int64_t K, int threads);

// Calls block(b, m0, m1, n0, n1) for every block of every GEMM (C[b]'s rows
// [m0, m1) and columns [n0, n1)) on the pool; false when a call returned
// false (the blocks not yet started are then skipped).
bool run_gemm_blocks(const GemmBlocks& g,
                     const std::function<bool(int64_t, int64_t, int64_t, int64_t, int64_t)>& block);

}  // namespace porta::host
