// Host kernels of the SORT kind: a stable sort of each (outer, inner) line
// of contiguous [outer, n, inner], in parallel over lines (sort_order.hpp's
// order, so the result equals the devices' merge sort), of (value, index)
// pairs copied out of the line, or for lines of 64 and more a radix sort
// (radix_sort.hpp); with porta_sort_params.k, a selection of the first k.
// The scratch outputs are not needed here.
#include <algorithm>
#include <vector>

#include "dtype_dispatch.hpp"
#include "radix_sort.hpp"
#include "sort_call.hpp"
#include "sort_order.hpp"
#include "strided_loop.hpp"

namespace porta::host {
namespace {

// A line's element: its value and where it came from.
template <class T>
struct Keyed {
  T value;
  int64_t index;
};

// Lines this long and longer are radix sorted (radix_sort.hpp).
constexpr int64_t kRadixMin = 64;

// Whether any of x[0], x[stride], ... (m values) sorts strictly before
// `top`: math::sort_before with its NaN cases decided once for `top`, so the
// loop is one compare per element.
template <class T>
bool any_before(const T* x, int64_t stride, int64_t m, T top, bool descending) {
  bool any = false;
  if (math::sort_is_nan(top)) {  // only a number sorts before NaN, and only ascending
    if (descending) return false;
    for (int64_t j = 0; j < m; ++j) any |= x[j * stride] == x[j * stride];
  } else if (descending) {  // NaN, or larger: not <= (one compare, true for NaN)
    for (int64_t j = 0; j < m; ++j) any |= !(x[j * stride] <= top);
  } else {
    for (int64_t j = 0; j < m; ++j) any |= x[j * stride] < top;
  }
  return any;
}

// Sorts one line (n values, `stride` apart) into keyed: stably, or with
// 0 < k < n only its first k positions (a selection, then a sort of those,
// under the stable order made total by the index, so they are the stable
// sort's first k).
template <class T>
void sort_line(const T* x, int64_t n, int64_t stride, int64_t k, bool descending, std::vector<Keyed<T>>& keyed) {
  const auto total = [descending](const Keyed<T>& a, const Keyed<T>& b) {
    if (math::sort_before(a.value, b.value, descending)) return true;
    return !math::sort_before(b.value, a.value, descending) && a.index < b.index;
  };
  if (k > 0 && k <= n / 16) {
    // Few positions: one pass keeping the k first in a heap whose top is the
    // last of them; a later element enters only if it sorts strictly before
    // that one by value (on a tie its larger index puts it after).
    // Blocks of 16 that hold nothing before the top are passed over after
    // one branch-free test.
    keyed.clear();
    for (int64_t i = 0; i < k; ++i) keyed.push_back({x[i * stride], i});
    std::make_heap(keyed.begin(), keyed.end(), total);
    T top = keyed.front().value;
    const auto offer = [&](int64_t i) {
      const T v = x[i * stride];
      if (!math::sort_before(v, top, descending)) return;
      std::pop_heap(keyed.begin(), keyed.end(), total);
      keyed.back() = {v, i};
      std::push_heap(keyed.begin(), keyed.end(), total);
      top = keyed.front().value;
    };
    constexpr int64_t kBlock = 16;
    int64_t i = k;
    for (; i + kBlock <= n; i += kBlock) {
      if (!any_before(x + i * stride, stride, kBlock, top, descending)) continue;
      for (int64_t j = 0; j < kBlock; ++j) offer(i + j);
    }
    for (; i < n; ++i) offer(i);
    return std::sort_heap(keyed.begin(), keyed.end(), total);
  }
  keyed.resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) keyed[i] = {x[i * stride], i};
  if (k <= 0 || k >= n)
    return std::stable_sort(keyed.begin(), keyed.end(), [descending](const Keyed<T>& a, const Keyed<T>& b) {
      return math::sort_before(a.value, b.value, descending);
    });
  std::nth_element(keyed.begin(), keyed.begin() + k, keyed.end(), total);
  std::sort(keyed.begin(), keyed.begin() + k, total);
}

template <class T>
porta_status sort_kernel(const porta_kernel_call* c) {
  plugin::SortCall s;
  char msg[256];
  if (!plugin::sort_call(c, &s, msg, sizeof msg)) return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
  const T* x = data_of<const T>(c->inputs[0]);
  T* values = data_of<T>(c->outputs[0]);
  int64_t* indices = data_of<int64_t>(c->outputs[1]);
  const int64_t n = s.n, inner = s.inner, kept = s.k > 0 ? s.k : n;
  // Whole lines of more than a few values: a radix sort (a few passes over
  // the line, where a comparison sort makes log2(n)).
  const bool radix = n >= kRadixMin && (s.k <= 0 || s.k > n / 16);
  parallel_for(s.outer * inner, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(n, 1)),
               [&](int64_t b, int64_t e) {
                 std::vector<Keyed<T>> keyed;
                 RadixScratch<T> scratch;
                 for (int64_t line = b; line < e; ++line) {
                   const int64_t base = (line / inner) * n * inner + line % inner;
                   if (radix) {
                     radix_sort_line(x + base, n, inner, s.descending, scratch);
                     for (int64_t j = 0; j < kept; ++j) {
                       const int64_t from = scratch.order[j];
                       values[base + j * inner] = x[base + from * inner];
                       indices[base + j * inner] = from;
                     }
                     continue;
                   }
                   sort_line(x + base, n, inner, s.k, s.descending, keyed);
                   for (int64_t j = 0; j < kept; ++j) {
                     values[base + j * inner] = keyed[j].value;
                     indices[base + j * inner] = keyed[j].index;
                   }
                 }
               });
  return PORTA_OK;
}

}  // namespace

porta_kernel_fn find_sort_kernel(uint32_t op, int dtype) {
  if (op != PORTA_OP_SORT) return nullptr;
  return visit_dtype(dtype, [&]<int DT>() -> porta_kernel_fn {
    if constexpr (plugin::op_takes_dtype(PORTA_OP_SORT, DT))
      return &sort_kernel<storage_t<DT>>;
    else
      return nullptr;
  });
}

}  // namespace porta::host
