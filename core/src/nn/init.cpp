// Parameter initializers: in place, from Porta's counter-based generator, so
// one seed gives one model on every device.
#include <cmath>

#include "runtime/error.hpp"
#include "nn/nn.hpp"

namespace porta::nn {

void init_uniform(const TensorPtr& t, double low, double high) {
  check_float("init_uniform_", "tensor", *t);
  require_writable(*t, "init_uniform_");
  if (!std::isfinite(low) || !std::isfinite(high))
    fail(PORTA_ERROR_INVALID_ARGUMENT, "init_uniform_: low and high must be finite, got ", low, " and ", high);
  if (!(low <= high)) fail(PORTA_ERROR_INVALID_ARGUMENT, "init_uniform_: low ", low, " exceeds high ", high);
  ops::random_into(PORTA_OP_RAND_UNIFORM, t, low, high);
}

void init_normal(const TensorPtr& t, double mean, double std) {
  check_float("init_normal_", "tensor", *t);
  require_writable(*t, "init_normal_");
  if (!std::isfinite(mean) || !(std >= 0) || !std::isfinite(std))
    fail(PORTA_ERROR_INVALID_ARGUMENT, "init_normal_: mean must be finite and std finite and >= 0, got mean ", mean,
         " and std ", std);
  ops::random_into(PORTA_OP_RAND_NORMAL, t, mean, std);
}

int64_t fan_in(const porta_tensor& t) {
  if (t.ndim() < 2)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "fan_in: needs a weight with at least 2 dimensions, got shape ", t.shape.str());
  int64_t f = t.shape[1];
  for (int32_t i = 2; i < t.ndim(); ++i) f *= t.shape[i];
  return f;
}

void init_kaiming_uniform(const TensorPtr& t, double a) {
  const int64_t f = fan_in(*t);
  if (f == 0) return;  // PyTorch warns and skips for zero-element weights
  const double bound = std::sqrt(6.0 / ((1.0 + a * a) * static_cast<double>(f)));
  init_uniform(t, -bound, bound);
}

void init_layer_default(const TensorPtr& weight, const TensorPtr& bias) {
  const int64_t f = fan_in(*weight);
  if (bias) check_float("init_layer_default_", "bias", *bias);
  init_kaiming_uniform(weight, std::sqrt(5.0));
  if (!bias) return;
  const double bound = f > 0 ? 1.0 / std::sqrt(static_cast<double>(f)) : 0.0;
  init_uniform(bias, -bound, bound);
}

}  // namespace porta::nn
