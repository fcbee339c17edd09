// clamp and hardtanh as where() over comparisons, with PyTorch's gradients
// (clamp's: its own rules at the bounds and at NaN, clamp_weights).
#include <cmath>

#include "runtime/error.hpp"
#include "autograd/function.hpp"
#include "autograd/node.hpp"
#include "ops/composite/composite.hpp"

namespace porta::composite {
namespace {

void refuse_bool(const char* op, const TensorPtr& a) {
  if (a->dtype == Dtype::Bool)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op, " is not defined for bool tensors (as in PyTorch); cast to a numeric dtype");
}

// `a` where it is not `op` than `bound`, else bound; NaN in `bound` wins.
TensorPtr replace_where(porta_op op, const TensorPtr& a, const TensorPtr& bound) {
  TensorPtr cond = ops::binary(op, a, bound);
  if (is_floating(bound->dtype)) {
    TensorPtr bound_nan = ops::binary(PORTA_OP_NE, bound, bound);
    cond = ops::where(bound_nan, bound_nan, cond);
  }
  return ag::where(cond, bound, a);
}

}  // namespace

TensorPtr clamp(const TensorPtr& a, std::optional<double> lo, std::optional<double> hi) {
  const auto bound = [&](std::optional<double> v) {
    return v ? ops::wrapped_number(*a->device, Scalar::from_double(*v)) : TensorPtr();
  };
  return clamp_tensor(a, bound(lo), bound(hi));
}

namespace {

// PyTorch's checks of a number bound (a wrapped number) for a clamp computing
// in dt: a floating dt holds it, else overflow; an integer dt ignores a min
// below (a max above) its range, and refuses one beyond the other end.
TensorPtr checked_bound(const TensorPtr& bound, Dtype dt, bool is_min) {
  if (!bound || !bound->wrapped) return bound;
  const Scalar& s = *bound->wrapped;
  if (is_floating(dt)) {
    ops::check_fill_value("clamp", s.as_double(), dt);
    return bound;
  }
  int64_t lo, hi;  // an integer dt: the bound is an integer (a float one makes dt floating)
  ops::int_range(dt, &lo, &hi);
  const int64_t v = s.i;
  if (is_min ? v < lo : v > hi) return TensorPtr();  // no bound there
  if (is_min ? v > hi : v < lo)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "clamp: Clamp ", is_min ? "min" : "max", " value ", v,
         " is outside the representable range of ", dtype_name(dt), " (as in PyTorch)");
  return bound;
}

TensorPtr mask_as(const TensorPtr& mask, const TensorPtr& g) { return ops::cast(mask, g->dtype); }
TensorPtr both(const TensorPtr& a, const TensorPtr& b) { return ops::binary(PORTA_OP_MUL, a, b); }  // logical and
TensorPtr either(const TensorPtr& a, const TensorPtr& b) { return ops::binary(PORTA_OP_ADD, a, b); }  // logical or
TensorPtr is_nan(const TensorPtr& x) { return ops::binary(PORTA_OP_NE, x, x); }
TensorPtr compare(porta_op op, const TensorPtr& a, const TensorPtr& b) { return ops::binary(op, a, b); }

// PyTorch's gradients of clamp. Number bounds: the input's, strictly inside
// (0 at a bound and at NaN). Tensor bounds: min alone is maximum(x, lo) and
// max alone minimum(x, hi) (a tie splits the gradient; NaN gives it to both);
// with both, the input's where it is inside or NaN, halved at a tie with one
// bound when lo < hi; lo's where x < lo <= hi (halved at x == lo < hi); hi's
// where hi < lo or x > hi >= lo (halved at x == hi > lo).
std::vector<TensorPtr> clamp_weights(const TensorPtr& x, const TensorPtr& lo, const TensorPtr& hi, bool numbers,
                                     const TensorPtr& like) {
  const TensorPtr one = ops::full(*x->device, Dims{}, 1.0, like->dtype), half = ops::full(*x->device, Dims{}, 0.5, like->dtype),
                  zero = ops::full(*x->device, Dims{}, 0.0, like->dtype);
  if (numbers) {
    TensorPtr inside = ops::full(*x->device, x->shape, 1.0, Dtype::Bool);
    if (lo) inside = both(inside, compare(PORTA_OP_GT, x, lo));
    if (hi) inside = both(inside, compare(PORTA_OP_LT, x, hi));
    return {mask_as(inside, like), TensorPtr(), TensorPtr()};
  }
  if (!hi || !lo) {  // maximum(x, lo) or minimum(x, hi)
    const TensorPtr& b = lo ? lo : hi;
    TensorPtr shared = ops::where(compare(PORTA_OP_EQ, x, b), half, one);
    TensorPtr x_loses = compare(lo ? PORTA_OP_LT : PORTA_OP_GT, x, b), b_loses = compare(lo ? PORTA_OP_GT : PORTA_OP_LT, x, b);
    TensorPtr wx = ops::where(x_loses, zero, shared), wb = ops::where(b_loses, zero, shared);
    return {wx, lo ? wb : TensorPtr(), hi ? wb : TensorPtr()};
  }
  TensorPtr lt = compare(PORTA_OP_LT, lo, hi), le = compare(PORTA_OP_LE, lo, hi), gt = compare(PORTA_OP_GT, lo, hi);
  TensorPtr at_lo = compare(PORTA_OP_EQ, x, lo), at_hi = compare(PORTA_OP_EQ, x, hi);
  TensorPtr below = compare(PORTA_OP_LT, x, lo), above = compare(PORTA_OP_GT, x, hi);
  TensorPtr one_tie = both(compare(PORTA_OP_NE, at_lo, at_hi), lt);
  TensorPtr wx = ops::where(is_nan(x), one, ops::where(either(below, above), zero, ops::where(one_tie, half, one)));
  TensorPtr wl = ops::where(both(le, below), one, ops::where(both(lt, at_lo), half, zero));
  TensorPtr wh = ops::where(either(gt, both(le, above)), one, ops::where(both(lt, at_hi), half, zero));
  return {wx, wl, wh};
}

}  // namespace

TensorPtr clamp_tensor(const TensorPtr& a, const TensorPtr& lo_in, const TensorPtr& hi_in) {
  refuse_bool("clamp", a);
  if (!lo_in && !hi_in) fail(PORTA_ERROR_INVALID_ARGUMENT, "clamp: at least one of min and max must be given");
  std::vector<const porta_tensor*> operands{a.get()};
  for (const TensorPtr& b : {lo_in, hi_in})
    if (b) operands.push_back(b.get());
  const Dtype dt = ops::result_type(operands);
  const bool numbers = (!lo_in || lo_in->wrapped) && (!hi_in || hi_in->wrapped);
  const TensorPtr lo = numbers ? checked_bound(lo_in, dt, true) : lo_in, hi = numbers ? checked_bound(hi_in, dt, false) : hi_in;
  TensorPtr out;
  {
    autograd::NoGradGuard no_grad;
    out = ops::cast(a, dt);
    if (lo) out = replace_where(PORTA_OP_LT, out, lo);
    if (hi) out = replace_where(PORTA_OP_GT, out, hi);
    if (out.get() == a.get()) out = ops::clone(out);  // both number bounds beyond the dtype's range
  }
  if (!is_floating(dt)) return out;
  std::vector<TensorPtr> inputs{a};
  if (lo) inputs.push_back(lo);
  if (hi) inputs.push_back(hi);
  return autograd::attach_function(
      out, inputs,
      [a, lo, hi, numbers](const TensorPtr& g) {
        const TensorPtr x = ops::cast(a, g->dtype);
        const std::vector<TensorPtr> w = clamp_weights(x, lo ? ops::cast(lo, g->dtype) : TensorPtr(),
                                                       hi ? ops::cast(hi, g->dtype) : TensorPtr(), numbers, g);
        std::vector<TensorPtr> grads;
        const auto grad_of = [&](const TensorPtr& t, const TensorPtr& weight) {
          return ag::cast(autograd::sum_to(ag::binary(PORTA_OP_MUL, g, weight), t->shape), t->dtype);
        };
        grads.push_back(grad_of(a, w[0]));
        if (lo) grads.push_back(w[1] ? grad_of(lo, w[1]) : TensorPtr());
        if (hi) grads.push_back(w[2] ? grad_of(hi, w[2]) : TensorPtr());
        return grads;
      },
      "ClampBackward");
}

TensorPtr hardtanh(const TensorPtr& a, double lo, double hi) {
  require_floating("hardtanh", a);
  if (!(lo <= hi)) fail(PORTA_ERROR_INVALID_ARGUMENT, "hardtanh: min_val (", lo, ") must not exceed max_val (", hi, ")");
  TensorPtr lo_t = ops::wrapped_number(*a->device, Scalar::from_double(lo)),
            hi_t = ops::wrapped_number(*a->device, Scalar::from_double(hi));
  TensorPtr x = ag::where(ops::binary(PORTA_OP_LE, a, lo_t), lo_t, a);
  return ag::where(ops::binary(PORTA_OP_GE, x, hi_t), hi_t, x);
}

}  // namespace porta::composite
