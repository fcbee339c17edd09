// pow of integer tensors, as PyTorch's: an integer result, wrapping as its
// multiplications wrap, from the elementwise kernels every plugin has
// (square-and-multiply over the exponent's bits, as many rounds as the
// largest exponent has bits).
#include <bit>

#include "runtime/error.hpp"
#include "ops/ops.hpp"

namespace porta::ops {

namespace {

TensorPtr constant(const TensorPtr& like, int64_t v) { return full_int(*like->device, Dims{}, v, like->dtype); }

}  // namespace

TensorPtr integer_pow(const TensorPtr& base, const TensorPtr& exponent, const Dims& shape) {
  const Dtype dt = base->dtype;
  TensorPtr b = expand(base, shape), e = expand(exponent, shape);
  const TensorPtr zero = constant(b, 0), one = constant(b, 1), two = constant(b, 2);
  TensorPtr negative = binary(PORTA_OP_LT, e, zero);
  TensorPtr left = where(negative, zero, e);  // the exponent's bits still to apply
  TensorPtr result = full_int(*b->device, shape, 1, dt);
  if (result->numel() == 0) return result;
  const auto largest = static_cast<uint64_t>(reduce_to_host(PORTA_OP_MAX, left));
  for (int bit = std::bit_width(largest); bit > 0; --bit) {
    result = where(binary(PORTA_OP_EQ, binary(PORTA_OP_REMAINDER, left, two), one), binary(PORTA_OP_MUL, result, b),
                   result);
    left = binary(PORTA_OP_FLOOR_DIVIDE, left, two);
    if (bit > 1) b = binary(PORTA_OP_MUL, b, b);
  }
  if (dt == Dtype::UInt8) return result;  // no negative exponent
  // A negative exponent: 1 / base^|e| truncated, as PyTorch's (1 for a base of 1, +-1 for -1, else 0).
  TensorPtr odd = binary(PORTA_OP_NE, binary(PORTA_OP_REMAINDER, e, two), zero);
  TensorPtr of_minus_one = where(odd, constant(base, -1), one);
  TensorPtr reciprocal = where(binary(PORTA_OP_EQ, expand(base, shape), one), one,
                               where(binary(PORTA_OP_EQ, expand(base, shape), constant(base, -1)), of_minus_one, zero));
  return where(negative, reciprocal, result);
}

void check_pow_exponent(Dtype dt, const porta_tensor& exponent) {
  if (!exponent.wrapped || exponent.wrapped->kind == Scalar::Kind::Bool) return;
  const double v = exponent.wrapped->as_double();
  if (is_integral(dt) && exponent.wrapped->kind == Scalar::Kind::Int && exponent.wrapped->i < 0)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "pow: Integers to negative integer powers are not allowed (as in PyTorch); "
         "use a float exponent or tensor");
  check_fill_value("pow", v, dt);  // PyTorch converts a scalar exponent to the base's dtype, checked
}

}  // namespace porta::ops
