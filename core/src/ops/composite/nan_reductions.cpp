// nansum and nanmean as PyTorch's: NaN counts as 0 in the sum and is left
// out of the mean's count; integers and bool sum as porta_sum does.
#include "ops/composite/composite.hpp"
#include "ops/ops.hpp"

namespace porta::composite {

TensorPtr nansum(const TensorPtr& a, const int32_t* dims, int32_t num_dims, bool keepdim) {
  if (!is_floating(a->dtype)) return ag::reduce(PORTA_OP_SUM, a, dims, num_dims, keepdim);
  const TensorPtr zero = ops::wrapped_number(*a->device, Scalar::of_float(0.0));
  return ag::reduce(PORTA_OP_SUM, ag::where(isnan(a), zero, a), dims, num_dims, keepdim);
}

TensorPtr nanmean(const TensorPtr& a, const int32_t* dims, int32_t num_dims, bool keepdim) {
  require_floating("nanmean", a);
  // the count as an int64 sum, divided as PyTorch's nansum(a) / (~isnan(a)).sum()
  const TensorPtr count = ops::reduce(PORTA_OP_SUM, ops::binary(PORTA_OP_EQ, a, a), dims, num_dims, keepdim);
  return ag::binary(PORTA_OP_DIV, nansum(a, dims, num_dims, keepdim), count);
}

}  // namespace porta::composite
