// Ops that move, repeat or window a tensor's elements, with PyTorch's shape
// rules: movedim (a permuted view), diag, meshgrid (expanded views),
// repeat_interleave and unfold (gathers along one dim). Gradients come
// through the parts.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "ops/composite/composite.hpp"
#include "runtime/error.hpp"

namespace porta::composite {
namespace {

std::string dim_list(const int32_t* dims, int32_t n) {
  std::string s = "[";
  for (int32_t i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

// The int64 [n * size] positions of unfold's windows along a dim: row w is w * step + 0 .. size - 1.
TensorPtr window_positions(DeviceState& dev, int64_t windows, int64_t size, int64_t step) {
  TensorPtr starts = ops::reshape(ops::arange_int(dev, 0, windows * step, step, Dtype::Int64), Dims{windows, 1});
  TensorPtr offsets = ops::reshape(ops::arange_int(dev, 0, size, 1, Dtype::Int64), Dims{1, size});
  return ops::reshape(ops::binary(PORTA_OP_ADD, starts, offsets), Dims{windows * size});
}

// repeat_interleave's input and dim: dim PORTA_ALL_DIMS repeats the flattened a, a 0-d a is one element.
std::pair<TensorPtr, int32_t> repeated_dim(const TensorPtr& a, int32_t dim) {
  if (a->ndim() == 0 && dim != PORTA_ALL_DIMS)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "repeat_interleave: a 0-d tensor has no dimension ", dim,
         " (as PyTorch; pass no dim to repeat its one element)");
  TensorPtr x = dim == PORTA_ALL_DIMS ? ag::reshape(a, Dims{a->numel()}) : a->ndim() == 0 ? ag::reshape(a, Dims{1}) : a;
  return {x, ops::wrap_dim("repeat_interleave", dim == PORTA_ALL_DIMS ? 0 : dim, x->ndim())};
}

}  // namespace

TensorPtr movedim(const TensorPtr& a, const int32_t* source, const int32_t* destination, int32_t n) {
  const int32_t ndim = a->ndim();
  if (n < 0 || n > PORTA_MAX_DIMS) fail(PORTA_ERROR_INVALID_ARGUMENT, "movedim: num_dims ", n, " is out of range");
  if (n > 0) require(source, "source"), require(destination, "destination");
  int32_t order[PORTA_MAX_DIMS];
  bool src_used[PORTA_MAX_DIMS] = {}, dst_used[PORTA_MAX_DIMS] = {};
  for (int32_t i = 0; i < n; ++i) {
    const int32_t s = ops::wrap_dim("movedim", source[i], std::max(ndim, 1));
    const int32_t d = ops::wrap_dim("movedim", destination[i], std::max(ndim, 1));
    if (src_used[s])
      fail(PORTA_ERROR_INVALID_ARGUMENT, "movedim: repeated dim in `source` (", dim_list(source, n), ")");
    if (dst_used[d])
      fail(PORTA_ERROR_INVALID_ARGUMENT, "movedim: repeated dim in `destination` (", dim_list(destination, n), ")");
    src_used[s] = dst_used[d] = true;
    order[d] = s;
  }
  // The dims not moved fill the free destinations in their order.
  int32_t next = 0;
  for (int32_t d = 0; d < ndim; ++d) {
    if (dst_used[d]) continue;
    while (src_used[next]) ++next;
    order[d] = next++;
  }
  return ag::permute(a, order, ndim);
}

TensorPtr diag(const TensorPtr& a, int64_t diagonal) {
  if (a->ndim() == 2) return ag::clone(ag::diagonal(a, diagonal, 0, 1));
  if (a->ndim() != 1) fail(PORTA_ERROR_SHAPE_MISMATCH, "diag(): Supports 1D or 2D tensors. Got ", a->ndim(), "D");
  DeviceState& dev = *a->device;
  const int64_t n = a->shape[0];
  if (diagonal < -(INT64_C(1) << 40) || diagonal > (INT64_C(1) << 40))
    fail(PORTA_ERROR_INVALID_ARGUMENT, "diag: diagonal ", diagonal, " is too far from the main one for any matrix");
  const int64_t pad = diagonal < 0 ? -diagonal : diagonal, m = n + pad;
  // Row r holds v[r] at column r + k (k >= 0); column c holds v[c] at row c - k (k < 0).
  TensorPtr v = a;
  if (pad > 0) {
    // Operands named first: with a kernel throwing inside `c ? a : cat({a, full(...)})`, GCC 12's code
    // destroyed a TensorPtr temporary out of its scope (ASan's stack-use-after-scope, on the minimal plugin).
    TensorPtr zeros = ops::full(dev, Dims{pad}, 0.0, a->dtype);
    v = ag::cat({a, zeros}, 0);
  }
  v = ag::reshape(v, diagonal >= 0 ? Dims{m, 1} : Dims{1, m});
  TensorPtr on =
      ops::binary(PORTA_OP_EQ, diagonal_number(dev, m, m), ops::full_int(dev, Dims{}, diagonal, Dtype::Int64));
  return ag::where(on, v, ops::full(dev, Dims{}, 0.0, a->dtype));
}

std::vector<TensorPtr> meshgrid(const std::vector<TensorPtr>& tensors, bool xy) {
  if (tensors.empty()) fail(PORTA_ERROR_INVALID_ARGUMENT, "meshgrid: expects a non-empty TensorList");
  const int32_t n = static_cast<int32_t>(tensors.size());
  if (n > PORTA_MAX_DIMS) fail(PORTA_ERROR_INVALID_ARGUMENT, "meshgrid: at most ", PORTA_MAX_DIMS, " tensors, got ", n);
  Dims shape;
  for (int32_t i = 0; i < n; ++i) {
    const TensorPtr& t = tensors[static_cast<size_t>(i)];
    if (t->ndim() > 1)
      fail(PORTA_ERROR_SHAPE_MISMATCH,
           "meshgrid: Expected 0D or 1D tensor in the tensor list but got: ", t->shape.str(), " (tensor ", i, ")");
    if (t->dtype != tensors[0]->dtype)
      fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "meshgrid: expects all tensors to have the same dtype (tensor 0 is ",
           dtype_name(tensors[0]->dtype), ", tensor ", i, " is ", dtype_name(t->dtype), ")");
    if (t->device != tensors[0]->device)
      fail(PORTA_ERROR_DEVICE_MISMATCH, "meshgrid: expects all tensors to be on the same device (tensor ", i,
           " is not on tensor 0's)");
    shape.push_back(t->numel());
  }
  // indexing="xy": the first two inputs trade places in the grid (x along columns).
  auto axis = [&](int32_t i) { return xy && n >= 2 && i < 2 ? 1 - i : i; };
  Dims grid;
  for (int32_t d = 0; d < n; ++d) grid.push_back(shape[axis(d)]);
  std::vector<TensorPtr> out;
  for (int32_t i = 0; i < n; ++i) {
    Dims along;
    for (int32_t d = 0; d < n; ++d) along.push_back(d == axis(i) ? shape[i] : 1);
    out.push_back(ag::expand(ag::reshape(tensors[static_cast<size_t>(i)], along), grid));
  }
  return out;
}

TensorPtr repeat_interleave(const TensorPtr& a, int64_t repeats, int32_t dim) {
  if (repeats < 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "repeat_interleave: repeats can not be negative, got ", repeats);
  const auto [x, d] = repeated_dim(a, dim);
  Dims split = ops::unsqueeze(x, d + 1)->shape, out = x->shape;
  split[d + 1] = repeats;
  if (__builtin_mul_overflow(out[d], repeats, &out[d]))
    fail(PORTA_ERROR_INVALID_ARGUMENT, "repeat_interleave: ", x->shape[d], " x ", repeats, " elements overflow int64");
  return ag::reshape(ag::clone(ag::expand(ag::unsqueeze(x, d + 1), split)), out);  // a copy even for 1 repeat
}

TensorPtr repeat_interleave(const TensorPtr& a, const TensorPtr& repeats, int32_t dim, int64_t output_size) {
  check_same_device("repeat_interleave", {a.get(), repeats.get()});
  if (repeats->ndim() > 1 || is_floating(repeats->dtype) || repeats->dtype == Dtype::Bool)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "repeat_interleave: repeats must be a 0-dim or 1-dim integer tensor, got a ",
         dtype_name(repeats->dtype), " tensor of shape ", repeats->shape.str());
  const auto [x, d] = repeated_dim(a, dim);
  const int64_t n = x->shape[d];
  if (repeats->numel() == 1)  // one count for every element, as PyTorch
    return repeat_interleave(a, static_cast<int64_t>(ops::reduce_to_host(PORTA_OP_SUM, repeats)), dim);
  if (repeats->shape[0] != n)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "repeat_interleave: repeats must have the same size as input along dim, but got ",
         "repeats.size(0) = ", repeats->shape[0], " and input.size(", d, ") = ", n);
  DeviceState& dev = *a->device;
  TensorPtr r = ops::cast(repeats, Dtype::Int64);
  int64_t lo = 0, total = 0;
  if (n > 0) {
    int64_t hi = 0;
    ops::index_extremes(r, &lo, &hi);
    if (lo < 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "repeat_interleave: repeats can not be negative, found ", lo);
    total = static_cast<int64_t>(ops::reduce_to_host(PORTA_OP_SUM, r));
  }
  if (output_size >= 0 && output_size != total)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "repeat_interleave: output_size ", output_size,
         " does not match the sum of repeats (", total, ")");
  // Element i starts at cumsum(r)[i - 1]: a 1 there, then a prefix sum, numbers each output position.
  TensorPtr index = ops::full_int(dev, Dims{total}, 0, Dtype::Int64);
  if (n > 1 && total > 0) {
    TensorPtr starts = ops::slice(ops::scan(PORTA_OP_CUMSUM, r, 0, false), 0, 0, n - 1, 1);
    TensorPtr marks =
        ops::scatter(ops::full_int(dev, Dims{total + 1}, 0, Dtype::Int64), 0, starts,
                     ops::full_int(dev, Dims{n - 1}, 1, Dtype::Int64), PORTA_SCATTER_SUM, "repeat_interleave");
    index = ops::slice(ops::scan(PORTA_OP_CUMSUM, marks, 0, false), 0, 0, total, 1);
  }
  return index_select(x, d, ops::contiguous(index));
}

TensorPtr unfold(const TensorPtr& a, int32_t dim, int64_t size, int64_t step) { return ag::unfold(a, dim, size, step); }

TensorPtr unfold_backward(const TensorPtr& g, const Dims& in_shape, int32_t dim, int64_t size, int64_t step) {
  const bool scalar = in_shape.n == 0;
  const Dims x_shape = scalar ? Dims{1} : in_shape;
  const int32_t d = ops::wrap_dim("unfold", dim, x_shape.n);
  const int64_t windows = (x_shape[d] - size) / step + 1;
  const int32_t from = -1, to = d + 1;
  Dims split = x_shape;  // [..., windows * size, ...]
  split[d] = windows * size;
  TensorPtr rows = ag::reshape(ag::contiguous(movedim(scalar ? ag::unsqueeze(g, 0) : g, &from, &to, 1)), split);
  TensorPtr zeros = ops::full(*g->device, x_shape, 0.0, g->dtype);
  TensorPtr dx = index_add(zeros, d, window_positions(*g->device, windows, size, step), rows, 1.0);
  return scalar ? ag::reshape(dx, in_shape) : dx;
}

}  // namespace porta::composite
