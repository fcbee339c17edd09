// Backward formula of matmul (alpha a @ b + beta c), beside its forward in
// matmul.cpp: MatmulNode and the recording ag::matmul.
#include "runtime/error.hpp"
#include "ops/ag.hpp"
#include "autograd/node.hpp"

namespace porta::ag {
namespace {

using autograd::Node;
using autograd::SavedTensor;
using autograd::sum_to;

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
