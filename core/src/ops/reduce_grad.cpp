// Backward formulas of reductions (matmul's: matmul_grad.cpp).
#include "runtime/error.hpp"
#include "ops/ag.hpp"
#include "autograd/node.hpp"

namespace porta::ag {
namespace {

using autograd::backward_name;
using autograd::Node;
using autograd::SavedTensor;

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

}  // namespace porta::ag
