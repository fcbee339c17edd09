#include "gemm_blocks.hpp"

#include <algorithm>
#include <atomic>

#include "thread_pool.hpp"

namespace porta::host {

// The batch side by side when it splits evenly across the threads (or is
// long enough that the last round's imbalance is small). Measured on
// [32, 128, 64] @ [32, 64, 128], 2 threads: 0.84 ms one after another
// (threading a small GEMM costs more than it gains), 0.52 ms on one thread,
// half that side by side. Else blocks of at least 16 rows or columns and
// 2^16 multiply-adds each, and one per thread: each block is a oneDNN call
// that packs its operands, and more, smaller blocks repacked them for
// nothing (an LSTM step's [32, 512] @ [512, 128] on 2 threads: 22 -> 18 us).
GemmBlocks gemm_blocks(int64_t batch, int64_t M, int64_t N, int64_t K, int threads) {
  GemmBlocks g;
  g.batch = batch, g.M = M, g.N = N;
  const bool side_by_side = threads > 1 && batch >= threads && (batch % threads == 0 || batch >= 4 * threads);
  g.whole = threads == 1 || side_by_side;
  g.rows = M >= N;
  const int64_t side = g.rows ? M : N;
  g.per = side, g.last = side;
  if (g.whole || side == 0) return g;
  g.per = std::max<int64_t>(
      {16, (int64_t{1} << 16) / std::max<int64_t>(1, (g.rows ? N : M) * K), (side + threads - 1) / threads});
  g.count = (side + g.per - 1) / g.per;
  g.last = side - g.per * (g.count - 1);
  return g;
}

bool run_gemm_blocks(const GemmBlocks& g,
                     const std::function<bool(int64_t, int64_t, int64_t, int64_t, int64_t)>& block) {
  std::atomic<bool> ok{true};
  if (g.whole) {
    parallel_for(g.batch, 1, [&](int64_t b0, int64_t b1) {
      for (int64_t b = b0; b < b1 && ok; ++b)
        if (!block(b, 0, g.M, 0, g.N)) ok = false;
    });
    return ok;
  }
  for (int64_t b = 0; b < g.batch && ok; ++b)
    parallel_for(g.count, 1, [&](int64_t k0, int64_t k1) {
      for (int64_t k = k0; k < k1 && ok; ++k) {
        const int64_t s0 = k * g.per, s1 = std::min(s0 + g.per, g.rows ? g.M : g.N);
        if (!(g.rows ? block(b, s0, s1, 0, g.N) : block(b, 0, g.M, s0, s1))) ok = false;
      }
    });
  return ok;
}

}  // namespace porta::host
