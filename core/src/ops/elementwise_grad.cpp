// Backward formulas of the elementwise ops.
#include <array>

#include "runtime/error.hpp"
#include "ops/ag.hpp"
#include "autograd/node.hpp"

namespace porta::ag {
namespace {

using autograd::backward_name;
using autograd::Node;
using autograd::SavedTensor;
using autograd::sum_to;

// ---- the formulas' vocabulary: differentiable ops, so that a formula run
// with grad mode on (create_graph) records its own backward; with grad mode
// off (a plain backward) they record nothing.

TensorPtr operator+(const TensorPtr& a, const TensorPtr& b) { return binary(PORTA_OP_ADD, a, b); }
TensorPtr operator*(const TensorPtr& a, const TensorPtr& b) { return binary(PORTA_OP_MUL, a, b); }
TensorPtr operator/(const TensorPtr& a, const TensorPtr& b) { return binary(PORTA_OP_DIV, a, b); }
TensorPtr operator+(const TensorPtr& a, double s) { return binary_scalar(PORTA_OP_ADD, a, s); }
TensorPtr operator*(const TensorPtr& a, double s) { return binary_scalar(PORTA_OP_MUL, a, s); }
TensorPtr operator-(const TensorPtr& a) { return unary(PORTA_OP_NEG, a); }
TensorPtr operator-(double s, const TensorPtr& a) { return -a + s; }
TensorPtr apply(porta_op op, const TensorPtr& a) { return unary(op, a); }
TensorPtr apply(porta_op op, const TensorPtr& a, const TensorPtr& b) { return binary(op, a, b); }
TensorPtr zeros_like(const TensorPtr& t) { return ops::full(*t->device, t->shape, 0.0, t->dtype); }
// A 0-d zero of t's dtype on its device (broadcast by the op that takes it).
TensorPtr zero_of(const TensorPtr& t) { return ops::full(*t->device, Dims{}, 0.0, t->dtype); }

constexpr double kLn2 = 0.69314718055994530942, kLn10 = 2.30258509299404568402;
constexpr double kTwoOverSqrtPi = 1.12837916709551257390, kSqrtPiOverTwo = 0.88622692545275801365;

// The autograd rule of every row of kind `Kind` whose grad column is 1,
// Grad<op>::rule(), indexed by op id (an empty Rule for the other rows).
template <class Rule, porta_op_kind Kind, template <porta_op> class Grad>
constexpr std::array<Rule, PORTA_OP_COUNT> rules_of_kind() {
  std::array<Rule, PORTA_OP_COUNT> t{};
#define PORTA_X_RULE(NAME, name, id, kind, inputs, dtypes, result, grad, doc) \
  if constexpr (kind == Kind && grad != 0) t[id] = Grad<PORTA_OP_##NAME>::rule();
  PORTA_OP_DESCRIPTORS(PORTA_X_RULE)
#undef PORTA_X_RULE
  return t;
}

// ---- unary ops: UnaryGrad<op> says what the formula reads (its input x,
// its output y, or nothing) and gives the input's gradient from g. Every
// UNARY row of porta/ops.h with grad 1 needs one (the build fails without).

enum class Needs { Nothing, Input, Output };

struct UnaryRule {
  Needs needs = Needs::Nothing;
  TensorPtr (*of)(const TensorPtr& g, const TensorPtr& saved) = nullptr;
};

template <porta_op Op>
struct UnaryGrad;
#define PORTA_UNARY_GRAD(NAME, NEEDS, ...)                                                      \
  template <>                                                                                   \
  struct UnaryGrad<PORTA_OP_##NAME> {                                                           \
    static constexpr Needs needs = Needs::NEEDS;                                                \
    static constexpr UnaryRule rule() { return {needs, &of}; }                                  \
    static TensorPtr of(const TensorPtr& g, [[maybe_unused]] const TensorPtr& saved) {          \
      [[maybe_unused]] const TensorPtr& x = saved;                                              \
      [[maybe_unused]] const TensorPtr& y = saved;                                              \
      return __VA_ARGS__;                                                                       \
    }                                                                                           \
  };

PORTA_UNARY_GRAD(NEG, Nothing, -g)
PORTA_UNARY_GRAD(EXP, Output, g * y)
PORTA_UNARY_GRAD(LOG, Input, g / x)
PORTA_UNARY_GRAD(SQRT, Output, g / (y * 2.0))
// PyTorch's threshold_backward: 0 where y <= 0 (exactly where x <= 0), g
// elsewhere, NaN included; a select, not a product (g inf times 0 would be
// NaN), in two passes (the mask, the select) where 0/1 and a product took three.
PORTA_UNARY_GRAD(RELU, Output, where(ops::binary_scalar(PORTA_OP_LE, y, 0.0), zero_of(g), g))
PORTA_UNARY_GRAD(SIGMOID, Output, g * (y * (1.0 - y)))
PORTA_UNARY_GRAD(TANH, Output, g * (1.0 - y * y))
PORTA_UNARY_GRAD(ABS, Input, g * apply(PORTA_OP_SIGN, x))
PORTA_UNARY_GRAD(SIN, Input, g * apply(PORTA_OP_COS, x))
PORTA_UNARY_GRAD(COS, Input, g * -apply(PORTA_OP_SIN, x))
PORTA_UNARY_GRAD(TAN, Output, g * (y * y + 1.0))
PORTA_UNARY_GRAD(ASIN, Input, g / apply(PORTA_OP_SQRT, 1.0 - x * x))
PORTA_UNARY_GRAD(ACOS, Input, -g / apply(PORTA_OP_SQRT, 1.0 - x * x))
PORTA_UNARY_GRAD(ATAN, Input, g / (x * x + 1.0))
PORTA_UNARY_GRAD(SINH, Input, g * apply(PORTA_OP_COSH, x))
PORTA_UNARY_GRAD(COSH, Input, g * apply(PORTA_OP_SINH, x))
// Piecewise constant: zero gradient, as in PyTorch.
PORTA_UNARY_GRAD(FLOOR, Nothing, zeros_like(g))
PORTA_UNARY_GRAD(CEIL, Nothing, zeros_like(g))
PORTA_UNARY_GRAD(ROUND, Nothing, zeros_like(g))
PORTA_UNARY_GRAD(TRUNC, Nothing, zeros_like(g))
PORTA_UNARY_GRAD(SIGN, Nothing, zeros_like(g))
PORTA_UNARY_GRAD(ERF, Input, g * apply(PORTA_OP_EXP, -(x * x)) * kTwoOverSqrtPi)
PORTA_UNARY_GRAD(ERFINV, Output, g * apply(PORTA_OP_EXP, y * y) * kSqrtPiOverTwo)
PORTA_UNARY_GRAD(LOG1P, Input, g / (x + 1.0))
PORTA_UNARY_GRAD(EXPM1, Output, g * (y + 1.0))
PORTA_UNARY_GRAD(LOG2, Input, g / (x * kLn2))
PORTA_UNARY_GRAD(LOG10, Input, g / (x * kLn10))
PORTA_UNARY_GRAD(EXP2, Output, g * y * kLn2)
PORTA_UNARY_GRAD(ASINH, Input, g / apply(PORTA_OP_SQRT, x * x + 1.0))
#undef PORTA_UNARY_GRAD

constexpr auto kUnaryRules = rules_of_kind<UnaryRule, PORTA_OP_KIND_UNARY, UnaryGrad>();

struct UnaryNode final : Node {
  porta_op op;
  SavedTensor saved;  // the input or the output, as the op's UnaryGrad says
  UnaryNode(porta_op o, SavedTensor s) : op(o), saved(std::move(s)) {}
  const char* name() const override { return backward_name(op); }
  bool differentiable_twice() const override { return true; }
  void release_saved() override { saved.reset(); }
  std::vector<TensorPtr> apply(const TensorPtr& g) override { return {kUnaryRules[op].of(g, saved)}; }
};

// ---- binary ops: BinaryGrad<op> says what the formula reads and gives the
// operands' gradients (before sum_to), computing only the wanted ones, as
// PyTorch unpacks only what it needs.

// The saved tensors are read (and their versions checked) only where a
// formula uses them.
struct BinaryArgs {
  const TensorPtr& g;
  const SavedTensor &a, &b, &out;
  bool want_a, want_b;
};
struct Grads {
  TensorPtr a, b;
};

struct BinaryRule {
  bool saves_operands = false, saves_output = false;
  Grads (*of)(const BinaryArgs&) = nullptr;
};

template <porta_op Op>
struct BinaryGrad;
#define PORTA_BINARY_GRAD(NAME, SAVES_OPERANDS, SAVES_OUTPUT, ...)          \
  template <>                                                              \
  struct BinaryGrad<PORTA_OP_##NAME> {                                     \
    static constexpr bool saves_operands = SAVES_OPERANDS;                 \
    static constexpr bool saves_output = SAVES_OUTPUT;                     \
    static constexpr BinaryRule rule() { return {saves_operands, saves_output, &of}; } \
    static Grads of(const BinaryArgs& r) {                                 \
      [[maybe_unused]] const TensorPtr& g = r.g;                           \
      [[maybe_unused]] const SavedTensor &a = r.a, &b = r.b, &out = r.out; \
      Grads d;                                                             \
      __VA_ARGS__                                                          \
      return d;                                                            \
    }                                                                      \
  };
#define IF_A(...) \
  if (r.want_a) d.a = __VA_ARGS__;
#define IF_B(...) \
  if (r.want_b) d.b = __VA_ARGS__;

PORTA_BINARY_GRAD(ADD, false, false, IF_A(g) IF_B(g))
PORTA_BINARY_GRAD(SUB, false, false, IF_A(g) IF_B(-g))
PORTA_BINARY_GRAD(MUL, true, false, IF_A(g * b) IF_B(g * a))
PORTA_BINARY_GRAD(DIV, true, true, IF_A(g / b) IF_B(-(g * out / b)))  // d(a/b)/db = -out / b
// b a^(b-1), 0 where b == 0 (not 0 * inf at a == 0); out ln(a), 0 where a == 0 and b >= 0 (PyTorch's
// subgradients: d(0^b)/db is 0 there, not out * -inf).
PORTA_BINARY_GRAD(POW, true, true,
                  IF_A(where(apply(PORTA_OP_EQ, b, zero_of(b)), zero_of(g), g * (b * apply(PORTA_OP_POW, a, b + -1.0))))
                  IF_B(where(apply(PORTA_OP_MUL, apply(PORTA_OP_EQ, a, zero_of(a)), apply(PORTA_OP_GE, b, zero_of(b))),
                             zero_of(g), g * (out * apply(PORTA_OP_LOG, a)))))
// PyTorch's rule: a tie splits the gradient, the loser gets 0, and where neither loses (NaN) both get it.
#define PORTA_EXTREMUM_GRAD(LOSES)                                                          \
  TensorPtr shared = where(apply(PORTA_OP_EQ, a, b), g * 0.5, g);                           \
  IF_A(where(apply(LOSES, a, b), zero_of(g), shared)) IF_B(where(apply(LOSES, b, a), zero_of(g), shared))
PORTA_BINARY_GRAD(MAXIMUM, true, false, PORTA_EXTREMUM_GRAD(PORTA_OP_LT))
PORTA_BINARY_GRAD(MINIMUM, true, false, PORTA_EXTREMUM_GRAD(PORTA_OP_GT))
#undef PORTA_EXTREMUM_GRAD
// (b, -a) / (a^2 + b^2), PyTorch's: 0 where a^2 + b^2 is 0 (the origin, or squares that underflow)
PORTA_BINARY_GRAD(ATAN2, true, false, TensorPtr r2 = a * a + b * b;
                  TensorPtr zero = zero_of(r2);
                  TensorPtr recip = where(apply(PORTA_OP_EQ, r2, zero), zero, (zero + 1.0) / r2);
                  IF_A(g * b * recip) IF_B(g * -a * recip))
// a - q b with q piecewise constant: q = floor(a / b) or trunc(a / b).
PORTA_BINARY_GRAD(REMAINDER, true, false, IF_A(g) IF_B(-(g * apply(PORTA_OP_FLOOR_DIVIDE, a, b))))
PORTA_BINARY_GRAD(FMOD, true, false, IF_A(g) IF_B(-(g * apply(PORTA_OP_TRUNC, a / b))))
PORTA_BINARY_GRAD(FLOOR_DIVIDE, false, false, IF_A(zeros_like(g)) IF_B(zeros_like(g)))
#undef IF_A
#undef IF_B
#undef PORTA_BINARY_GRAD

constexpr auto kBinaryRules = rules_of_kind<BinaryRule, PORTA_OP_KIND_BINARY, BinaryGrad>();

struct BinaryNode final : Node {
  porta_op op;
  SavedTensor a, b, out;
  Dims a_shape, b_shape;
  Dtype a_dtype, b_dtype;
  BinaryNode(porta_op o, const TensorPtr& a_, const TensorPtr& b_, const TensorPtr& out_)
      : op(o), a_shape(a_->shape), b_shape(b_->shape), a_dtype(a_->dtype), b_dtype(b_->dtype) {
    if (kBinaryRules[o].saves_operands) a = a_, b = b_;
    if (kBinaryRules[o].saves_output) out = SavedTensor::output(out_);  // no cycle through out's grad_fn
  }
  const char* name() const override { return backward_name(op); }
  bool differentiable_twice() const override { return true; }
  void release_saved() override { a.reset(), b.reset(), out.reset(); }

  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    const bool want_a = next[0] != nullptr, want_b = next[1] != nullptr;
    const Grads d = kBinaryRules[op].of(BinaryArgs{g, a, b, out, want_a, want_b});
    return {want_a ? cast(sum_to(d.a, a_shape), a_dtype) : TensorPtr(),
            want_b ? cast(sum_to(d.b, b_shape), b_dtype) : TensorPtr()};
  }
};

struct WhereNode final : Node {
  SavedTensor cond;
  Dims a_shape, b_shape;
  WhereNode(TensorPtr c, Dims as, Dims bs) : cond(std::move(c)), a_shape(as), b_shape(bs) {}
  const char* name() const override { return "WhereBackward"; }
  bool differentiable_twice() const override { return true; }
  void release_saved() override { cond.reset(); }
  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    TensorPtr zero = ops::full(*g->device, Dims{}, 0.0, g->dtype);
    return {TensorPtr(), sum_to(where(cond, g, zero), a_shape), sum_to(where(cond, zero, g), b_shape)};
  }
};

struct CastNode final : Node {
  Dtype from;
  explicit CastNode(Dtype f) : from(f) {}
  const char* name() const override { return "CastBackward"; }
  bool differentiable_twice() const override { return true; }
  std::vector<TensorPtr> apply(const TensorPtr& g) override { return {cast(g, from)}; }
};

}  // namespace

TensorPtr unary(porta_op op, const TensorPtr& a) {
  TensorPtr out = ops::unary(op, a);
  if (kUnaryRules[op].of && autograd::needs_grad({&a})) {
    const Needs needs = kUnaryRules[op].needs;
    SavedTensor saved = needs == Needs::Input ? SavedTensor(a) : needs == Needs::Output ? SavedTensor::output(out)
                                                                                       : SavedTensor();
    autograd::record(out, std::make_shared<UnaryNode>(op, std::move(saved)), {&a});
  }
  return out;
}

TensorPtr binary(porta_op op, const TensorPtr& a, const TensorPtr& b) {
  TensorPtr out = ops::binary(op, a, b);
  if (kBinaryRules[op].of && autograd::needs_grad({&a, &b}))
    autograd::record(out, std::make_shared<BinaryNode>(op, a, b, out), {&a, &b});
  return out;
}

TensorPtr binary_scalar(porta_op op, const TensorPtr& a, double s) {
  return binary(op, a, ops::wrapped_number(*a->device, Scalar::from_double(s)));
}

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
