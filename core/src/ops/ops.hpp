// The core's internal op API. The C API wraps these; autograd and the
// optimizers build on them. Every function validates its arguments and
// throws porta::Error with an op-tagged message.
#pragma once

#include <span>

#include "runtime/dispatch.hpp"
#include "runtime/tensor.hpp"

namespace porta::ops {

// ---- transfers and host I/O (transfer.cpp)
TensorPtr from_host(const void* data, Dtype dtype, const Dims& shape, DeviceState& dev);
void to_host(const porta_tensor& t, void* dst, size_t dst_bytes);
void from_host_into(const TensorPtr& t, const void* src, size_t src_bytes);
// `t` on `dev`. non_blocking: a copy from memory pinned by dev's plugin may
// return before it completes (porta_tensor_to_non_blocking).
TensorPtr to(const TensorPtr& t, DeviceState& dev, bool non_blocking = false);
void copy_into(const TensorPtr& dst, const TensorPtr& src);

// ---- views (views.cpp)
TensorPtr view(const TensorPtr& t, Dims shape);
TensorPtr reshape(const TensorPtr& t, Dims shape);
TensorPtr slice(const TensorPtr& t, int32_t dim, int64_t start, int64_t stop, int64_t step);
TensorPtr select(const TensorPtr& t, int32_t dim, int64_t index);
// torch.diagonal: the (dim1, dim2) diagonal `offset` above the main one, as a last dim (a view).
TensorPtr diagonal(const TensorPtr& t, int64_t offset, int32_t dim1, int32_t dim2);
// Tensor.unfold: windows of `size` every `step` along dim as a new last dim (a view; windows may overlap).
TensorPtr unfold(const TensorPtr& t, int32_t dim, int64_t size, int64_t step);
TensorPtr transpose(const TensorPtr& t, int32_t dim0, int32_t dim1);
TensorPtr permute(const TensorPtr& t, const int32_t* dims, int32_t ndim);
TensorPtr expand(const TensorPtr& t, const Dims& shape);
TensorPtr unsqueeze(const TensorPtr& t, int32_t dim);
TensorPtr squeeze(const TensorPtr& t, int32_t dim);
// Normalizes a possibly negative `dim` for a tensor of `ndim` dims (inserting: ndim + 1).
int32_t wrap_dim(const char* op, int32_t dim, int32_t ndim);

// ---- factories (factories.cpp)
TensorPtr full(DeviceState& dev, const Dims& shape, double value, Dtype dtype);
TensorPtr arange(DeviceState& dev, double start, double end, double step, Dtype dtype);
// Throws (PyTorch's "cannot be converted ... without overflow") where
// PyTorch's checked conversion of a scalar into `dtype` does: a float past a
// floating dtype's largest finite value; an integer outside an integer
// dtype's range (uint8 also takes -255..-1, which wrap); a float outside it,
// or NaN. A double is Scalar::from_double's.
void check_fill_value(const char* op, const Scalar& value, Dtype dtype, bool strict_unsigned = false);
void check_fill_value(const char* op, double value, Dtype dtype);
// The largest finite value of a floating dtype.
double float_max(Dtype dtype);
// The range of an integer dtype (int64's for bool: any number is true or false).
void int_range(Dtype dtype, int64_t* lo, int64_t* hi);
// Factories with exact int64 values (every bit kept beyond 2^53).
TensorPtr full_int(DeviceState& dev, const Dims& shape, int64_t value, Dtype dtype);
TensorPtr arange_int(DeviceState& dev, int64_t start, int64_t end, int64_t step, Dtype dtype);
// A random permutation of 0..n-1 (int64) from the global generator (it
// takes n counters), or from an explicit generator state (seed, offset),
// which it does not advance. The same state gives the same permutation on
// every device: C++ and Python loaders shuffle alike.
TensorPtr randperm(DeviceState& dev, int64_t n);
TensorPtr randperm_at(DeviceState& dev, int64_t n, uint64_t seed, uint64_t offset);
// Where a draw takes its counters: the global generator (state null) or a
// caller's generator state, advanced past every counter drawn.
struct Counters {
  porta_generator_state* state = nullptr;
  // The first of n counters (and the seed they go with).
  uint64_t take(uint64_t n, uint64_t* seed) const;
};
TensorPtr random(porta_op op, DeviceState& dev, const Dims& shape, Dtype dtype, double a, double b,
                 Counters counters = {});
// Fills `t` (any strides) in place from the generator.
void random_into(porta_op op, const TensorPtr& t, double a, double b, Counters counters = {});
void manual_seed(uint64_t seed);
void generator_state(uint64_t* seed, uint64_t* offset);
void set_generator_state(uint64_t seed, uint64_t offset);

// ---- elementwise (elementwise.cpp)
TensorPtr contiguous(const TensorPtr& t);
TensorPtr clone(const TensorPtr& t);
TensorPtr cast(const TensorPtr& t, Dtype dtype);
TensorPtr unary(porta_op op, const TensorPtr& a);
TensorPtr binary(porta_op op, const TensorPtr& a, const TensorPtr& b);  // arithmetic and comparisons
// a op s with s a C API double (Scalar::from_double): binary(op, a, wrapped_number(s)).
TensorPtr binary_scalar(porta_op op, const TensorPtr& a, double s);
// out = a op s, the values binary_scalar gives, written into `out` (a's
// shape): one pass over the elements where out has the dtype the op computes
// in, else binary_scalar and a copy.
void binary_scalar_into(porta_op op, const TensorPtr& a, double s, const TensorPtr& out);
TensorPtr where(const TensorPtr& cond, const TensorPtr& a, const TensorPtr& b);
// base ** exponent of one integer dtype, broadcast to `shape` (integer_pow.cpp).
TensorPtr integer_pow(const TensorPtr& base, const TensorPtr& exponent, const Dims& shape);
// PyTorch's checks of a scalar exponent (a wrapped number) for a base computing in dt: no negative integer
// power of an integer, and a value dt holds.
void check_pow_exponent(Dtype dt, const porta_tensor& exponent);

// ---- scalar operands and promotion (scalar.cpp)
// `s` as PyTorch's "wrapped number" on dev: a 0-d bool, int64 or float64
// tensor holding it exactly, marked so that it promotes below every tensor
// of its category (result_type), and converts to the dtype an op computes in
// as PyTorch's cast does (uint8_tensor + 300 adds 44).
TensorPtr wrapped_number(DeviceState& dev, const Scalar& s);
// The value of a 0-d tensor as a Scalar, exactly (a wrapped number's own;
// else read from its device: a synchronization, as PyTorch's item()).
Scalar value_of(const TensorPtr& t);
// PyTorch's result type of an elementwise op's operands, in three tiers:
// dimensioned tensors, then 0-d tensors, then wrapped numbers (a float one
// counting as float32, the default dtype); a lower tier counts only where
// its category (bool < integer < floating) is higher.
Dtype result_type(std::span<const porta_tensor* const> operands);
inline Dtype result_type(std::initializer_list<const porta_tensor*> operands) {
  return result_type(std::span<const porta_tensor* const>(operands.begin(), operands.size()));
}
Dims broadcast_shapes(const char* op, const Dims& a, const Dims& b);

// ---- reductions (reduce.cpp); num_dims == 0 reduces over all dims
TensorPtr reduce(porta_op op, const TensorPtr& t, const int32_t* dims, int32_t num_dims, bool keepdim);
TensorPtr argreduce(porta_op op, const TensorPtr& t, int32_t dim, bool keepdim);
// `op` (SUM, MIN, MAX, ...) over every element of a non-empty t, read back to
// the host as a double (a synchronization): what argument checks compare.
double reduce_to_host(porta_op op, const TensorPtr& t);

// ---- indexing and scans (index.cpp); index tensors are int64
// out[p] = src[p with p[dim] := index[p]]. `op` names the caller in errors.
TensorPtr gather(const TensorPtr& src, int32_t dim, const TensorPtr& index, const char* op = "gather");
// A copy of self with src scattered into it by `reduce` (porta/ops.h's SCATTER).
TensorPtr scatter(const TensorPtr& self, int32_t dim, const TensorPtr& index, const TensorPtr& src,
                  porta_scatter_reduce reduce, const char* op = "scatter");
// Inclusive CUMSUM / CUMPROD along dim (integers and bool in int64).
TensorPtr scan(porta_op op, const TensorPtr& t, int32_t dim, bool reverse);
// A contiguous tensor of `shape` viewed as [outer, n, inner] around dim d
// (n = shape[d]): the layout the SCAN, SORT and RUNNING_EXTREME kernels take.
struct Lines {
  Dims shape, strides;
  int64_t n() const { return shape[1]; }
  KernelArg arg(const porta_tensor& t) const { return KernelArg(t, shape, strides); }
};
Lines lines_around(const Dims& shape, int32_t d);

// ---- sorting (sort.cpp)
struct Sorted {
  TensorPtr values, indices;  // indices: int64, where each value came from along dim
};
// A stable sort along dim (NaN last ascending, first descending: porta/ops.h's SORT). Not recorded.
// first > 0: only positions [0, first) along dim are asked for (topk, kthvalue); the rest are unspecified.
Sorted sort(const TensorPtr& t, int32_t dim, bool descending, int64_t first = 0);
// Fails with PyTorch's "index 5 is out of bounds for dimension 0 with size 3"
// unless every value of the int64 `index` lies in [0, size); reads the
// index's minimum and maximum back from its device.
void check_index_range(const char* op, const TensorPtr& index, int64_t size, int32_t dim);
// The smallest and largest value of a non-empty int64 tensor (read back from its device).
void index_extremes(const TensorPtr& index, int64_t* lo, int64_t* hi);

// ---- linear algebra (matmul.cpp)
TensorPtr matmul(const TensorPtr& a, const TensorPtr& b);
// alpha * (a @ b) + beta * c in the one GEMM (MATMUL's alpha and beta, as
// torch.baddbmm and addmm): c, of the product's dtype, broadcasts to the
// product's shape and is copied into the output first. beta == 0 or no c:
// c is not read (NaN in it does not propagate, as PyTorch).
TensorPtr matmul(const TensorPtr& a, const TensorPtr& b, double alpha, const TensorPtr& c, double beta);
// out = alpha * (a @ b) + beta * out, in place: `out` contiguous, of the
// product's dtype and shape, sharing no memory with a or b (beta == 0: out
// is not read). DistributedDataParallel's gradients go straight into their
// bucket through it.
void matmul_into(const TensorPtr& out, const TensorPtr& a, const TensorPtr& b, double alpha, double beta);

}  // namespace porta::ops
