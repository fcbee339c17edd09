// NORM kernels: layer normalization of contiguous [rows, n] rows, a warp per
// row, the sums in double as the cpu plugin's (ops.h, PORTA_OP_KIND_NORM).
#include <cmath>

#include "kernels.hpp"
#include "row_reduce.cuh"
#include "strided_index.cuh"

namespace porta::cuda {
namespace {

template <class T>
__global__ void __launch_bounds__(kThreads) layer_norm_warp_kernel(const T* x, const T* w, const T* b, T* y,
                                                                   T* stats, int64_t rows, int64_t n, double eps) {
  const int lane = threadIdx.x % kWarp;
  for (int64_t r = thread_index() / kWarp; r < rows; r += thread_count() / kWarp) {
    const T* xr = x + r * n;
    double sum = 0;
    for (int64_t j = lane; j < n; j += kWarp) sum += static_cast<double>(xr[j]);
    const double mean = warp_sum(sum) / static_cast<double>(n);
    double squares = 0;
    for (int64_t j = lane; j < n; j += kWarp) {
      const double d = static_cast<double>(xr[j]) - mean;
      squares += d * d;
    }
    const double rstd = 1.0 / std::sqrt(warp_sum(squares) / static_cast<double>(n) + eps);
    const T m = static_cast<T>(mean), s = static_cast<T>(rstd);
    for (int64_t j = lane; j < n; j += kWarp) y[r * n + j] = (xr[j] - m) * s * w[j] + b[j];
    if (lane == 0) stats[2 * r] = m, stats[2 * r + 1] = s;
  }
}

template <class T>
__global__ void __launch_bounds__(kThreads) layer_norm_backward_warp_kernel(const T* gy, const T* x, const T* stats,
                                                                            const T* w, T* gx, int64_t rows,
                                                                            int64_t n) {
  const int lane = threadIdx.x % kWarp;
  for (int64_t r = thread_index() / kWarp; r < rows; r += thread_count() / kWarp) {
    const T* gr = gy + r * n;
    const T* xr = x + r * n;
    const T m = stats[2 * r], s = stats[2 * r + 1];
    double sum_g = 0, sum_gx = 0;
    for (int64_t j = lane; j < n; j += kWarp) {
      const T g = gr[j] * w[j];
      sum_g += static_cast<double>(g);
      sum_gx += static_cast<double>(g) * static_cast<double>((xr[j] - m) * s);
    }
    const T a = static_cast<T>(warp_sum(sum_g) / static_cast<double>(n));
    const T c = static_cast<T>(warp_sum(sum_gx) / static_cast<double>(n));
    for (int64_t j = lane; j < n; j += kWarp) gx[r * n + j] = s * (gr[j] * w[j] - a - (xr[j] - m) * s * c);
  }
}

template <uint32_t Op, class T>
porta_status norm_kernel(const porta_kernel_call* c) {
  const porta_norm_params* p = plugin::op_params<porta_norm_params>(c);
  const bool forward = Op == PORTA_OP_LAYER_NORM;
  const DLTensor& x = c->inputs[forward ? 0 : 1];
  if (!p || x.ndim != 2 || c->num_inputs != (forward ? 3 : 4))
    return reportf(PORTA_ERROR_INVALID_ARGUMENT,
                   "%s: expected porta_norm_params and contiguous [rows, n] operands (got %s, %d-D)",
                   plugin::op_name(Op), p ? "params" : "no params", x.ndim);
  Launch l;
  if (porta_status st = begin(c, &l); st != PORTA_OK) return st;
  const int64_t rows = x.shape[0], n = x.shape[1];
  const auto in = [c](int i) { return data_of<const T>(c->inputs[i]); };
  if constexpr (forward)
    layer_norm_warp_kernel<T><<<l.blocks(rows * kWarp), kThreads, 0, l.stream>>>(
        in(0), in(1), in(2), data_of<T>(c->outputs[0]), data_of<T>(c->outputs[1]), rows, n, p->eps);
  else
    layer_norm_backward_warp_kernel<T><<<l.blocks(rows * kWarp), kThreads, 0, l.stream>>>(
        in(0), in(1), in(2), in(3), data_of<T>(c->outputs[0]), rows, n);
  return launched(plugin::op_name(Op));
}

template <class T>
porta_kernel_fn find_for(uint32_t op) {
  switch (op) {
    case PORTA_OP_LAYER_NORM:
      return &norm_kernel<PORTA_OP_LAYER_NORM, T>;
    case PORTA_OP_LAYER_NORM_BACKWARD:
      return &norm_kernel<PORTA_OP_LAYER_NORM_BACKWARD, T>;
    default:
      return nullptr;
  }
}

}  // namespace

porta_kernel_fn find_norm_kernel(uint32_t op, int dtype) {
  if (dtype == kDtFloat32) return find_for<float>(op);
  if (dtype == kDtFloat64) return find_for<double>(op);
  return nullptr;
}

}  // namespace porta::cuda
