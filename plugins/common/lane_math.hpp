// Lane arithmetic of the host reductions (REDUCE, SOFTMAX): kLanes
// independent running values, so that the loops vectorize (one dependent add
// or max per element ran at a fraction of memory speed), combined in a fixed
// order, so that the result does not depend on how the compiler vectorized.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "extreme_wide.hpp"

// A function compiled three times, for x86-64-v4 (AVX-512 F/BW/CD/DQ/VL),
// x86-64-v3 (AVX2, FMA, BMI) and baseline x86-64,
// the copy run chosen once by the dynamic loader (an ifunc): for loops over
// lane_fold's lanes, whose order of additions is the same at every width,
// and plain arithmetic (the host kernels are built with -ffp-contract=off,
// so no width fuses a multiply-add): every copy gives the same bits.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define PORTA_WIDEST_VECTORS __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default"), flatten))
#else
#define PORTA_WIDEST_VECTORS
#endif

namespace porta::host {

constexpr int64_t kLanes = 8;

// The fold of f(k) for k in [0, n) by `add`, in Lanes accumulators starting
// at A{} and added pairwise at the end (lane l with lane l + width, width
// Lanes / 2, ..., 1), the remainder in lane 0. More lanes, more additions in
// flight: a loop whose adds wait on each other runs at their latency.
template <class A, int64_t Lanes = kLanes, class F, class Add>
A lane_fold(int64_t n, F f, Add add) {
  static_assert(Lanes > 0 && (Lanes & (Lanes - 1)) == 0, "Lanes is a power of two");
  A lane[Lanes] = {};
  int64_t k = 0;
  for (; k + Lanes <= n; k += Lanes)
    for (int64_t l = 0; l < Lanes; ++l) lane[l] = add(lane[l], f(k + l));
  for (; k < n; ++k) lane[0] = add(lane[0], f(k));
  for (int64_t width = Lanes / 2; width >= 1; width /= 2)
    for (int64_t l = 0; l < width; ++l) lane[l] = add(lane[l], lane[l + width]);
  return lane[0];
}

// The sums of f(k).first and f(k).second for k in [0, n), in one pass: two
// lane_folds by + over the same values, each added in lane_fold's order, so
// each sum has the bits lane_fold would give it alone.
template <class A, int64_t Lanes = kLanes, class F>
std::pair<A, A> lane_sum_pair(int64_t n, F f) {
  static_assert(Lanes > 0 && (Lanes & (Lanes - 1)) == 0, "Lanes is a power of two");
  A first[Lanes] = {}, second[Lanes] = {};
  int64_t k = 0;
  for (; k + Lanes <= n; k += Lanes)
    for (int64_t l = 0; l < Lanes; ++l) {
      const auto [u, v] = f(k + l);
      first[l] += u, second[l] += v;
    }
  for (; k < n; ++k) {
    const auto [u, v] = f(k);
    first[0] += u, second[0] += v;
  }
  for (int64_t width = Lanes / 2; width >= 1; width /= 2)
    for (int64_t l = 0; l < width; ++l) first[l] += first[l + width], second[l] += second[l + width];
  return {first[0], second[0]};
}

// 16 bytes of T: one SSE register on baseline x86-64 (what the plugins are
// built for, so that the package runs on any x86-64 machine).
template <class T>
struct VecOf {
  typedef T type __attribute__((vector_size(16)));
};
template <class T>
using Vec = typename VecOf<T>::type;

template <class T>
Vec<T> load_vec(const T* p) {
  Vec<T> v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// The largest (WantMax) or smallest of the contiguous x[0..n), n >= 1; NaN
// if any value is NaN, as PyTorch's max and min propagate it.
template <bool WantMax, class T>
T extreme(const T* x, int64_t n) {
  const auto pick = [](T best, T v) { return (WantMax ? v > best : v < best) ? v : best; };
  if constexpr (std::is_integral_v<T>) {  // plain lanes: baseline x86-64 has no 64-bit vector compare
    if constexpr (std::is_same_v<T, int64_t>) {
      int64_t wide;
      if (int64_extreme_wide(x, n, WantMax, &wide)) return wide;
    }
    if (n < kLanes) return *std::max_element(x, x + n, [](T a, T b) { return WantMax ? a < b : b < a; });
    T best[kLanes];
    std::copy(x, x + kLanes, best);
    int64_t i = kLanes;
    for (; i + kLanes <= n; i += kLanes)
      for (int64_t l = 0; l < kLanes; ++l)
        best[l] = WantMax ? std::max(best[l], x[i + l]) : std::min(best[l], x[i + l]);
    for (; i < n; ++i) best[0] = pick(best[0], x[i]);
    for (int64_t l = 1; l < kLanes; ++l) best[0] = pick(best[0], best[l]);
    return best[0];
  } else {
    constexpr T nan = std::numeric_limits<T>::quiet_NaN();
    constexpr int64_t L = sizeof(Vec<T>) / sizeof(T);
    T result = x[0];
    int64_t i = 0;
    if (n >= 2 * L) {
      // best ignores NaN (a comparison with NaN is false); probe becomes NaN
      // once one is seen. GCC's vector types, as its auto-vectorizer leaves
      // these selects scalar.
      Vec<T> best[2] = {load_vec(x), load_vec(x + L)}, probe[2] = {};
      for (int h = 0; h < 2; ++h) probe[h] = best[h] != best[h] ? best[h] : probe[h];
      for (i = 2 * L; i + 2 * L <= n; i += 2 * L)
        for (int h = 0; h < 2; ++h) {  // two independent chains
          const Vec<T> v = load_vec(x + i + h * L);
          probe[h] = v != v ? v : probe[h];
          best[h] = (WantMax ? v > best[h] : v < best[h]) ? v : best[h];
        }
      result = best[0][0];
      for (int h = 0; h < 2; ++h)
        for (int64_t l = 0; l < L; ++l) {
          if (probe[h][l] != probe[h][l]) return nan;
          result = pick(result, best[h][l]);
        }
    }
    for (; i < n; ++i) {
      if (x[i] != x[i]) return nan;
      result = pick(result, x[i]);
    }
    return result;
  }
}

}  // namespace porta::host
