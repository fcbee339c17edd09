// logsumexp = m + log(sum(exp(a - m))) with m the (detached) maximum, 0
// where it is infinite; its gradient, derived through the parts, is softmax.
#include <cmath>

#include "ops/composite/composite.hpp"

namespace porta::composite {

TensorPtr logsumexp(const TensorPtr& a, const int32_t* dims, int32_t num_dims, bool keepdim) {
  TensorPtr x = is_floating(a->dtype) ? a : ag::cast(a, Dtype::Float32);  // integers give float32, as in PyTorch
  // An empty tensor has no maximum: log(sum(exp(x))) directly, -inf over nothing (PyTorch's branch too).
  if (x->numel() == 0)
    return ag::unary(PORTA_OP_LOG, ag::reduce(PORTA_OP_SUM, ag::unary(PORTA_OP_EXP, x), dims, num_dims, keepdim));
  TensorPtr m = ops::reduce(PORTA_OP_MAX, x, dims, num_dims, true);
  m = ops::where(ops::binary_scalar(PORTA_OP_EQ, ops::unary(PORTA_OP_ABS, m), INFINITY),
                 ops::full(*m->device, Dims{}, 0.0, m->dtype), m);
  TensorPtr shifted = ag::unary(PORTA_OP_EXP, ag::binary(PORTA_OP_SUB, x, m));
  TensorPtr s = ag::unary(PORTA_OP_LOG, ag::reduce(PORTA_OP_SUM, shifted, dims, num_dims, keepdim));
  return ag::binary(PORTA_OP_ADD, s, keepdim ? m : ops::reshape(m, s->shape));
}

}  // namespace porta::composite
