#include "optim/composed_steps.hpp"

#include <cmath>

#include "ops/ops.hpp"

namespace porta::optim {
namespace {

TensorPtr mul(const TensorPtr& a, const TensorPtr& b) { return ops::binary(PORTA_OP_MUL, a, b); }
TensorPtr add(const TensorPtr& a, const TensorPtr& b) { return ops::binary(PORTA_OP_ADD, a, b); }
TensorPtr sub(const TensorPtr& a, const TensorPtr& b) { return ops::binary(PORTA_OP_SUB, a, b); }
TensorPtr div(const TensorPtr& a, const TensorPtr& b) { return ops::binary(PORTA_OP_DIV, a, b); }
TensorPtr scale(const TensorPtr& a, double s) { return ops::binary_scalar(PORTA_OP_MUL, a, s); }
TensorPtr shift(const TensorPtr& a, double s) { return ops::binary_scalar(PORTA_OP_ADD, a, s); }
TensorPtr sqrt(const TensorPtr& a) { return ops::unary(PORTA_OP_SQRT, a); }
TensorPtr zeros_like(const TensorPtr& p) { return ops::full(*p->device, p->shape, 0.0, p->dtype); }

// torch.lerp(start, end, w) for w < 0.5: start + w * (end - start).
TensorPtr lerp(const TensorPtr& start, const TensorPtr& end, double w) { return add(start, scale(sub(end, start), w)); }

// grad + weight_decay * param (L2), or grad unchanged.
TensorPtr with_l2(const TensorPtr& g, const TensorPtr& p, double weight_decay) {
  return weight_decay != 0 ? add(g, scale(p, weight_decay)) : g;
}

}  // namespace

Update rmsprop_update(const porta_rmsprop_options& o, const TensorPtr& p, const TensorPtr& g_in,
                      const std::vector<TensorPtr>& state) {
  const bool momentum = o.momentum > 0, centered = o.centered != 0;
  const TensorPtr g = with_l2(g_in, p, o.weight_decay);
  size_t slot = 0;
  const auto old = [&](size_t k) { return k < state.size() && state[k] ? state[k] : zeros_like(p); };
  Update u;
  TensorPtr square_avg = add(scale(old(slot++), o.alpha), scale(mul(g, g), 1 - o.alpha));
  u.state.push_back(square_avg);
  const size_t buf_slot = momentum ? slot++ : 0, avg_slot = centered ? slot++ : 0;
  TensorPtr avg;
  TensorPtr grad_avg;
  if (centered) {
    grad_avg = lerp(old(avg_slot), g, 1 - o.alpha);
    avg = sqrt(sub(square_avg, mul(grad_avg, grad_avg)));
  } else {
    avg = sqrt(square_avg);
  }
  avg = shift(avg, o.eps);
  if (momentum) {
    TensorPtr buf = add(scale(old(buf_slot), o.momentum), div(g, avg));
    u.param = sub(p, scale(buf, o.lr));
    u.state.push_back(buf);
  } else {
    u.param = sub(p, scale(div(g, avg), o.lr));
  }
  if (centered) u.state.push_back(grad_avg);
  return u;
}

Update adagrad_update(const porta_adagrad_options& o, const TensorPtr& p, const TensorPtr& g_in,
                      const std::vector<TensorPtr>& state, int64_t step) {
  const TensorPtr g = with_l2(g_in, p, o.weight_decay);
  const double clr = o.lr / (1 + static_cast<double>(step - 1) * o.lr_decay);
  const TensorPtr sum0 =
      !state.empty() && state[0] ? state[0] : ops::full(*p->device, p->shape, o.initial_accumulator_value, p->dtype);
  TensorPtr sum = add(sum0, mul(g, g));
  TensorPtr std_dev = shift(sqrt(sum), o.eps);
  return {sub(p, scale(div(g, std_dev), clr)), {sum}};
}

Update amsgrad_update(const porta_adam_options& o, bool decoupled, const TensorPtr& p_in, const TensorPtr& g_in,
                      const std::vector<TensorPtr>& state, int64_t step) {
  const auto old = [&](size_t k) { return k < state.size() && state[k] ? state[k] : zeros_like(p_in); };
  TensorPtr p = decoupled && o.weight_decay != 0 ? scale(p_in, 1 - o.lr * o.weight_decay) : p_in;
  const TensorPtr g = decoupled ? g_in : with_l2(g_in, p_in, o.weight_decay);
  TensorPtr exp_avg = lerp(old(0), g, 1 - o.beta1);
  TensorPtr exp_avg_sq = add(scale(old(1), o.beta2), scale(mul(g, g), 1 - o.beta2));
  TensorPtr max_sq = ops::binary(PORTA_OP_MAXIMUM, old(2), exp_avg_sq);
  const double s = static_cast<double>(step);
  const double bias1 = 1 - std::pow(o.beta1, s), bias2_sqrt = std::sqrt(1 - std::pow(o.beta2, s));
  TensorPtr denom = shift(ops::binary_scalar(PORTA_OP_DIV, sqrt(max_sq), bias2_sqrt), o.eps);
  return {sub(p, scale(div(exp_avg, denom), o.lr / bias1)), {exp_avg, exp_avg_sq, max_sq}};
}

}  // namespace porta::optim
