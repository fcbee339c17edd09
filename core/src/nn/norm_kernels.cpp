// layer_norm and batch_norm (training) on the plugins' NORM kernels (plugin
// ABI 1.7): one pass over x forward (y and the statistics), one backward for
// the input's gradient. layer_norm's weight and bias gradients are sums
// over rows; batch_norm's kernel hands back the per-channel sums its input
// gradient needs, which are those gradients. Under create_graph a node
// writes the same gradients with ag:: ops instead, recomputing the
// statistics from the saved x, so that the pass records its own backward.
#include "nn/norm_kernels.hpp"

#include "autograd/node.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"

namespace porta::nn {
namespace {

// A [n] operand of a kernel: the parameter's values, or `fill` when absent.
TensorPtr param_operand(const TensorPtr& p, const porta_tensor& x, int64_t n, double fill) {
  return p ? ops::contiguous(ops::reshape(p, Dims{n})) : ops::full(*x.device, Dims{n}, fill, x.dtype);
}

// Column k of a [rows, cols] kernel output, as a [rows] tensor of its own.
TensorPtr column(const TensorPtr& t, int64_t k) {
  return ops::reshape(ops::contiguous(ops::slice(t, 1, k, k + 1, 1)), Dims{t->shape[0]});
}

bool has_kernels(const porta_tensor& x, porta_op forward, porta_op backward) {
  return x.numel() > 0 && has_kernel(*x.device, forward, x.dtype) && has_kernel(*x.device, backward, x.dtype);
}

// The gradients of y = (x - mean) / sqrt(var + eps) * w + b from
// differentiable ops (create_graph): the statistics over `stat_dims` of x,
// w (null: ones) already shaped beside x, the parameters' sums over
// `param_dims`. Returns {dx, dw, db}, each only where `want` asks.
std::vector<TensorPtr> recorded_grads(const TensorPtr& x, const TensorPtr& g, const TensorPtr& w,
                                      const std::vector<int32_t>& stat_dims, const std::vector<int32_t>& param_dims,
                                      double eps, const std::vector<bool>& want) {
  const auto ns = static_cast<int32_t>(stat_dims.size()), np = static_cast<int32_t>(param_dims.size());
  const auto mean_over = [&](const TensorPtr& t) { return ag::reduce(PORTA_OP_MEAN, t, stat_dims.data(), ns, true); };
  const TensorPtr d = ag::binary(PORTA_OP_SUB, x, mean_over(x));
  const TensorPtr sd = ag::unary(PORTA_OP_SQRT, ag::binary_scalar(PORTA_OP_ADD, mean_over(ag::binary(PORTA_OP_MUL, d, d)), eps));
  const TensorPtr xhat = ag::binary(PORTA_OP_DIV, d, sd);
  const TensorPtr gw = w ? ag::binary(PORTA_OP_MUL, g, w) : g;
  std::vector<TensorPtr> grads(3);
  if (want[0]) {
    const TensorPtr centered = ag::binary(PORTA_OP_SUB, gw, mean_over(gw));
    const TensorPtr along = ag::binary(PORTA_OP_MUL, xhat, mean_over(ag::binary(PORTA_OP_MUL, gw, xhat)));
    grads[0] = ag::binary(PORTA_OP_DIV, ag::binary(PORTA_OP_SUB, centered, along), sd);
  }
  if (want[1]) grads[1] = ag::reduce(PORTA_OP_SUM, ag::binary(PORTA_OP_MUL, g, xhat), param_dims.data(), np, false);
  if (want[2]) grads[2] = ag::reduce(PORTA_OP_SUM, g, param_dims.data(), np, false);
  return grads;
}

// What both nodes keep: x as given (its history is create_graph's), the
// kernel's statistics, the weight (null when absent), x's kernel shape.
struct NormNode : autograd::Node {
  autograd::SavedTensor x, stats, weight;
  Dims grouped;
  double eps = 0;

  bool differentiable_twice() const override { return true; }
  void release_saved() override { x.reset(), stats.reset(), weight.reset(); }
  std::vector<bool> wanted() const {
    return {next[0] != nullptr, next.size() > 1 && next[1], next.size() > 2 && next[2]};
  }
  // g as the kernel's contiguous operand in x's dtype.
  TensorPtr kernel_grad(const TensorPtr& g, const porta_tensor& xs) const {
    return ops::contiguous(ops::reshape(ops::cast(g, xs.dtype), grouped));
  }
};

struct LayerNormNode final : NormNode {
  Dims weight_shape;  // normalized_shape

  const char* name() const override { return "NativeLayerNormBackward"; }

  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    std::vector<TensorPtr> grads;
    if (autograd::grad_enabled()) {
      const TensorPtr w = weight ? ag::reshape(weight, Dims{grouped[1]}) : TensorPtr();
      grads = recorded_grads(ag::reshape(x, grouped), ag::reshape(g, grouped), w, {1}, {0}, eps, wanted());
    } else {
      grads = fused(g);
    }
    if (grads[0]) grads[0] = ag::reshape(grads[0], g->shape);
    for (size_t i = 1; i < 3; ++i)
      if (grads[i]) grads[i] = ag::reshape(grads[i], weight_shape);
    return grads;
  }

  // The kernel's gradient of x; the parameters' from two row sums.
  std::vector<TensorPtr> fused(const TensorPtr& g) {
    const TensorPtr xs = ops::contiguous(ops::reshape(x, grouped)), st = stats, gy = kernel_grad(g, *xs);
    const std::vector<bool> want = wanted();
    std::vector<TensorPtr> grads(3);
    if (want[0]) {
      const TensorPtr w = param_operand(weight ? TensorPtr(weight) : TensorPtr(), *xs, grouped[1], 1.0);
      grads[0] = empty(*xs->device, xs->dtype, xs->shape);
      const porta_norm_params params{sizeof(porta_norm_params), eps};
      KernelArg ins[4] = {KernelArg(*gy), KernelArg(*xs), KernelArg(*st), KernelArg(*w)};
      launch(*xs->device, PORTA_OP_LAYER_NORM_BACKWARD, xs->dtype, ins, 4, KernelArg(*grads[0]), &params);
    }
    const int32_t over_rows = 0;
    if (want[1]) {
      const TensorPtr mean = ops::slice(st, 1, 0, 1, 1), rstd = ops::slice(st, 1, 1, 2, 1);
      const TensorPtr xhat = ops::binary(PORTA_OP_MUL, ops::binary(PORTA_OP_SUB, xs, mean), rstd);
      grads[1] = ops::reduce(PORTA_OP_SUM, ops::binary(PORTA_OP_MUL, gy, xhat), &over_rows, 1, false);
    }
    if (want[2]) grads[2] = ops::reduce(PORTA_OP_SUM, gy, &over_rows, 1, false);
    return grads;
  }
};

struct BatchNormNode final : NormNode {
  const char* name() const override { return "NativeBatchNormBackward"; }

  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    std::vector<TensorPtr> grads;
    if (autograd::grad_enabled()) {
      const TensorPtr w = weight ? ag::reshape(weight, Dims{1, grouped[1], 1}) : TensorPtr();
      grads = recorded_grads(ag::reshape(x, grouped), ag::reshape(g, grouped), w, {0, 2}, {0, 2}, eps, wanted());
    } else {
      grads = fused(g);
    }
    if (grads[0]) grads[0] = ag::reshape(grads[0], g->shape);
    return grads;
  }

  // The kernel's gradient of x and its per-channel sums: (bias, weight).
  std::vector<TensorPtr> fused(const TensorPtr& g) {
    const TensorPtr xs = ops::contiguous(ops::reshape(x, grouped)), st = stats, gy = kernel_grad(g, *xs);
    const int64_t channels = grouped[1];
    const TensorPtr w = param_operand(weight ? TensorPtr(weight) : TensorPtr(), *xs, channels, 1.0);
    const TensorPtr gx = empty(*xs->device, xs->dtype, xs->shape);
    const TensorPtr sums = empty(*xs->device, xs->dtype, Dims{channels, 2});
    const porta_norm_params params{sizeof(porta_norm_params), eps};
    KernelArg ins[4] = {KernelArg(*gy), KernelArg(*xs), KernelArg(*st), KernelArg(*w)};
    KernelArg outs[2] = {KernelArg(*gx), KernelArg(*sums)};
    launch(*xs->device, PORTA_OP_BATCH_NORM_BACKWARD, xs->dtype, ins, 4, outs, 2, &params);
    const std::vector<bool> want = wanted();
    return {want[0] ? gx : TensorPtr(), want[1] ? column(sums, 1) : TensorPtr(), want[2] ? column(sums, 0) : TensorPtr()};
  }
};

// Runs a NORM forward kernel on xs, w, b: y (xs's shape) and the statistics.
std::pair<TensorPtr, TensorPtr> run_forward(porta_op op, const TensorPtr& xs, const TensorPtr& w, const TensorPtr& b,
                                            Dims stats_shape, double eps) {
  TensorPtr y = empty(*xs->device, xs->dtype, xs->shape);
  TensorPtr stats = empty(*xs->device, xs->dtype, stats_shape);
  const porta_norm_params params{sizeof(porta_norm_params), eps};
  KernelArg ins[3] = {KernelArg(*xs), KernelArg(*w), KernelArg(*b)};
  KernelArg outs[2] = {KernelArg(*y), KernelArg(*stats)};
  launch(*xs->device, op, xs->dtype, ins, 3, outs, 2, &params);
  return {y, stats};
}

template <class Node>
void record_norm(const TensorPtr& y, std::shared_ptr<Node> node, const TensorPtr& x, const TensorPtr& stats,
                 const TensorPtr& weight, const TensorPtr& bias, Dims grouped, double eps) {
  node->x = x;
  node->stats = stats;
  if (weight) node->weight = weight;
  node->grouped = grouped;
  node->eps = eps;
  autograd::record(y, node, {&x, weight ? &weight : nullptr, bias ? &bias : nullptr});
}

}  // namespace

bool layer_norm_has_kernel(const porta_tensor& x) {
  return has_kernels(x, PORTA_OP_LAYER_NORM, PORTA_OP_LAYER_NORM_BACKWARD);
}

TensorPtr layer_norm_fused(const TensorPtr& x, const Dims& normalized_shape, const TensorPtr& weight,
                           const TensorPtr& bias, double eps) {
  int64_t n = 1;
  for (int32_t i = 0; i < normalized_shape.n; ++i) n *= normalized_shape[i];
  const int64_t rows = x->numel() / n;
  const TensorPtr xs = ops::contiguous(ops::reshape(x, Dims{rows, n}));
  auto [y, stats] = run_forward(PORTA_OP_LAYER_NORM, xs, param_operand(weight, *x, n, 1.0),
                                param_operand(bias, *x, n, 0.0), Dims{rows, 2}, eps);
  y = ops::reshape(y, x->shape);
  if (autograd::needs_grad({&x, &weight, &bias})) {
    auto node = std::make_shared<LayerNormNode>();
    node->weight_shape = normalized_shape;
    record_norm(y, node, x, stats, weight, bias, xs->shape, eps);
  }
  return y;
}

bool batch_norm_has_kernel(const porta_tensor& x) {
  return has_kernels(x, PORTA_OP_BATCH_NORM, PORTA_OP_BATCH_NORM_BACKWARD);
}

BatchNormResult batch_norm_fused(const TensorPtr& x, const TensorPtr& weight, const TensorPtr& bias, double eps) {
  const int64_t batch = x->shape[0], channels = x->shape[1];
  const TensorPtr xs = ops::contiguous(ops::reshape(x, Dims{batch, channels, x->numel() / (batch * channels)}));
  auto [y, stats] = run_forward(PORTA_OP_BATCH_NORM, xs, param_operand(weight, *x, channels, 1.0),
                                param_operand(bias, *x, channels, 0.0), Dims{channels, 3}, eps);
  y = ops::reshape(y, x->shape);
  if (autograd::needs_grad({&x, &weight, &bias}))
    record_norm(y, std::make_shared<BatchNormNode>(), x, stats, weight, bias, xs->shape, eps);
  return {y, column(stats, 0), column(stats, 2)};
}

}  // namespace porta::nn
