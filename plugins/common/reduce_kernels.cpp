// Host kernels of the REDUCE and ARGREDUCE kinds over [outer, reduce, inner].
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "dtype_dispatch.hpp"
#include "strided_loop.hpp"

namespace porta::host {
namespace {

// Accumulates in double for floats (accuracy), int64 for integers; integer
// sums wrap around (as in PyTorch and NumPy) instead of being undefined.
template <class T>
using acc_t = std::conditional_t<std::is_floating_point_v<T>, double, int64_t>;
template <class A>
A accumulate(A sum, A x) {
  if constexpr (std::is_integral_v<A>) return static_cast<A>(static_cast<uint64_t>(sum) + static_cast<uint64_t>(x));
  else return sum + x;
}

template <class T>
bool is_nan(T x) {
  if constexpr (std::is_floating_point_v<T>) return std::isnan(x);
  else return false;
}

// One running reduction of values along `reduce`; Arg tracks the index.
template <uint32_t Op, class T>
struct Reducer {
  acc_t<T> sum = 0;
  T best{};
  int64_t best_index = -1;

  void add(T x, int64_t i) {
    if constexpr (Op == PORTA_OP_SUM || Op == PORTA_OP_MEAN) {
      sum = accumulate(sum, static_cast<acc_t<T>>(x));
    } else {
      constexpr bool want_max = Op == PORTA_OP_MAX || Op == PORTA_OP_ARGMAX;
      if (best_index < 0 || is_nan(best)) {
        if (best_index < 0) best = x, best_index = i;
        return;
      }
      if (is_nan(x) || (want_max ? x > best : x < best)) best = x, best_index = i;
    }
  }
  void merge(const Reducer& o) {
    if constexpr (Op == PORTA_OP_SUM || Op == PORTA_OP_MEAN) {
      sum = accumulate(sum, o.sum);
    } else if (o.best_index >= 0) {
      add(o.best, o.best_index);  // `o` covers later indices: ties keep ours
    }
  }
};

template <uint32_t Op, class T, class Out>
Out finish(const Reducer<Op, T>& r, int64_t count) {
  if constexpr (Op == PORTA_OP_SUM) return static_cast<Out>(r.sum);
  else if constexpr (Op == PORTA_OP_MEAN) return static_cast<Out>(static_cast<double>(r.sum) / static_cast<double>(count));
  else if constexpr (Op == PORTA_OP_ARGMAX || Op == PORTA_OP_ARGMIN) return static_cast<Out>(r.best_index);
  else return static_cast<Out>(r.best);
}

template <uint32_t Op, class T>
porta_status reduce_kernel(const porta_kernel_call* c) {
  using Out = std::conditional_t<Op == PORTA_OP_ARGMAX || Op == PORTA_OP_ARGMIN, int64_t, T>;
  const DLTensor& in = c->inputs[0];
  const int64_t outer = in.shape[0], red = in.shape[1], inner = in.shape[2];
  const T* x = data_of<T>(in);
  Out* y = data_of<Out>(c->outputs[0]);
  if (outer * inner == 1 && red >= 2 * kElementwiseGrain) {  // one output: split the reduced axis
    const int64_t chunks = std::min<int64_t>(num_threads() * 4, red / kElementwiseGrain);
    std::vector<Reducer<Op, T>> part(static_cast<size_t>(chunks));
    const int64_t len = (red + chunks - 1) / chunks;
    parallel_for(chunks, 1, [&](int64_t b, int64_t e) {
      for (int64_t k = b; k < e; ++k)
        for (int64_t i = k * len; i < std::min(red, (k + 1) * len); ++i) part[k].add(x[i], i);
    });
    for (int64_t k = 1; k < chunks; ++k) part[0].merge(part[k]);
    y[0] = finish<Op, T, Out>(part[0], red);
    return PORTA_OK;
  }
  parallel_for(outer * inner, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(red, 1)),
               [&](int64_t b, int64_t e) {
                 for (int64_t o = b; o < e; ++o) {
                   const int64_t oi = o / inner, ii = o % inner;
                   const T* row = x + oi * red * inner + ii;
                   Reducer<Op, T> r;
                   for (int64_t k = 0; k < red; ++k) r.add(row[k * inner], k);
                   y[o] = finish<Op, T, Out>(r, red);
                 }
               });
  return PORTA_OK;
}

}  // namespace

porta_kernel_fn find_reduce_kernel(uint32_t op, int dtype) {
  return visit_dtype(dtype, [&]<int DT>() -> porta_kernel_fn {
    using T = storage_t<DT>;
    switch (op) {
      case PORTA_OP_SUM: return (DT == kDtInt64 || is_float_dt(DT)) ? &reduce_kernel<PORTA_OP_SUM, T> : nullptr;
      case PORTA_OP_MEAN: return is_float_dt(DT) ? &reduce_kernel<PORTA_OP_MEAN, T> : nullptr;
      case PORTA_OP_MAX: return &reduce_kernel<PORTA_OP_MAX, T>;
      case PORTA_OP_MIN: return &reduce_kernel<PORTA_OP_MIN, T>;
      case PORTA_OP_ARGMAX: return &reduce_kernel<PORTA_OP_ARGMAX, T>;
      case PORTA_OP_ARGMIN: return &reduce_kernel<PORTA_OP_ARGMIN, T>;
      default: return nullptr;
    }
  });
}

}  // namespace porta::host
