// torch.logspace: base ** (the exponents linspace gives), with PyTorch's
// exponents: the first half from start, the second from end (so the last is
// base ** end exactly; one step gives base ** start), computed in float64 and
// converted to the dtype. An integer dtype takes start and end converted to
// it first and truncates the powers, as PyTorch's; a power it cannot hold is
// refused (PyTorch's conversion there is C++'s undefined behaviour).
#include <cmath>

#include "ops/composite/composite.hpp"
#include "ops/ops.hpp"
#include "runtime/error.hpp"

namespace porta::composite {

TensorPtr logspace(DeviceState& dev, double start, double end, int64_t steps, double base, Dtype dtype) {
  if (steps < 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "logspace: number of steps must be non-negative, got ", steps);
  if (dtype == Dtype::Bool) fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "logspace is not defined for bool (as PyTorch)");
  if (!is_floating(dtype)) {
    ops::check_fill_value("logspace", Scalar::of_float(start), dtype);
    ops::check_fill_value("logspace", Scalar::of_float(end), dtype);
    start = std::trunc(start);
    end = std::trunc(end);
  }
  const TensorPtr index = ops::arange_int(dev, 0, steps, 1, Dtype::Float64);
  const double step = steps > 1 ? (end - start) / static_cast<double>(steps - 1) : 0.0;
  const TensorPtr from_start = ops::binary_scalar(PORTA_OP_ADD, ops::binary_scalar(PORTA_OP_MUL, index, step), start);
  const TensorPtr to_end = ops::binary_scalar(
      PORTA_OP_ADD, ops::binary_scalar(PORTA_OP_MUL, ops::binary_scalar(PORTA_OP_SUB, index, double(steps - 1)), step),
      end);
  const TensorPtr exponents =
      ops::where(ops::binary_scalar(PORTA_OP_LT, index, steps == 1 ? 1.0 : double(steps / 2)), from_start, to_end);
  const TensorPtr powers = ops::binary(PORTA_OP_POW, ops::full(dev, {}, base, Dtype::Float64), exponents);
  if (!is_floating(dtype) && steps > 0)
    for (porta_op extreme : {PORTA_OP_MAX, PORTA_OP_MIN})
      ops::check_fill_value("logspace", Scalar::of_float(std::trunc(ops::reduce_to_host(extreme, powers))), dtype);
  return ops::cast(powers, dtype);
}

}  // namespace porta::composite
