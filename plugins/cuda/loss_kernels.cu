// LOSS kernels: cross entropy with class indices over contiguous logits
// [N, C], a warp per sample; logsumexp subtracts the row max and works in
// double, as in the cpu plugin. A kernel cannot report a bad target, so a
// target outside [0, C) gives NaN (the whole row of the gradient too), as
// porta/ops.h allows for backends that cannot detect it.
#include <cmath>

#include "kernels.hpp"
#include "row_reduce.cuh"
#include "strided_index.cuh"

namespace porta::cuda {
namespace {

// logsumexp of the warp's row, the same in every lane.
template <class T>
__device__ double warp_logsumexp(const T* x, int64_t classes, int lane) {
  T mx = -INFINITY;
  for (int64_t k = lane; k < classes; k += kWarp) mx = nan_max(mx, x[k]);
  mx = warp_max(mx);
  double sum = 0;
  for (int64_t k = lane; k < classes; k += kWarp) sum += std::exp(static_cast<double>(x[k]) - static_cast<double>(mx));
  return static_cast<double>(mx) + std::log(warp_sum(sum));
}

template <class T>
__global__ void __launch_bounds__(kThreads)
    cross_entropy_kernel(const T* logits, const int64_t* target, T* loss, int64_t n, int64_t classes) {
  const int lane = threadIdx.x % kWarp;
  for (int64_t r = thread_index() / kWarp; r < n; r += thread_count() / kWarp) {
    const T* row = logits + r * classes;
    const double lse = warp_logsumexp(row, classes, lane);
    const int64_t t = target[r];
    if (lane == 0)
      loss[r] = (t < 0 || t >= classes) ? static_cast<T>(NAN) : static_cast<T>(lse - static_cast<double>(row[t]));
  }
}

template <class T>
__global__ void __launch_bounds__(kThreads)
    cross_entropy_backward_kernel(const T* logits, const int64_t* target, const T* grad_loss, T* gx, int64_t n,
                                  int64_t classes) {
  const int lane = threadIdx.x % kWarp;
  for (int64_t r = thread_index() / kWarp; r < n; r += thread_count() / kWarp) {
    const T* row = logits + r * classes;
    T* out = gx + r * classes;
    const double lse = warp_logsumexp(row, classes, lane), g = static_cast<double>(grad_loss[r]);
    const int64_t t = target[r];
    const bool valid = t >= 0 && t < classes;
    for (int64_t k = lane; k < classes; k += kWarp) {
      const double p = std::exp(static_cast<double>(row[k]) - lse) - (k == t ? 1.0 : 0.0);
      out[k] = valid ? static_cast<T>(p * g) : static_cast<T>(NAN);
    }
  }
}

porta_status check_shapes(const char* op, const porta_kernel_call* c, int inputs) {
  if (c->num_inputs < inputs) return reportf(PORTA_ERROR_INVALID_ARGUMENT, "%s: needs %d inputs", op, inputs);
  const DLTensor &logits = c->inputs[0], &target = c->inputs[1];
  if (logits.ndim != 2 || target.ndim != 1 || target.shape[0] != logits.shape[0])
    return reportf(PORTA_ERROR_INVALID_ARGUMENT, "%s: expected logits [N, C] and target [N], got %d-D and %d-D", op,
                   logits.ndim, target.ndim);
  return PORTA_OK;
}

template <class T>
porta_status cross_entropy(const porta_kernel_call* c) {
  if (porta_status st = check_shapes("cross_entropy", c, 2); st != PORTA_OK) return st;
  Launch l;
  if (porta_status st = begin(c, &l); st != PORTA_OK) return st;
  const int64_t n = c->inputs[0].shape[0], classes = c->inputs[0].shape[1];
  cross_entropy_kernel<<<l.blocks(n * kWarp), kThreads, 0, l.stream>>>(
      data_of<const T>(c->inputs[0]), data_of<const int64_t>(c->inputs[1]), data_of<T>(c->outputs[0]), n, classes);
  return launched("cross_entropy");
}

template <class T>
porta_status cross_entropy_backward(const porta_kernel_call* c) {
  if (porta_status st = check_shapes("cross_entropy_backward", c, 3); st != PORTA_OK) return st;
  Launch l;
  if (porta_status st = begin(c, &l); st != PORTA_OK) return st;
  const int64_t n = c->inputs[0].shape[0], classes = c->inputs[0].shape[1];
  cross_entropy_backward_kernel<<<l.blocks(n * kWarp), kThreads, 0, l.stream>>>(
      data_of<const T>(c->inputs[0]), data_of<const int64_t>(c->inputs[1]), data_of<const T>(c->inputs[2]),
      data_of<T>(c->outputs[0]), n, classes);
  return launched("cross_entropy_backward");
}

template <class T>
porta_kernel_fn find_for(uint32_t op) {
  return lookup_kind<PORTA_OP_KIND_LOSS>(op, []<uint32_t Op>(op_id<Op>) -> porta_kernel_fn {
    if constexpr (Op == PORTA_OP_CROSS_ENTROPY)
      return &cross_entropy<T>;
    else if constexpr (Op == PORTA_OP_CROSS_ENTROPY_BACKWARD)
      return &cross_entropy_backward<T>;
    else
      static_assert(no_kernel_for<Op>, "a LOSS row without its kernel here");
  });
}

}  // namespace

porta_kernel_fn find_loss_kernel(uint32_t op, int dtype) {
  if (dtype == kDtFloat32) return find_for<float>(op);
  if (dtype == kDtFloat64) return find_for<double>(op);
  return nullptr;
}

}  // namespace porta::cuda
