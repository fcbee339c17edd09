// NORM kernels, the sums in double as the cpu plugin's (ops.h,
// PORTA_OP_KIND_NORM): layer normalization of contiguous [rows, n] rows, a
// warp per row; batch normalization of [N, C, S], a block per channel.
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

// The block's sum of v (every thread calls it; blockDim.x == kThreads).
__device__ double block_sum(double v, double* part) {
  part[threadIdx.x] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  const double sum = part[0];
  __syncthreads();  // part[] is reused by the next sum
  return sum;
}

template <class T>
__global__ void __launch_bounds__(kThreads) batch_norm_block_kernel(const T* x, const T* w, const T* b, T* y,
                                                                    T* stats, int64_t N, int64_t C, int64_t S,
                                                                    double eps) {
  __shared__ double part[kThreads];
  const int64_t M = N * S;
  for (int64_t c = blockIdx.x; c < C; c += gridDim.x) {
    const auto at = [=](int64_t k) { return (k / S * C + c) * S + k % S; };
    double sum = 0;
    for (int64_t k = threadIdx.x; k < M; k += blockDim.x) sum += static_cast<double>(x[at(k)]);
    const double mean = block_sum(sum, part) / static_cast<double>(M);
    double squares = 0;
    for (int64_t k = threadIdx.x; k < M; k += blockDim.x) {
      const double d = static_cast<double>(x[at(k)]) - mean;
      squares += d * d;
    }
    const double var = block_sum(squares, part) / static_cast<double>(M);
    const T m = static_cast<T>(mean), r = static_cast<T>(1.0 / std::sqrt(var + eps)), wc = w[c], bc = b[c];
    for (int64_t k = threadIdx.x; k < M; k += blockDim.x) y[at(k)] = (x[at(k)] - m) * r * wc + bc;
    if (threadIdx.x == 0) stats[3 * c] = m, stats[3 * c + 1] = r, stats[3 * c + 2] = static_cast<T>(var);
  }
}

template <class T>
__global__ void __launch_bounds__(kThreads) batch_norm_backward_block_kernel(const T* gy, const T* x, const T* stats,
                                                                             const T* w, T* gx, T* sums, int64_t N,
                                                                             int64_t C, int64_t S) {
  __shared__ double part[kThreads];
  const int64_t M = N * S;
  for (int64_t c = blockIdx.x; c < C; c += gridDim.x) {
    const auto at = [=](int64_t k) { return (k / S * C + c) * S + k % S; };
    const T m = stats[3 * c], r = stats[3 * c + 1];
    double sum_g = 0, sum_gx = 0;
    for (int64_t k = threadIdx.x; k < M; k += blockDim.x) {
      sum_g += static_cast<double>(gy[at(k)]);
      sum_gx += static_cast<double>(gy[at(k)]) * static_cast<double>((x[at(k)] - m) * r);
    }
    sum_g = block_sum(sum_g, part);
    sum_gx = block_sum(sum_gx, part);
    const T a = static_cast<T>(sum_g / static_cast<double>(M)), bm = static_cast<T>(sum_gx / static_cast<double>(M));
    const T scale = r * w[c];
    for (int64_t k = threadIdx.x; k < M; k += blockDim.x)
      gx[at(k)] = scale * (gy[at(k)] - a - (x[at(k)] - m) * r * bm);
    if (threadIdx.x == 0) sums[2 * c] = static_cast<T>(sum_g), sums[2 * c + 1] = static_cast<T>(sum_gx);
  }
}

template <uint32_t Op, class T>
porta_status batch_norm_kernel(const porta_kernel_call* c) {
  const porta_norm_params* p = plugin::op_params<porta_norm_params>(c);
  const bool forward = Op == PORTA_OP_BATCH_NORM;
  const DLTensor& x = c->inputs[forward ? 0 : 1];
  if (!p || x.ndim != 3 || c->num_inputs != (forward ? 3 : 4) || c->num_outputs != 2)
    return reportf(PORTA_ERROR_INVALID_ARGUMENT,
                   "%s: expected porta_norm_params and contiguous [N, C, S] operands (got %s, %d-D)",
                   plugin::op_name(Op), p ? "params" : "no params", x.ndim);
  Launch l;
  if (porta_status st = begin(c, &l); st != PORTA_OK) return st;
  const int64_t N = x.shape[0], C = x.shape[1], S = x.shape[2];
  const unsigned blocks = static_cast<unsigned>(C < 65535 ? C : 65535);
  const auto in = [c](int i) { return data_of<const T>(c->inputs[i]); };
  const auto out = [c](int i) { return data_of<T>(c->outputs[i]); };
  if constexpr (forward)
    batch_norm_block_kernel<T><<<blocks, kThreads, 0, l.stream>>>(in(0), in(1), in(2), out(0), out(1), N, C, S, p->eps);
  else
    batch_norm_backward_block_kernel<T><<<blocks, kThreads, 0, l.stream>>>(in(0), in(1), in(2), in(3), out(0), out(1),
                                                                           N, C, S);
  return launched(plugin::op_name(Op));
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
  return lookup_kind<PORTA_OP_KIND_NORM>(op, []<uint32_t Op>(op_id<Op>) -> porta_kernel_fn {
    if constexpr (Op == PORTA_OP_LAYER_NORM || Op == PORTA_OP_LAYER_NORM_BACKWARD)
      return &norm_kernel<Op, T>;
    else if constexpr (Op == PORTA_OP_BATCH_NORM || Op == PORTA_OP_BATCH_NORM_BACKWARD)
      return &batch_norm_kernel<Op, T>;
    else
      static_assert(no_kernel_for<Op>, "a NORM row without its kernel here");
  });
}

}  // namespace

porta_kernel_fn find_norm_kernel(uint32_t op, int dtype) {
  if (dtype == kDtFloat32) return find_for<float>(op);
  if (dtype == kDtFloat64) return find_for<double>(op);
  return nullptr;
}

}  // namespace porta::cuda
