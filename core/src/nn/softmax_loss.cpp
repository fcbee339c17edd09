// softmax, log_softmax, cross_entropy (plugin kernels forward and backward)
// and mse_loss (composed of differentiable ops).
#include <cmath>

#include "autograd/node.hpp"
#include "runtime/error.hpp"
#include "nn/nn.hpp"

namespace porta::nn {
namespace {

// x as the [outer, dim, inner] view the softmax kernels take.
Dims as_3d(const porta_tensor& x, int32_t dim) {
  int64_t outer = 1, inner = 1;
  for (int32_t i = 0; i < dim; ++i) outer *= x.shape[i];
  for (int32_t i = dim + 1; i < x.ndim(); ++i) inner *= x.shape[i];
  return Dims{outer, x.ndim() ? x.shape[dim] : 1, inner};
}

void run_softmax(porta_op op, const TensorPtr& in0, const TensorPtr& in1, const TensorPtr& out, const Dims& d3) {
  if (out->numel() == 0) return;
  const Dims strides = contiguous_strides(d3);
  KernelArg ins[2] = {KernelArg(*in0, d3, strides), in1 ? KernelArg(*in1, d3, strides) : KernelArg()};
  launch(*out->device, op, out->dtype, ins, in1 ? 2 : 1, KernelArg(*out, d3, strides), nullptr);
}

struct SoftmaxNode final : autograd::Node {
  autograd::SavedTensor y;
  Dims d3;
  bool log;
  const char* name() const override { return log ? "LogSoftmaxBackward" : "SoftmaxBackward"; }
  void release_saved() override { y.reset(); }
  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    TensorPtr gx = empty(*g->device, g->dtype, y->shape);
    run_softmax(log ? PORTA_OP_LOG_SOFTMAX_BACKWARD : PORTA_OP_SOFTMAX_BACKWARD, y, ops::contiguous(g), gx, d3);
    return {gx};
  }
};

struct CrossEntropyNode final : autograd::Node {
  autograd::SavedTensor logits, target;
  const char* name() const override { return "CrossEntropyBackward"; }
  void release_saved() override { logits.reset(), target.reset(); }
  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    TensorPtr gx = empty(*g->device, logits->dtype, logits->shape);
    if (gx->numel() == 0) return {gx, TensorPtr()};
    TensorPtr gc = ops::contiguous(ops::cast(g, logits->dtype));
    KernelArg ins[3] = {KernelArg(*logits), KernelArg(*target), KernelArg(*gc)};
    launch(*g->device, PORTA_OP_CROSS_ENTROPY_BACKWARD, logits->dtype, ins, 3, KernelArg(*gx), nullptr);
    return {gx, TensorPtr()};
  }
};

}  // namespace

TensorPtr softmax(const TensorPtr& x, int32_t dim, bool log, bool masked_rows_zero) {
  const char* op = log ? "log_softmax" : "softmax";
  check_float(op, "input", *x);
  dim = ops::wrap_dim(op, dim, x->ndim());
  TensorPtr xc = ops::contiguous(x);
  TensorPtr y = empty(*x->device, x->dtype, x->shape);
  const Dims d3 = as_3d(*x, dim);
  run_softmax(log ? PORTA_OP_LOG_SOFTMAX : PORTA_OP_SOFTMAX, xc, TensorPtr(), y, d3);
  if (masked_rows_zero && y->numel() > 0) {
    // PyTorch's _safe_softmax: a row that is -inf everywhere (every key masked) gives 0, not 0/0; the
    // backward, which reads y, then gives it a zero gradient too
    TensorPtr minus_inf = ops::full(*x->device, Dims{}, -INFINITY, x->dtype);
    const int32_t d = dim;
    TensorPtr masked = ops::reduce(PORTA_OP_MIN, ops::binary(PORTA_OP_EQ, xc, minus_inf), &d, 1, true);
    y = ops::contiguous(ops::where(masked, ops::full(*x->device, Dims{}, 0.0, x->dtype), y));
  }
  if (autograd::needs_grad({&x})) {
    auto node = std::make_shared<SoftmaxNode>();
    node->y = y;
    node->d3 = d3;
    node->log = log;
    autograd::record(y, node, {&x});
  }
  return y;
}

TensorPtr cross_entropy(const TensorPtr& logits, const TensorPtr& target_in, porta_reduction reduction,
                        int64_t ignore_index) {
  check_reduction(reduction, "cross_entropy");
  check_float("cross_entropy", "input (logits)", *logits);
  check_same_device("cross_entropy", {logits.get(), target_in.get()});
  if (logits->ndim() != 2)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "cross_entropy: input must be 2-D [batch, classes], got shape ",
         logits->shape.str());
  if (!is_class_index(target_in->dtype) || target_in->ndim() != 1)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "cross_entropy: target must be a 1-D int64 (or uint8) tensor of class indices, got ",
         dtype_name(target_in->dtype), " of shape ", target_in->shape.str());
  if (logits->shape[0] != target_in->shape[0])
    fail(PORTA_ERROR_SHAPE_MISMATCH, "cross_entropy: expected input batch size (", logits->shape[0],
         ") to match target batch size (", target_in->shape[0], "); input has shape ", logits->shape.str(),
         ". A view(-1, features) with the wrong number of features changes the batch size: check the flatten "
         "before the classifier");
  DeviceState& dev = *logits->device;
  // Samples whose target is ignore_index (PyTorch's default -100) count for
  // nothing: their target becomes class 0 and their logits zeros (so that a
  // row of infinities cannot turn the gradient NaN), then their loss is 0
  // and a mean divides by the number of the others (0/0 = NaN when every
  // sample is ignored, as in PyTorch, with a zero gradient: mean_of_kept).
  TensorPtr target64 = ops::cast(target_in, Dtype::Int64);
  TensorPtr keep = ops::binary(PORTA_OP_NE, target64, ops::full_int(dev, Dims{}, ignore_index, Dtype::Int64));
  TensorPtr target = ops::contiguous(ops::where(keep, target64, ops::full_int(dev, Dims{}, 0, Dtype::Int64)));
  TensorPtr zero = ops::full(dev, Dims{}, 0.0, logits->dtype);
  TensorPtr kept_logits = ag::where(ops::unsqueeze(keep, 1), logits, zero);
  TensorPtr x = ops::contiguous(kept_logits);
  TensorPtr loss = empty(dev, x->dtype, Dims{x->shape[0]});
  if (loss->numel() > 0) {
    KernelArg ins[2] = {KernelArg(*x), KernelArg(*target)};
    launch(dev, PORTA_OP_CROSS_ENTROPY, x->dtype, ins, 2, KernelArg(*loss), nullptr);
  }
  if (autograd::needs_grad({&kept_logits})) {
    auto node = std::make_shared<CrossEntropyNode>();
    node->logits = x;
    node->target = target;
    autograd::record(loss, node, {&kept_logits, nullptr});
  }
  loss = ag::where(keep, loss, zero);
  if (reduction != PORTA_REDUCTION_MEAN) return apply_reduction(loss, reduction, "cross_entropy");
  TensorPtr count = ops::reduce(PORTA_OP_SUM, ops::cast(keep, x->dtype), nullptr, 0, false);
  return mean_of_kept(ag::reduce(PORTA_OP_SUM, loss, nullptr, 0, false), count);
}

TensorPtr mse_loss(const TensorPtr& input, const TensorPtr& target, porta_reduction reduction) {
  check_float("mse_loss", "input", *input);
  check_same_device("mse_loss", {input.get(), target.get()});
  if (input->shape != target->shape)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "mse_loss: input shape ", input->shape.str(), " and target shape ",
         target->shape.str(), " differ; reshape one so they match (broadcasting them is almost always a bug)");
  TensorPtr d = ag::binary(PORTA_OP_SUB, input, target);
  return apply_reduction(ag::binary(PORTA_OP_MUL, d, d), reduction, "mse_loss");
}

}  // namespace porta::nn
