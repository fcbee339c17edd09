// linear, dropout and the nn ops' shared reduction argument.
#include <cmath>

#include "autograd/node.hpp"
#include "nn/nn.hpp"
#include "ops/ag.hpp"
#include "ops/ops.hpp"
#include "runtime/error.hpp"

namespace porta::nn {

void check_reduction(porta_reduction reduction, const char* op) {
  if (reduction != PORTA_REDUCTION_NONE && reduction != PORTA_REDUCTION_MEAN && reduction != PORTA_REDUCTION_SUM)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": unknown reduction ", int(reduction), " (use NONE, MEAN or SUM)");
}

TensorPtr apply_reduction(const TensorPtr& per_item, porta_reduction reduction, const char* op) {
  check_reduction(reduction, op);
  if (reduction == PORTA_REDUCTION_NONE) return per_item;
  return ag::reduce(reduction == PORTA_REDUCTION_MEAN ? PORTA_OP_MEAN : PORTA_OP_SUM, per_item, nullptr, 0, false);
}

TensorPtr mean_of_kept(const TensorPtr& total, const TensorPtr& count) {
  DeviceState& dev = *total->device;
  TensorPtr none = ops::binary_scalar(PORTA_OP_EQ, count, 0.0);
  TensorPtr safe = ops::where(none, ops::full(dev, Dims{}, 1.0, count->dtype), count);
  return ag::where(none, ops::full(dev, Dims{}, NAN, total->dtype), ag::binary(PORTA_OP_DIV, total, safe));
}

namespace {

// y = x W^T + b. Its own node so that dW = G^T X comes out [out, in] like W
// (a composed matmul-of-transpose would hand back a transposed view that
// accumulation must copy: 64 MiB per step for the tutorial's fc1).
struct LinearNode final : autograd::Node {
  autograd::SavedTensor x, weight;  // x read for dW only, the weight for dX only
  int64_t in = 0, out = 0;
  const char* name() const override { return "LinearBackward"; }
  bool differentiable_twice() const override { return true; }  // ag:: ops record their own backward
  void release_saved() override { x.reset(), weight.reset(); }
  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    TensorPtr g2 = ag::reshape(g, Dims{-1, out});
    TensorPtr gx, gw, gb;
    if (next[0]) gx = ag::matmul(g, weight);  // [..., out] @ [out, in]
    if (next[1]) {
      TensorPtr gt = ag::transpose(g2, 0, 1), xs = ag::reshape(x, Dims{-1, in});
      // Where the weight's hook offers it (DistributedDataParallel's
      // bucket), dW goes there in the same GEMM, scaled on the way, or the
      // hook takes its two factors and computes it there itself.
      const autograd::GradDestination dst =
          autograd::gradient_destination(next[1], Dims{out, in}, g->dtype, *g->device);
      if (dst.out) {
        if (!(dst.factored && dst.factored(g2, xs))) ops::matmul_into(dst.out, gt, xs, dst.scale, dst.keep);
        gw = dst.out;
      } else {
        gw = ag::matmul(gt, xs);
      }
    }
    if (next.size() > 2 && next[2]) {
      const int32_t rows = 0;
      gb = ag::reduce(PORTA_OP_SUM, g2, &rows, 1, false);
    }
    return {gx, gw, gb};
  }
};

}  // namespace

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
  if (x->dtype != weight->dtype || (bias && bias->dtype != x->dtype))
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "linear: input, weight and bias must share a dtype (got ",
         dtype_name(x->dtype), " and ", dtype_name(weight->dtype), ")");
  // The bias as the GEMM's added term (MATMUL's beta), not a pass of its own.
  TensorPtr out = ops::matmul(x, ops::transpose(weight, 0, 1), 1.0, bias, 1.0);
  if (autograd::needs_grad({&x, &weight, &bias})) {
    auto node = std::make_shared<LinearNode>();
    if (weight->requires_grad) node->x = x;
    if (x->requires_grad) node->weight = weight;
    node->in = weight->shape[1], node->out = weight->shape[0];
    autograd::record(out, node, {&x, &weight, bias ? &bias : nullptr});
  }
  return out;
}

TensorPtr dropout_scale(DeviceState& dev, const Dims& shape, Dtype dtype, double p) {
  TensorPtr keep = ops::cast(
      ops::binary_scalar(PORTA_OP_GE, ops::random(PORTA_OP_RAND_UNIFORM, dev, shape, dtype, 0.0, 1.0), p), dtype);
  return ops::binary_scalar(PORTA_OP_MUL, keep, p < 1.0 ? 1.0 / (1.0 - p) : 0.0);
}

TensorPtr dropout(const TensorPtr& x, double p, bool training) {
  if (!(p >= 0.0 && p <= 1.0)) fail(PORTA_ERROR_INVALID_ARGUMENT, "dropout: p must be in [0, 1], got ", p);
  if (!training || p == 0.0) return x;
  check_float("dropout", "input", *x);
  return ag::binary(PORTA_OP_MUL, x, dropout_scale(*x->device, x->shape, x->dtype, p));
}

}  // namespace porta::nn
