// Backward formulas of the elementwise ops.
#include "../error.hpp"
#include "ag.hpp"
#include "node.hpp"

namespace porta::ag {
namespace {

using autograd::backward_name;
using autograd::Node;
using autograd::SavedTensor;
using autograd::sum_to;

TensorPtr mul(const TensorPtr& a, const TensorPtr& b) { return ops::binary(PORTA_OP_MUL, a, b); }
TensorPtr scalar(porta_op op, const TensorPtr& a, double s) { return ops::binary_scalar(op, a, s); }
// mask (bool) as 0/1 of dtype `like`'s.
TensorPtr as_float(const TensorPtr& mask, const TensorPtr& like) { return ops::cast(mask, like->dtype); }

// What a unary op's backward formula reads: its input, its output, or nothing.
enum class Needs { Nothing, Input, Output };
Needs unary_needs(porta_op op) {
  switch (op) {
    case PORTA_OP_LOG:
    case PORTA_OP_ABS: return Needs::Input;
    case PORTA_OP_EXP:
    case PORTA_OP_SQRT:
    case PORTA_OP_RELU:  // y > 0 exactly where x > 0 (PyTorch saves the result too)
    case PORTA_OP_SIGMOID:
    case PORTA_OP_TANH: return Needs::Output;
    default: return Needs::Nothing;
  }
}

struct UnaryNode final : Node {
  porta_op op;
  SavedTensor saved;  // the input or the output, as unary_needs says
  UnaryNode(porta_op o, TensorPtr s) : op(o), saved(std::move(s)) {}
  const char* name() const override { return backward_name(op); }
  void release_saved() override { saved.reset(); }

  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    switch (op) {
      case PORTA_OP_NEG: return {ops::unary(PORTA_OP_NEG, g)};
      case PORTA_OP_EXP: return {mul(g, saved)};
      case PORTA_OP_LOG: return {ops::binary(PORTA_OP_DIV, g, saved)};
      case PORTA_OP_SQRT: return {ops::binary(PORTA_OP_DIV, g, scalar(PORTA_OP_MUL, saved, 2.0))};
      case PORTA_OP_RELU: return {mul(g, as_float(scalar(PORTA_OP_GT, saved, 0.0), g))};
      case PORTA_OP_SIGMOID: {  // y (1 - y)
        const TensorPtr& y = saved;
        return {mul(g, mul(y, scalar(PORTA_OP_ADD, ops::unary(PORTA_OP_NEG, y), 1.0)))};
      }
      case PORTA_OP_TANH: {  // 1 - y^2
        const TensorPtr& y = saved;
        return {mul(g, scalar(PORTA_OP_ADD, ops::unary(PORTA_OP_NEG, mul(y, y)), 1.0))};
      }
      case PORTA_OP_ABS: {  // sign(x)
        const TensorPtr& x = saved;
        return {mul(g, ops::binary(PORTA_OP_SUB, as_float(scalar(PORTA_OP_GT, x, 0.0), g),
                                   as_float(scalar(PORTA_OP_LT, x, 0.0), g)))};
      }
      default: fail(PORTA_ERROR_INTERNAL, "no backward for unary op ", op_name(op));
    }
  }
};

// The operands (and output) a binary op's backward reads; only what the
// gradients asked for is read back, as PyTorch unpacks only what it needs.
bool binary_saves_operands(porta_op op) {
  return op == PORTA_OP_MUL || op == PORTA_OP_DIV || op == PORTA_OP_POW || op == PORTA_OP_MAXIMUM ||
         op == PORTA_OP_MINIMUM;
}
bool binary_saves_output(porta_op op) { return op == PORTA_OP_DIV || op == PORTA_OP_POW; }

struct BinaryNode final : Node {
  porta_op op;
  SavedTensor a, b, out;
  Dims a_shape, b_shape;
  Dtype a_dtype, b_dtype;
  BinaryNode(porta_op o, const TensorPtr& a_, const TensorPtr& b_, const TensorPtr& out_)
      : op(o), a_shape(a_->shape), b_shape(b_->shape), a_dtype(a_->dtype), b_dtype(b_->dtype) {
    if (binary_saves_operands(o)) a = a_, b = b_;
    if (binary_saves_output(o)) out = out_;  // SavedTensor keeps the data only: no cycle through out's grad_fn
  }
  const char* name() const override { return backward_name(op); }
  void release_saved() override { a.reset(), b.reset(), out.reset(); }

  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    const bool want_a = next[0] != nullptr, want_b = next[1] != nullptr;
    TensorPtr ga, gb;
    switch (op) {
      case PORTA_OP_ADD: ga = g, gb = g; break;
      case PORTA_OP_SUB: ga = g, gb = want_b ? ops::unary(PORTA_OP_NEG, g) : TensorPtr(); break;
      case PORTA_OP_MUL:
        if (want_a) ga = mul(g, b);
        if (want_b) gb = mul(g, a);
        break;
      case PORTA_OP_DIV:  // d(a/b)/db = -out / b
        if (want_a) ga = ops::binary(PORTA_OP_DIV, g, b);
        if (want_b) gb = ops::unary(PORTA_OP_NEG, ops::binary(PORTA_OP_DIV, mul(g, out), b));
        break;
      case PORTA_OP_POW:  // b a^(b-1) and out ln(a)
        if (want_a) ga = mul(g, mul(b, ops::binary(PORTA_OP_POW, a, scalar(PORTA_OP_SUB, b, 1.0))));
        if (want_b) gb = mul(g, mul(out, ops::unary(PORTA_OP_LOG, a)));
        break;
      case PORTA_OP_MAXIMUM:
      case PORTA_OP_MINIMUM: {  // the winner takes the gradient; ties split it
        const porta_op wins = op == PORTA_OP_MAXIMUM ? PORTA_OP_GT : PORTA_OP_LT;
        TensorPtr half_tie = scalar(PORTA_OP_MUL, as_float(ops::binary(PORTA_OP_EQ, a, b), g), 0.5);
        if (want_a) ga = mul(g, ops::binary(PORTA_OP_ADD, as_float(ops::binary(wins, a, b), g), half_tie));
        if (want_b) gb = mul(g, ops::binary(PORTA_OP_ADD, as_float(ops::binary(wins, b, a), g), half_tie));
        break;
      }
      default: fail(PORTA_ERROR_INTERNAL, "no backward for binary op ", op_name(op));
    }
    return {want_a ? ops::cast(sum_to(ga, a_shape), a_dtype) : TensorPtr(),
            want_b ? ops::cast(sum_to(gb, b_shape), b_dtype) : TensorPtr()};
  }
};

struct WhereNode final : Node {
  SavedTensor cond;
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
  if (autograd::needs_grad({&a})) {
    const Needs needs = unary_needs(op);
    TensorPtr saved = needs == Needs::Input ? a : needs == Needs::Output ? out : TensorPtr();
    autograd::record(out, std::make_shared<UnaryNode>(op, std::move(saved)), {&a});
  }
  return out;
}

TensorPtr binary(porta_op op, const TensorPtr& a, const TensorPtr& b) {
  TensorPtr out = ops::binary(op, a, b);
  if (op_kind(op) != PORTA_OP_KIND_COMPARE && autograd::needs_grad({&a, &b}))
    autograd::record(out, std::make_shared<BinaryNode>(op, a, b, out), {&a, &b});
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
