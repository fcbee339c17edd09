// Host kernels of the SOFTMAX kind over contiguous [outer, dim, inner]: one
// task per row of `dim` elements `inner` apart. The max is subtracted before
// exp, and sums accumulate in double, in eight lanes added pairwise.
#include <cmath>
#include <cstdio>
#include <limits>

#include "host_kernels.hpp"
#include "lane_math.hpp"
#include "strided_loop.hpp"

namespace porta::host {
namespace {

// `dim` elements `stride` apart; Unit fixes the stride to 1 at compile time.
template <class T, bool Unit>
struct Row {
  T* p;
  int64_t stride;
  T& operator[](int64_t k) const { return p[Unit ? k : k * stride]; }
};

// The row's max, NaN if it has one; a contiguous row in lanes (lane_math.hpp).
template <class T, bool Unit>
T row_max(Row<const T, Unit> x, int64_t dim) {
  if constexpr (Unit) {
    return extreme<true>(x.p, dim);
  } else {
    T mx = x[0];
    for (int64_t k = 0; k < dim; ++k) {
      if (x[k] != x[k]) return std::numeric_limits<T>::quiet_NaN();  // a NaN sticks
      mx = x[k] > mx ? x[k] : mx;
    }
    return mx;
  }
}

// The sum of f(k) for k in [0, n), in double lanes added pairwise.
template <class F>
double lane_sum(int64_t n, F f) {
  return lane_fold<double>(n, f, [](double a, double b) { return a + b; });
}

template <uint32_t Op, class T, bool Unit>
void forward_row(Row<const T, Unit> x, Row<T, Unit> y, int64_t dim) {
  const T mx = row_max(x, dim);
  if constexpr (Op == PORTA_OP_SOFTMAX) {
    const double sum = lane_sum(dim, [&](int64_t k) {
      const T e = std::exp(x[k] - mx);
      y[k] = e;
      return static_cast<double>(e);
    });
    const T inv = static_cast<T>(1.0 / sum);
    for (int64_t k = 0; k < dim; ++k) y[k] *= inv;
  } else {
    const double sum = lane_sum(dim, [&](int64_t k) { return static_cast<double>(std::exp(x[k] - mx)); });
    const double shift = static_cast<double>(mx) + std::log(sum);
    for (int64_t k = 0; k < dim; ++k) y[k] = static_cast<T>(static_cast<double>(x[k]) - shift);
  }
}

template <uint32_t Op, class T, bool Unit>
void backward_row(Row<const T, Unit> y, Row<const T, Unit> gy, Row<T, Unit> gx, int64_t dim) {
  if constexpr (Op == PORTA_OP_SOFTMAX_BACKWARD) {  // y * (gy - sum(gy * y))
    const T s = static_cast<T>(
        lane_sum(dim, [&](int64_t k) { return static_cast<double>(gy[k]) * static_cast<double>(y[k]); }));
    for (int64_t k = 0; k < dim; ++k) gx[k] = y[k] * (gy[k] - s);
  } else {  // gy - exp(y) * sum(gy)
    const T s = static_cast<T>(lane_sum(dim, [&](int64_t k) { return static_cast<double>(gy[k]); }));
    for (int64_t k = 0; k < dim; ++k) gx[k] = gy[k] - std::exp(y[k]) * s;
  }
}

// Runs the op on every (outer, inner) row in parallel.
template <uint32_t Op, class T, bool Unit>
void run_rows(const porta_kernel_call* c) {
  const DLTensor& t = c->inputs[0];
  const int64_t outer = t.shape[0], dim = t.shape[1], inner = t.shape[2];
  const T* a = data_of<T>(c->inputs[0]);
  const T* b = c->num_inputs > 1 ? data_of<T>(c->inputs[1]) : nullptr;
  T* out = data_of<T>(c->outputs[0]);
  parallel_for(outer * inner, std::max<int64_t>(1, kElementwiseGrain / dim), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const int64_t at = (r / inner) * dim * inner + r % inner;
      const Row<const T, Unit> ra{a + at, inner};
      const Row<T, Unit> ro{out + at, inner};
      if constexpr (Op == PORTA_OP_SOFTMAX || Op == PORTA_OP_LOG_SOFTMAX)
        forward_row<Op>(ra, ro, dim);
      else
        backward_row<Op>(ra, Row<const T, Unit>{b + at, inner}, ro, dim);
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
  if (t.shape[2] == 1)
    run_rows<Op, T, true>(c);
  else
    run_rows<Op, T, false>(c);
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
