// F.normalize and F.cosine_similarity as PyTorch computes them: normalize
// divides by the p-norm clamped to eps (no gradient through the clamp where it
// binds); cosine_similarity divides each operand by its 2-norm first (values
// in [-1, 1]), the norms clamped to eps with the gradient of the unclamped
// norm, as PyTorch clamps them under no_grad.
#include "ops/composite/composite.hpp"
#include "ops/ops.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"

namespace porta::composite {

TensorPtr normalize(const TensorPtr& a, double p, int32_t dim, double eps) {
  require_floating("normalize", a);
  const int32_t d = ops::wrap_dim("normalize", dim, a->ndim());
  const TensorPtr norm = vector_norm(a, p, &d, 1, true);
  return ag::binary(PORTA_OP_DIV, a, clamp(norm, eps, std::nullopt));
}

TensorPtr cosine_similarity(const TensorPtr& x1_in, const TensorPtr& x2_in, int32_t dim, double eps) {
  check_same_device("cosine_similarity", {x1_in.get(), x2_in.get()});
  const Dtype common = ops::result_type({x1_in.get(), x2_in.get()});
  if (!is_floating(common))
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "cosine_similarity: expected a floating common dtype (as PyTorch), got ",
         dtype_name(common), "; convert an operand first (.float())");
  const Dims shape = ops::broadcast_shapes("cosine_similarity", x1_in->shape, x2_in->shape);
  const TensorPtr x1 = ag::expand(ag::cast(x1_in, common), shape), x2 = ag::expand(ag::cast(x2_in, common), shape);
  const int32_t d = ops::wrap_dim("cosine_similarity", dim, shape.n);
  const auto unit = [&](const TensorPtr& x) {
    const TensorPtr norm = vector_norm(x, 2.0, &d, 1, true);
    // norm + (max(norm, eps) - norm), the offset a constant: the value clamped, the gradient the norm's
    const TensorPtr held = ag::detach(norm);
    const TensorPtr offset = ops::binary(PORTA_OP_SUB, ops::binary_scalar(PORTA_OP_MAXIMUM, held, eps), held);
    return ag::binary(PORTA_OP_DIV, x, ag::binary(PORTA_OP_ADD, norm, offset));
  };
  return ag::reduce(PORTA_OP_SUM, ag::binary(PORTA_OP_MUL, unit(x1), unit(x2)), &d, 1, false);
}

}  // namespace porta::composite
