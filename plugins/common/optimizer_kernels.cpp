// Host kernels of the OPTIMIZER kind: fused, in-place SGD and Adam/AdamW
// steps. Elementwise math runs in the parameter's dtype in the order of
// torch.optim's for-loop implementation, so results track PyTorch's to the
// rounding; bias corrections are computed in double, as Python does.
#include <cstdio>

#include "host_kernels.hpp"
#include "optimizer_math.hpp"
#include "strided_loop.hpp"

namespace porta::host {
namespace {

using namespace porta::math;

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
  // The parameter is read and written through one pointer (outputs[0] is
  // inputs[0]'s memory), the step's branches fixed per loop: the loop then
  // vectorizes (the compiler's overlap check between two pointers to the same
  // memory had kept it scalar: a fifth of a small-batch training step).
  const T* grad = data_of<T>(c->inputs[1]);
  T* m = data_of<T>(c->inputs[2]);
  T* v = data_of<T>(c->inputs[3]);
  T* param = data_of<T>(c->outputs[0]);
  const AdamStep<T> step(*p);
  step.with_branches([&]<bool Decay, bool Decoupled, bool SmallW1>() {
    parallel_for(numel(c->inputs[0]), kElementwiseGrain, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i)
        param[i] = step.template apply<Decay, Decoupled, SmallW1>(param[i], grad[i], m + i, v + i);
    });
  });
  return PORTA_OK;
}

template <class T>
porta_kernel_fn find_for(uint32_t op) {
  switch (op) {
    case PORTA_OP_SGD_STEP: return &sgd_kernel<T>;
    case PORTA_OP_ADAM_STEP: return &adam_kernel<T>;
    default: return nullptr;
  }
}

}  // namespace

porta_kernel_fn find_optimizer_kernel(uint32_t op, int dtype) {
  if (dtype == kDtFloat32) return find_for<float>(op);
  if (dtype == kDtFloat64) return find_for<double>(op);
  return nullptr;
}

}  // namespace porta::host
