#include "amp/grad_scaling.hpp"

#include "autograd/node.hpp"
#include "ops/ops.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"

namespace porta::amp {
namespace {

void require_one(const TensorPtr& t, Dtype dtype, const char* what, const char* op) {
  if (t->dtype != dtype || t->numel() != 1)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": ", what, " must be one ", dtype_name(dtype), " element, got ",
         dtype_name(t->dtype), " of shape ", t->shape.str());
}

TensorPtr as_bool(const TensorPtr& t) { return ops::binary_scalar(PORTA_OP_NE, t, 0.0); }

}  // namespace

void unscale_(const std::vector<TensorPtr>& grads, const TensorPtr& found_inf, const TensorPtr& inv_scale) {
  const char* op = "amp_unscale_";
  require_one(found_inf, Dtype::Float32, "found_inf", op);
  require_one(inv_scale, Dtype::Float32, "inv_scale", op);
  check_same_device(op, {found_inf.get(), inv_scale.get()});
  for (const TensorPtr& g : grads) {
    if (!g) continue;
    check_same_device(op, {g.get(), found_inf.get()});
    if (!is_floating(g->dtype))
      fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op, ": gradients must be floating, got ", dtype_name(g->dtype));
  }
  autograd::NoGradGuard no_grad;
  DeviceState& dev = *found_inf->device;
  const TensorPtr scale = ops::reshape(inv_scale, Dims{});
  // sum(g * 0) is NaN exactly when g holds an infinity or NaN (finite values
  // give zeros, whose sum cannot overflow): one flag per gradient, read once.
  TensorPtr flags = ops::full(dev, Dims{}, 0.0, Dtype::Float32);
  for (const TensorPtr& g : grads) {
    if (!g || g->numel() == 0) continue;
    const TensorPtr wide = ops::cast(g, is_storage(g->dtype) ? Dtype::Float32 : g->dtype);
    const TensorPtr zeros = ops::binary_scalar(PORTA_OP_MUL, wide, 0.0);
    flags = ops::binary(PORTA_OP_ADD, flags,
                        ops::cast(ops::reduce(PORTA_OP_SUM, zeros, nullptr, 0, false), Dtype::Float32));
    ops::copy_into(g, ops::binary(PORTA_OP_MUL, wide, scale));  // float32 math, rounded once into g
  }
  const TensorPtr found = ops::cast(ops::binary(PORTA_OP_NE, flags, flags), Dtype::Float32);  // NaN != NaN
  ops::copy_into(found_inf, ops::binary(PORTA_OP_MAXIMUM, ops::reshape(found_inf, Dims{}), found));
}

void update_scale_(const TensorPtr& scale, const TensorPtr& growth_tracker, const TensorPtr& found_inf,
                   double growth_factor, double backoff_factor, int32_t growth_interval) {
  const char* op = "amp_update_scale_";
  require_one(scale, Dtype::Float32, "scale", op);
  require_one(growth_tracker, Dtype::Int32, "growth_tracker", op);
  require_one(found_inf, Dtype::Float32, "found_inf", op);
  check_same_device(op, {scale.get(), growth_tracker.get(), found_inf.get()});
  if (!(growth_factor > 1.0) || !(backoff_factor > 0.0 && backoff_factor < 1.0) || growth_interval < 1)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op,
         ": needs growth_factor > 1, 0 < backoff_factor < 1 and growth_interval "
         ">= 1, got ",
         growth_factor, ", ", backoff_factor, " and ", growth_interval);
  autograd::NoGradGuard no_grad;
  const TensorPtr s = ops::cast(ops::reshape(scale, Dims{}), Dtype::Float64);  // scale * factor in double, as torch
  const TensorPtr found = as_bool(ops::reshape(found_inf, Dims{}));
  const TensorPtr tracker = ops::binary_scalar(PORTA_OP_ADD, ops::reshape(growth_tracker, Dims{}), 1.0);
  // Grown in double and rounded to the float32 it is stored in before the finiteness check, as PyTorch's:
  // 2^127 * 2 is finite in double but inf as the float32 scale, so the scale stays.
  const TensorPtr grown =
      ops::cast(ops::cast(ops::binary_scalar(PORTA_OP_MUL, s, growth_factor), Dtype::Float32), Dtype::Float64);
  const TensorPtr grown_finite = ops::binary_scalar(PORTA_OP_EQ, ops::binary_scalar(PORTA_OP_MUL, grown, 0.0), 0.0);
  const TensorPtr reached = ops::binary_scalar(PORTA_OP_GE, tracker, growth_interval);
  const TensorPtr grow = ops::where(reached, grown_finite, reached);  // reached and grown_finite
  const TensorPtr zero = ops::full_int(*scale->device, Dims{}, 0, Dtype::Int32);
  const TensorPtr next_scale =
      ops::where(found, ops::binary_scalar(PORTA_OP_MUL, s, backoff_factor), ops::where(grow, grown, s));
  const TensorPtr next_tracker = ops::where(ops::where(found, found, reached), zero, tracker);  // found or reached
  ops::copy_into(scale, ops::reshape(next_scale, scale->shape));
  ops::copy_into(growth_tracker, ops::reshape(ops::cast(next_tracker, Dtype::Int32), growth_tracker->shape));
}

}  // namespace porta::amp
