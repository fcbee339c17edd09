// isnan, isinf, isfinite (bool, every dtype: integers are always finite) and
// nan_to_num.
#include <cmath>
#include <limits>

#include "ops/composite/composite.hpp"

namespace porta::composite {
namespace {

TensorPtr all_bool(const TensorPtr& a, bool value) { return ops::full(*a->device, a->shape, value ? 1.0 : 0.0, Dtype::Bool); }

}  // namespace

TensorPtr isnan(const TensorPtr& a) { return ops::binary(PORTA_OP_NE, a, a); }

TensorPtr isinf(const TensorPtr& a) {
  if (!is_floating(a->dtype)) return all_bool(a, false);
  return ops::binary_scalar(PORTA_OP_EQ, ops::unary(PORTA_OP_ABS, a), INFINITY);
}

TensorPtr isfinite(const TensorPtr& a) {
  if (!is_floating(a->dtype)) return all_bool(a, true);
  return ops::binary_scalar(PORTA_OP_EQ, ops::binary(PORTA_OP_SUB, a, a), 0.0);  // x - x is NaN for inf and NaN
}

TensorPtr nan_to_num(const TensorPtr& a, std::optional<double> nan, std::optional<double> posinf,
                     std::optional<double> neginf) {
  if (!is_floating(a->dtype)) return ag::clone(a);
  const double largest = ops::float_max(a->dtype);  // float16's 65504 for a float16 tensor, ...
  // as wrapped numbers: converted to a's dtype as PyTorch converts them (1e30 into float16 is inf)
  const auto value = [&](double v) { return ops::wrapped_number(*a->device, Scalar::of_float(v)); };
  TensorPtr x = ag::where(ops::binary_scalar(PORTA_OP_EQ, a, -INFINITY), value(neginf.value_or(-largest)), a);
  x = ag::where(ops::binary_scalar(PORTA_OP_EQ, a, INFINITY), value(posinf.value_or(largest)), x);
  return ag::where(isnan(a), value(nan.value_or(0.0)), x);
}

}  // namespace porta::composite
