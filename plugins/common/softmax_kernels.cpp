// Host kernels of the SOFTMAX kind over contiguous [outer, dim, inner]: one
// task per row of `dim` elements `inner` apart (contiguous rows, inner 1, a
// block of rows at a time). The max is subtracted before exp (SLEEF's
// vector exp where it is loaded), and sums accumulate in double lanes added
// pairwise (row_math.hpp); the loops at the CPU's widest vectors
// (PORTA_WIDEST_VECTORS, the same bits at every width).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "host_kernels.hpp"
#include "lane_math.hpp"
#include "row_math.hpp"
#include "strided_loop.hpp"
#include "vector_math.hpp"

namespace porta::host {
namespace {

// The sum of f(k) for k in [0, n), in double lanes added pairwise.
template <class F>
double lane_sum(int64_t n, F f) {
  return lane_fold<double, 32>(n, f, [](double a, double b) { return a + b; });
}

// `rows` contiguous rows of `dim` values (the max, NaN if the row has one,
// subtracted before exp), a block at a time (exp_shifted_rows), the block's
// logs in one call too (log_softmax [2048, 76]: 224 -> 97 us).
template <uint32_t Op, class T>
PORTA_WIDEST_VECTORS void forward_rows(const T* x, T* y, int64_t rows, int64_t dim) {
  const int64_t block = block_rows(dim);
  T mx[kBlockRows];
  double sum[kBlockRows];  // log_softmax: then its log
  for (int64_t r0 = 0; r0 < rows; r0 += block) {
    const int64_t nr = std::min(block, rows - r0);
    const T* xb = x + r0 * dim;
    T* yb = y + r0 * dim;
    exp_shifted_rows(xb, yb, nr, dim, mx, sum);  // log_softmax: yb is scratch
    if constexpr (Op == PORTA_OP_LOG_SOFTMAX) log_into(sum, sum, nr);
    for (int64_t r = 0; r < nr; ++r) {
      T* yr = yb + r * dim;
      if constexpr (Op == PORTA_OP_SOFTMAX) {
        const T inv = static_cast<T>(1.0 / sum[r]);
        for (int64_t k = 0; k < dim; ++k) yr[k] *= inv;
      } else {
        const T* xr = xb + r * dim;
        const double shift = static_cast<double>(mx[r]) + sum[r];
        for (int64_t k = 0; k < dim; ++k) yr[k] = static_cast<T>(static_cast<double>(xr[k]) - shift);
      }
    }
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
    if (inner == 1 && forward) return forward_rows<Op>(a + begin * dim, out + begin * dim, end - begin, dim);
    std::vector<T> rows(inner == 1 ? 0 : static_cast<size_t>(3 * dim));  // a, b, out of one row
    T *ra = rows.data(), *rb = ra + dim, *ro = rb + dim;
    for (int64_t r = begin; r < end; ++r) {
      const int64_t at = (r / inner) * dim * inner + r % inner;
      if (inner == 1) {
        if constexpr (!forward) backward_row<Op>(a + at, b + at, out + at, dim);
        continue;
      }
      for (int64_t k = 0; k < dim; ++k) ra[k] = a[at + k * inner];
      if constexpr (forward) {
        forward_rows<Op>(ra, ro, 1, dim);
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
  return lookup_kind<PORTA_OP_KIND_SOFTMAX>(op, []<uint32_t Op>(op_id<Op>) {
    static_assert(
        op_in<Op, PORTA_OP_SOFTMAX, PORTA_OP_LOG_SOFTMAX, PORTA_OP_SOFTMAX_BACKWARD, PORTA_OP_LOG_SOFTMAX_BACKWARD>,
        "a SOFTMAX row softmax_kernel does not serve");
    return &softmax_kernel<Op, T>;
  });
}

}  // namespace

porta_kernel_fn find_softmax_kernel(uint32_t op, int dtype) {
  if (dtype == kDtFloat32) return find_for<float>(op);
  if (dtype == kDtFloat64) return find_for<double>(op);
  return nullptr;
}

}  // namespace porta::host
