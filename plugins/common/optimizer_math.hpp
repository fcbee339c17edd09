// The per-element math of the fused optimizer steps (OPTIMIZER kind), written
// once for the host kernels and the CUDA plugin. Elementwise math runs in the
// parameter's dtype in the order of torch.optim's for-loop implementation;
// the scalars (bias corrections, ...) are prepared on the host in double, as
// Python does.
#pragma once

#include <porta/ops.h>

#include <cmath>

#include "host_device.hpp"

namespace porta::math {

// torch.lerp's formula: exact at both ends, accurate for small weights.
// SmallWeight: whether |weight| < 0.5, known before a loop over elements.
template <bool SmallWeight, class T>
PORTA_HD T lerp_with(T from, T to, T weight) {
  if constexpr (SmallWeight)
    return from + weight * (to - from);
  else
    return to - (to - from) * (T(1) - weight);
}
template <class T>
PORTA_HD T lerp(T from, T to, T weight) {
  return std::abs(weight) < T(0.5) ? lerp_with<true>(from, to, weight) : lerp_with<false>(from, to, weight);
}

// SGD_STEP for one element: porta_sgd_params' formula.
template <class T>
struct SgdStep {
  T wd, mom, keep, neg_lr;
  bool decay, momentum, nesterov, first;

  explicit SgdStep(const porta_sgd_params& p)
      : wd(static_cast<T>(p.weight_decay)),
        mom(static_cast<T>(p.momentum)),
        keep(static_cast<T>(1.0 - p.dampening)),
        neg_lr(static_cast<T>(-p.lr)),
        decay(p.weight_decay != 0),
        momentum(p.momentum != 0),
        nesterov(p.nesterov != 0),
        first(p.first_step != 0) {}

  // Returns the new parameter; `buf` (ignored without momentum) is updated in place.
  PORTA_HD T operator()(T param, T grad, T* buf) const {
    T d = grad;
    if (decay) d = d + wd * param;
    if (momentum) {
      const T bv = first ? d : *buf * mom + keep * d;
      *buf = bv;
      d = nesterov ? d + mom * bv : bv;
    }
    return param + neg_lr * d;
  }
};

// ADAM_STEP for one element: porta_adam_params' formula (Adam or AdamW).
template <class T>
struct AdamStep {
  T wd, shrink, w1, b2, w2, neg_step, bias2_sqrt, eps;
  bool decay, decoupled;

  explicit AdamStep(const porta_adam_params& p) {
    const double steps = static_cast<double>(p.step);
    const double bias1 = 1.0 - std::pow(p.beta1, steps), bias2 = 1.0 - std::pow(p.beta2, steps);
    decay = p.weight_decay != 0, decoupled = p.decoupled != 0;
    wd = static_cast<T>(p.weight_decay), shrink = static_cast<T>(1.0 - p.lr * p.weight_decay);
    w1 = static_cast<T>(1.0 - p.beta1), b2 = static_cast<T>(p.beta2), w2 = static_cast<T>(1.0 - p.beta2);
    neg_step = static_cast<T>(-(p.lr / bias1)), bias2_sqrt = static_cast<T>(std::sqrt(bias2));
    eps = static_cast<T>(p.eps);
  }

  // Returns the new parameter; the moments m and v are updated in place.
  // The template arguments are the step's branches, fixed for a whole loop
  // over elements (which then vectorizes): decay, decoupled, and whether
  // |1 - beta1| < 0.5 (lerp's formula).
  template <bool Decay, bool Decoupled, bool SmallW1>
  PORTA_HD T apply(T x, T g, T* m, T* v) const {
    if constexpr (Decay) {
      if constexpr (Decoupled)
        x = x * shrink;
      else
        g = g + wd * x;
    }
    *m = lerp_with<SmallW1>(*m, g, w1);
    *v = *v * b2 + w2 * g * g;
    const T denom = std::sqrt(*v) / bias2_sqrt + eps;
    return x + neg_step * *m / denom;
  }
  PORTA_HD bool small_w1() const { return std::abs(w1) < T(0.5); }

  // Calls f.template operator()<Decay, Decoupled, SmallW1>() for this step's branches.
  template <class F>
  PORTA_HD void with_branches(F&& f) const {
    const bool small = small_w1();
    if (!decay)
      small ? f.template operator()<false, false, true>() : f.template operator()<false, false, false>();
    else if (decoupled)
      small ? f.template operator()<true, true, true>() : f.template operator()<true, true, false>();
    else
      small ? f.template operator()<true, false, true>() : f.template operator()<true, false, false>();
  }

  // One element, its branches taken at run time (the CUDA kernel's threads).
  PORTA_HD T operator()(T x, T g, T* m, T* v) const {
    T next{};
    with_branches(
        [&]<bool Decay, bool Decoupled, bool SmallW1>() { next = apply<Decay, Decoupled, SmallW1>(x, g, m, v); });
    return next;
  }
};

}  // namespace porta::math
