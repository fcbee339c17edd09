// Statistics over dims, composed from the kernel reductions and scans:
// var / std with Bessel's correction, prod (the last prefix of cumprod),
// any / all / count_nonzero, and vector norms whose gradient at a zero norm
// is 0, as PyTorch's. num_dims 0 reduces over every dim, as porta_sum.
#include <algorithm>
#include <cmath>
#include <utility>

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

// sqrt(s) with no gradient where s is 0 (instead of 0 * inf = NaN).
TensorPtr safe_root(const TensorPtr& s, double p) {
  TensorPtr zero = ops::binary(PORTA_OP_EQ, s, zero_like(s));
  TensorPtr safe = ag::where(zero, ops::full(*s->device, Dims{}, 1.0, s->dtype), s);
  TensorPtr root = p == 2.0 ? ag::unary(PORTA_OP_SQRT, safe) : ag::binary_scalar(PORTA_OP_POW, safe, 1.0 / p);
  return ag::where(zero, zero_like(s), root);
}

}  // namespace

TensorPtr var(const TensorPtr& a, const int32_t* dims, int32_t num_dims, double correction, bool keepdim) {
  require_floating("var", a);
  const int64_t n = reduced_count(*a, dims, num_dims, "var");
  TensorPtr d = ag::binary(PORTA_OP_SUB, a, ag::reduce(PORTA_OP_MEAN, a, dims, num_dims, true));
  TensorPtr s = ag::reduce(PORTA_OP_SUM, ag::binary(PORTA_OP_MUL, d, d), dims, num_dims, keepdim);
  // n - correction <= 0 divides by 0 (inf or NaN), as PyTorch does.
  return ag::binary_scalar(PORTA_OP_DIV, s, std::max(0.0, static_cast<double>(n) - correction));
}

TensorPtr std_dev(const TensorPtr& a, const int32_t* dims, int32_t num_dims, double correction, bool keepdim) {
  require_floating("std", a);
  reduced_count(*a, dims, num_dims, "std");  // its errors name std, not var
  return ag::unary(PORTA_OP_SQRT, var(a, dims, num_dims, correction, keepdim));
}

std::pair<TensorPtr, TensorPtr> var_mean(const TensorPtr& a, const int32_t* dims, int32_t num_dims, double correction,
                                         bool keepdim, bool root) {
  TensorPtr spread =
      root ? std_dev(a, dims, num_dims, correction, keepdim) : var(a, dims, num_dims, correction, keepdim);
  return {spread, ag::reduce(PORTA_OP_MEAN, a, dims, num_dims, keepdim)};
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
  if (n == 0) {
    Dims shape = x->shape;
    shape[d] = 1;
    out = ops::full(*a->device, shape, 1.0, is_floating(a->dtype) ? a->dtype : Dtype::Int64);
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

TensorPtr vector_norm(const TensorPtr& a, double ord, const int32_t* dims, int32_t num_dims, bool keepdim) {
  require_floating("vector_norm", a);
  reduced_count(*a, dims, num_dims, "vector_norm");
  if (std::isnan(ord)) fail(PORTA_ERROR_INVALID_ARGUMENT, "vector_norm: ord must not be NaN");
  TensorPtr magnitude = ag::unary(PORTA_OP_ABS, a);
  if (std::isinf(ord)) {
    if (a->numel() == 0)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "vector_norm: an infinite ord needs a non-empty tensor (it has no identity)");
    return ag::reduce(ord > 0 ? PORTA_OP_MAX : PORTA_OP_MIN, magnitude, dims, num_dims, keepdim);
  }
  if (ord == 0) return ops::cast(count(a, dims, num_dims, keepdim), a->dtype);  // no gradient, as in PyTorch
  if (ord == 1) return ag::reduce(PORTA_OP_SUM, magnitude, dims, num_dims, keepdim);
  TensorPtr powered = ord == 2 ? ag::binary(PORTA_OP_MUL, a, a) : ag::binary_scalar(PORTA_OP_POW, magnitude, ord);
  return safe_root(ag::reduce(PORTA_OP_SUM, powered, dims, num_dims, keepdim), ord);
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
