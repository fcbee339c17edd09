// Sorting and counting, composed from the SORT kernel and the indexing
// ops: sort / argsort / topk / kthvalue take values through a gather of the
// input when it needs a gradient (so the gradient flows back to where each
// value came from), unique / unique_consecutive mark group starts and
// compact them with a prefix sum, bincount scatter-adds.
#include <algorithm>
#include <cmath>

#include "autograd/node.hpp"
#include "runtime/error.hpp"
#include "ops/composite/composite.hpp"

namespace porta::composite {
namespace {

// t's extent along dim (1 for a 0-d t, as PyTorch treats it).
int64_t extent(const TensorPtr& t, int32_t dim) { return t->ndim() == 0 ? 1 : t->shape[dim]; }

// Groups of equal neighbours in an order of n elements (or rows): `starts`
// (bool [n]) marks where each group begins; `order` says where each came
// from. Gives which group each element is in (as `inverse_shape`), the
// first position of each group and the group sizes; `first_of(first)`
// picks the groups' values.
template <typename FirstOf>
Unique grouped(const TensorPtr& starts, const TensorPtr& order, int64_t n, const Dims& inverse_shape,
               FirstOf&& first_of) {
  DeviceState& dev = *starts->device;
  TensorPtr group = ops::binary(PORTA_OP_SUB, ops::scan(PORTA_OP_CUMSUM, starts, 0, false),
                                ops::full(dev, Dims{}, 1.0, Dtype::Int64));
  TensorPtr inverse = ops::scatter(ops::full(dev, Dims{n}, 0.0, Dtype::Int64), 0, order, group, PORTA_SCATTER_ASSIGN);
  TensorPtr first = flat_nonzero(starts);
  const int64_t u = first->shape[0];
  TensorPtr ends = ops::full_int(dev, Dims{u}, n, Dtype::Int64);
  if (u > 1)
    ends = ops::scatter(ends, 0, ops::arange_int(dev, 0, u - 1, 1, Dtype::Int64), ops::slice(first, 0, 1, u, 1),
                        PORTA_SCATTER_ASSIGN);
  return {first_of(first), ops::reshape(inverse, inverse_shape), ops::binary(PORTA_OP_SUB, ends, first)};
}

// Where each of n neighbours begins a group: j == 0, or `differs[j - 1]` (bool [n - 1]: j differs from j - 1).
TensorPtr group_starts(DeviceState& dev, int64_t n, const TensorPtr& differs) {
  TensorPtr starts = ops::full(dev, Dims{n}, 1.0, Dtype::Bool);
  if (n > 1)
    starts = ops::scatter(starts, 0, ops::arange_int(dev, 1, n, 1, Dtype::Int64), differs, PORTA_SCATTER_ASSIGN);
  return starts;
}

// Groups of equal neighbours in the 1-D `v` (its order is kept); NaN differs from NaN, as in PyTorch.
Unique groups(const TensorPtr& v, const TensorPtr& order, const Dims& shape) {
  DeviceState& dev = *v->device;
  const int64_t n = v->shape[0];
  if (n == 0)
    return {ops::clone(v), ops::reshape(ops::full(dev, Dims{0}, 0.0, Dtype::Int64), shape),
            ops::full(dev, Dims{0}, 0.0, Dtype::Int64)};
  TensorPtr differs =
      n > 1 ? ops::binary(PORTA_OP_NE, ops::slice(v, 0, 1, n, 1), ops::slice(v, 0, 0, n - 1, 1)) : TensorPtr();
  return grouped(group_starts(dev, n, differs), order, n, shape,
                 [&](const TensorPtr& first) { return ops::gather(v, 0, first, "unique"); });
}

// Rows `which` (int64 [u]) of rows [n, k], not recorded (unique's values take no gradient, as PyTorch's).
TensorPtr pick_rows(const TensorPtr& rows, const TensorPtr& which, const char* op) {
  const int64_t u = which->shape[0], k = rows->shape[1];
  TensorPtr index = ops::contiguous(ops::expand(ops::reshape(which, Dims{u, 1}), Dims{u, k}));
  return ops::gather(rows, 0, index, op);
}

// unique / unique_consecutive over the slices of t along dim: rows [n, k] of
// the slices, sorted lexicographically (stable sorts from the last column
// to the first) unless `consecutive`, grouped where a row differs from the
// one before it in any column.
Unique row_groups(const char* op, const TensorPtr& t, int32_t dim, bool consecutive) {
  if (t->ndim() == 0)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": Dimension specified as ", dim, " but tensor has no dimensions");
  const int32_t d = ops::wrap_dim(op, dim, t->ndim());
  DeviceState& dev = *t->device;
  const int64_t n = t->shape[d], k = n == 0 ? 0 : t->numel() / n;
  if (n > 0 && k == 0)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": There are 0 sized dimensions, and they aren't selected, so unique ",
         "cannot be applied");
  if (n == 0)
    return {ops::clone(t), ops::full(dev, Dims{0}, 0.0, Dtype::Int64), ops::full(dev, Dims{0}, 0.0, Dtype::Int64)};
  const int32_t to_front[1] = {d}, front[1] = {0};
  TensorPtr moved = ops::contiguous(movedim(t, to_front, front, 1));
  const Dims moved_shape = moved->shape;
  TensorPtr rows = ops::reshape(moved, Dims{n, k});
  TensorPtr order = ops::arange_int(dev, 0, n, 1, Dtype::Int64);
  if (!consecutive) {
    for (int64_t j = k - 1; j >= 0; --j) {
      TensorPtr keys = ops::gather(ops::reshape(ops::slice(rows, 1, j, j + 1, 1), Dims{n}), 0, order, op);
      order = ops::gather(order, 0, ops::sort(keys, 0, false).indices, op);
    }
    rows = pick_rows(rows, order, op);
  }
  TensorPtr differs;
  if (n > 1) {
    const int32_t columns = 1;
    TensorPtr unequal = ops::binary(PORTA_OP_NE, ops::slice(rows, 0, 1, n, 1), ops::slice(rows, 0, 0, n - 1, 1));
    differs = ops::binary(PORTA_OP_GT, ops::reduce(PORTA_OP_SUM, unequal, &columns, 1, false),
                          ops::full_int(dev, Dims{}, 0, Dtype::Int64));
  }
  return grouped(group_starts(dev, n, differs), order, n, Dims{n}, [&](const TensorPtr& first) {
    Dims shape = moved_shape;
    shape[0] = first->shape[0];
    TensorPtr picked = ops::reshape(pick_rows(rows, first, op), shape);
    return ops::contiguous(movedim(picked, front, to_front, 1));
  });
}

}  // namespace

TensorPtr values_at(const TensorPtr& t, int32_t dim, const TensorPtr& indices, const TensorPtr& kernel_values,
                    const char* op) {
  if (!autograd::needs_grad({&t})) return kernel_values;
  if (t->ndim() == 0)
    return ag::reshape(ag::gather(ag::reshape(t, Dims{1}), 0, ops::reshape(indices, Dims{1}), op), Dims{});
  return ag::gather(t, dim, indices, op);
}

ops::Sorted sort(const TensorPtr& t, int32_t dim, bool descending) {
  const int32_t d = ops::wrap_dim("sort", dim, std::max(t->ndim(), 1));
  ops::Sorted s = ops::sort(t, d, descending);
  return {values_at(t, d, s.indices, s.values, "sort"), s.indices};
}

// PyTorch's selections (topk, kthvalue, median) are not defined for bool; sort is.
static void refuse_bool(const char* op, const porta_tensor& t) {
  if (t.dtype == Dtype::Bool)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op, " does not support bool tensors (as PyTorch); convert first (.int())");
}

ops::Sorted topk(const TensorPtr& t, int64_t k, int32_t dim, bool largest) {
  refuse_bool("topk", *t);
  const int32_t d = ops::wrap_dim("topk", dim, std::max(t->ndim(), 1));
  if (k < 0 || k > extent(t, d))
    fail(PORTA_ERROR_INVALID_ARGUMENT, "topk: selected index k out of range: k = ", k, " for dimension ", d,
         " of size ", extent(t, d));
  ops::Sorted s = ops::sort(t, d, largest, k);
  if (t->ndim() == 0) return {values_at(t, d, s.indices, s.values, "topk"), s.indices};
  TensorPtr idx = ops::contiguous(ops::slice(s.indices, d, 0, k, 1));
  return {values_at(t, d, idx, ops::slice(s.values, d, 0, k, 1), "topk"), idx};
}

ops::Sorted kthvalue(const TensorPtr& t, int64_t k, int32_t dim, bool keepdim) {
  refuse_bool("kthvalue", *t);
  const int32_t d = ops::wrap_dim("kthvalue", dim, std::max(t->ndim(), 1));
  if (k < 1 || k > extent(t, d))
    fail(PORTA_ERROR_INVALID_ARGUMENT, "kthvalue: selected number k = ", k, " out of range for dimension ", d,
         " of size ", extent(t, d), " (k counts from 1)");
  ops::Sorted s = ops::sort(t, d, false, k);
  if (t->ndim() == 0) return {values_at(t, d, s.indices, s.values, "kthvalue"), s.indices};
  TensorPtr idx = ops::contiguous(ops::slice(s.indices, d, k - 1, k, 1));
  TensorPtr values = values_at(t, d, idx, ops::slice(s.values, d, k - 1, k, 1), "kthvalue");
  if (keepdim) return {values, idx};
  return {ag::squeeze(values, d), ops::squeeze(idx, d)};
}

ops::Sorted extreme(const TensorPtr& t, int32_t dim, bool keepdim, bool is_max) {
  const char* op = is_max ? "max" : "min";
  if (dim == PORTA_ALL_DIMS) {  // max(): amax's value, its gradient shared among the equal elements, NaNs too
    if (t->numel() == 0)
      fail(PORTA_ERROR_INVALID_ARGUMENT, op, "(): Expected reduction dim to be specified for input.numel() == 0. "
           "Specify the reduction dim with the 'dim' argument.");
    ops::Sorted flat = extreme(ops::reshape(t, Dims{t->numel()}), 0, false, is_max);
    TensorPtr value = ag::shared_among_equals(t, flat.values);
    if (!keepdim) return {value, flat.indices};
    Dims ones;
    for (int32_t i = 0; i < t->ndim(); ++i) ones.push_back(1);
    return {ag::reshape(value, ones), ops::reshape(flat.indices, ones)};
  }
  TensorPtr x = t->ndim() == 0 ? ag::reshape(t, Dims{1}) : t;
  const int32_t d = ops::wrap_dim(op, dim, x->ndim());
  if (x->shape[d] == 0)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, "(): Expected reduction dim ", d, " to have non-zero size.");
  TensorPtr idx = ops::argreduce(is_max ? PORTA_OP_ARGMAX : PORTA_OP_ARGMIN, x, d, true);
  TensorPtr values = values_at(x, d, idx, ops::gather(x, d, idx, op), op);
  if (t->ndim() == 0) return {ag::reshape(values, Dims{}), ops::reshape(idx, Dims{})};
  if (keepdim) return {values, idx};
  return {ag::squeeze(values, d), ops::squeeze(idx, d)};
}

ops::Sorted median(const TensorPtr& t, int32_t dim, bool keepdim, bool ignore_nan) {
  const char* op = ignore_nan ? "nanmedian" : "median";
  refuse_bool(op, *t);
  TensorPtr x = t->ndim() == 0 ? ag::reshape(t, Dims{1}) : t;
  const int32_t d = ops::wrap_dim(op, dim, x->ndim());
  const int64_t n = x->shape[d];
  if (n == 0) fail(PORTA_ERROR_INVALID_ARGUMENT, op, "(): Expected reduction dim ", d, " to have non-zero size.");
  DeviceState& dev = *t->device;
  ops::Sorted s = ops::sort(x, d, false);  // NaN last
  // Which sorted position each row takes: the lower middle of its numbers, or
  // (median, a row with NaN) its first NaN; nanmedian of an all-NaN row, a NaN.
  TensorPtr n_all = ops::full_int(dev, Dims{}, n, Dtype::Int64);
  TensorPtr nans = is_floating(t->dtype) ? ops::reduce(PORTA_OP_SUM, ops::binary(PORTA_OP_NE, x, x), &d, 1, true)
                                         : ops::full_int(dev, Dims{}, 0, Dtype::Int64);
  TensorPtr numbers = ops::binary(PORTA_OP_SUB, n_all, nans);
  TensorPtr middle = ops::binary_scalar(PORTA_OP_FLOOR_DIVIDE, ops::binary_scalar(PORTA_OP_SUB, numbers, 1.0), 2.0);
  TensorPtr zero = ops::full_int(dev, Dims{}, 0, Dtype::Int64);
  TensorPtr pos = ignore_nan ? ops::where(ops::binary(PORTA_OP_GT, numbers, zero), middle, zero)
                             : ops::where(ops::binary(PORTA_OP_GT, nans, zero), numbers, middle);
  Dims one = x->shape;
  one[d] = 1;
  pos = ops::contiguous(ops::expand(pos, one));
  TensorPtr idx = ops::gather(s.indices, d, pos, op);
  TensorPtr values = values_at(x, d, idx, ops::gather(s.values, d, pos, op), op);
  if (t->ndim() == 0) return {ag::reshape(values, Dims{}), ops::reshape(idx, Dims{})};
  if (keepdim) return {values, idx};
  return {ag::squeeze(values, d), ops::squeeze(idx, d)};
}

Unique unique(const TensorPtr& t) {
  TensorPtr flat = ops::reshape(ops::contiguous(t), Dims{t->numel()});
  ops::Sorted s = ops::sort(flat, 0, false);
  return groups(s.values, s.indices, t->shape);
}

Unique unique_consecutive(const TensorPtr& t) {
  const int64_t n = t->numel();
  TensorPtr flat = ops::reshape(ops::contiguous(t), Dims{n});
  return groups(flat, ops::arange_int(*t->device, 0, n, 1, Dtype::Int64), t->shape);
}

Unique unique_dim(const TensorPtr& t, int32_t dim) { return row_groups("unique", t, dim, false); }

Unique unique_consecutive_dim(const TensorPtr& t, int32_t dim) {
  return row_groups("unique_consecutive", t, dim, true);
}

TensorPtr bincount(const TensorPtr& x, const TensorPtr& weights, int64_t minlength) {
  if (x->ndim() != 1 || is_floating(x->dtype) || x->dtype == Dtype::Bool)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "bincount: only supports 1-d non-negative integral inputs, got a ",
         dtype_name(x->dtype), " tensor of shape ", x->shape.str());
  if (minlength < 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "bincount: minlength should be >= 0, got ", minlength);
  if (weights) {
    check_same_device("bincount", {x.get(), weights.get()});
    if (weights->ndim() != 1 || weights->shape[0] != x->shape[0])
      fail(PORTA_ERROR_SHAPE_MISMATCH, "bincount: weights ", weights->shape.str(), " should have the same length as input ",
           x->shape.str());
  }
  // PyTorch: float32 weights give float32 counts, every other weight dtype float64; no weights, int64 (and
  // an empty input, below).
  const Dtype dt = !weights ? Dtype::Int64 : weights->dtype == Dtype::Float32 ? Dtype::Float32 : Dtype::Float64;
  DeviceState& dev = *x->device;
  const int64_t n = x->shape[0];
  int64_t size = minlength;
  if (n > 0) {
    TensorPtr idx = ops::cast(x, Dtype::Int64);
    int64_t lo = 0, hi = 0;
    ops::index_extremes(idx, &lo, &hi);
    if (lo < 0)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "bincount: only supports 1-d non-negative integral inputs, found ", lo);
    size = std::max(size, hi + 1);
    TensorPtr w = weights ? ops::cast(weights, dt) : ops::full(dev, Dims{n}, 1.0, dt);
    return ops::scatter(ops::full(dev, Dims{size}, 0.0, dt), 0, idx, ops::contiguous(w), PORTA_SCATTER_SUM, "bincount");
  }
  return ops::full(dev, Dims{size}, 0.0, Dtype::Int64);  // PyTorch's: an empty input counts in int64, weights or not
}

}  // namespace porta::composite
