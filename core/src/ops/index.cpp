// Indexing along one dim (GATHER, SCATTER) and scans (CUMSUM, CUMPROD): the
// core checks shapes, dtypes and index ranges, so kernels only move values;
// on a plugin whose kernels check ranges themselves
// (PORTA_PLUGIN_CAP_CHECKS_INDEX_RANGE) the core's range check runs only to
// word the error of a kernel that found one out of range.
#include <limits>

#include "runtime/error.hpp"
#include "runtime/registry.hpp"
#include "ops/ops.hpp"

namespace porta::ops {
namespace {

// Reads a 0-d tensor's single int64 value back to the host.
int64_t read_int64(const TensorPtr& t) {
  int64_t v = 0;
  to_host(*cast(t, Dtype::Int64), &v, sizeof v);
  return v;
}

// The index as the kernels take it: int64, or int32 converted (PyTorch takes both).
TensorPtr checked_index(const char* op, const porta_tensor& src, const TensorPtr& index) {
  if (index->dtype != Dtype::Int64 && index->dtype != Dtype::Int32)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op, ": expected an int64 or int32 index, got ", dtype_name(index->dtype),
         "; convert it first (.long())");
  check_same_device(op, {&src, index.get()});
  return index->dtype == Dtype::Int64 ? index : cast(index, Dtype::Int64);
}

// Launches a GATHER or SCATTER whose `index` indexes a dimension `dim` of
// `size`, into an output of its own: checked first by the core, or, where the
// device's kernels check, by the kernel, the core's check then naming the
// value when the kernel refuses one (any other failure passes through).
template <class Launch>
void launch_in_range(const char* op, const TensorPtr& index, int64_t size, int32_t dim, Launch&& run) {
  // size 0: no kernel runs (the output is empty), and every index is out of range
  if (!(index->device->backend->api.capabilities & PORTA_PLUGIN_CAP_CHECKS_INDEX_RANGE) ||
      (size == 0 && index->numel() > 0)) {
    check_index_range(op, index, size, dim);
    run();
    return;
  }
  try {
    run();
  } catch (const Error& e) {
    if (e.status() == PORTA_ERROR_INVALID_ARGUMENT) check_index_range(op, index, size, dim);
    throw;
  }
}

// 0-d tensors take part as 1-element 1-D ones (PyTorch's rule for gather and scatter).
TensorPtr at_least_1d(const TensorPtr& t) { return t->ndim() == 0 ? reshape(t, Dims{1}) : t; }

}  // namespace

void index_extremes(const TensorPtr& index, int64_t* lo, int64_t* hi) {
  *lo = read_int64(reduce(PORTA_OP_MIN, index, nullptr, 0, false));
  *hi = read_int64(reduce(PORTA_OP_MAX, index, nullptr, 0, false));
}

void check_index_range(const char* op, const TensorPtr& index, int64_t size, int32_t dim) {
  if (index->numel() == 0) return;
  // A broadcast index (stride 0: index_select's 1-D index viewed along the
  // other dims) holds only its distinct values once: reduce over those.
  Dims distinct = index->shape;
  for (int32_t i = 0; i < distinct.n; ++i)
    if (index->strides[i] == 0) distinct[i] = 1;
  const TensorPtr values = distinct == index->shape ? index : make_view(*index, distinct, index->strides, index->byte_offset);
  int64_t lo = 0, hi = 0;
  index_extremes(values, &lo, &hi);
  if (lo < 0 || hi >= size)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": index ", lo < 0 ? lo : hi, " is out of bounds for dimension ", dim,
         " with size ", size);
}

TensorPtr gather(const TensorPtr& src_in, int32_t dim, const TensorPtr& index_arg, const char* op) {
  const TensorPtr index_in = checked_index(op, *src_in, index_arg);
  if (src_in->ndim() != index_in->ndim() && !(src_in->ndim() <= 1 && index_in->ndim() <= 1))
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": index ", index_in->shape.str(), " must have as many dimensions as src ",
         src_in->shape.str());
  const TensorPtr src = at_least_1d(src_in), index = at_least_1d(index_in);
  const int32_t d = wrap_dim(op, dim, src->ndim());
  for (int32_t i = 0; i < src->ndim(); ++i)
    if (i != d && index->shape[i] > src->shape[i])
      fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": index ", index_in->shape.str(), " must be no larger than src ",
           src_in->shape.str(), " apart from dimension ", d);
  TensorPtr out = empty(*src->device, src->dtype, index->shape);
  if (out->numel() > 0) {
    const KernelArg in[] = {KernelArg(*src), KernelArg(*index)};
    const porta_index_params p{sizeof(porta_index_params), d, 0};
    launch_in_range(op, index, src->shape[d], d,
                    [&] { launch(*out->device, PORTA_OP_GATHER, src->dtype, in, 2, KernelArg(*out), &p); });
  }
  return index_in->ndim() == 0 ? reshape(out, Dims{}) : out;
}

TensorPtr scatter(const TensorPtr& self_in, int32_t dim, const TensorPtr& index_arg, const TensorPtr& src_in,
                  porta_scatter_reduce reduce, const char* op) {
  const TensorPtr index_in = checked_index(op, *self_in, index_arg);
  check_same_device(op, {self_in.get(), src_in.get()});
  if (reduce < PORTA_SCATTER_ASSIGN || reduce > PORTA_SCATTER_AMIN)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": reduce ", static_cast<int>(reduce),
         " is not a porta_scatter_reduce value (0-4) or PORTA_SCATTER_MEAN (5)");
  if (src_in->dtype != self_in->dtype)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op, ": expected a source of self's dtype ", dtype_name(self_in->dtype), ", got ",
         dtype_name(src_in->dtype), "; convert it first");
  if (self_in->dtype == Dtype::Bool && (reduce == PORTA_SCATTER_SUM || reduce == PORTA_SCATTER_PROD))
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op, ": reducing bool tensors by sum or product is not supported; cast to "
                                        "an integer dtype first");
  const int32_t nd = std::max(self_in->ndim(), 1);
  if (std::max(index_in->ndim(), 1) != nd || std::max(src_in->ndim(), 1) != nd)
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": self ", self_in->shape.str(), ", index ", index_in->shape.str(),
         " and src ", src_in->shape.str(), " must have the same number of dimensions");
  const TensorPtr self = at_least_1d(self_in), index = at_least_1d(index_in), src = at_least_1d(src_in);
  const int32_t d = wrap_dim(op, dim, nd);
  for (int32_t i = 0; i < nd; ++i) {
    if (index->shape[i] > src->shape[i] || (i != d && index->shape[i] > self->shape[i]))
      fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": index ", index_in->shape.str(), " must be no larger than src ",
           src_in->shape.str(), " and, apart from dimension ", d, ", than self ", self_in->shape.str());
  }
  TensorPtr out = clone(self);
  if (index->numel() > 0) {
    const KernelArg in[] = {KernelArg(*index), KernelArg(*src)};
    const porta_index_params p{sizeof(porta_index_params), d, static_cast<int32_t>(reduce)};
    launch_in_range(op, index, self->shape[d], d,
                    [&] { launch(*out->device, PORTA_OP_SCATTER, out->dtype, in, 2, KernelArg(*out), &p); });
  }
  return self_in->ndim() == 0 ? reshape(out, Dims{}) : out;
}

TensorPtr scan(porta_op op, const TensorPtr& t, int32_t dim, bool reverse) {
  const char* name = op_name(op);
  const int32_t d = wrap_dim(name, dim, t->ndim());
  const Dtype dt = is_floating(t->dtype) ? t->dtype : Dtype::Int64;
  TensorPtr in = contiguous(cast(t, dt));
  TensorPtr out = empty(*t->device, dt, t->shape);
  if (out->numel() == 0) return out;
  const Lines lines = lines_around(t->shape, d);
  const KernelArg arg = lines.arg(*in);
  const porta_scan_params p{sizeof(porta_scan_params), reverse ? 1 : 0};
  launch(*out->device, op, dt, &arg, 1, lines.arg(*out), &p);
  return out;
}

Lines lines_around(const Dims& shape, int32_t d) {
  int64_t outer = 1, n = 1, inner = 1;
  for (int32_t i = 0; i < shape.n; ++i) (i < d ? outer : i == d ? n : inner) *= shape[i];
  return {Dims{outer, n, inner}, Dims{n * inner, inner, 1}};
}

}  // namespace porta::ops
