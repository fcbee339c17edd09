// OPTIMIZER kernels: fused, in-place SGD and Adam/AdamW steps, one thread
// per element, with the per-element math of plugins/common/optimizer_math.hpp.
#include <cstdio>

#include "kernels.hpp"
#include "optimizer_math.hpp"
#include "strided_index.cuh"

namespace porta::cuda {
namespace {

template <class T>
__global__ void __launch_bounds__(kThreads)
    sgd_kernel(const T* param_in, const T* grad, T* buf, T* param, int64_t n, math::SgdStep<T> step) {
  for (int64_t i = thread_index(); i < n; i += thread_count())
    param[i] = step(param_in[i], grad[i], buf ? buf + i : buf);
}

template <class T>
__global__ void __launch_bounds__(kThreads)
    adam_kernel(const T* param_in, const T* grad, T* m, T* v, T* param, int64_t n, math::AdamStep<T> step) {
  for (int64_t i = thread_index(); i < n; i += thread_count()) param[i] = step(param_in[i], grad[i], m + i, v + i);
}

template <class T>
porta_status sgd(const porta_kernel_call* c) {
  const auto* p = op_params<porta_sgd_params>(c);
  if (!p) return report(PORTA_ERROR_INVALID_ARGUMENT, "sgd_step: missing or too-small porta_sgd_params");
  const bool momentum = p->momentum != 0;
  if (momentum && c->num_inputs < 3)
    return reportf(PORTA_ERROR_INVALID_ARGUMENT,
                   "sgd_step: momentum %g needs a momentum buffer as the third input (got %d inputs)", p->momentum,
                   c->num_inputs);
  Launch l;
  if (porta_status st = begin(c, &l); st != PORTA_OK) return st;
  const int64_t n = numel(c->inputs[0]);
  sgd_kernel<<<l.blocks(n), kThreads, 0, l.stream>>>(data_of<const T>(c->inputs[0]), data_of<const T>(c->inputs[1]),
                                                     momentum ? data_of<T>(c->inputs[2]) : nullptr,
                                                     data_of<T>(c->outputs[0]), n, math::SgdStep<T>(*p));
  return launched("sgd_step");
}

template <class T>
porta_status adam(const porta_kernel_call* c) {
  const auto* p = op_params<porta_adam_params>(c);
  if (!p) return report(PORTA_ERROR_INVALID_ARGUMENT, "adam_step: missing or too-small porta_adam_params");
  if (p->step < 1)
    return reportf(PORTA_ERROR_INVALID_ARGUMENT, "adam_step: step is %lld; it counts from 1", (long long)p->step);
  if (c->num_inputs < 4)
    return report(PORTA_ERROR_INVALID_ARGUMENT, "adam_step: needs param, grad, exp_avg, exp_avg_sq");
  Launch l;
  if (porta_status st = begin(c, &l); st != PORTA_OK) return st;
  const int64_t n = numel(c->inputs[0]);
  adam_kernel<<<l.blocks(n), kThreads, 0, l.stream>>>(data_of<const T>(c->inputs[0]), data_of<const T>(c->inputs[1]),
                                                      data_of<T>(c->inputs[2]), data_of<T>(c->inputs[3]),
                                                      data_of<T>(c->outputs[0]), n, math::AdamStep<T>(*p));
  return launched("adam_step");
}

template <class T>
porta_kernel_fn find_for(uint32_t op) {
  return lookup_kind<PORTA_OP_KIND_OPTIMIZER>(op, []<uint32_t Op>(op_id<Op>) -> porta_kernel_fn {
    if constexpr (Op == PORTA_OP_SGD_STEP)
      return &sgd<T>;
    else if constexpr (Op == PORTA_OP_ADAM_STEP)
      return &adam<T>;
    else
      static_assert(no_kernel_for<Op>, "an OPTIMIZER row without its kernel here");
  });
}

}  // namespace

porta_kernel_fn find_optimizer_kernel(uint32_t op, int dtype) {
  if (dtype == kDtFloat32) return find_for<float>(op);
  if (dtype == kDtFloat64) return find_for<double>(op);
  return nullptr;
}

}  // namespace porta::cuda
