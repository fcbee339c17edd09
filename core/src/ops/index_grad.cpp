// Backward formulas of gather, scatter and the scans. Indices get no
// gradient; each formula is itself a gather, a scatter or a scan, so it runs
// on every plugin.
#include "runtime/error.hpp"
#include "ops/ag.hpp"
#include "autograd/node.hpp"

namespace porta::ag {
namespace {

using autograd::Node;
using autograd::SavedTensor;

// `t` zero-padded at the end of each dim to `shape` (src larger than index).
TensorPtr pad_to(const TensorPtr& t, const Dims& shape) {
  if (t->shape == shape) return t;
  TensorPtr out = ops::full(*t->device, shape, 0.0, t->dtype);
  TensorPtr window = out;
  for (int32_t i = 0; i < t->ndim(); ++i) window = ops::slice(window, i, 0, t->shape[i], 1);
  ops::copy_into(window, t);
  return out;
}

int32_t positive_dim(int32_t dim, int32_t ndim) { return dim < 0 ? dim + std::max(ndim, 1) : dim; }  // checked by ops::

struct GatherNode final : Node {
  Dims src_shape;
  int32_t dim;
  SavedTensor index;
  const char* name() const override { return "GatherBackward"; }
  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    TensorPtr zeros = ops::full(*g->device, src_shape, 0.0, g->dtype);
    return {ops::scatter(zeros, dim, index, g, PORTA_SCATTER_SUM)};
  }
  void release_saved() override { index.reset(); }
};

// ASSIGN: self's gradient is cut where src overwrote it; SUM: it passes.
// src's is the output's gradient gathered back, padded to src's shape.
struct ScatterNode final : Node {
  Dims src_shape;
  int32_t dim;
  bool assign;
  SavedTensor index;
  const char* name() const override { return assign ? "ScatterBackward" : "ScatterAddBackward"; }
  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    TensorPtr idx = index;
    TensorPtr g_self = g;
    if (assign) g_self = ops::scatter(g, dim, idx, ops::full(*g->device, idx->shape, 0.0, g->dtype), PORTA_SCATTER_ASSIGN);
    return {g_self, pad_to(ops::gather(g, dim, idx), src_shape)};
  }
  void release_saved() override { index.reset(); }
};

// cumsum: the gradient is the reversed scan of g. cumprod (inputs without
// zeros): reversed cumsum(g * out) / x.
struct ScanNode final : Node {
  porta_op op;
  int32_t dim;
  bool reverse;
  Dtype dtype;
  SavedTensor input, output;
  const char* name() const override { return op == PORTA_OP_CUMSUM ? "CumsumBackward" : "CumprodBackward"; }
  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    if (op == PORTA_OP_CUMSUM) return {ops::cast(ops::scan(PORTA_OP_CUMSUM, g, dim, !reverse), dtype)};
    TensorPtr x = input;
    TensorPtr zeros = ops::binary_scalar(PORTA_OP_EQ, x, 0.0);
    if (ops::reduce_to_host(PORTA_OP_SUM, zeros) != 0)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "cumprod: the gradient of an input with zeros is not supported yet; ",
           "compute the product another way (e.g. exp(cumsum(log(x))) for positive x)");
    TensorPtr s = ops::scan(PORTA_OP_CUMSUM, ops::binary(PORTA_OP_MUL, g, output), dim, !reverse);
    return {ops::cast(ops::binary(PORTA_OP_DIV, s, x), dtype)};
  }
  void release_saved() override { input.reset(), output.reset(); }
};

}  // namespace

TensorPtr gather(const TensorPtr& src, int32_t dim, const TensorPtr& index, const char* op) {
  TensorPtr out = ops::gather(src, dim, index, op);
  if (autograd::needs_grad({&src}) && is_floating(src->dtype)) {
    auto node = std::make_shared<GatherNode>();
    node->src_shape = src->shape;
    node->dim = positive_dim(dim, src->ndim());
    node->index = index;
    autograd::record(out, node, {&src});
  }
  return out;
}

TensorPtr scatter(const TensorPtr& self, int32_t dim, const TensorPtr& index, const TensorPtr& src,
                  porta_scatter_reduce reduce, const char* op) {
  TensorPtr out = ops::scatter(self, dim, index, src, reduce, op);
  if (autograd::needs_grad({&self, &src}) && is_floating(self->dtype)) {
    if (reduce != PORTA_SCATTER_ASSIGN && reduce != PORTA_SCATTER_SUM)
      fail(PORTA_ERROR_NOT_IMPLEMENTED, op, ": the gradient of reduce=",
           reduce == PORTA_SCATTER_PROD ? "\"prod\"" : reduce == PORTA_SCATTER_AMAX ? "\"amax\"" : "\"amin\"",
           " is not implemented yet (sum, mean and plain scatter have one); detach the inputs or use torch");
    auto node = std::make_shared<ScatterNode>();
    node->src_shape = src->shape;
    node->dim = positive_dim(dim, self->ndim());
    node->assign = reduce == PORTA_SCATTER_ASSIGN;
    node->index = index;
    autograd::record(out, node, {&self, &src});
  }
  return out;
}

TensorPtr scan(porta_op op, const TensorPtr& t, int32_t dim, bool reverse) {
  TensorPtr out = ops::scan(op, t, dim, reverse);
  if (autograd::needs_grad({&t}) && is_floating(t->dtype)) {
    auto node = std::make_shared<ScanNode>();
    node->op = op;
    node->dim = ops::wrap_dim(op_name(op), dim, t->ndim());
    node->reverse = reverse;
    node->dtype = t->dtype;
    if (op == PORTA_OP_CUMPROD) node->input = t, node->output = out;
    autograd::record(out, node, {&t});
  }
  return out;
}

}  // namespace porta::ag
