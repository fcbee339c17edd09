// Views: new geometry over the same storage, on the same device.
#include <algorithm>
#include <optional>

#include <porta/porta.h>

#include "ops/ops.hpp"
#include "runtime/error.hpp"

namespace porta::ops {
namespace {

// Resolves one -1 entry and checks the element count is unchanged.
Dims infer_shape(const char* op, Dims shape, const porta_tensor& t) {
  int32_t infer = -1;
  int64_t known = 1;
  for (int32_t i = 0; i < shape.n; ++i) {
    if (shape[i] == -1) {
      if (infer >= 0) fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": only one dimension can be -1 in ", shape.str());
      infer = i;
    } else if (shape[i] < 0) {
      fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": invalid dimension ", shape[i], " in ", shape.str());
    } else if (__builtin_mul_overflow(known, shape[i], &known)) {
      fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": shape ", shape.str(), " has more elements than int64 can count");
    }
  }
  const int64_t numel = t.numel();
  if (infer >= 0) {
    if (known == 0 || numel % known != 0)
      fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": cannot infer -1 in ", shape.str(), " for a tensor of ", numel,
           " elements (shape ", t.shape.str(), ")");
    shape[infer] = numel / known;
  }
  if (checked_numel(shape) != numel)
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": shape ", shape.str(), " has ", checked_numel(shape),
         " elements but the tensor has ", numel, " (shape ", t.shape.str(), ")");
  return shape;
}

// Strides that express `shape` over `t`'s memory without copying, if any
// (the algorithm of ATen's computeStride).
std::optional<Dims> view_strides(const porta_tensor& t, const Dims& shape) {
  if (t.is_contiguous()) return contiguous_strides(shape);
  Dims out;
  out.n = shape.n;
  int32_t view_d = shape.n - 1;
  int64_t chunk_base = t.strides[t.ndim() - 1];
  int64_t tensor_numel = 1, view_numel = 1;
  for (int32_t d = t.ndim() - 1; d >= 0; --d) {
    tensor_numel *= t.shape[d];
    if (d == 0 || (t.shape[d - 1] != 1 && t.strides[d - 1] != tensor_numel * chunk_base)) {
      while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1)) {
        out[view_d] = view_numel * chunk_base;
        view_numel *= shape[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (d > 0) {
        chunk_base = t.strides[d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return out;
}

}  // namespace

// Marked PORTA_ERROR_DETAIL_DIMENSION_OUT_OF_RANGE (porta_last_error_detail), which the Python
// package turns into an IndexError (DimensionError, as PyTorch's "Dimension out of range").
int32_t wrap_dim(const char* op, int32_t dim, int32_t ndim) {
  const int32_t lo = -std::max(ndim, 1), hi = std::max(ndim, 1) - 1;
  if (dim < lo || dim > hi)
    throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                cat(op, ": dimension ", dim, " is out of range for a tensor of ", ndim, " dimension",
                    ndim == 1 ? "" : "s", " (valid: ", lo, " to ", hi, ")"),
                PORTA_ERROR_DETAIL_DIMENSION_OUT_OF_RANGE);
  return dim < 0 ? dim + std::max(ndim, 1) : dim;
}

TensorPtr view(const TensorPtr& t, Dims shape) {
  shape = infer_shape("view", shape, *t);
  auto strides = view_strides(*t, shape);
  if (!strides)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "view: shape ", shape.str(), " is incompatible with the strides ",
         t->strides.str(), " of a tensor of shape ", t->shape.str(), "; use reshape (which copies) or contiguous first");
  return make_view(*t, shape, *strides, t->byte_offset);
}

TensorPtr reshape(const TensorPtr& t, Dims shape) {
  shape = infer_shape("reshape", shape, *t);
  if (auto strides = view_strides(*t, shape)) return make_view(*t, shape, *strides, t->byte_offset);
  TensorPtr c = clone(t);
  return make_view(*c, shape, contiguous_strides(shape), c->byte_offset);
}

TensorPtr slice(const TensorPtr& t, int32_t dim, int64_t start, int64_t stop, int64_t step) {
  if (t->ndim() == 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "slice: cannot slice a 0-d tensor");
  dim = wrap_dim("slice", dim, t->ndim());
  if (step < 1) fail(PORTA_ERROR_INVALID_ARGUMENT, "slice: step must be positive, got ", step);
  const int64_t size = t->shape[dim];
  auto clamp = [size](int64_t i) {
    if (i < 0) i += size;
    return i < 0 ? 0 : (i > size ? size : i);
  };
  start = clamp(start);
  stop = clamp(stop);
  const int64_t len = stop > start ? (stop - start - 1) / step + 1 : 0;  // no overflow for any step
  Dims shape = t->shape, strides = t->strides;
  shape[dim] = len;
  const uint64_t offset = t->byte_offset + start * t->strides[dim] * t->itemsize();  // PyTorch's, even if empty
  // Overflows only when at most one element is taken, whose stride is never used.
  if (__builtin_mul_overflow(strides[dim], step, &strides[dim])) strides[dim] = t->strides[dim];
  return make_view(*t, shape, strides, offset);
}

TensorPtr select(const TensorPtr& t, int32_t dim, int64_t index) {
  if (t->ndim() == 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "select: cannot index a 0-d tensor");
  dim = wrap_dim("select", dim, t->ndim());
  const int64_t size = t->shape[dim];
  if (index < -size || index >= size)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "select: index ", index, " is out of range for dimension ", dim, " of size ", size);
  if (index < 0) index += size;
  Dims shape, strides;
  for (int32_t i = 0; i < t->ndim(); ++i)
    if (i != dim) shape.push_back(t->shape[i]), strides.push_back(t->strides[i]);
  return make_view(*t, shape, strides, t->byte_offset + index * t->strides[dim] * t->itemsize());
}

TensorPtr diagonal(const TensorPtr& t, int64_t offset, int32_t dim1, int32_t dim2) {
  const int32_t d1 = wrap_dim("diagonal", dim1, t->ndim()), d2 = wrap_dim("diagonal", dim2, t->ndim());
  if (d1 == d2)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "diagonal: diagonal dimensions cannot be identical ", dim1, ", ", dim2);
  const int64_t rows = t->shape[d1], cols = t->shape[d2];
  // offset > 0 walks above the main diagonal (along dim2), < 0 below it; no overflow for any offset.
  int64_t len = 0;
  if (offset >= 0 && offset < cols) len = std::min(rows, cols - offset);
  if (offset < 0 && offset > -rows) len = std::min(rows + offset, cols);
  uint64_t byte_offset = t->byte_offset;
  if (len > 0) byte_offset += (offset >= 0 ? offset * t->strides[d2] : -offset * t->strides[d1]) * t->itemsize();
  Dims shape, strides;
  for (int32_t i = 0; i < t->ndim(); ++i)
    if (i != d1 && i != d2) shape.push_back(t->shape[i]), strides.push_back(t->strides[i]);
  shape.push_back(len);
  strides.push_back(t->strides[d1] + t->strides[d2]);
  return make_view(*t, shape, strides, byte_offset);
}

TensorPtr unfold(const TensorPtr& t, int32_t dim, int64_t size, int64_t step) {
  const int32_t d = wrap_dim("unfold", dim, t->ndim());
  const int64_t n = t->ndim() == 0 ? 1 : t->shape[d];  // a 0-d tensor is one element
  if (size < 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "unfold: size is ", size, " but must be >= 0");
  if (size > n)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "unfold: maximum size for tensor at dimension ", d, " is ", n, " but size is ",
         size);
  if (step <= 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "unfold: step is ", step, " but must be > 0");
  Dims shape = t->shape, strides = t->strides;
  const int64_t along = t->ndim() == 0 ? 1 : t->strides[d];
  if (t->ndim() > 0) shape[d] = (n - size) / step + 1, strides[d] = along * step;
  shape.push_back(size);
  strides.push_back(along);
  return make_view(*t, shape, strides, t->byte_offset);
}

TensorPtr transpose(const TensorPtr& t, int32_t dim0, int32_t dim1) {
  dim0 = wrap_dim("transpose", dim0, t->ndim());  // a 0-d tensor takes -1 and 0, as PyTorch
  dim1 = wrap_dim("transpose", dim1, t->ndim());
  if (t->ndim() == 0) return t;
  Dims shape = t->shape, strides = t->strides;
  std::swap(shape[dim0], shape[dim1]);
  std::swap(strides[dim0], strides[dim1]);
  return make_view(*t, shape, strides, t->byte_offset);
}

TensorPtr permute(const TensorPtr& t, const int32_t* dims, int32_t ndim) {
  if (ndim != t->ndim())
    fail(PORTA_ERROR_INVALID_ARGUMENT, "permute: got ", ndim, " dims for a tensor of ", t->ndim(), " dimensions");
  if (ndim > 0) require(dims, "dims");
  Dims shape, strides;
  bool seen[PORTA_MAX_DIMS] = {};
  for (int32_t i = 0; i < ndim; ++i) {
    const int32_t d = wrap_dim("permute", dims[i], ndim);
    if (seen[d]) fail(PORTA_ERROR_INVALID_ARGUMENT, "permute: dimension ", d, " appears twice");
    seen[d] = true;
    shape.push_back(t->shape[d]);
    strides.push_back(t->strides[d]);
  }
  return make_view(*t, shape, strides, t->byte_offset);
}

TensorPtr expand(const TensorPtr& t, const Dims& target) {
  if (target.n < t->ndim())
    fail(PORTA_ERROR_SHAPE_MISMATCH, "expand: target ", target.str(), " has fewer dimensions than the tensor's shape ",
         t->shape.str());
  Dims shape, strides;
  shape.n = strides.n = target.n;
  const int32_t off = target.n - t->ndim();
  for (int32_t i = 0; i < target.n; ++i) {
    const int32_t j = i - off;
    if (j < 0) {
      if (target[i] < 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "expand: -1 is not allowed for a new leading dimension");
      shape[i] = target[i];
      strides[i] = 0;
    } else if (target[i] == -1 || target[i] == t->shape[j]) {
      shape[i] = t->shape[j];
      strides[i] = t->strides[j];
    } else if (t->shape[j] == 1 && target[i] >= 0) {
      shape[i] = target[i];
      strides[i] = 0;
    } else {
      fail(PORTA_ERROR_SHAPE_MISMATCH, "expand: cannot expand shape ", t->shape.str(), " to ", target.str(),
           " (dimension ", i, ": ", t->shape[j], " is not 1)");
    }
  }
  int64_t numel = 1;
  for (int64_t d : shape)
    if (__builtin_mul_overflow(numel, d, &numel))
      fail(PORTA_ERROR_INVALID_ARGUMENT, "expand: target ", target.str(), " has more elements than int64 can count");
  return make_view(*t, shape, strides, t->byte_offset);
}

TensorPtr unsqueeze(const TensorPtr& t, int32_t dim) {
  dim = wrap_dim("unsqueeze", dim, t->ndim() + 1);
  Dims shape, strides;
  for (int32_t i = 0; i <= t->ndim(); ++i) {
    if (i == dim) {
      shape.push_back(1);
      strides.push_back(i < t->ndim() ? t->strides[i] * t->shape[i] : 1);
    }
    if (i < t->ndim()) shape.push_back(t->shape[i]), strides.push_back(t->strides[i]);
  }
  return make_view(*t, shape, strides, t->byte_offset);
}

TensorPtr squeeze(const TensorPtr& t, int32_t dim) {
  dim = wrap_dim("squeeze", dim, t->ndim());
  if (t->ndim() == 0) return t;
  if (t->shape[dim] != 1)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "squeeze: dimension ", dim, " has size ", t->shape[dim], ", not 1");
  Dims shape, strides;
  for (int32_t i = 0; i < t->ndim(); ++i)
    if (i != dim) shape.push_back(t->shape[i]), strides.push_back(t->strides[i]);
  return make_view(*t, shape, strides, t->byte_offset);
}

}  // namespace porta::ops
