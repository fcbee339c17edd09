// The math of the INDEX and SCAN kinds, written once for the host kernels
// and the CUDA plugin: SCATTER's reductions and the scans' steps are the
// elementwise functors (elementwise_math.hpp), so integers wrap and NaN
// propagates exactly as in add, mul, maximum and minimum; CUMMAX and
// CUMMIN's rule of who takes over.
#pragma once

#include <porta/ops.h>

#include <type_traits>

#include "elementwise_math.hpp"

namespace porta::math {

// SCATTER: what self[p'] becomes from (self[p'], src[p]) under the
// porta_scatter_reduce R; AMAX and AMIN give NaN when either is NaN.
template <int R>
struct ScatterReduce {
  template <class T>
  PORTA_HD T operator()(T self, T src) const {
    if constexpr (R == PORTA_SCATTER_ASSIGN)
      return src;
    else if constexpr (R == PORTA_SCATTER_SUM)
      return Math<PORTA_OP_ADD>{}(self, src);
    else if constexpr (R == PORTA_SCATTER_PROD)
      return Math<PORTA_OP_MUL>{}(self, src);
    else if constexpr (R == PORTA_SCATTER_AMAX)
      return Math<PORTA_OP_MAXIMUM>{}(self, src);
    else
      return Math<PORTA_OP_MINIMUM>{}(self, src);
  }
};

// The running value of a scan over T: double for floats (each result is
// rounded from it), T itself (wrapping) for int64.
template <class T>
using scan_acc_t = std::conditional_t<std::is_floating_point_v<T>, double, T>;

// CUMSUM / CUMPROD: the running value's start and its step.
template <uint32_t Op>
struct ScanStep {
  template <class A>
  PORTA_HD static A start() {
    return A(Op == PORTA_OP_CUMPROD ? 1 : 0);
  }
  template <class A>
  PORTA_HD A operator()(A acc, A x) const {
    if constexpr (Op == PORTA_OP_CUMPROD)
      return Math<PORTA_OP_MUL>{}(acc, x);
    else
      return Math<PORTA_OP_ADD>{}(acc, x);
  }
};

// CUMMAX / CUMMIN: whether x, met after the running value `best`, takes
// over (PyTorch's rule: NaN beats every number and a later NaN an earlier
// one; a later equal element wins).
template <uint32_t Op, class T>
PORTA_HD bool takes_over(T best, T x) {
  if constexpr (std::is_floating_point_v<T>) {
    if (x != x) return true;
    if (best != best) return false;
  }
  return Op == PORTA_OP_CUMMAX ? x >= best : x <= best;
}

}  // namespace porta::math
