// linear, dropout and the shared argument checks.
#include "../error.hpp"
#include "nn.hpp"

namespace porta::nn {

void check_float(const char* op, const char* what, const porta_tensor& t) {
  if (!is_floating(t.dtype))
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op, ": ", what, " must be float32 or float64, got ", dtype_name(t.dtype),
         "; cast it first");
}

TensorPtr apply_reduction(const TensorPtr& per_item, porta_reduction reduction, const char* op) {
  switch (reduction) {
    case PORTA_REDUCTION_NONE: return per_item;
    case PORTA_REDUCTION_MEAN: return ag::reduce(PORTA_OP_MEAN, per_item, nullptr, 0, false);
    case PORTA_REDUCTION_SUM: return ag::reduce(PORTA_OP_SUM, per_item, nullptr, 0, false);
  }
  fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": unknown reduction ", int(reduction), " (use NONE, MEAN or SUM)");
}

TensorPtr linear(const TensorPtr& x, const TensorPtr& weight, const TensorPtr& bias) {
  check_float("linear", "input", *x);
  check_float("linear", "weight", *weight);
  if (bias) check_same_device("linear", {x.get(), weight.get(), bias.get()});
  else check_same_device("linear", {x.get(), weight.get()});
  if (weight->ndim() != 2)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "linear: weight must be 2-D [out_features, in_features], got ", weight->shape.str());
  if (x->ndim() == 0 || x->shape[x->ndim() - 1] != weight->shape[1])
    fail(PORTA_ERROR_SHAPE_MISMATCH, "linear: input of shape ", x->shape.str(), " has ",
         x->ndim() ? x->shape[x->ndim() - 1] : 0, " features but the weight ", weight->shape.str(), " expects ",
         weight->shape[1]);
  if (bias && (bias->ndim() != 1 || bias->shape[0] != weight->shape[0]))
    fail(PORTA_ERROR_SHAPE_MISMATCH, "linear: bias of shape ", bias->shape.str(), " does not match ", weight->shape[0],
         " output features");
  TensorPtr out = ag::matmul(x, ag::transpose(weight, 0, 1));
  return bias ? ag::binary(PORTA_OP_ADD, out, bias) : out;
}

TensorPtr dropout(const TensorPtr& x, double p, bool training) {
  if (!(p >= 0.0 && p <= 1.0)) fail(PORTA_ERROR_INVALID_ARGUMENT, "dropout: p must be in [0, 1], got ", p);
  if (!training || p == 0.0) return x;
  check_float("dropout", "input", *x);
  TensorPtr keep = ops::cast(ops::binary_scalar(PORTA_OP_GE, ops::random(PORTA_OP_RAND_UNIFORM, *x->device, x->shape,
                                                                         x->dtype, 0.0, 1.0), p), x->dtype);
  TensorPtr scale = ops::binary_scalar(PORTA_OP_MUL, keep, p < 1.0 ? 1.0 / (1.0 - p) : 0.0);
  return ag::binary(PORTA_OP_MUL, x, scale);
}

}  // namespace porta::nn
