// lerp as PyTorch computes it: from start for |weight| < 0.5, from end
// otherwise, so that lerp(a, b, 1) is exactly b.
#include <cmath>

#include "runtime/error.hpp"
#include "ops/composite/composite.hpp"

namespace porta::composite {

TensorPtr lerp(const TensorPtr& start, const TensorPtr& end, const TensorPtr& weight) {
  require_floating("lerp", start);
  if (end->dtype != start->dtype || weight->dtype != start->dtype)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "lerp: start, end and weight must have one dtype (as in PyTorch), got ",
         dtype_name(start->dtype), ", ", dtype_name(end->dtype), " and ", dtype_name(weight->dtype));
  check_same_device("lerp", {start.get(), end.get(), weight.get()});
  if (is_low_precision(start->dtype))  // one rounding (ag::in_opmath)
    return ag::cast(lerp(ag::opmath(start), ag::opmath(end), ag::opmath(weight)), start->dtype);
  const auto add = [](const TensorPtr& a, const TensorPtr& b) { return ag::binary(PORTA_OP_ADD, a, b); };
  const auto sub = [](const TensorPtr& a, const TensorPtr& b) { return ag::binary(PORTA_OP_SUB, a, b); };
  const auto mul = [](const TensorPtr& a, const TensorPtr& b) { return ag::binary(PORTA_OP_MUL, a, b); };
  TensorPtr diff = sub(end, start);
  TensorPtr small = ops::binary_scalar(PORTA_OP_LT, ops::unary(PORTA_OP_ABS, weight), 0.5);
  TensorPtr one_minus_w = ag::binary_scalar(PORTA_OP_ADD, ag::unary(PORTA_OP_NEG, weight), 1.0);
  return ag::where(small, add(start, mul(weight, diff)), sub(end, mul(diff, one_minus_w)));
}

}  // namespace porta::composite
