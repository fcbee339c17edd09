// Host kernels of the OPTIMIZER kind: fused, in-place SGD and Adam/AdamW
// steps. Elementwise math runs in the parameter's dtype in the order of
// torch.optim's for-loop implementation, so results track PyTorch's to the
// rounding; bias corrections are computed in double, as Python does.
#include <cstdio>

#include "host_kernels.hpp"
#include "optimizer_loops.hpp"
#include "strided_loop.hpp"

namespace porta::host {

using namespace porta::math;

namespace {

// The parameter is read and written through one pointer (outputs[0] is
// inputs[0]'s memory), the step's branches fixed per loop: the loop then
// vectorizes (the compiler's overlap check between two pointers to the same
// memory had kept it scalar: a fifth of a small-batch training step).
// always_inline: compiled into each width's function below, at its width.
template <class T, bool Decay, bool Decoupled, bool SmallW1>
__attribute__((always_inline)) inline void adam_run(const AdamStep<T>& step, T* param, const T* grad, T* m, T* v,
                                                    int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    param[i] = step.template apply<Decay, Decoupled, SmallW1>(param[i], grad[i], m + i, v + i);
}

#if defined(__x86_64__)
template <class T, bool Decay, bool Decoupled, bool SmallW1>
__attribute__((target("avx2"))) void adam_avx2(const AdamStep<T>& step, T* param, const T* grad, T* m, T* v,
                                               int64_t n) {
  adam_run<T, Decay, Decoupled, SmallW1>(step, param, grad, m, v, n);
}

template <class T, bool Decay, bool Decoupled, bool SmallW1>
__attribute__((target("avx512f"))) void adam_avx512(const AdamStep<T>& step, T* param, const T* grad, T* m, T* v,
                                                    int64_t n) {
  adam_run<T, Decay, Decoupled, SmallW1>(step, param, grad, m, v, n);
}
#endif

}  // namespace

template <class T>
void adam_loop(Isa isa, const AdamStep<T>& step, T* param, const T* grad, T* m, T* v, int64_t n) {
  step.with_branches([&]<bool Decay, bool Decoupled, bool SmallW1>() {
#if defined(__x86_64__)
    if (isa == Isa::Avx512) return adam_avx512<T, Decay, Decoupled, SmallW1>(step, param, grad, m, v, n);
    if (isa == Isa::Avx2) return adam_avx2<T, Decay, Decoupled, SmallW1>(step, param, grad, m, v, n);
#endif
    (void)isa;
    adam_run<T, Decay, Decoupled, SmallW1>(step, param, grad, m, v, n);
  });
}
template void adam_loop<float>(Isa, const AdamStep<float>&, float*, const float*, float*, float*, int64_t);
template void adam_loop<double>(Isa, const AdamStep<double>&, double*, const double*, double*, double*, int64_t);

namespace {

template <class T>
porta_status sgd_kernel(const porta_kernel_call* c) {
  const auto* p = op_params<porta_sgd_params>(c);
  if (!p) return report(PORTA_ERROR_INVALID_ARGUMENT, "sgd_step: missing or too-small porta_sgd_params");
  const bool momentum = p->momentum != 0;
  if (momentum && c->num_inputs < 3) {
    char msg[160];
    std::snprintf(msg, sizeof msg, "sgd_step: momentum %g needs a momentum buffer as the third input (got %d inputs)",
                  p->momentum, c->num_inputs);
    return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
  }
  const T* param_in = data_of<T>(c->inputs[0]);
  const T* grad = data_of<T>(c->inputs[1]);
  T* buf = momentum ? data_of<T>(c->inputs[2]) : nullptr;
  T* param = data_of<T>(c->outputs[0]);  // the same memory as param_in
  const SgdStep<T> step(*p);
  parallel_for(numel(c->inputs[0]), kElementwiseGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) param[i] = step(param_in[i], grad[i], buf + (buf ? i : 0));
  });
  return PORTA_OK;
}

template <class T>
porta_status adam_kernel(const porta_kernel_call* c) {
  const auto* p = op_params<porta_adam_params>(c);
  if (!p) return report(PORTA_ERROR_INVALID_ARGUMENT, "adam_step: missing or too-small porta_adam_params");
  if (p->step < 1) {
    char msg[96];
    std::snprintf(msg, sizeof msg, "adam_step: step is %lld; it counts from 1", (long long)p->step);
    return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
  }
  const T* grad = data_of<T>(c->inputs[1]);
  T* m = data_of<T>(c->inputs[2]);
  T* v = data_of<T>(c->inputs[3]);
  T* param = data_of<T>(c->outputs[0]);
  const AdamStep<T> step(*p);
  const Isa isa = widest_isa();
  parallel_for(numel(c->inputs[0]), kElementwiseGrain,
               [&](int64_t b, int64_t e) { adam_loop(isa, step, param + b, grad + b, m + b, v + b, e - b); });
  return PORTA_OK;
}

template <class T>
porta_kernel_fn find_for(uint32_t op) {
  return lookup_kind<PORTA_OP_KIND_OPTIMIZER>(op, []<uint32_t Op>(op_id<Op>) -> porta_kernel_fn {
    if constexpr (Op == PORTA_OP_SGD_STEP)
      return &sgd_kernel<T>;
    else if constexpr (Op == PORTA_OP_ADAM_STEP)
      return &adam_kernel<T>;
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

}  // namespace porta::host
