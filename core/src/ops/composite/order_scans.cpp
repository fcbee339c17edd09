// Order statistics that scan: cummax / cummin (the plugin's CUMMAX / CUMMIN
// kernel, optional, or a Hillis-Steele doubling scan of (value, index) pairs:
// log2(n) passes of elementwise ops), mode (runs of
// a stable sort, their lengths from a cummax of run starts) and searchsorted
// / bucketize (PyTorch's binary search, every value at once: log2(M) passes
// of a gather and a compare). Values are differentiable through a gather of
// the input; no plugin kernel of their own.
#include <algorithm>

#include "ops/composite/composite.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/registry.hpp"

namespace porta::composite {
namespace {

// 0, 1, ..., n-1 along dim d of `shape` (int64, contiguous).
TensorPtr positions(DeviceState& dev, const Dims& shape, int32_t d) {
  Dims line = shape;
  for (int32_t i = 0; i < line.n; ++i)
    if (i != d) line[i] = 1;
  TensorPtr p = ops::reshape(ops::arange_int(dev, 0, shape[d], 1, Dtype::Int64), line);
  return ops::contiguous(ops::expand(p, shape));
}

// running_extreme by the device's CUMMAX / CUMMIN kernel: false where it
// has none for v's dtype or declines the call.
bool running_extreme_kernel(const TensorPtr& v, int32_t d, bool is_max, ops::Sorted* out) {
  const porta_op op = is_max ? PORTA_OP_CUMMAX : PORTA_OP_CUMMIN;
  DeviceState& dev = *v->device;
  if (v->numel() == 0 || !has_kernel(dev, op, v->dtype)) return false;
  const ops::Lines lines = ops::lines_around(v->shape, d);
  TensorPtr x = ops::contiguous(v);
  TensorPtr values = empty(dev, v->dtype, v->shape), indices = empty(dev, Dtype::Int64, v->shape);
  const KernelArg in = lines.arg(*x);
  const KernelArg outs[] = {lines.arg(*values), lines.arg(*indices)};
  if (!try_launch(dev, op, v->dtype, &in, 1, outs, 2, nullptr)) return false;
  *out = {values, indices};
  return true;
}

// Inclusive running max (or min) of v along d with where each came from: a
// later element wins ties, and NaN beats every number, a later NaN an
// earlier one (PyTorch's cummax / cummin). Not recorded.
ops::Sorted running_extreme(const TensorPtr& v, int32_t d, bool is_max) {
  if (ops::Sorted k; running_extreme_kernel(v, d, is_max, &k)) return k;
  const int64_t n = v->shape[d];
  TensorPtr vals = ops::contiguous(v), idx = positions(*v->device, v->shape, d);
  for (int64_t s = 1; s < n; s *= 2) {
    TensorPtr a = ops::slice(vals, d, 0, n - s, 1), b = ops::slice(vals, d, s, n, 1);
    TensorPtr later_wins = ops::binary(is_max ? PORTA_OP_GE : PORTA_OP_LE, b, a);
    if (is_floating(v->dtype))
      later_wins = logical_or(ops::binary(PORTA_OP_NE, b, b), logical_and(ops::binary(PORTA_OP_EQ, a, a), later_wins));
    TensorPtr tail_v = ops::where(later_wins, b, a);
    TensorPtr tail_i = ops::where(later_wins, ops::slice(idx, d, s, n, 1), ops::slice(idx, d, 0, n - s, 1));
    // Operands named first: see rearrange.cpp's diag (a throw inside a braced list of temporaries).
    TensorPtr head_v = ops::slice(vals, d, 0, s, 1), head_i = ops::slice(idx, d, 0, s, 1);
    vals = ag::cat({head_v, tail_v}, d);
    idx = ag::cat({head_i, tail_i}, d);
  }
  return {vals, idx};
}

}  // namespace

ops::Sorted cumulative_extreme(const TensorPtr& t, int32_t dim, bool is_max) {
  const char* op = is_max ? "cummax" : "cummin";
  TensorPtr x = t->ndim() == 0 ? ag::reshape(t, Dims{1}) : t;
  const int32_t d = ops::wrap_dim(op, dim, x->ndim());
  ops::Sorted r = running_extreme(x, d, is_max);
  TensorPtr values = values_at(x, d, r.indices, r.values, op);
  if (t->ndim() == 0) return {ag::reshape(values, Dims{}), ops::reshape(r.indices, Dims{})};
  return {values, r.indices};
}

ops::Sorted mode(const TensorPtr& t, int32_t dim, bool keepdim) {
  TensorPtr x = t->ndim() == 0 ? ag::reshape(t, Dims{1}) : t;
  const int32_t d = ops::wrap_dim("mode", dim, x->ndim());
  const int64_t n = x->shape[d];
  if (n == 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "mode(): Expected reduction dim ", d, " to have non-zero size.");
  DeviceState& dev = *t->device;
  Dims reduced = x->shape;
  reduced[d] = 1;
  TensorPtr values, idx;
  if (x->numel() == 0) {
    values = ops::full(dev, reduced, 0.0, x->dtype);
    idx = ops::full_int(dev, reduced, 0, Dtype::Int64);
  } else {
    // Sorted stably, equal values form runs (NaN != NaN: each NaN a run of its own, as PyTorch counts them).
    ops::Sorted s = ops::sort(x, d, false);
    TensorPtr pos = positions(dev, x->shape, d);
    Dims first_shape = x->shape;
    first_shape[d] = 1;
    TensorPtr first = ops::full(dev, first_shape, 1.0, Dtype::Bool);
    TensorPtr differs =
        ops::binary(PORTA_OP_NE, ops::slice(s.values, d, 1, n, 1), ops::slice(s.values, d, 0, n - 1, 1));
    TensorPtr starts = ag::cat({first, differs}, d);  // operands named: see rearrange.cpp's diag
    TensorPtr run_start =
        running_extreme(ops::where(starts, pos, ops::full_int(dev, Dims{}, 0, Dtype::Int64)), d, true).values;
    TensorPtr run_length = ops::binary(PORTA_OP_SUB, pos, run_start);
    // The first position where a run is longest ends the smallest of the most frequent values; the last of
    // its elements in the stable order is its last occurrence, PyTorch's index.
    TensorPtr best = ops::argreduce(PORTA_OP_ARGMAX, run_length, d, true);
    idx = ops::gather(s.indices, d, best, "mode");
    values = values_at(x, d, idx, ops::gather(s.values, d, best, "mode"), "mode");
  }
  if (t->ndim() == 0) return {ag::reshape(values, Dims{}), ops::reshape(idx, Dims{})};
  if (keepdim) return {values, idx};
  return {ag::squeeze(values, d), ops::squeeze(idx, d)};
}

TensorPtr bucketize(const TensorPtr& t, const TensorPtr& boundaries, bool right, bool out_int32) {
  if (boundaries->ndim() != 1)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "bucketize: boundaries tensor must be 1 dimension, but got dim(",
         boundaries->ndim(), ")");
  return searchsorted(boundaries, t, right, out_int32, TensorPtr());
}

TensorPtr searchsorted(const TensorPtr& sorted, const TensorPtr& values, bool right, bool out_int32,
                       const TensorPtr& sorter) {
  const char* op = "searchsorted";
  if (sorter)
    check_same_device(op, {sorted.get(), values.get(), sorter.get()});
  else
    check_same_device(op, {sorted.get(), values.get()});
  if (sorted->ndim() == 0)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "searchsorted(): boundaries tensor should have positive dimension, but got 0 ",
         "dimension");
  const int32_t last = sorted->ndim() - 1;
  bool batch_match = sorted->ndim() == values->ndim();
  for (int32_t i = 0; batch_match && i < last; ++i) batch_match = sorted->shape[i] == values->shape[i];
  if (sorted->ndim() > 1 && !batch_match)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "searchsorted(): boundaries tensor should be 1 dimension or the first N-1 ",
         "dimensions of boundaries tensor and input value tensor must match, but we got boundaries tensor ",
         sorted->shape.str(), " and input value tensor ", values->shape.str());
  if (sorted->dtype == Dtype::Bool || values->dtype == Dtype::Bool)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "searchsorted(): bool tensors are not supported (got ",
         dtype_name(sorted->dtype), " boundaries and ", dtype_name(values->dtype), " values)");
  TensorPtr seq = sorted;
  if (sorter) {
    if (sorter->shape != sorted->shape)
      fail(PORTA_ERROR_SHAPE_MISMATCH, "searchsorted(): boundary and sorter must have the same size, but got ",
           "boundary tensor ", sorted->shape.str(), " and got sorter tensor ", sorter->shape.str());
    if (sorter->dtype != Dtype::Int64)
      fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "searchsorted(): sorter must be a tensor of long dtype but got ",
           dtype_name(sorter->dtype));
    if (sorter->numel() > 0) ops::check_index_range(op, sorter, sorted->shape[last], last);
    seq = ops::gather(sorted, last, sorter, op);
  }
  DeviceState& dev = *sorted->device;
  const int64_t m = seq->shape[last];
  // 1-D boundaries: every value searched in them, as a flat list.
  TensorPtr v = sorted->ndim() == 1 ? ops::reshape(ops::contiguous(values), Dims{values->numel()}) : values;
  TensorPtr lo = ops::full_int(dev, v->shape, 0, Dtype::Int64);
  if (m > 0 && v->numel() > 0) {
    TensorPtr hi = ops::full_int(dev, v->shape, m, Dtype::Int64);
    TensorPtr top = ops::full_int(dev, Dims{}, m - 1, Dtype::Int64);
    // PyTorch's loop: while lo < hi, mid = (lo + hi) / 2 goes right unless seq[mid] >= v (right: > v).
    for (int64_t span = m; span > 0; span >>= 1) {
      TensorPtr active = ops::binary(PORTA_OP_LT, lo, hi);
      TensorPtr mid = ops::binary_scalar(PORTA_OP_FLOOR_DIVIDE, ops::binary(PORTA_OP_ADD, lo, hi), 2.0);
      TensorPtr at = ops::gather(seq, last, ops::binary(PORTA_OP_MINIMUM, mid, top), op);
      TensorPtr go_right = logical_not(ops::binary(right ? PORTA_OP_GT : PORTA_OP_GE, at, v));
      lo = ops::where(logical_and(active, go_right), ops::binary_scalar(PORTA_OP_ADD, mid, 1.0), lo);
      hi = ops::where(logical_and(active, logical_not(go_right)), mid, hi);
    }
  }
  TensorPtr out = sorted->ndim() == 1 ? ops::reshape(lo, values->shape) : lo;
  return out_int32 ? ops::cast(out, Dtype::Int32) : out;
}

}  // namespace porta::composite
