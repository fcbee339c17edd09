// SOFTMAX kernels over contiguous [outer, dim, inner]: rows of `dim`
// elements `inner` apart. inner == 1: a warp per row; otherwise a thread per
// row (neighbouring threads read neighbouring columns). The formulas are
// the cpu plugin's: subtract the max, exp in the dtype, sums in double.
#include <cmath>

#include "kernels.hpp"
#include "row_reduce.cuh"
#include "strided_index.cuh"

namespace porta::cuda {
namespace {

constexpr bool is_forward(uint32_t op) { return op == PORTA_OP_SOFTMAX || op == PORTA_OP_LOG_SOFTMAX; }

// Forward: the second pass's element k given the row's max and sum.
template <uint32_t Op, class T>
__device__ inline T forward_at(T x, T mx, double sum) {
  if constexpr (Op == PORTA_OP_SOFTMAX)
    return std::exp(x - mx) * static_cast<T>(1.0 / sum);
  else
    return static_cast<T>(static_cast<double>(x) - (static_cast<double>(mx) + std::log(sum)));
}

// Backward: the first pass's term and the second pass's element.
template <uint32_t Op, class T>
__device__ inline double backward_term(T y, T gy) {
  if constexpr (Op == PORTA_OP_SOFTMAX_BACKWARD)
    return static_cast<double>(gy) * static_cast<double>(y);
  else
    return static_cast<double>(gy);
}
template <uint32_t Op, class T>
__device__ inline T backward_at(T y, T gy, T s) {
  if constexpr (Op == PORTA_OP_SOFTMAX_BACKWARD)
    return y * (gy - s);  // y * (gy - sum(gy * y))
  else
    return gy - std::exp(y) * s;  // gy - exp(y) * sum(gy)
}

template <uint32_t Op, class T>
__global__ void __launch_bounds__(kThreads)
    softmax_warp_kernel(const T* a, const T* b, T* out, int64_t rows, int64_t dim) {
  const int lane = threadIdx.x % kWarp;
  for (int64_t r = thread_index() / kWarp; r < rows; r += thread_count() / kWarp) {
    const T* x = a + r * dim;
    T* y = out + r * dim;
    if constexpr (is_forward(Op)) {
      T mx = -INFINITY;
      for (int64_t k = lane; k < dim; k += kWarp) mx = nan_max(mx, x[k]);
      mx = warp_max(mx);
      double sum = 0;
      for (int64_t k = lane; k < dim; k += kWarp) sum += static_cast<double>(std::exp(x[k] - mx));
      sum = warp_sum(sum);
      for (int64_t k = lane; k < dim; k += kWarp) y[k] = forward_at<Op>(x[k], mx, sum);
    } else {
      const T* g = b + r * dim;
      double sum = 0;
      for (int64_t k = lane; k < dim; k += kWarp) sum += backward_term<Op>(x[k], g[k]);
      const T s = static_cast<T>(warp_sum(sum));
      for (int64_t k = lane; k < dim; k += kWarp) y[k] = backward_at<Op>(x[k], g[k], s);
    }
  }
}

template <uint32_t Op, class T>
__global__ void __launch_bounds__(kThreads)
    softmax_thread_kernel(const T* a, const T* b, T* out, int64_t rows, int64_t dim, int64_t inner) {
  for (int64_t r = thread_index(); r < rows; r += thread_count()) {
    const int64_t at = (r / inner) * dim * inner + r % inner;
    const T* x = a + at;
    T* y = out + at;
    if constexpr (is_forward(Op)) {
      T mx = x[0];
      for (int64_t k = 1; k < dim; ++k)
        if (!(x[k * inner] <= mx)) mx = x[k * inner];
      double sum = 0;
      for (int64_t k = 0; k < dim; ++k) sum += static_cast<double>(std::exp(x[k * inner] - mx));
      for (int64_t k = 0; k < dim; ++k) y[k * inner] = forward_at<Op>(x[k * inner], mx, sum);
    } else {
      const T* g = b + at;
      double sum = 0;
      for (int64_t k = 0; k < dim; ++k) sum += backward_term<Op>(x[k * inner], g[k * inner]);
      const T s = static_cast<T>(sum);
      for (int64_t k = 0; k < dim; ++k) y[k * inner] = backward_at<Op>(x[k * inner], g[k * inner], s);
    }
  }
}

template <uint32_t Op, class T>
porta_status softmax_kernel(const porta_kernel_call* c) {
  const DLTensor& t = c->inputs[0];
  if (t.ndim != 3)
    return reportf(PORTA_ERROR_INVALID_ARGUMENT, "%s: expected a contiguous [outer, dim, inner] tensor, got %d-D",
                   plugin::op_name(Op), t.ndim);
  if (!is_forward(Op) && c->num_inputs < 2)
    return reportf(PORTA_ERROR_INVALID_ARGUMENT, "%s: needs y and grad_y", plugin::op_name(Op));
  Launch l;
  if (porta_status st = begin(c, &l); st != PORTA_OK) return st;
  const int64_t outer = t.shape[0], dim = t.shape[1], inner = t.shape[2], rows = outer * inner;
  const T* a = data_of<const T>(t);
  const T* b = c->num_inputs > 1 ? data_of<const T>(c->inputs[1]) : nullptr;
  T* out = data_of<T>(c->outputs[0]);
  if (inner == 1)
    softmax_warp_kernel<Op, T><<<l.blocks(rows * kWarp), kThreads, 0, l.stream>>>(a, b, out, rows, dim);
  else
    softmax_thread_kernel<Op, T><<<l.blocks(rows), kThreads, 0, l.stream>>>(a, b, out, rows, dim, inner);
  return launched(plugin::op_name(Op));
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

}  // namespace porta::cuda
