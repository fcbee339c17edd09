// A stable least-significant-digit radix sort of one line, in SORT's order
// (sort_order.hpp): each value mapped to an unsigned key whose order is that
// order (-0.0 as 0.0, every NaN one key after +inf ascending, before -inf
// descending), a byte per pass, passes whose byte every key shares skipped.
// Stable, so equal values keep their input order, as SORT requires; the
// result is the same permutation as any stable sort under that order.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

namespace porta::host {

// The unsigned key of SORT's ascending order for a value of T.
template <class T>
using radix_key_t = std::conditional_t<sizeof(T) == 1, uint8_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>;

template <class T>
radix_key_t<T> ascending_key(T v) {
  using U = radix_key_t<T>;
  constexpr U sign = U(1) << (8 * sizeof(U) - 1);
  if constexpr (std::is_floating_point_v<T>) {
    if (v != v) return std::numeric_limits<U>::max();  // every NaN equal, after +inf
    if (v == T(0)) v = T(0);                           // -0.0 equals 0.0
    U u;
    std::memcpy(&u, &v, sizeof u);
    return (u & sign) ? U(~u) : U(u | sign);
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<U>(static_cast<U>(v) ^ sign);
  } else {
    return static_cast<U>(v);
  }
}

// Scratch a thread reuses from line to line.
template <class T>
struct RadixScratch {
  std::vector<radix_key_t<T>> keys, keys_out;
  std::vector<int64_t> order, order_out;
};

// The positions of x[0], x[stride], ... (n values) in SORT's stable order,
// into s.order.
template <class T>
void radix_sort_line(const T* x, int64_t n, int64_t stride, bool descending, RadixScratch<T>& s) {
  using U = radix_key_t<T>;
  const size_t m = static_cast<size_t>(n);
  s.keys.resize(m), s.keys_out.resize(m), s.order.resize(m), s.order_out.resize(m);
  constexpr int kPasses = sizeof(U);
  uint32_t count[kPasses][256] = {};
  for (int64_t i = 0; i < n; ++i) {
    U k = ascending_key(x[i * stride]);
    if (descending) k = static_cast<U>(~k);
    s.keys[i] = k;
    s.order[i] = i;
    for (int p = 0; p < kPasses; ++p) ++count[p][(k >> (8 * p)) & 0xFF];
  }
  for (int p = 0; p < kPasses; ++p) {
    if (count[p][(s.keys[0] >> (8 * p)) & 0xFF] == m) continue;  // every key has this byte
    uint32_t start[256];
    uint32_t at = 0;
    for (int d = 0; d < 256; ++d) start[d] = at, at += count[p][d];
    for (size_t i = 0; i < m; ++i) {
      const uint32_t to = start[(s.keys[i] >> (8 * p)) & 0xFF]++;
      s.keys_out[to] = s.keys[i];
      s.order_out[to] = s.order[i];
    }
    s.keys.swap(s.keys_out);
    s.order.swap(s.order_out);
  }
}

}  // namespace porta::host
