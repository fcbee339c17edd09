// Sums with a scalar factor, as PyTorch's: add/sub(a, b, alpha) and
// addcmul/addcdiv(input, t1, t2, value). The factor comes as a 0-d tensor
// (a wrapped number keeps an int64 exact) and is converted to the dtype the
// op computes in, by PyTorch's rules for each.
#include "ops/composite/composite.hpp"
#include "ops/ops.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"

namespace porta::composite {

namespace {

// `s` as a 0-d tensor of dt beside `like` (no wrapped-number promotion left to do).
TensorPtr factor_tensor(const Scalar& s, Dtype dt, const TensorPtr& like) {
  if (is_floating(dt)) return ops::full(*like->device, {}, s.as_double(), dt);
  const int64_t v = s.kind == Scalar::Kind::Float ? static_cast<int64_t>(s.f) : s.i;
  return ops::full_int(*like->device, {}, dt == Dtype::Bool ? int64_t{v != 0} : v, dt);
}

Scalar factor_value(const char* op, const TensorPtr& factor) {
  if (factor->ndim() != 0)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": the scalar factor must be a 0-d tensor (a number), got one of ",
         factor->ndim(), " dims");
  return ops::value_of(factor);
}

}  // namespace

TensorPtr add_alpha(porta_op op, const TensorPtr& a, const TensorPtr& b, const TensorPtr& alpha) {
  const char* name = op == PORTA_OP_SUB ? "sub" : "add";  // op is ADD or SUB (porta_add_alpha checks it)
  const Scalar s = factor_value(name, alpha);
  const Dtype rt = ops::result_type({a.get(), b.get()});
  if (!is_floating(rt) && s.kind == Scalar::Kind::Float)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, name, ": for integral input tensors, argument alpha must not be a floating "
         "point number (as PyTorch); pass an integer alpha or convert the inputs to a floating dtype");
  if (rt != Dtype::Bool && s.kind == Scalar::Kind::Bool)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, name, ": a bool alpha is only supported for bool results (as PyTorch), got ",
         dtype_name(rt), "; pass alpha as a number");
  ops::check_fill_value(name, s, rt);
  // b * alpha in the result dtype, then the sum: PyTorch's rounding (float16 overflows where b * alpha does)
  const TensorPtr scaled = ag::binary(PORTA_OP_MUL, ag::cast(b, rt), factor_tensor(s, rt, a));
  return ag::binary(op, a, scaled);
}

TensorPtr addcmul(porta_op op, const TensorPtr& input, const TensorPtr& t1, const TensorPtr& t2,
                  const TensorPtr& value) {
  const char* name = op == PORTA_OP_DIV ? "addcdiv" : "addcmul";  // op is MUL or DIV (porta_addcmul checks it)
  const Scalar s = factor_value(name, value);
  if (op == PORTA_OP_DIV && !is_floating(t1->dtype) && !is_floating(t2->dtype))
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "addcdiv: integer division is not supported (as PyTorch); use "
         "input + value * tensor1 / tensor2, or convert tensor1 or tensor2 to a floating dtype");
  const Dtype rt = ops::result_type({input.get(), t1.get(), t2.get()});
  if (rt == Dtype::Bool)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, name, " is not defined for bool tensors (as PyTorch); convert them first");
  if (!is_floating(rt)) ops::check_fill_value(name, s, rt);
  check_same_device(name, {input.get(), t1.get(), t2.get()});
  const Dtype ct = opmath_dtype(rt);  // PyTorch's addcmul/addcdiv compute float16 and bfloat16 in float32
  const TensorPtr product = ag::binary(op, ag::binary(PORTA_OP_MUL, factor_tensor(s, ct, input), ag::cast(t1, ct)),
                                       ag::cast(t2, ct));
  return ag::cast(ag::binary(PORTA_OP_ADD, ag::cast(input, ct), product), rt);
}

}  // namespace porta::composite
