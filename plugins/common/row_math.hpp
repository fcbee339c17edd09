// Row arithmetic of the softmax and cross-entropy host kernels: a row's
// max and its sum in double, and exp and log over many values in one call
// (SLEEF's vector functions where they are loaded, vector_math.hpp, else the
// C library's). Each is inlined into the caller's PORTA_WIDEST_VECTORS loops.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "vector_math.hpp"

namespace porta::host {

// exp(x[k]) into y[k] (y may be x): SLEEF's vector exp where it is loaded
// (vector_math.hpp), else the C library's.
template <class T>
inline void exp_into(const T* x, T* y, int64_t n) {
  if (!vecmath::apply(PORTA_OP_EXP, x, y, n))
    for (int64_t k = 0; k < n; ++k) y[k] = std::exp(x[k]);
}

// log(x[k]) into y[k] in double (y may be x): SLEEF's vector log where it is
// loaded, else the C library's.
inline void log_into(const double* x, double* y, int64_t n) {
  if (!vecmath::apply(PORTA_OP_LOG, x, y, n))
    for (int64_t k = 0; k < n; ++k) y[k] = std::log(x[k]);
}

// The sum of y[0..n) in double: 16 lanes, the values past the last whole
// 16 in an accumulator of their own, all added pairwise at the end (in a
// fixed order, the same at every vector width). lane_fold's tail, added
// into lane 0 in memory the vector loop had just written, stalled short
// rows.
template <class T>
inline double row_sum(const T* y, int64_t n) {
  constexpr int64_t kSumLanes = 16;
  double lane[kSumLanes] = {};
  int64_t k = 0;
  for (; k + kSumLanes <= n; k += kSumLanes)
    for (int64_t l = 0; l < kSumLanes; ++l) lane[l] += static_cast<double>(y[k + l]);
  double tail = 0;
  for (; k < n; ++k) tail += static_cast<double>(y[k]);
  for (int64_t width = kSumLanes / 2; width >= 1; width /= 2)
    for (int64_t l = 0; l < width; ++l) lane[l] += lane[l + width];
  return lane[0] + tail;
}

// The largest of x[0..n), n >= 1, or a NaN of it: a register of lanes
// over whole windows of x (the last one ending at n, so no scalar tail), a
// max the compiler vectorizes. A NaN may be passed over (a comparison with
// NaN is false); that needs no test here: exp(NaN - max) is NaN, so the
// row's sum is and every value of the row becomes NaN, as PyTorch's. Which
// of -0.0 and 0.0 it returns where both are largest does not matter to a
// value it is subtracted from. (extreme(), which tests for NaN and has a
// scalar tail over its lanes, took a fifth of a row of 128.)
template <class T>
inline T row_max(const T* x, int64_t n) {
  constexpr int64_t kMaxLanes = 64 / sizeof(T);  // one AVX-512 register
  if (n < kMaxLanes) {
    T m = x[0];
    for (int64_t k = 1; k < n; ++k) m = x[k] > m ? x[k] : m;
    return m;
  }
  T lane[kMaxLanes];
  for (int64_t l = 0; l < kMaxLanes; ++l) lane[l] = x[l];
  // Whole windows, the last one ending at n (a max may see a value twice).
  for (int64_t k = kMaxLanes;; k += kMaxLanes) {
    const T* w = x + std::min(k, n - kMaxLanes);
    for (int64_t l = 0; l < kMaxLanes; ++l) lane[l] = w[l] > lane[l] ? w[l] : lane[l];
    if (k + kMaxLanes >= n) break;
  }
  T m = lane[0];
  for (int64_t l = 1; l < kMaxLanes; ++l) m = lane[l] > m ? lane[l] : m;
  return m;
}

// A block of rows for the functions below: at most kBlockRows rows, and
// kBlockValues values unless a single row is longer.
constexpr int64_t kBlockValues = 4096, kBlockRows = 256;
inline int64_t block_rows(int64_t dim) {
  return std::clamp<int64_t>(kBlockValues / std::max<int64_t>(dim, 1), 1, kBlockRows);
}

// For `rows` (<= kBlockRows) contiguous rows of `dim` values: mx[r] the
// row's max, e = exp(x - mx) (e may be x), sum[r] the row's sum of e in
// double. One exp call over the block: an exp call per row cost more than
// its exps in short rows.
template <class T>
inline void exp_shifted_rows(const T* x, T* e, int64_t rows, int64_t dim, T* mx, double* sum) {
  for (int64_t r = 0; r < rows; ++r) {
    mx[r] = row_max(x + r * dim, dim);
    for (int64_t k = 0; k < dim; ++k) e[r * dim + k] = x[r * dim + k] - mx[r];
  }
  exp_into(e, e, rows * dim);
  for (int64_t r = 0; r < rows; ++r) sum[r] = row_sum(e + r * dim, dim);
}

}  // namespace porta::host
