// SCAN kernels: inclusive CUMSUM and CUMPROD along the middle axis of
// contiguous [outer, n, inner], a thread per (outer, inner) line walking it
// in order (neighbouring threads read neighbouring columns when inner > 1).
// Floats accumulate in double and round each result, int64 wraps: the cpu
// plugin's steps (plugins/common/index_math.hpp), so results match bit for
// bit. CUMMAX / CUMMIN: the running value and where it came from, by the
// same rule (math::takes_over).
#include "dtype_dispatch.hpp"
#include "index_call.hpp"
#include "index_math.hpp"
#include "kernels.hpp"
#include "strided_index.cuh"

namespace porta::cuda {
namespace {

using host::storage_t;
using host::visit_dtype;

template <uint32_t Op, class T>
__global__ void __launch_bounds__(kThreads)
    scan_kernel(const T* x, T* y, int64_t lines, int64_t n, int64_t inner, bool reverse) {
  using A = math::scan_acc_t<T>;
  const math::ScanStep<Op> step;
  const int64_t first = reverse ? (n - 1) * inner : 0, stride = reverse ? -inner : inner;
  for (int64_t line = thread_index(); line < lines; line += thread_count()) {
    const int64_t base = (line / inner) * n * inner + line % inner + first;
    A acc = math::ScanStep<Op>::template start<A>();
    for (int64_t j = 0; j < n; ++j) {
      const int64_t at = base + j * stride;
      acc = step(acc, static_cast<A>(x[at]));
      y[at] = static_cast<T>(acc);
    }
  }
}

template <uint32_t Op, class T>
__global__ void __launch_bounds__(kThreads)
    extreme_scan_kernel(const T* x, T* y, int64_t* where, int64_t lines, int64_t n, int64_t inner) {
  for (int64_t line = thread_index(); line < lines; line += thread_count()) {
    const int64_t base = (line / inner) * n * inner + line % inner;
    T best = x[base];
    int64_t from = 0;
    for (int64_t j = 0; j < n; ++j) {
      const int64_t at = base + j * inner;
      if (j > 0 && math::takes_over<Op>(best, x[at])) best = x[at], from = j;
      y[at] = best;
      where[at] = from;
    }
  }
}

// A SCAN or RUNNING_EXTREME call: a thread per (outer, inner) line.
template <uint32_t Op, class T>
porta_status scan(const porta_kernel_call* c) {
  plugin::ScanCall s;
  char msg[256];
  if (!plugin::scan_call(Op, c, &s, msg, sizeof msg)) return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
  Launch l;
  if (porta_status st = begin(c, &l); st != PORTA_OK) return st;
  const int64_t lines = s.outer * s.inner;
  const T* x = data_of<const T>(c->inputs[0]);
  T* y = data_of<T>(c->outputs[0]);
  if constexpr (Op == PORTA_OP_CUMMAX || Op == PORTA_OP_CUMMIN)
    extreme_scan_kernel<Op, T><<<l.blocks(lines), kThreads, 0, l.stream>>>(x, y, data_of<int64_t>(c->outputs[1]),
                                                                             lines, s.n, s.inner);
  else
    scan_kernel<Op, T><<<l.blocks(lines), kThreads, 0, l.stream>>>(x, y, lines, s.n, s.inner, s.reverse);
  return launched(plugin::op_name(Op));
}

// The kernel of Op for dtype index `dtype`: the dtypes of Op's row of the op table.
template <uint32_t Op>
porta_kernel_fn scan_for(int dtype) {
  return visit_dtype(dtype, [&]<int DT>() -> porta_kernel_fn {
    if constexpr (plugin::op_takes_dtype(Op, DT))
      return &scan<Op, storage_t<DT>>;
    else
      return nullptr;
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

}  // namespace porta::cuda
