// Backward formulas of the elementwise ops.
#include "../error.hpp"
#include "ag.hpp"
#include "node.hpp"

namespace porta::ag {
namespace {

using autograd::Node;
using autograd::sum_to;

TensorPtr mul(const TensorPtr& a, const TensorPtr& b) { return ops::binary(PORTA_OP_MUL, a, b); }
TensorPtr scalar(porta_op op, const TensorPtr& a, double s) { return ops::binary_scalar(op, a, s); }
// mask (bool) as 0/1 of dtype `like`'s.
TensorPtr as_float(const TensorPtr& mask, const TensorPtr& like) { return ops::cast(mask, like->dtype); }

struct UnaryNode final : Node {
  porta_op op;
  TensorPtr input, output;
  UnaryNode(porta_op o, TensorPtr in, TensorPtr out) : op(o), input(std::move(in)), output(std::move(out)) {}
  const char* name() const override { return "UnaryBackward"; }
  void release_saved() override { input.reset(), output.reset(); }

  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    const TensorPtr& x = input;
    const TensorPtr& y = output;
    switch (op) {
      case PORTA_OP_NEG: return {ops::unary(PORTA_OP_NEG, g)};
      case PORTA_OP_EXP: return {mul(g, y)};
      case PORTA_OP_LOG: return {ops::binary(PORTA_OP_DIV, g, x)};
      case PORTA_OP_SQRT: return {ops::binary(PORTA_OP_DIV, g, scalar(PORTA_OP_MUL, y, 2.0))};
      case PORTA_OP_RELU: return {mul(g, as_float(scalar(PORTA_OP_GT, x, 0.0), g))};
      case PORTA_OP_SIGMOID:  // y (1 - y)
        return {mul(g, mul(y, scalar(PORTA_OP_ADD, ops::unary(PORTA_OP_NEG, y), 1.0)))};
      case PORTA_OP_TANH:  // 1 - y^2
        return {mul(g, scalar(PORTA_OP_ADD, ops::unary(PORTA_OP_NEG, mul(y, y)), 1.0))};
      case PORTA_OP_ABS:  // sign(x)
        return {mul(g, ops::binary(PORTA_OP_SUB, as_float(scalar(PORTA_OP_GT, x, 0.0), g),
                                   as_float(scalar(PORTA_OP_LT, x, 0.0), g)))};
      default: fail(PORTA_ERROR_INTERNAL, "no backward for unary op ", op_name(op));
    }
  }
};

struct BinaryNode final : Node {
  porta_op op;
  TensorPtr a, b, out;
  Dims a_shape, b_shape;
  Dtype a_dtype, b_dtype;
  BinaryNode(porta_op o, const TensorPtr& a_, const TensorPtr& b_, const TensorPtr& out_)
      : op(o), a(a_), b(b_), out(out_), a_shape(a_->shape), b_shape(b_->shape), a_dtype(a_->dtype), b_dtype(b_->dtype) {}
  const char* name() const override { return "BinaryBackward"; }
  void release_saved() override { a.reset(), b.reset(), out.reset(); }

  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    TensorPtr ga, gb;
    switch (op) {
      case PORTA_OP_ADD: ga = g, gb = g; break;
      case PORTA_OP_SUB: ga = g, gb = ops::unary(PORTA_OP_NEG, g); break;
      case PORTA_OP_MUL: ga = mul(g, b), gb = mul(g, a); break;
      case PORTA_OP_DIV:  // d(a/b)/db = -out / b
        ga = ops::binary(PORTA_OP_DIV, g, b);
        gb = ops::unary(PORTA_OP_NEG, ops::binary(PORTA_OP_DIV, mul(g, out), b));
        break;
      case PORTA_OP_POW:  // b a^(b-1) and out ln(a)
        ga = mul(g, mul(b, ops::binary(PORTA_OP_POW, a, scalar(PORTA_OP_SUB, b, 1.0))));
        gb = mul(g, mul(out, ops::unary(PORTA_OP_LOG, a)));
        break;
      case PORTA_OP_MAXIMUM:
      case PORTA_OP_MINIMUM: {  // the winner takes the gradient; ties split it
        const porta_op wins = op == PORTA_OP_MAXIMUM ? PORTA_OP_GT : PORTA_OP_LT;
        TensorPtr half_tie = scalar(PORTA_OP_MUL, as_float(ops::binary(PORTA_OP_EQ, a, b), g), 0.5);
        ga = mul(g, ops::binary(PORTA_OP_ADD, as_float(ops::binary(wins, a, b), g), half_tie));
        gb = mul(g, ops::binary(PORTA_OP_ADD, as_float(ops::binary(wins, b, a), g), half_tie));
        break;
      }
      default: fail(PORTA_ERROR_INTERNAL, "no backward for binary op ", op_name(op));
    }
    return {ops::cast(sum_to(ga, a_shape), a_dtype), ops::cast(sum_to(gb, b_shape), b_dtype)};
  }
};

struct WhereNode final : Node {
  TensorPtr cond;
  Dims a_shape, b_shape;
  WhereNode(TensorPtr c, Dims as, Dims bs) : cond(std::move(c)), a_shape(as), b_shape(bs) {}
  const char* name() const override { return "WhereBackward"; }
  void release_saved() override { cond.reset(); }
  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    TensorPtr zero = ops::full(*g->device, Dims{}, 0.0, g->dtype);
    return {TensorPtr(), sum_to(ops::where(cond, g, zero), a_shape), sum_to(ops::where(cond, zero, g), b_shape)};
  }
};

struct CastNode final : Node {
  Dtype from;
  explicit CastNode(Dtype f) : from(f) {}
  const char* name() const override { return "CastBackward"; }
  std::vector<TensorPtr> apply(const TensorPtr& g) override { return {ops::cast(g, from)}; }
};

}  // namespace

TensorPtr unary(porta_op op, const TensorPtr& a) {
  TensorPtr out = ops::unary(op, a);
  if (autograd::needs_grad({&a})) autograd::record(out, std::make_shared<UnaryNode>(op, a, detach(out)), {&a});
  return out;
}

TensorPtr binary(porta_op op, const TensorPtr& a, const TensorPtr& b) {
  TensorPtr out = ops::binary(op, a, b);
  if (op_kind(op) != PORTA_OP_KIND_COMPARE && autograd::needs_grad({&a, &b}))
    autograd::record(out, std::make_shared<BinaryNode>(op, a, b, detach(out)), {&a, &b});
  return out;
}

TensorPtr binary_scalar(porta_op op, const TensorPtr& a, double s) { return binary(op, a, ops::scalar_like(a, s)); }

TensorPtr where(const TensorPtr& cond, const TensorPtr& a, const TensorPtr& b) {
  TensorPtr out = ops::where(cond, a, b);
  if (autograd::needs_grad({&a, &b}))
    autograd::record(out, std::make_shared<WhereNode>(cond, a->shape, b->shape), {nullptr, &a, &b});
  return out;
}

TensorPtr cast(const TensorPtr& t, Dtype dtype) {
  TensorPtr out = ops::cast(t, dtype);
  if (out.get() != t.get() && is_floating(dtype) && autograd::needs_grad({&t}))
    autograd::record(out, std::make_shared<CastNode>(t->dtype), {&t});
  return out;
}

}  // namespace porta::ag
