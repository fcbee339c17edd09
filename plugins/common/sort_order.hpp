// SORT's order, written once for the host kernels and the CUDA plugin
// (porta/ops.h, PORTA_OP_KIND_SORT): `before(a, b)` is "a sorts strictly
// before b". NaN sorts after every number ascending and before it
// descending, NaNs are equal among themselves, -0.0 equals 0.0; a stable
// sort under this order has one result, so every device gives the same
// values and indices.
#pragma once

#include <cstdint>
#include <type_traits>

#include "elementwise_math.hpp"

namespace porta::math {

template <class T>
PORTA_HD bool sort_is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>)
    return v != v;
  else
    return false;
}

template <class T>
PORTA_HD bool sort_before(T a, T b, bool descending) {
  const bool an = sort_is_nan(a), bn = sort_is_nan(b);
  if (an || bn) return descending ? an && !bn : bn && !an;
  return descending ? b < a : a < b;
}

// One pass of a bottom-up stable merge of runs of `width` along a line of n:
// where the element at position j of `src` goes. Runs [s, s + width) and
// [s + width, s + 2 width) are sorted; an element of the left run lands
// after the right run's elements that sort strictly before it, one of the
// right run after the left run's elements that do not sort after it.
// `at(k)` reads the line's k-th element of src.
template <class T, class At>
PORTA_HD int64_t merge_destination(int64_t j, int64_t n, int64_t width, bool descending, T x, At at) {
  const int64_t s = j / (2 * width) * (2 * width);
  const int64_t mid = s + width < n ? s + width : n, end = s + 2 * width < n ? s + 2 * width : n;
  const bool left = j < mid;
  int64_t lo = left ? mid : s, hi = left ? end : mid;  // binary search in the other run
  while (lo < hi) {
    const int64_t m = lo + (hi - lo) / 2;
    const bool go_right = left ? sort_before(at(m), x, descending) : !sort_before(x, at(m), descending);
    if (go_right)
      lo = m + 1;
    else
      hi = m;
  }
  return left ? j + (lo - mid) : s + (j - mid) + (lo - s);
}

}  // namespace porta::math
