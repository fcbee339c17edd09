// Host kernels of the REDUCE and ARGREDUCE kinds over [outer, reduce, inner].
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "dtype_dispatch.hpp"
#include "lane_math.hpp"
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

constexpr bool is_arg(uint32_t op) { return op == PORTA_OP_ARGMAX || op == PORTA_OP_ARGMIN; }
constexpr bool is_sum(uint32_t op) { return op == PORTA_OP_SUM || op == PORTA_OP_MEAN; }

// One running reduction of values along `reduce`; Arg tracks the index.
template <uint32_t Op, class T>
struct Reducer {
  acc_t<T> sum = 0;
  T best{};
  int64_t best_index = -1;

  void add(T x, int64_t i) {
    if constexpr (is_sum(Op)) {
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
    if constexpr (is_sum(Op)) {
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
  else if constexpr (is_arg(Op))
    return static_cast<Out>(r.best_index);
  else return static_cast<Out>(r.best);
}

// Folds the contiguous values x[0..n) (indices first, first + 1, ...) into r:
// sums and MAX/MIN in lanes (lane_math.hpp), so that they vectorize;
// ARGMAX/ARGMIN keep the scalar walk, whose first-index tie rule needs order.
template <uint32_t Op, class T>
void reduce_contiguous(Reducer<Op, T>& r, const T* x, int64_t n, int64_t first) {
  using A = acc_t<T>;
  if constexpr (is_arg(Op)) {
    for (int64_t i = 0; i < n; ++i) r.add(x[i], first + i);
  } else if constexpr (is_sum(Op)) {
    r.sum = accumulate(r.sum, lane_fold<A>(
                                  n, [x](int64_t i) { return static_cast<A>(x[i]); }, accumulate<A>));
  } else if (n > 0) {
    r.add(extreme<Op == PORTA_OP_MAX>(x, n), first);
  }
}

// Columns of [reduce, inner] reduced together, a block at a time: row k of
// the block is contiguous, so each output still sums its values in order k =
// 0, 1, ... (the same result as walking it alone) while the loads vectorize.
constexpr int64_t kColumnBlock = 256;

template <uint32_t Op, class T, class Out>
void reduce_columns(const T* x, Out* y, int64_t red, int64_t inner, int64_t j0, int64_t cols) {
  if constexpr (is_sum(Op)) {
    acc_t<T> acc[kColumnBlock] = {};
    for (int64_t k = 0; k < red; ++k) {
      const T* row = x + k * inner + j0;
      for (int64_t j = 0; j < cols; ++j) acc[j] = accumulate(acc[j], static_cast<acc_t<T>>(row[j]));
    }
    for (int64_t j = 0; j < cols; ++j) {
      Reducer<Op, T> r;
      r.sum = acc[j];
      y[j0 + j] = finish<Op, T, Out>(r, red);
    }
  } else {
    Reducer<Op, T> r[kColumnBlock];
    for (int64_t k = 0; k < red; ++k) {
      const T* row = x + k * inner + j0;
      for (int64_t j = 0; j < cols; ++j) r[j].add(row[j], k);
    }
    for (int64_t j = 0; j < cols; ++j) y[j0 + j] = finish<Op, T, Out>(r[j], red);
  }
}

template <uint32_t Op, class T>
porta_status reduce_kernel(const porta_kernel_call* c) {
  using Out = std::conditional_t<is_arg(Op), int64_t, T>;
  const DLTensor& in = c->inputs[0];
  const int64_t outer = in.shape[0], red = in.shape[1], inner = in.shape[2];
  const T* x = data_of<T>(in);
  Out* y = data_of<Out>(c->outputs[0]);
  if (outer * inner == 1 && red >= 2 * kElementwiseGrain) {  // one output: split the reduced axis
    const int64_t chunks = std::min<int64_t>(num_threads() * 4, red / kElementwiseGrain);
    std::vector<Reducer<Op, T>> part(static_cast<size_t>(chunks));
    const int64_t len = (red + chunks - 1) / chunks;
    parallel_for(chunks, 1, [&](int64_t b, int64_t e) {
      for (int64_t k = b; k < e; ++k) {
        const int64_t lo = std::min(red, k * len);
        reduce_contiguous(part[k], x + lo, std::min(red, lo + len) - lo, lo);
      }
    });
    for (int64_t k = 1; k < chunks; ++k) part[0].merge(part[k]);
    y[0] = finish<Op, T, Out>(part[0], red);
    return PORTA_OK;
  }
  if (inner == 1) {
    parallel_for(outer, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(red, 1)), [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        Reducer<Op, T> r;
        reduce_contiguous(r, x + o * red, red, 0);
        y[o] = finish<Op, T, Out>(r, red);
      }
    });
    return PORTA_OK;
  }
  const int64_t blocks = (inner + kColumnBlock - 1) / kColumnBlock;
  const int64_t block_work = std::max<int64_t>(1, red * std::min(inner, kColumnBlock));
  parallel_for(outer * blocks, std::max<int64_t>(1, kElementwiseGrain / block_work), [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      const int64_t oi = t / blocks, j0 = (t % blocks) * kColumnBlock;
      reduce_columns<Op, T, Out>(x + oi * red * inner, y + oi * inner, red, inner, j0,
                                 std::min(kColumnBlock, inner - j0));
    }
  });
  return PORTA_OK;
}

}  // namespace

porta_kernel_fn find_reduce_kernel(uint32_t op, int dtype) {
  return visit_dtype(dtype, [&]<int DT>() {
    using T = storage_t<DT>;
    // The row's dtype class: sum int64 and the floats, mean the floats, the others any.
    auto make = []<uint32_t Op>(op_id<Op>) -> porta_kernel_fn {
      static_assert(
          op_in<Op, PORTA_OP_SUM, PORTA_OP_MEAN, PORTA_OP_MAX, PORTA_OP_MIN, PORTA_OP_ARGMAX, PORTA_OP_ARGMIN>,
          "a REDUCE or ARGREDUCE row reduce_kernel does not serve");
      if constexpr (plugin::op_takes_dtype(Op, DT))
        return &reduce_kernel<Op, T>;
      else
        return nullptr;
    };
    return lookup_kind<PORTA_OP_KIND_REDUCE, PORTA_OP_KIND_ARGREDUCE>(op, make);
  });
}

}  // namespace porta::host
