// Backward formulas of reductions and matmul.
#include "runtime/error.hpp"
#include "ops/ag.hpp"
#include "autograd/node.hpp"

namespace porta::ag {
namespace {

using autograd::backward_name;
using autograd::Node;
using autograd::SavedTensor;
using autograd::sum_to;

// The reduced dims as a mask (num_dims == 0: all).
std::vector<bool> reduced_mask(const porta_tensor& t, const int32_t* dims, int32_t num_dims) {
  std::vector<bool> mask(static_cast<size_t>(t.ndim()), num_dims == 0);
  for (int32_t i = 0; i < num_dims; ++i)
    if (t.ndim() > 0) mask[static_cast<size_t>(ops::wrap_dim("reduce", dims[i], t.ndim()))] = true;
  return mask;
}

struct ReduceNode final : Node {
  porta_op op;
  SavedTensor input, output;  // kept only for max/min
  Dims in_shape, kept_shape;  // kept_shape: output with reduced dims as 1
  int64_t count;
  bool nan_matches_nan = false;  // max/min: amax's rule (NaN equals nothing); median(): NaN equals NaN
  const char* name() const override { return backward_name(op); }
  void release_saved() override { input.reset(), output.reset(); }
  bool differentiable_twice() const override { return true; }
  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    TensorPtr gk = expand(reshape(g, kept_shape), in_shape);
    switch (op) {
      case PORTA_OP_SUM: return {gk};
      case PORTA_OP_MEAN: return {binary_scalar(PORTA_OP_DIV, gk, static_cast<double>(count))};
      default: {  // max / min: share among the elements equal to the extreme (a constant mask)
        TensorPtr extreme = ops::reshape(output, kept_shape);
        TensorPtr hit = ops::binary(PORTA_OP_EQ, input, extreme);
        if (nan_matches_nan && is_floating(input->dtype)) {
          TensorPtr nan_extreme = ops::binary(PORTA_OP_NE, extreme, extreme);
          hit = ops::where(nan_extreme, ops::binary(PORTA_OP_NE, input, input), hit);
        }
        hit = ops::cast(hit, g->dtype);
        int32_t dims[PORTA_MAX_DIMS];
        int32_t n = 0;
        for (int32_t i = 0; i < in_shape.n; ++i)
          if (kept_shape[i] == 1 && in_shape[i] != 1) dims[n++] = i;
        TensorPtr hits = n ? ops::reduce(PORTA_OP_SUM, hit, dims, n, true) : hit;
        return {binary(PORTA_OP_MUL, gk, ops::binary(PORTA_OP_DIV, hit, hits))};
      }
    }
  }
};

// alpha * (a @ b) + beta * c (alpha 1 and no c: a plain product).
struct MatmulNode final : Node {
  SavedTensor a, b;  // each read only for the other's gradient
  Dims a_shape, b_shape, c_shape;
  double alpha = 1.0, beta = 0.0;
  const char* name() const override { return "MatmulBackward"; }
  bool differentiable_twice() const override { return true; }
  void release_saved() override { a.reset(), b.reset(); }
  TensorPtr scaled(const TensorPtr& t, double s) const { return s == 1.0 ? t : binary_scalar(PORTA_OP_MUL, t, s); }
  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    // Work with >= 2-D operands; a 1-D operand gained a dim of size 1.
    const bool a_vec = a_shape.n == 1, b_vec = b_shape.n == 1;
    TensorPtr G = g;
    if (a_vec) G = unsqueeze(G, G->ndim() - (b_vec ? 0 : 1));
    if (b_vec) G = unsqueeze(G, G->ndim());
    TensorPtr ga, gb, gc;
    if (next[0]) {
      TensorPtr B = b_vec ? unsqueeze(b, 1) : TensorPtr(b);
      const Dims A_shape = a_vec ? Dims{1, a_shape[0]} : a_shape;
      ga = scaled(reshape(sum_to(matmul(G, transpose(B, -1, -2)), A_shape), a_shape), alpha);
    }
    if (next[1]) {
      TensorPtr A = a_vec ? unsqueeze(a, 0) : TensorPtr(a);
      const Dims B_shape = b_vec ? Dims{b_shape[0], 1} : b_shape;
      gb = scaled(reshape(sum_to(matmul(transpose(A, -1, -2), G), B_shape), b_shape), alpha);
    }
    if (next.size() == 2) return {ga, gb};
    if (next[2]) gc = scaled(sum_to(g, c_shape), beta);
    return {ga, gb, gc};
  }
};

}  // namespace

TensorPtr reduce(porta_op op, const TensorPtr& t, const int32_t* dims, int32_t num_dims, bool keepdim) {
  TensorPtr out = ops::reduce(op, t, dims, num_dims, keepdim);
  if (!is_floating(t->dtype) || !autograd::needs_grad({&t})) return out;
  auto node = std::make_shared<ReduceNode>();
  node->op = op;
  node->in_shape = t->shape;
  const std::vector<bool> mask = reduced_mask(*t, dims, num_dims);
  node->count = 1;
  for (int32_t i = 0; i < t->ndim(); ++i) {
    node->kept_shape.push_back(mask[static_cast<size_t>(i)] ? 1 : t->shape[i]);
    if (mask[static_cast<size_t>(i)]) node->count *= t->shape[i];
  }
  if (op == PORTA_OP_MAX || op == PORTA_OP_MIN) node->input = t, node->output = SavedTensor::output(out);
  autograd::record(out, node, {&t});
  return out;
}

TensorPtr shared_among_equals(const TensorPtr& t, const TensorPtr& value) {
  TensorPtr out = ops::reshape(value, Dims{});
  if (!is_floating(t->dtype) || !autograd::needs_grad({&t})) return out;
  auto node = std::make_shared<ReduceNode>();
  node->op = PORTA_OP_MAX;  // the extremes' rule: shared among the elements equal to the result
  node->nan_matches_nan = true;
  node->in_shape = t->shape;
  node->count = t->numel();
  for (int32_t i = 0; i < t->ndim(); ++i) node->kept_shape.push_back(1);
  node->input = t, node->output = SavedTensor::output(out);
  autograd::record(out, node, {&t});
  return out;
}

TensorPtr matmul(const TensorPtr& a, const TensorPtr& b) { return matmul(a, b, 1.0, TensorPtr(), 0.0); }

TensorPtr matmul(const TensorPtr& a, const TensorPtr& b, double alpha, const TensorPtr& c, double beta) {
  // beta 0: c is not read (NaN in it stays out), and its gradient is beta g, zeros, as PyTorch's
  TensorPtr out = ops::matmul(a, b, alpha, beta != 0.0 ? c : TensorPtr(), beta);
  if (autograd::needs_grad({&a, &b, &c})) {
    auto node = std::make_shared<MatmulNode>();
    if (b->requires_grad) node->a = a;
    if (a->requires_grad) node->b = b;
    node->a_shape = a->shape, node->b_shape = b->shape;
    node->alpha = alpha, node->beta = beta;
    if (c) {
      node->c_shape = c->shape;
      autograd::record(out, node, {&a, &b, &c});
    } else {
      autograd::record(out, node, {&a, &b});
    }
  }
  return out;
}

}  // namespace porta::ag
