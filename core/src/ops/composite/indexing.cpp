// The indexing ops PyTorch users reach for, composed from GATHER, SCATTER,
// CUMSUM and WHERE: index_select / index_add / index_copy / index_fill
// expand a 1-D index along the other dims (stride 0, nothing copied), so a
// whole slice moves per index; nonzero compacts with a prefix sum and a
// scatter, reading only the count back to the host (as PyTorch does).
#include <cmath>
#include <cstdint>

#include "runtime/error.hpp"
#include "ops/composite/composite.hpp"

namespace porta::composite {
namespace {

// A 1-D (or 0-D) index of an integer dtype as int64 [L].
TensorPtr vector_index(const char* op, const TensorPtr& index) {
  if (index->ndim() > 1)
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": index is supposed to be a vector (0-D or 1-D), got shape ",
         index->shape.str());
  if (index->dtype != Dtype::Int64 && index->dtype != Dtype::Int32)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op, ": expected an int32 or int64 index, got ", dtype_name(index->dtype));
  return ops::reshape(ops::cast(index, Dtype::Int64), Dims{index->numel()});
}

// `index` [L] viewed with `shape` (shape[dim] == L): stride 0 in every other dim.
TensorPtr along(const TensorPtr& index, const Dims& shape, int32_t dim) {
  Dims strides = shape;
  for (int32_t i = 0; i < strides.n; ++i) strides[i] = i == dim ? index->strides[0] : 0;
  return make_view(*index, shape, strides, index->byte_offset);
}

TensorPtr at_least_1d(const TensorPtr& t) { return t->ndim() == 0 ? ag::reshape(t, Dims{1}) : t; }

// self's shape with `dim` resized to n.
Dims resized(const porta_tensor& self, int32_t dim, int64_t n) {
  Dims s = self.shape;
  s[dim] = n;
  return s;
}

// SOURCE must be self's shape with index's length along dim.
void check_source(const char* op, const porta_tensor& self, int32_t dim, int64_t n, const porta_tensor& source) {
  if (source.shape != resized(self, dim, n))
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": source ", source.shape.str(), " must have self's shape ", self.shape.str(),
         " except ", n, " (the index's length) in dimension ", dim);
}

// A 0-d self takes a 0-d source only (PyTorch: the shapes must match but for dim, and a 0-d tensor has none).
void check_scalar_source(const char* op, const porta_tensor& self, const porta_tensor& source) {
  if (self.ndim() == 0 && source.ndim() != 0)
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": source tensor shape must match self tensor shape, excluding the ",
         "specified dimension. Got self.shape = [] source.shape = ", source.shape.str());
}

// The value combining with nothing changes: SUM 0, PROD 1, AMAX the dtype's lowest, AMIN its largest.
TensorPtr identity(porta_scatter_reduce reduce, const porta_tensor& like, const Dims& shape) {
  DeviceState& dev = *like.device;
  if (reduce == PORTA_SCATTER_SUM) return ops::full(dev, shape, 0.0, like.dtype);
  if (reduce == PORTA_SCATTER_PROD) return ops::full(dev, shape, 1.0, like.dtype);
  const bool lowest = reduce == PORTA_SCATTER_AMAX;
  switch (like.dtype) {
    case Dtype::Float32:
    case Dtype::Float64:
    case Dtype::Float16:
    case Dtype::BFloat16:
      return ops::full(dev, shape, lowest ? -INFINITY : INFINITY, like.dtype);
    case Dtype::Int8:
      return ops::full_int(dev, shape, lowest ? INT8_MIN : INT8_MAX, like.dtype);
    case Dtype::Int16:
      return ops::full_int(dev, shape, lowest ? INT16_MIN : INT16_MAX, like.dtype);
    case Dtype::Bool:
      return ops::full(dev, shape, lowest ? 0.0 : 1.0, like.dtype);
    case Dtype::UInt8:
      return ops::full(dev, shape, lowest ? 0.0 : 255.0, like.dtype);
    case Dtype::Int32:
      return ops::full_int(dev, shape, lowest ? INT32_MIN : INT32_MAX, like.dtype);
    case Dtype::Int64:
      return ops::full_int(dev, shape, lowest ? INT64_MIN : INT64_MAX, like.dtype);
  }
  fail(PORTA_ERROR_INTERNAL, "scatter_reduce: no identity for ", dtype_name(like.dtype));
}

}  // namespace

TensorPtr flat_nonzero(const TensorPtr& t) {
  const int64_t n = t->numel();
  DeviceState& dev = *t->device;
  TensorPtr flat = ops::reshape(t, Dims{n});
  TensorPtr hit = ops::binary(PORTA_OP_NE, flat, ops::full(dev, Dims{}, 0.0, t->dtype));
  TensorPtr hits = ops::cast(hit, Dtype::Int64);
  int64_t count = 0;
  if (n > 0) ops::to_host(*ops::reduce(PORTA_OP_SUM, hits, nullptr, 0, false), &count, sizeof count);
  if (count == 0) return ops::full(dev, Dims{0}, 0.0, Dtype::Int64);
  // Hit k goes to slot k (its prefix count minus one); misses to the spare slot `count`.
  TensorPtr slot = ops::binary(PORTA_OP_SUB, ops::scan(PORTA_OP_CUMSUM, hits, 0, false), ops::full(dev, Dims{}, 1.0, Dtype::Int64));
  slot = ops::where(hit, slot, ops::full_int(dev, Dims{}, count, Dtype::Int64));
  TensorPtr positions = ops::scatter(ops::full(dev, Dims{count + 1}, 0.0, Dtype::Int64), 0, slot,
                                     ops::arange_int(dev, 0, n, 1, Dtype::Int64), PORTA_SCATTER_ASSIGN);
  return ops::slice(positions, 0, 0, count, 1);
}

TensorPtr index_select(const TensorPtr& src, int32_t dim, const TensorPtr& index_in) {
  TensorPtr index = vector_index("index_select", index_in);
  if (src->ndim() == 0 && index->shape[0] != 1)  // PyTorch: a 0-d src gives a 0-d result
    fail(PORTA_ERROR_INVALID_ARGUMENT,
         "index_select: the index into a zero-dimensional tensor can have only 1 value, got ", index->shape[0]);
  TensorPtr s = at_least_1d(src);
  const int32_t d = ops::wrap_dim("index_select", dim, s->ndim());
  TensorPtr out = ag::gather(s, d, along(index, resized(*s, d, index->shape[0]), d), "index_select");
  return src->ndim() == 0 ? ag::reshape(out, Dims{}) : out;
}

TensorPtr index_add(const TensorPtr& self, int32_t dim, const TensorPtr& index_in, const TensorPtr& source,
                    double alpha) {
  TensorPtr index = vector_index("index_add", index_in);
  const int32_t d = ops::wrap_dim("index_add", dim, self->ndim());
  check_scalar_source("index_add", *self, *source);
  TensorPtr s = at_least_1d(self), src = at_least_1d(source);
  check_source("index_add", *s, d, index->shape[0], *src);
  if (alpha != 1.0) src = ag::binary_scalar(PORTA_OP_MUL, src, alpha);
  TensorPtr out = ag::scatter(s, d, along(index, src->shape, d), src, PORTA_SCATTER_SUM, "index_add");
  return self->ndim() == 0 ? ag::reshape(out, Dims{}) : out;
}

TensorPtr index_copy(const TensorPtr& self, int32_t dim, const TensorPtr& index_in, const TensorPtr& source) {
  if (index_in->dtype != Dtype::Int64)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "index_copy: expected a long (int64) tensor for index, but got ",
         dtype_name(index_in->dtype), " (as PyTorch); convert it with .long()");
  TensorPtr index = vector_index("index_copy", index_in);
  const int32_t d = ops::wrap_dim("index_copy", dim, self->ndim());
  check_scalar_source("index_copy", *self, *source);
  TensorPtr s = at_least_1d(self), src = at_least_1d(source);
  check_source("index_copy", *s, d, index->shape[0], *src);
  TensorPtr out = ag::scatter(s, d, along(index, src->shape, d), src, PORTA_SCATTER_ASSIGN, "index_copy");
  return self->ndim() == 0 ? ag::reshape(out, Dims{}) : out;
}

// A fill value: a 0-d tensor (a wrapped number, or one that may require grad), checked as PyTorch converts a
// number into self's dtype, as self's dtype.
TensorPtr fill_value(const char* op, const TensorPtr& value, const porta_tensor& self) {
  check_same_device(op, {&self, value.get()});
  if (value->ndim() != 0)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, " only supports a 0-dimensional value tensor, but got tensor with ",
         value->ndim(), " dimension(s)");
  ops::check_fill_value(op, ops::value_of(value), self.dtype);  // a tensor's value too, as PyTorch's item()
  return ag::cast(value, self.dtype);
}

TensorPtr index_fill(const TensorPtr& self, int32_t dim, const TensorPtr& index_in, const TensorPtr& value) {
  if (index_in->dtype != Dtype::Int64)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "index_fill: expected an int64 index (as PyTorch), got ",
         dtype_name(index_in->dtype), "; convert it (.long())");
  TensorPtr s = at_least_1d(self);
  const int32_t d = ops::wrap_dim("index_fill", dim, s->ndim());
  TensorPtr index = vector_index("index_fill", index_in);
  // negative indices count from the end, as PyTorch's
  const TensorPtr size = ops::full_int(*s->device, Dims{}, s->shape[d], Dtype::Int64);
  index = ops::where(ops::binary_scalar(PORTA_OP_LT, index, 0.0), ops::binary(PORTA_OP_ADD, index, size), index);
  const Dims shape = resized(*s, d, index->shape[0]);
  TensorPtr src = ag::expand(fill_value("index_fill", value, *s), shape);
  TensorPtr out = ag::scatter(s, d, along(index, shape, d), src, PORTA_SCATTER_ASSIGN, "index_fill");
  return self->ndim() == 0 ? ag::reshape(out, Dims{}) : out;
}

TensorPtr scatter_reduce(const TensorPtr& self, int32_t dim, const TensorPtr& index, const TensorPtr& src,
                         int32_t reduce, bool include_self) {
  if (reduce < PORTA_SCATTER_ASSIGN || reduce > PORTA_SCATTER_MEAN)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "scatter: reduce ", reduce,
         " is not a porta_scatter_reduce value (0-4) or PORTA_SCATTER_MEAN (5)");
  if (reduce == PORTA_SCATTER_ASSIGN) return ag::scatter(self, dim, index, src, PORTA_SCATTER_ASSIGN);
  if (self->dtype == Dtype::Bool && reduce != PORTA_SCATTER_AMAX && reduce != PORTA_SCATTER_AMIN)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "scatter_reduce: sum, prod and mean are not defined for bool tensors; cast "
                                        "to an integer dtype first");
  const auto kernel_reduce =
      static_cast<porta_scatter_reduce>(reduce == PORTA_SCATTER_MEAN ? PORTA_SCATTER_SUM : reduce);
  TensorPtr base = self;
  // Positions that receive values start from the identity instead of self's value.
  if (!include_self) base = ag::scatter(self, dim, index, identity(kernel_reduce, *self, index->shape), PORTA_SCATTER_ASSIGN);
  TensorPtr out = ag::scatter(base, dim, index, src, kernel_reduce, reduce == PORTA_SCATTER_ASSIGN ? "scatter" : "scatter_reduce");
  if (reduce != PORTA_SCATTER_MEAN) return out;
  DeviceState& dev = *self->device;
  TensorPtr counts = ops::scatter(ops::full(dev, self->shape, include_self ? 1.0 : 0.0, self->dtype), dim, index,
                                  ops::full(dev, index->shape, 1.0, self->dtype), PORTA_SCATTER_SUM);
  TensorPtr one = ops::full(dev, Dims{}, 1.0, self->dtype);
  counts = ops::where(ops::binary(PORTA_OP_EQ, counts, ops::full(dev, Dims{}, 0.0, self->dtype)), one, counts);
  return is_floating(self->dtype) ? ag::binary(PORTA_OP_DIV, out, counts)
                                  : ops::binary(PORTA_OP_FLOOR_DIVIDE, out, counts);
}

TensorPtr masked_fill(const TensorPtr& self, const TensorPtr& mask, const TensorPtr& value) {
  if (mask->dtype != Dtype::Bool)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "masked_fill: expected a bool mask, got ", dtype_name(mask->dtype),
         "; compare first (mask = t > 0) or convert (.bool())");
  TensorPtr v = fill_value("masked_fill", value, *self);
  if (ops::broadcast_shapes("masked_fill", self->shape, mask->shape) != self->shape)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "masked_fill: the mask ", mask->shape.str(),
         " must broadcast to self's shape ", self->shape.str());
  return ag::where(mask, v, self);
}

TensorPtr nonzero(const TensorPtr& t) {
  TensorPtr positions = flat_nonzero(t);
  const int64_t count = positions->shape[0];
  if (t->ndim() == 0) return ops::full(*t->device, Dims{count, 0}, 0.0, Dtype::Int64);
  std::vector<TensorPtr> coords;
  int64_t stride = 1;
  for (int32_t d = t->ndim() - 1; d >= 0; --d) {
    TensorPtr c = ops::binary_scalar(PORTA_OP_FLOOR_DIVIDE, positions, static_cast<double>(stride));
    coords.insert(coords.begin(), ops::binary_scalar(PORTA_OP_REMAINDER, c, static_cast<double>(t->shape[d])));
    stride *= t->shape[d];
  }
  return ag::stack(coords, 1);
}

TensorPtr masked_select(const TensorPtr& self, const TensorPtr& mask) {
  if (mask->dtype != Dtype::Bool)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "masked_select: expected a bool mask, got ", dtype_name(mask->dtype));
  check_same_device("masked_select", {self.get(), mask.get()});
  const Dims shape = ops::broadcast_shapes("masked_select", self->shape, mask->shape);
  TensorPtr flat = ag::reshape(ag::expand(self, shape), Dims{checked_numel(shape)});
  return ag::gather(flat, 0, flat_nonzero(ops::expand(mask, shape)), "masked_select");
}

TensorPtr take(const TensorPtr& t, const TensorPtr& index) {
  if (index->dtype != Dtype::Int64)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "take: expected an int64 index, got ", dtype_name(index->dtype));
  check_same_device("take", {t.get(), index.get()});
  const int64_t n = t->numel();
  TensorPtr idx = ops::reshape(index, Dims{index->numel()});
  if (idx->numel() > 0) {
    int64_t lo = 0, hi = 0;
    ops::index_extremes(idx, &lo, &hi);
    if (lo < -n || hi >= n)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "take: out of range: tried to access index ", lo < -n ? lo : hi,
           " on a tensor of ", n, " elements");
  }
  TensorPtr zero = ops::full(*t->device, Dims{}, 0.0, Dtype::Int64);
  idx = ops::where(ops::binary(PORTA_OP_LT, idx, zero), ops::binary_scalar(PORTA_OP_ADD, idx, static_cast<double>(n)), idx);
  return ag::reshape(ag::gather(ag::reshape(t, Dims{n}), 0, idx, "take"), index->shape);
}

TensorPtr embedding(const TensorPtr& weight, const TensorPtr& indices, int64_t padding_idx) {
  if (weight->ndim() != 2)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "embedding: weight must be 2-D [num_embeddings, embedding_dim], got ",
         weight->shape.str());
  if (indices->dtype != Dtype::Int64 && indices->dtype != Dtype::Int32)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "embedding: expected int32 or int64 indices, got ", dtype_name(indices->dtype),
         "; convert them first (.long())");
  const int64_t rows = weight->shape[0];
  if (padding_idx != INT64_MIN && (padding_idx < -rows || padding_idx >= rows))
    fail(PORTA_ERROR_INVALID_ARGUMENT, "embedding: padding_idx ", padding_idx, " must be within num_embeddings (",
         rows, ")");
  TensorPtr flat = ops::reshape(ops::cast(indices, Dtype::Int64), Dims{indices->numel()});
  TensorPtr rows_out = ag::gather(weight, 0, along(flat, resized(*weight, 0, flat->shape[0]), 0), "embedding");
  if (padding_idx != INT64_MIN && rows_out->requires_grad) {
    const int64_t pad = padding_idx < 0 ? padding_idx + rows : padding_idx;
    TensorPtr is_pad = ops::unsqueeze(ops::binary_scalar(PORTA_OP_EQ, flat, static_cast<double>(pad)), 1);
    rows_out = ag::where(is_pad, ag::detach(rows_out), rows_out);  // same values; no gradient into row `pad`
  }
  Dims shape = indices->shape;
  shape.push_back(weight->shape[1]);
  return ag::reshape(rows_out, shape);
}

}  // namespace porta::composite
