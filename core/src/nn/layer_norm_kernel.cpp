// layer_norm on the plugins' NORM kernels (plugin ABI 1.7): one pass over
// x forward (y and each row's mean and rstd), one backward for the input's
// gradient; the weight's and the bias's are sums over rows. Under
// create_graph the node writes the same gradient with ag:: ops, recomputing
// mean and rstd from the saved x, so that the pass records its own backward.
#include "nn/layer_norm_kernel.hpp"

#include "autograd/node.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"

namespace porta::nn {
namespace {

// A [n] operand of the kernel: the parameter's values, or `fill` when absent.
TensorPtr row_param(const TensorPtr& p, const porta_tensor& x, int64_t n, double fill) {
  return p ? ops::contiguous(ops::reshape(p, Dims{n})) : ops::full(*x.device, Dims{n}, fill, x.dtype);
}

struct LayerNormNode final : autograd::Node {
  autograd::SavedTensor x, stats, weight;  // x as given (its history is create_graph's); weight null when absent
  Dims rows_shape, weight_shape;           // [rows, n]; normalized_shape
  double eps = 0;

  const char* name() const override { return "NativeLayerNormBackward"; }
  bool differentiable_twice() const override { return true; }
  void release_saved() override { x.reset(), stats.reset(), weight.reset(); }

  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    const Dims shape = g->shape;
    std::vector<TensorPtr> grads = autograd::grad_enabled() ? recorded(ag::reshape(g, rows_shape)) : fused(g);
    if (grads[0]) grads[0] = ag::reshape(grads[0], shape);
    for (size_t i = 1; i < 3; ++i)
      if (grads[i]) grads[i] = ag::reshape(grads[i], weight_shape);
    return grads;
  }

  // The kernel's gradient of x; the parameters' from two row sums.
  std::vector<TensorPtr> fused(const TensorPtr& g) {
    const TensorPtr xs = ops::contiguous(ops::reshape(x, rows_shape)), st = stats;
    const int64_t n = rows_shape[1];
    const TensorPtr gy = ops::contiguous(ops::reshape(ops::cast(g, xs->dtype), rows_shape));
    std::vector<TensorPtr> grads(3);
    if (next[0]) {
      const TensorPtr w = weight ? TensorPtr(weight) : row_param(TensorPtr(), *xs, n, 1.0);
      grads[0] = empty(*xs->device, xs->dtype, xs->shape);
      const porta_norm_params params{sizeof(porta_norm_params), eps};
      KernelArg ins[4] = {KernelArg(*gy), KernelArg(*xs), KernelArg(*st), KernelArg(*w)};
      launch(*xs->device, PORTA_OP_LAYER_NORM_BACKWARD, xs->dtype, ins, 4, KernelArg(*grads[0]), &params);
    }
    const int32_t over_rows = 0;
    if (next.size() > 1 && next[1]) {
      const TensorPtr mean = ops::slice(st, 1, 0, 1, 1), rstd = ops::slice(st, 1, 1, 2, 1);
      const TensorPtr xhat = ops::binary(PORTA_OP_MUL, ops::binary(PORTA_OP_SUB, xs, mean), rstd);
      grads[1] = ops::reduce(PORTA_OP_SUM, ops::binary(PORTA_OP_MUL, gy, xhat), &over_rows, 1, false);
    }
    if (next.size() > 2 && next[2]) grads[2] = ops::reduce(PORTA_OP_SUM, gy, &over_rows, 1, false);
    return grads;
  }

  // The same gradients from differentiable ops (create_graph).
  std::vector<TensorPtr> recorded(const TensorPtr& g) {
    const TensorPtr xs = ag::reshape(x, rows_shape);
    const int32_t along_row = 1, over_rows = 0;
    const TensorPtr mean = ag::reduce(PORTA_OP_MEAN, xs, &along_row, 1, true);
    const TensorPtr d = ag::binary(PORTA_OP_SUB, xs, mean);
    const TensorPtr var = ag::reduce(PORTA_OP_MEAN, ag::binary(PORTA_OP_MUL, d, d), &along_row, 1, true);
    const TensorPtr sd = ag::unary(PORTA_OP_SQRT, ag::binary_scalar(PORTA_OP_ADD, var, eps));
    const TensorPtr xhat = ag::binary(PORTA_OP_DIV, d, sd);
    const TensorPtr w = weight ? ag::reshape(weight, Dims{rows_shape[1]}) : TensorPtr();
    const TensorPtr gw = w ? ag::binary(PORTA_OP_MUL, g, w) : g;
    const TensorPtr mean_g = ag::reduce(PORTA_OP_MEAN, gw, &along_row, 1, true);
    const TensorPtr mean_gx = ag::reduce(PORTA_OP_MEAN, ag::binary(PORTA_OP_MUL, gw, xhat), &along_row, 1, true);
    std::vector<TensorPtr> grads(3);
    if (next[0])
      grads[0] = ag::binary(PORTA_OP_DIV,
                            ag::binary(PORTA_OP_SUB, ag::binary(PORTA_OP_SUB, gw, mean_g),
                                       ag::binary(PORTA_OP_MUL, xhat, mean_gx)),
                            sd);
    if (next.size() > 1 && next[1])
      grads[1] = ag::reduce(PORTA_OP_SUM, ag::binary(PORTA_OP_MUL, g, xhat), &over_rows, 1, false);
    if (next.size() > 2 && next[2]) grads[2] = ag::reduce(PORTA_OP_SUM, g, &over_rows, 1, false);
    return grads;
  }
};

}  // namespace

bool layer_norm_has_kernel(const porta_tensor& x) {
  return x.numel() > 0 && has_kernel(*x.device, PORTA_OP_LAYER_NORM, x.dtype) &&
         has_kernel(*x.device, PORTA_OP_LAYER_NORM_BACKWARD, x.dtype);
}

TensorPtr layer_norm_fused(const TensorPtr& x, const Dims& normalized_shape, const TensorPtr& weight,
                           const TensorPtr& bias, double eps) {
  int64_t n = 1;
  for (int32_t i = 0; i < normalized_shape.n; ++i) n *= normalized_shape[i];
  const int64_t rows = x->numel() / n;
  const TensorPtr xs = ops::contiguous(ops::reshape(x, Dims{rows, n}));
  const TensorPtr w = row_param(weight, *x, n, 1.0), b = row_param(bias, *x, n, 0.0);
  TensorPtr y = empty(*x->device, x->dtype, xs->shape);
  const TensorPtr stats = empty(*x->device, x->dtype, Dims{rows, 2});
  const porta_norm_params params{sizeof(porta_norm_params), eps};
  KernelArg ins[3] = {KernelArg(*xs), KernelArg(*w), KernelArg(*b)};
  KernelArg outs[2] = {KernelArg(*y), KernelArg(*stats)};
  launch(*x->device, PORTA_OP_LAYER_NORM, x->dtype, ins, 3, outs, 2, &params);
  y = ops::reshape(y, x->shape);
  if (autograd::needs_grad({&x, &weight, &bias})) {
    auto node = std::make_shared<LayerNormNode>();
    node->x = x;
    node->stats = stats;
    if (weight) node->weight = weight;
    node->rows_shape = xs->shape;
    node->weight_shape = normalized_shape;
    node->eps = eps;
    autograd::record(y, node, {&x, weight ? &weight : nullptr, bias ? &bias : nullptr});
  }
  return y;
}

}  // namespace porta::nn
