// clamp and hardtanh as where() over comparisons, so that autograd passes the
// gradient exactly where PyTorch's formulas do (a maximum/minimum pair would
// split it at ties).
#include <cmath>

#include "runtime/error.hpp"
#include "ops/composite/composite.hpp"

namespace porta::composite {
namespace {

void refuse_bool(const char* op, const TensorPtr& a) {
  if (a->dtype == Dtype::Bool)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op, " is not defined for bool tensors (as in PyTorch); cast to a numeric dtype");
}

// `a` where it is not `op` than `bound`, else bound; NaN in `bound` wins.
TensorPtr replace_where(porta_op op, const TensorPtr& a, const TensorPtr& bound) {
  TensorPtr cond = ops::binary(op, a, bound);
  if (is_floating(bound->dtype)) {
    TensorPtr bound_nan = ops::binary(PORTA_OP_NE, bound, bound);
    cond = ops::where(bound_nan, bound_nan, cond);
  }
  return ag::where(cond, bound, a);
}

}  // namespace

TensorPtr clamp(const TensorPtr& a, std::optional<double> lo, std::optional<double> hi) {
  refuse_bool("clamp", a);
  if (!lo && !hi) fail(PORTA_ERROR_INVALID_ARGUMENT, "clamp: at least one of min and max must be given");
  TensorPtr x = a;
  if (lo) x = replace_where(PORTA_OP_LT, x, ops::scalar_like(x, *lo));
  if (hi) x = replace_where(PORTA_OP_GT, x, ops::scalar_like(x, *hi));
  return x;
}

TensorPtr clamp_tensor(const TensorPtr& a, const TensorPtr& lo, const TensorPtr& hi) {
  refuse_bool("clamp", a);
  if (!lo && !hi) fail(PORTA_ERROR_INVALID_ARGUMENT, "clamp: at least one of min and max must be given");
  TensorPtr x = a;
  if (lo) x = replace_where(PORTA_OP_LT, x, lo);
  if (hi) x = replace_where(PORTA_OP_GT, x, hi);
  return x;
}

TensorPtr hardtanh(const TensorPtr& a, double lo, double hi) {
  require_floating("hardtanh", a);
  if (!(lo <= hi)) fail(PORTA_ERROR_INVALID_ARGUMENT, "hardtanh: min_val (", lo, ") must not exceed max_val (", hi, ")");
  TensorPtr lo_t = ops::scalar_like(a, lo), hi_t = ops::scalar_like(a, hi);
  TensorPtr x = ag::where(ops::binary(PORTA_OP_LE, a, lo_t), lo_t, a);
  return ag::where(ops::binary(PORTA_OP_GE, x, hi_t), hi_t, x);
}

}  // namespace porta::composite
