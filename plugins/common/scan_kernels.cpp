// Host kernels of the SCAN kind: inclusive CUMSUM and CUMPROD along the
// middle axis of contiguous [outer, n, inner], in parallel over the
// (outer, inner) lines, each walked in order (forward or reversed), four
// side by side. Floats accumulate in double and round each result; int64
// wraps (index_math.hpp).
// CUMMAX / CUMMIN keep the running value and where it came from; lines of
// [outer, n, inner > 1] advance together, a row of n at a time.
#include <algorithm>
#include <cstdint>

#include "dtype_dispatch.hpp"
#include "index_call.hpp"
#include "index_math.hpp"
#include "strided_loop.hpp"

namespace porta::host {
namespace {

// Lines walked side by side by one thread: with eight, their rows (a power
// of two bytes apart) filled the same sets of the L1 cache and ran slower
// than one line at a time; two, four and six ran alike (in one comparison,
// [64, 4096] float32 on 2 threads: 0.100-0.105 ms against 0.128 one by one).
constexpr int64_t kLines = 4;

// Lines [line, line + Lines) walked side by side: each keeps its own
// accumulator and its own order of operations (every result is the one a
// walk of that line alone gives), while their chains of dependent additions
// overlap in the CPU instead of waiting on each other (one line at a time,
// [64, 4096] float32 waits ~3 cycles per element on the double add).
// A block of kBlock positions' results goes to a buffer and then to y
// together. Stored straight into y, a store to one line held up the next
// line's load at the same offset of another page (4K aliasing: rows a power
// of two bytes long); the buffer lies half a page from the first line's
// place in x for the same reason (on a worker thread's stack it had landed
// on that offset: 2 threads were slower than one). Tried and slower: the
// block copied in as well and scanned in place, the buffer position-major.
template <uint32_t Op, class T, int64_t Lines>
void scan_lines(const T* x, T* y, int64_t line, int64_t lines, const plugin::ScanCall& s) {
  using A = math::scan_acc_t<T>;
  constexpr int64_t kBlock = 64;
  const math::ScanStep<Op> step;
  const int64_t n = s.n, inner = s.inner, stride = s.reverse ? -inner : inner;
  const int64_t count = Lines > 0 ? Lines : lines;
  if (n == 0) return;
  int64_t base[kLines];
  A acc[kLines];
  for (int64_t k = 0; k < count; ++k) {
    base[k] = ((line + k) / inner) * n * inner + (line + k) % inner + (s.reverse ? (n - 1) * inner : 0);
    acc[k] = math::ScanStep<Op>::template start<A>();
  }
  constexpr uintptr_t kPage = 4096;
  using Row = T[kBlock];
  alignas(64) T room[kLines * kBlock + kPage / sizeof(T)];
  const uintptr_t want = (reinterpret_cast<uintptr_t>(x + base[0]) + kPage / 2) % kPage;
  Row* out = reinterpret_cast<Row*>(room + (want - reinterpret_cast<uintptr_t>(room)) % kPage / sizeof(T));
  for (int64_t j0 = 0; j0 < n; j0 += kBlock) {
    const int64_t w = std::min(kBlock, n - j0);
    for (int64_t j = 0; j < w; ++j) {
      for (int64_t k = 0; k < count; ++k) {
        acc[k] = step(acc[k], static_cast<A>(x[base[k] + (j0 + j) * stride]));
        out[k][j] = static_cast<T>(acc[k]);
      }
    }
    for (int64_t k = 0; k < count; ++k) {
      T* dst = y + base[k] + j0 * stride;
      if (stride == 1) {  // lines of contiguous values, forward: vector stores
        std::copy_n(out[k], w, dst);
      } else {
        for (int64_t j = 0; j < w; ++j) dst[j * stride] = out[k][j];
      }
    }
  }
}

template <uint32_t Op, class T>
porta_status scan_kernel(const porta_kernel_call* c) {
  plugin::ScanCall s;
  char msg[256];
  if (!plugin::scan_call(Op, c, &s, msg, sizeof msg)) return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
  const T* x = data_of<const T>(c->inputs[0]);
  T* y = data_of<T>(c->outputs[0]);
  parallel_for(s.outer * s.inner, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(s.n, 1)),
               [&](int64_t b, int64_t e) {
                 int64_t line = b;
                 for (; line + kLines <= e; line += kLines) scan_lines<Op, T, kLines>(x, y, line, kLines, s);
                 if (line < e) scan_lines<Op, T, 0>(x, y, line, e - line, s);
               });
  return PORTA_OK;
}

template <uint32_t Op, class T>
porta_status extreme_scan_kernel(const porta_kernel_call* c) {
  plugin::ScanCall s;
  char msg[256];
  if (!plugin::scan_call(Op, c, &s, msg, sizeof msg)) return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
  const T* x = data_of<const T>(c->inputs[0]);
  T* y = data_of<T>(c->outputs[0]);
  int64_t* where = data_of<int64_t>(c->outputs[1]);
  const int64_t n = s.n, inner = s.inner;
  if (inner == 1) {  // lines of n contiguous values
    parallel_for(s.outer, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(n, 1)), [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        const T* line = x + o * n;
        T best = line[0];
        int64_t from = 0;
        for (int64_t j = 0; j < n; ++j) {
          if (math::takes_over<Op>(best, line[j])) best = line[j], from = j;
          y[o * n + j] = best;
          where[o * n + j] = from;
        }
      }
    });
    return PORTA_OK;
  }
  // Work items: (outer, block of up to kBlock inner columns), each walking j
  // in order with its columns side by side.
  constexpr int64_t kBlock = 256;
  const int64_t blocks = (inner + kBlock - 1) / kBlock;
  parallel_for(s.outer * blocks, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(n * std::min(inner, kBlock), 1)),
               [&](int64_t b, int64_t e) {
                 T best[kBlock];
                 int64_t from[kBlock];
                 for (int64_t item = b; item < e; ++item) {
                   const int64_t o = item / blocks, i0 = (item % blocks) * kBlock, w = std::min(kBlock, inner - i0);
                   const int64_t base = o * n * inner + i0;
                   for (int64_t j = 0; j < n; ++j) {
                     const int64_t at = base + j * inner;
                     for (int64_t i = 0; i < w; ++i) {
                       if (j == 0 || math::takes_over<Op>(best[i], x[at + i])) best[i] = x[at + i], from[i] = j;
                       y[at + i] = best[i];
                       where[at + i] = from[i];
                     }
                   }
                 }
               });
  return PORTA_OK;
}

// The kernel of Op for dtype index `dtype`: the dtypes of Op's row of the op table.
template <uint32_t Op>
porta_kernel_fn scan_for(int dtype) {
  return visit_dtype(dtype, [&]<int DT>() -> porta_kernel_fn {
    if constexpr (!plugin::op_takes_dtype(Op, DT))
      return nullptr;
    else if constexpr (Op == PORTA_OP_CUMMAX || Op == PORTA_OP_CUMMIN)
      return &extreme_scan_kernel<Op, storage_t<DT>>;
    else
      return &scan_kernel<Op, storage_t<DT>>;
  });
}

}  // namespace

porta_kernel_fn find_scan_kernel(uint32_t op, int dtype) {
  return lookup_kind<PORTA_OP_KIND_SCAN, PORTA_OP_KIND_RUNNING_EXTREME>(
      op, [dtype]<uint32_t Op>(op_id<Op>) {
        static_assert(op_in<Op, PORTA_OP_CUMSUM, PORTA_OP_CUMPROD, PORTA_OP_CUMMAX, PORTA_OP_CUMMIN>,
                      "a SCAN or RUNNING_EXTREME row scan_for does not serve");
        return scan_for<Op>(dtype);
      });
}

}  // namespace porta::host
