// Activations composed of kernel ops. A branch that where() discards is
// computed on a safe input (0 there), so that its gradient is 0, not 0 * inf.
#include <cmath>

#include "autograd/function.hpp"
#include "autograd/node.hpp"
#include "runtime/error.hpp"
#include "ops/composite/composite.hpp"

namespace porta::composite {
namespace {

TensorPtr un(porta_op op, const TensorPtr& a) { return ag::unary(op, a); }
TensorPtr mul(const TensorPtr& a, const TensorPtr& b) { return ag::binary(PORTA_OP_MUL, a, b); }
TensorPtr scale(const TensorPtr& a, double s) { return ag::binary_scalar(PORTA_OP_MUL, a, s); }
TensorPtr plus(const TensorPtr& a, double s) { return ag::binary_scalar(PORTA_OP_ADD, a, s); }
TensorPtr zero_like(const TensorPtr& a) { return ops::full(*a->device, Dims{}, 0.0, a->dtype); }

}  // namespace

void require_floating(const char* op, const TensorPtr& a) {
  if (!is_floating(a->dtype))
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op, ": expected a floating tensor, got ", dtype_name(a->dtype),
         " (as in PyTorch); cast it with .float() first");
}

namespace {

TensorPtr gelu_formula(const TensorPtr& a, GeluApproximation approximate) {
  if (approximate == GeluApproximation::None)  // x/2 (1 + erf(x / sqrt 2))
    return mul(scale(a, 0.5), plus(un(PORTA_OP_ERF, scale(a, 0.70710678118654752440)), 1.0));
  // x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
  TensorPtr inner = ag::binary(PORTA_OP_ADD, a, scale(mul(mul(a, a), a), 0.044715));
  return mul(scale(a, 0.5), plus(un(PORTA_OP_TANH, scale(inner, 0.79788456080286535588)), 1.0));
}

TensorPtr silu_formula(const TensorPtr& a) {
  TensorPtr out;
  {
    autograd::NoGradGuard no_grad;
    out = ops::binary(PORTA_OP_MUL, a, ops::unary(PORTA_OP_SIGMOID, a));
  }
  // PyTorch's derivative, s (1 + x (1 - s)) with s = sigmoid(x): the product rule through x · s would
  // multiply x's cotangent, inf at a large |x|, by sigmoid's derivative there, 0, and give NaN.
  return autograd::attach_function(
      out, {a},
      [a](const TensorPtr& g) -> std::vector<TensorPtr> {
        TensorPtr s = un(PORTA_OP_SIGMOID, a);
        TensorPtr one_minus_s = un(PORTA_OP_NEG, plus(s, -1.0));
        return {mul(g, mul(s, plus(mul(a, one_minus_s), 1.0)))};
      },
      "SiluBackward");
}

TensorPtr softplus_formula(const TensorPtr& a, double beta, double threshold) {
  // log(1 + exp(beta x)) / beta, and x itself where beta x > threshold.
  TensorPtr bx = scale(a, beta);
  TensorPtr linear = ops::binary_scalar(PORTA_OP_GT, bx, threshold);
  TensorPtr safe = ag::where(linear, zero_like(a), bx);
  return ag::where(linear, a, scale(un(PORTA_OP_LOG1P, un(PORTA_OP_EXP, safe)), 1.0 / beta));
}

// alpha (exp(x) - 1) where x <= 0, else x: NaN takes the x branch (its gradient passes), as PyTorch's.
TensorPtr elu_formula(const TensorPtr& a, double alpha) {
  TensorPtr nonpositive = ops::binary_scalar(PORTA_OP_LE, a, 0.0);
  TensorPtr safe = ag::where(nonpositive, a, zero_like(a));
  return ag::where(nonpositive, scale(un(PORTA_OP_EXPM1, safe), alpha), a);
}

}  // namespace

// Each runs in float32 for float16/bfloat16 inputs (ag::in_opmath): one rounding, as PyTorch's kernels.
TensorPtr gelu(const TensorPtr& a, GeluApproximation approximate) {
  require_floating("gelu", a);
  return ag::in_opmath(a, [&](const TensorPtr& x) { return gelu_formula(x, approximate); });
}

TensorPtr silu(const TensorPtr& a) {
  require_floating("silu", a);
  return ag::in_opmath(a, [](const TensorPtr& x) { return silu_formula(x); });
}

TensorPtr softplus(const TensorPtr& a, double beta, double threshold) {
  require_floating("softplus", a);
  if (beta == 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "softplus: beta must not be 0");
  return ag::in_opmath(a, [&](const TensorPtr& x) { return softplus_formula(x, beta, threshold); });
}

TensorPtr elu(const TensorPtr& a, double alpha) {
  require_floating("elu", a);
  return ag::in_opmath(a, [&](const TensorPtr& x) { return elu_formula(x, alpha); });
}

TensorPtr leaky_relu(const TensorPtr& a, double negative_slope) {
  require_floating("leaky_relu", a);
  return ag::where(ops::binary_scalar(PORTA_OP_GT, a, 0.0), a, scale(a, negative_slope));
}

}  // namespace porta::composite
