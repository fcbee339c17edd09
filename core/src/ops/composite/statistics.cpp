// Statistics over dims, composed from the kernel reductions and scans:
// var / std with Bessel's correction, prod (the last prefix of cumprod),
// any / all / count_nonzero, and vector norms; var, std and norms with
// PyTorch's gradients (0 at a zero std or norm) and float32 accumulation for
// float16 and bfloat16. num_dims 0 reduces over every dim, as porta_sum.
#include <algorithm>
#include <cmath>
#include <utility>

#include "autograd/function.hpp"
#include "autograd/node.hpp"
#include "ops/composite/composite.hpp"
#include "runtime/error.hpp"

namespace porta::composite {
namespace {

// How many elements each output reduces (every dim counted once).
int64_t reduced_count(const porta_tensor& t, const int32_t* dims, int32_t num_dims, const char* op) {
  if (num_dims < 0 || num_dims > PORTA_MAX_DIMS)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": num_dims ", num_dims, " is out of range");
  if (num_dims == 0) return t.numel();
  require(dims, "dims");
  bool seen[PORTA_MAX_DIMS] = {};
  int64_t n = 1;
  for (int32_t i = 0; i < num_dims; ++i) {
    const int32_t d = ops::wrap_dim(op, dims[i], t.ndim());
    if (t.ndim() > 0 && !seen[d]) seen[d] = true, n *= t.shape[d];
  }
  return n;
}

TensorPtr zero_like(const TensorPtr& a) { return ops::full(*a->device, Dims{}, 0.0, a->dtype); }

// int64 counts of a's nonzero elements over dims.
TensorPtr count(const TensorPtr& a, const int32_t* dims, int32_t num_dims, bool keepdim) {
  return ops::reduce(PORTA_OP_SUM, ops::binary(PORTA_OP_NE, a, zero_like(a)), dims, num_dims, keepdim);
}

// The output's shape with every reduced dim kept as 1 (num_dims 0: all).
Dims kept_shape(const porta_tensor& t, const int32_t* dims, int32_t num_dims) {
  Dims kept = t.shape;
  for (int32_t i = 0; i < kept.n; ++i)
    if (num_dims == 0) kept[i] = 1;
  for (int32_t i = 0; i < num_dims; ++i)
    if (t.ndim() > 0) kept[ops::wrap_dim("reduce", dims[i], t.ndim())] = 1;
  return kept;
}

// The output's shape without its reduced dims.
Dims without_reduced(const porta_tensor& t, const int32_t* dims, int32_t num_dims) {
  const Dims kept = kept_shape(t, dims, num_dims);
  bool gone[PORTA_MAX_DIMS] = {};
  for (int32_t i = 0; i < t.ndim(); ++i) gone[i] = num_dims == 0;
  for (int32_t i = 0; i < num_dims; ++i)
    if (t.ndim() > 0) gone[ops::wrap_dim("reduce", dims[i], t.ndim())] = true;
  Dims out;
  for (int32_t i = 0; i < t.ndim(); ++i)
    if (!gone[i]) out.push_back(kept[i]);
  return out;
}

// A reduction's dims, owned (for a backward that runs later).
std::vector<int32_t> dims_of(const int32_t* dims, int32_t num_dims) {
  return num_dims > 0 ? std::vector<int32_t>(dims, dims + num_dims) : std::vector<int32_t>();
}

TensorPtr where_zero(const TensorPtr& cond, const TensorPtr& g, const TensorPtr& v) {
  return ag::where(cond, ops::full(*g->device, Dims{}, 0.0, g->dtype), v);
}

// var, and std (root) over dims, with PyTorch's gradients: (2 / (n - correction)) g (a - mean(a)), and for std
// g / (std (n - correction)) (a - mean(a)) with 0 where std is 0 (a constant input).
TensorPtr spread(const char* op, const TensorPtr& a, const int32_t* dims, int32_t num_dims, double correction,
                 bool keepdim, bool root) {
  require_floating(op, a);
  const int64_t n = reduced_count(*a, dims, num_dims, op);
  // n - correction <= 0 divides by 0 (inf or NaN), as PyTorch does.
  const double divisor = std::max(0.0, static_cast<double>(n) - correction);
  TensorPtr out;
  {
    autograd::NoGradGuard no_grad;
    TensorPtr x = ops::cast(a, opmath_dtype(a->dtype));  // float16/bfloat16 accumulate in float32, rounded once
    TensorPtr d = ops::binary(PORTA_OP_SUB, x, ops::reduce(PORTA_OP_MEAN, x, dims, num_dims, true));
    out = ops::binary_scalar(PORTA_OP_DIV, ops::reduce(PORTA_OP_SUM, ops::binary(PORTA_OP_MUL, d, d), dims, num_dims,
                                                       keepdim), divisor);
    if (root) out = ops::unary(PORTA_OP_SQRT, out);
    out = ops::cast(out, a->dtype);
  }
  const Dims kept = kept_shape(*a, dims, num_dims);
  return autograd::attach_function(
      out, {a},
      [a, out, kept, dim_list = dims_of(dims, num_dims), divisor, root](const TensorPtr& g) -> std::vector<TensorPtr> {
        const int32_t* ds = dim_list.empty() ? nullptr : dim_list.data();
        const auto nd = static_cast<int32_t>(dim_list.size());
        TensorPtr centered = ag::binary(PORTA_OP_SUB, a, ag::reduce(PORTA_OP_MEAN, a, ds, nd, true));
        TensorPtr gk = ag::reshape(g, kept);
        if (!root) return {ag::binary(PORTA_OP_MUL, ag::binary_scalar(PORTA_OP_MUL, gk, 2.0 / divisor), centered)};
        TensorPtr s = ops::reshape(out, kept);
        TensorPtr scale = where_zero(ops::binary_scalar(PORTA_OP_EQ, s, 0.0), gk,
                                     ag::binary_scalar(PORTA_OP_DIV, ag::binary(PORTA_OP_DIV, gk, s), divisor));
        return {ag::binary(PORTA_OP_MUL, scale, centered)};
      },
      root ? "StdBackward" : "VarBackward");
}

}  // namespace

TensorPtr var(const TensorPtr& a, const int32_t* dims, int32_t num_dims, double correction, bool keepdim) {
  return spread("var", a, dims, num_dims, correction, keepdim, false);
}

TensorPtr std_dev(const TensorPtr& a, const int32_t* dims, int32_t num_dims, double correction, bool keepdim) {
  return spread("std", a, dims, num_dims, correction, keepdim, true);
}

std::pair<TensorPtr, TensorPtr> var_mean(const TensorPtr& a, const int32_t* dims, int32_t num_dims, double correction,
                                         bool keepdim, bool root) {
  return {spread(root ? "std_mean" : "var_mean", a, dims, num_dims, correction, keepdim, root),
          ag::reduce(PORTA_OP_MEAN, a, dims, num_dims, keepdim)};
}

TensorPtr prod(const TensorPtr& a, int32_t dim, bool keepdim) {
  if (dim == PORTA_ALL_DIMS) {
    TensorPtr flat = ag::reshape(a, Dims{a->numel()});
    TensorPtr p = prod(flat, 0, false);
    if (!keepdim) return p;
    Dims ones;
    for (int32_t i = 0; i < a->ndim(); ++i) ones.push_back(1);
    return ag::reshape(p, ones);
  }
  TensorPtr x = a->ndim() == 0 ? ag::reshape(a, Dims{1}) : a;
  const int32_t d = ops::wrap_dim("prod", dim, a->ndim());
  const int64_t n = x->shape[d];
  TensorPtr out;
  if (n == 0 && is_floating(a->dtype)) {  // 1 + an empty sum: ones that keep the input's history, as PyTorch's
    out = ag::binary_scalar(PORTA_OP_ADD, ag::reduce(PORTA_OP_SUM, x, &d, 1, true), 1.0);
  } else if (n == 0) {
    Dims shape = x->shape;
    shape[d] = 1;
    out = ops::full(*a->device, shape, 1.0, Dtype::Int64);
  } else {
    out = ag::slice(ag::scan(PORTA_OP_CUMPROD, x, d, false), d, n - 1, n, 1);
  }
  if (a->ndim() == 0) return ag::reshape(out, Dims{});
  return keepdim ? out : ag::squeeze(out, d);
}

TensorPtr any(const TensorPtr& a, const int32_t* dims, int32_t num_dims, bool keepdim) {
  reduced_count(*a, dims, num_dims, "any");
  return ops::binary_scalar(PORTA_OP_GT, count(a, dims, num_dims, keepdim), 0.0);
}

TensorPtr all(const TensorPtr& a, const int32_t* dims, int32_t num_dims, bool keepdim) {
  const int64_t n = reduced_count(*a, dims, num_dims, "all");
  return ops::binary_scalar(PORTA_OP_EQ, count(a, dims, num_dims, keepdim), static_cast<double>(n));
}

TensorPtr count_nonzero(const TensorPtr& a, const int32_t* dims, int32_t num_dims) {
  reduced_count(*a, dims, num_dims, "count_nonzero");
  return count(a, dims, num_dims, false);
}

namespace {

// PyTorch's gradient of a vector norm (its norm_backward): g scaled per element, from the input a, the
// norm (kept dims) and g (kept dims), with 0 where the norm is 0 (and, below ord 1, where a is 0).
TensorPtr norm_gradient(const TensorPtr& a, const TensorPtr& norm, const TensorPtr& g, double ord,
                        const int32_t* dims, int32_t num_dims) {
  const auto zero_where = [&](const TensorPtr& cond, const TensorPtr& v) { return where_zero(cond, g, v); };
  TensorPtr sign = ag::unary(PORTA_OP_SIGN, a);
  if (ord == 0) return TensorPtr();  // a count: no gradient (PyTorch leaves the input's .grad None)
  if (ord == 1) return ag::binary(PORTA_OP_MUL, sign, g);
  TensorPtr norm_is_zero = ops::binary_scalar(PORTA_OP_EQ, norm, 0.0);
  if (ord == 2) return ag::binary(PORTA_OP_MUL, g, zero_where(norm_is_zero, ag::binary(PORTA_OP_DIV, a, norm)));
  TensorPtr magnitude = ag::unary(PORTA_OP_ABS, a);
  if (std::isinf(ord)) {  // shared among the elements at the norm, and NaNs
    TensorPtr mask = ops::binary(PORTA_OP_ADD, ops::binary(PORTA_OP_EQ, magnitude, norm),
                                 ops::binary(PORTA_OP_NE, magnitude, magnitude));
    TensorPtr maskf = ops::cast(mask, a->dtype);
    TensorPtr count = ops::reduce(PORTA_OP_SUM, maskf, dims, num_dims, true);
    return ag::binary(PORTA_OP_MUL, sign, ag::binary(PORTA_OP_MUL, ag::binary(PORTA_OP_DIV, g, count), maskf));
  }
  if (ord < 1) {
    TensorPtr scaled = zero_where(ops::binary_scalar(PORTA_OP_EQ, a, 0.0),
                                  ag::binary(PORTA_OP_MUL, sign, ag::binary_scalar(PORTA_OP_POW, magnitude, ord - 1)));
    return ag::binary(PORTA_OP_MUL, ag::binary(PORTA_OP_MUL, scaled, g), ag::binary_scalar(PORTA_OP_POW, norm, 1 - ord));
  }
  TensorPtr scaled = ord < 2 ? ag::binary(PORTA_OP_MUL, sign, ag::binary_scalar(PORTA_OP_POW, magnitude, ord - 1))
                             : ag::binary(PORTA_OP_MUL, a, ag::binary_scalar(PORTA_OP_POW, magnitude, ord - 2));
  TensorPtr scale = zero_where(norm_is_zero, ag::binary(PORTA_OP_DIV, g, ag::binary_scalar(PORTA_OP_POW, norm, ord - 1)));
  return ag::binary(PORTA_OP_MUL, scaled, scale);
}

}  // namespace

TensorPtr vector_norm(const TensorPtr& a, double ord, const int32_t* dims, int32_t num_dims, bool keepdim) {
  require_floating("vector_norm", a);
  reduced_count(*a, dims, num_dims, "vector_norm");
  if (std::isnan(ord)) fail(PORTA_ERROR_INVALID_ARGUMENT, "vector_norm: ord must not be NaN");
  if (std::isinf(ord) && a->numel() == 0)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "vector_norm: an infinite ord needs a non-empty tensor (it has no identity)");
  TensorPtr kept_norm;  // computed in float32 for float16 and bfloat16, as PyTorch's
  {
    autograd::NoGradGuard no_grad;
    TensorPtr x = ops::cast(a, opmath_dtype(a->dtype));  // float16/bfloat16 accumulate in float32, rounded once
    TensorPtr magnitude = ops::unary(PORTA_OP_ABS, x);
    if (std::isinf(ord))
      kept_norm = ops::reduce(ord > 0 ? PORTA_OP_MAX : PORTA_OP_MIN, magnitude, dims, num_dims, true);
    else if (ord == 0)
      kept_norm = ops::cast(count(x, dims, num_dims, true), x->dtype);
    else if (ord == 1)
      kept_norm = ops::reduce(PORTA_OP_SUM, magnitude, dims, num_dims, true);
    else {
      TensorPtr powered = ord == 2 ? ops::binary(PORTA_OP_MUL, x, x) : ops::binary_scalar(PORTA_OP_POW, magnitude, ord);
      TensorPtr sum = ops::reduce(PORTA_OP_SUM, powered, dims, num_dims, true);
      kept_norm = ord == 2 ? ops::unary(PORTA_OP_SQRT, sum) : ops::binary_scalar(PORTA_OP_POW, sum, 1.0 / ord);
    }
    kept_norm = ops::cast(kept_norm, a->dtype);
  }
  TensorPtr out = keepdim ? kept_norm : ops::reshape(kept_norm, without_reduced(*a, dims, num_dims));
  const Dims kept = kept_norm->shape;
  return autograd::attach_function(
      out, {a},
      [a, kept_norm, kept, ord, dim_list = dims_of(dims, num_dims)](const TensorPtr& g) -> std::vector<TensorPtr> {
        return {norm_gradient(a, kept_norm, ag::reshape(g, kept), ord, dim_list.empty() ? nullptr : dim_list.data(),
                              static_cast<int32_t>(dim_list.size()))};
      },
      "NormBackward");
}

TensorPtr histc(const TensorPtr& a, int64_t bins, double min, double max) {
  require_floating("histc", a);
  if (bins <= 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "histc: bins must be > 0, but got ", bins, " for bins");
  if (bins > (INT64_C(1) << 40)) fail(PORTA_ERROR_INVALID_ARGUMENT, "histc: bins ", bins, " is too many");
  double lo = min, hi = max;
  if (lo == hi && a->numel() > 0) {  // PyTorch: min == max takes the data's range (a read back)
    lo = ops::reduce_to_host(PORTA_OP_MIN, a);
    hi = ops::reduce_to_host(PORTA_OP_MAX, a);
  }
  if (lo == hi) lo -= 1, hi += 1;
  if (!std::isfinite(lo) || !std::isfinite(hi))
    fail(PORTA_ERROR_INVALID_ARGUMENT, "histc: range of [", lo, ", ", hi, "] is not finite");
  if (!(lo < hi)) fail(PORTA_ERROR_INVALID_ARGUMENT, "histc: max must be larger than min");
  DeviceState& dev = *a->device;
  // PyTorch's bin, in the input's dtype: trunc((x - lo) * bins / (hi - lo)); x == hi joins the last bin.
  TensorPtr left = ops::full(dev, Dims{}, lo, a->dtype), right = ops::full(dev, Dims{}, hi, a->dtype);
  TensorPtr x = ops::reshape(ops::contiguous(a), Dims{a->numel()});
  TensorPtr scaled =
      ops::binary(PORTA_OP_MUL, ops::binary(PORTA_OP_SUB, x, left), ops::full(dev, Dims{}, double(bins), a->dtype));
  TensorPtr bin = ops::cast(ops::binary(PORTA_OP_DIV, scaled, ops::binary(PORTA_OP_SUB, right, left)), Dtype::Int64);
  TensorPtr last = ops::full_int(dev, Dims{}, bins - 1, Dtype::Int64);
  bin = ops::where(ops::binary(PORTA_OP_GT, bin, last), last, bin);
  // Elements outside [lo, hi] and NaNs are counted in an extra bin that is dropped.
  TensorPtr inside = logical_and(ops::binary(PORTA_OP_GE, x, left), ops::binary(PORTA_OP_LE, x, right));
  bin = ops::where(inside, bin, ops::full_int(dev, Dims{}, bins, Dtype::Int64));
  TensorPtr counts = ops::scatter(ops::full(dev, Dims{bins + 1}, 0.0, a->dtype), 0, bin,
                                  ops::full(dev, Dims{x->shape[0]}, 1.0, a->dtype), PORTA_SCATTER_SUM, "histc");
  return ops::contiguous(ops::slice(counts, 0, 0, bins, 1));
}

}  // namespace porta::composite
