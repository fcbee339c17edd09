// Host kernels of the SOFTMAX kind over contiguous [outer, dim, inner]: one
// task per row of `dim` elements `inner` apart. The max is subtracted before
// exp (SLEEF's vector exp where it is loaded), and sums accumulate in
// double, in eight lanes added pairwise; a row's loops at the CPU's widest
// vectors (PORTA_WIDEST_VECTORS, the same bits at every width).
#include <cmath>
#include <cstdio>
#include <vector>

#include "host_kernels.hpp"
#include "lane_math.hpp"
#include "strided_loop.hpp"
#include "vector_math.hpp"

namespace porta::host {
namespace {

// exp(x[k]) into y[k] (y may be x): SLEEF's vector exp where it is loaded
// (vector_math.hpp), else the C library's.
template <class T>
void exp_into(const T* x, T* y, int64_t n) {
  if (!vecmath::apply(vecmath::Fn::Exp, x, y, n))
    for (int64_t k = 0; k < n; ++k) y[k] = std::exp(x[k]);
}

// The sum of f(k) for k in [0, n), in double lanes added pairwise.
template <class F>
double lane_sum(int64_t n, F f) {
  return lane_fold<double, 32>(n, f, [](double a, double b) { return a + b; });
}

// The largest of x[0..n), n >= 1, ignoring NaN (a comparison with NaN is
// false) unless x[0] is one: in 32 lanes starting at x[0], a max the
// compiler vectorizes. A NaN elsewhere needs no test here: exp(NaN - max)
// is NaN, so the row's sum is and every value of the row becomes NaN, as
// PyTorch's. Which of -0.0 and 0.0 it returns where both are largest does
// not matter to a value it is subtracted from. (extreme(), which tests for
// NaN and has a scalar tail over its lanes, took a fifth of a row of 128.)
template <class T>
T row_max(const T* x, int64_t n) {
  constexpr int64_t kMaxLanes = 32;
  T lane[kMaxLanes];
  for (int64_t l = 0; l < kMaxLanes; ++l) lane[l] = x[0];
  int64_t k = 0;
  for (; k + kMaxLanes <= n; k += kMaxLanes)
    for (int64_t l = 0; l < kMaxLanes; ++l) lane[l] = x[k + l] > lane[l] ? x[k + l] : lane[l];
  for (; k < n; ++k) lane[0] = x[k] > lane[0] ? x[k] : lane[0];
  for (int64_t width = kMaxLanes / 2; width >= 1; width /= 2)
    for (int64_t l = 0; l < width; ++l) lane[l] = lane[l + width] > lane[l] ? lane[l + width] : lane[l];
  return lane[0];
}

// One contiguous row of `dim` values (the max, NaN if the row has one,
// subtracted before exp).
template <uint32_t Op, class T>
PORTA_WIDEST_VECTORS void forward_row(const T* x, T* y, int64_t dim) {
  const T mx = row_max(x, dim);
  for (int64_t k = 0; k < dim; ++k) y[k] = x[k] - mx;
  if constexpr (Op == PORTA_OP_SOFTMAX) {
    exp_into(y, y, dim);
    const T inv = static_cast<T>(1.0 / lane_sum(dim, [y](int64_t k) { return static_cast<double>(y[k]); }));
    for (int64_t k = 0; k < dim; ++k) y[k] *= inv;
  } else {
    exp_into(y, y, dim);  // scratch: the row's exp(x - max)
    const double shift = static_cast<double>(mx) + std::log(lane_sum(dim, [y](int64_t k) { return static_cast<double>(y[k]); }));
    for (int64_t k = 0; k < dim; ++k) y[k] = static_cast<T>(static_cast<double>(x[k]) - shift);
  }
}

template <uint32_t Op, class T>
PORTA_WIDEST_VECTORS void backward_row(const T* y, const T* gy, T* gx, int64_t dim) {
  if constexpr (Op == PORTA_OP_SOFTMAX_BACKWARD) {  // y * (gy - sum(gy * y))
    const T s = static_cast<T>(
        lane_sum(dim, [&](int64_t k) { return static_cast<double>(gy[k]) * static_cast<double>(y[k]); }));
    for (int64_t k = 0; k < dim; ++k) gx[k] = y[k] * (gy[k] - s);
  } else {  // gy - exp(y) * sum(gy)
    const T s = static_cast<T>(lane_sum(dim, [&](int64_t k) { return static_cast<double>(gy[k]); }));
    exp_into(y, gx, dim);
    for (int64_t k = 0; k < dim; ++k) gx[k] = gy[k] - gx[k] * s;
  }
}

// Runs the op on every (outer, inner) row in parallel; a row whose values
// are `inner` apart is copied into a contiguous one and back, so that it
// computes as a contiguous row does, to the bit.
template <uint32_t Op, class T>
void run_rows(const porta_kernel_call* c) {
  const DLTensor& t = c->inputs[0];
  const int64_t outer = t.shape[0], dim = t.shape[1], inner = t.shape[2];
  const T* a = data_of<T>(c->inputs[0]);
  const T* b = c->num_inputs > 1 ? data_of<T>(c->inputs[1]) : nullptr;
  T* out = data_of<T>(c->outputs[0]);
  constexpr bool forward = Op == PORTA_OP_SOFTMAX || Op == PORTA_OP_LOG_SOFTMAX;
  parallel_for(outer * inner, std::max<int64_t>(1, kElementwiseGrain / dim), [&](int64_t begin, int64_t end) {
    std::vector<T> rows(inner == 1 ? 0 : static_cast<size_t>(3 * dim));  // a, b, out of one row
    T *ra = rows.data(), *rb = ra + dim, *ro = rb + dim;
    for (int64_t r = begin; r < end; ++r) {
      const int64_t at = (r / inner) * dim * inner + r % inner;
      if (inner == 1) {
        if constexpr (forward) forward_row<Op>(a + at, out + at, dim);
        else backward_row<Op>(a + at, b + at, out + at, dim);
        continue;
      }
      for (int64_t k = 0; k < dim; ++k) ra[k] = a[at + k * inner];
      if constexpr (forward) {
        forward_row<Op>(ra, ro, dim);
      } else {
        for (int64_t k = 0; k < dim; ++k) rb[k] = b[at + k * inner];
        backward_row<Op>(ra, rb, ro, dim);
      }
      for (int64_t k = 0; k < dim; ++k) out[at + k * inner] = ro[k];
    }
  });
}

template <uint32_t Op, class T>
porta_status softmax_kernel(const porta_kernel_call* c) {
  const DLTensor& t = c->inputs[0];
  if (t.ndim != 3) {
    char msg[128];
    std::snprintf(msg, sizeof msg, "%s: expected a contiguous [outer, dim, inner] tensor, got %d-D", plugin::op_name(Op),
                  t.ndim);
    return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
  }
  run_rows<Op, T>(c);
  return PORTA_OK;
}

template <class T>
porta_kernel_fn find_for(uint32_t op) {
  switch (op) {
    case PORTA_OP_SOFTMAX: return &softmax_kernel<PORTA_OP_SOFTMAX, T>;
    case PORTA_OP_LOG_SOFTMAX: return &softmax_kernel<PORTA_OP_LOG_SOFTMAX, T>;
    case PORTA_OP_SOFTMAX_BACKWARD: return &softmax_kernel<PORTA_OP_SOFTMAX_BACKWARD, T>;
    case PORTA_OP_LOG_SOFTMAX_BACKWARD: return &softmax_kernel<PORTA_OP_LOG_SOFTMAX_BACKWARD, T>;
    default: return nullptr;
  }
}

}  // namespace

porta_kernel_fn find_softmax_kernel(uint32_t op, int dtype) {
  if (dtype == kDtFloat32) return find_for<float>(op);
  if (dtype == kDtFloat64) return find_for<double>(op);
  return nullptr;
}

}  // namespace porta::host
