// Host kernels of the OPTIMIZER kind: fused, in-place SGD and Adam/AdamW
// steps. Elementwise math runs in the parameter's dtype in the order of
// torch.optim's for-loop implementation, so results track PyTorch's to the
// rounding; bias corrections are computed in double, as Python does.
#include <cmath>
#include <cstdio>

#include "host_kernels.hpp"
#include "strided_loop.hpp"

namespace porta::host {
namespace {

// torch.lerp's formula: exact at both ends, accurate for small weights.
template <class T>
T lerp(T from, T to, T weight) {
  return std::abs(weight) < T(0.5) ? from + weight * (to - from) : to - (to - from) * (T(1) - weight);
}

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
  const T* param_in = base_ptr<T>(c->inputs[0]);
  const T* grad = base_ptr<T>(c->inputs[1]);
  T* buf = momentum ? base_ptr<T>(c->inputs[2]) : nullptr;
  T* param = base_ptr<T>(c->outputs[0]);  // the same memory as param_in
  const bool decay = p->weight_decay != 0, nesterov = p->nesterov != 0, first = p->first_step != 0;
  const T wd = static_cast<T>(p->weight_decay), mom = static_cast<T>(p->momentum);
  const T keep = static_cast<T>(1.0 - p->dampening), neg_lr = static_cast<T>(-p->lr);
  parallel_for(numel(c->inputs[0]), kElementwiseGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      T d = grad[i];
      if (decay) d = d + wd * param_in[i];
      if (momentum) {
        const T bv = first ? d : buf[i] * mom + keep * d;
        buf[i] = bv;
        d = nesterov ? d + mom * bv : bv;
      }
      param[i] = param_in[i] + neg_lr * d;
    }
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
  const T* param_in = base_ptr<T>(c->inputs[0]);
  const T* grad = base_ptr<T>(c->inputs[1]);
  T* m = base_ptr<T>(c->inputs[2]);
  T* v = base_ptr<T>(c->inputs[3]);
  T* param = base_ptr<T>(c->outputs[0]);  // the same memory as param_in
  const double steps = static_cast<double>(p->step);
  const double bias1 = 1.0 - std::pow(p->beta1, steps), bias2 = 1.0 - std::pow(p->beta2, steps);
  const bool decay = p->weight_decay != 0, decoupled = p->decoupled != 0;
  const T wd = static_cast<T>(p->weight_decay), shrink = static_cast<T>(1.0 - p->lr * p->weight_decay);
  const T w1 = static_cast<T>(1.0 - p->beta1), b2 = static_cast<T>(p->beta2), w2 = static_cast<T>(1.0 - p->beta2);
  const T neg_step = static_cast<T>(-(p->lr / bias1)), bias2_sqrt = static_cast<T>(std::sqrt(bias2));
  const T eps = static_cast<T>(p->eps);
  parallel_for(numel(c->inputs[0]), kElementwiseGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      T x = param_in[i], g = grad[i];
      if (decay) {
        if (decoupled) x = x * shrink;
        else g = g + wd * x;
      }
      m[i] = lerp(m[i], g, w1);
      v[i] = v[i] * b2 + w2 * g * g;
      const T denom = std::sqrt(v[i]) / bias2_sqrt + eps;
      param[i] = x + neg_step * m[i] / denom;
    }
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
  if (dtype == 4) return find_for<float>(op);
  if (dtype == 5) return find_for<double>(op);
  return nullptr;
}

}  // namespace porta::host
