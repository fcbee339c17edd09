// Reductions. The core turns any set of reduced dims into a contiguous
// [outer, reduce, inner] problem, so kernels only reduce the middle axis.
#include <cmath>
#include <limits>

#include "runtime/error.hpp"
#include "ops/ops.hpp"

namespace porta::ops {
namespace {

struct Plan {
  TensorPtr input;  // contiguous
  int64_t outer = 1, reduce = 1, inner = 1;
};

// Builds the [outer, reduce, inner] view for reducing `mask`ed dims of `t`.
Plan plan_reduction(const TensorPtr& t, const bool* mask) {
  const int32_t nd = t->ndim();
  int32_t lo = nd, hi = -1;
  for (int32_t i = 0; i < nd; ++i)
    if (mask[i] && t->shape[i] != 1) lo = std::min(lo, i), hi = std::max(hi, i);
  bool range = true;  // reduced dims (ignoring size-1 dims) form one block
  for (int32_t i = lo; i <= hi; ++i)
    if (!mask[i] && t->shape[i] != 1) range = false;
  Plan p;
  if (range) {
    p.input = contiguous(t);
    if (hi < 0) {  // nothing of size > 1 is reduced
      p.outer = t->numel();
      return p;
    }
    for (int32_t i = 0; i < lo; ++i) p.outer *= t->shape[i];
    for (int32_t i = lo; i <= hi; ++i) p.reduce *= t->shape[i];
    for (int32_t i = hi + 1; i < nd; ++i) p.inner *= t->shape[i];
    return p;
  }
  int32_t order[PORTA_MAX_DIMS];
  int32_t k = 0;
  for (int32_t i = 0; i < nd; ++i)
    if (!mask[i]) order[k++] = i, p.outer *= t->shape[i];
  for (int32_t i = 0; i < nd; ++i)
    if (mask[i]) order[k++] = i, p.reduce *= t->shape[i];
  p.input = clone(permute(t, order, nd));
  return p;
}

Dims reduced_shape(const porta_tensor& t, const bool* mask, bool keepdim) {
  Dims s;
  for (int32_t i = 0; i < t.ndim(); ++i) {
    if (!mask[i]) s.push_back(t.shape[i]);
    else if (keepdim) s.push_back(1);
  }
  return s;
}

TensorPtr run(porta_op op, const Plan& p, Dtype out_dtype, const Dims& out_shape) {
  TensorPtr out = empty(*p.input->device, out_dtype, out_shape);
  if (out->numel() == 0) return out;
  KernelArg in(*p.input, Dims{p.outer, p.reduce, p.inner}, Dims{p.reduce * p.inner, p.inner, 1});
  KernelArg o(*out, Dims{p.outer, p.inner}, Dims{p.inner, 1});
  launch(*out->device, op, p.input->dtype, &in, 1, o, nullptr);
  return out;
}

}  // namespace

TensorPtr reduce(porta_op op, const TensorPtr& t, const int32_t* dims, int32_t num_dims, bool keepdim) {
  const char* name = op_name(op);
  const int32_t nd = t->ndim();
  if (num_dims < 0 || num_dims > PORTA_MAX_DIMS)
    fail(PORTA_ERROR_INVALID_ARGUMENT, name, ": num_dims ", num_dims, " is out of range");
  if (num_dims > 0) require(dims, "dims");
  bool mask[PORTA_MAX_DIMS] = {};
  for (int32_t i = 0; i < num_dims; ++i) {
    const int32_t d = wrap_dim(name, dims[i], nd);
    if (nd > 0 && mask[d]) fail(PORTA_ERROR_INVALID_ARGUMENT, name, ": dimension ", d, " appears twice");
    if (nd > 0) mask[d] = true;
  }
  if (num_dims == 0)
    for (int32_t i = 0; i < nd; ++i) mask[i] = true;

  Dtype dt = t->dtype;
  if (op == PORTA_OP_SUM && !is_floating(dt)) dt = Dtype::Int64;
  if (op == PORTA_OP_MEAN && !is_floating(dt))
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "mean: needs a floating tensor (float16, bfloat16, float32 or float64), got ",
         dtype_name(dt), "; cast first (porta_cast)");
  const Dims out_shape = reduced_shape(*t, mask, keepdim);
  int64_t reduce_size = 1;
  for (int32_t i = 0; i < nd; ++i)
    if (mask[i]) reduce_size *= t->shape[i];
  if (reduce_size == 0) {
    if (op == PORTA_OP_MAX || op == PORTA_OP_MIN)
      fail(PORTA_ERROR_INVALID_ARGUMENT, name, ": cannot reduce over zero elements (shape ", t->shape.str(),
           "); max and min have no identity");
    return full(*t->device, out_shape, op == PORTA_OP_SUM ? 0.0 : std::numeric_limits<double>::quiet_NaN(), dt);
  }
  Plan p = plan_reduction(cast(t, dt), mask);
  return run(op, p, dt, out_shape);
}

TensorPtr argreduce(porta_op op, const TensorPtr& t, int32_t dim, bool keepdim) {
  const char* name = op_name(op);
  if (t->numel() == 0) fail(PORTA_ERROR_INVALID_ARGUMENT, name, ": the tensor is empty (shape ", t->shape.str(), ")");
  if (dim == PORTA_ALL_DIMS) {
    TensorPtr flat = reshape(t, Dims{t->numel()});
    Plan p{contiguous(flat), 1, t->numel(), 1};
    Dims out_shape;
    if (keepdim)
      for (int32_t i = 0; i < t->ndim(); ++i) out_shape.push_back(1);
    return run(op, p, Dtype::Int64, out_shape);
  }
  const int32_t nd = t->ndim();
  const int32_t d = wrap_dim(name, dim, nd);
  bool mask[PORTA_MAX_DIMS] = {};
  if (nd > 0) mask[d] = true;
  Plan p = plan_reduction(t, mask);
  return run(op, p, Dtype::Int64, reduced_shape(*t, mask, keepdim));
}

double reduce_to_host(porta_op op, const TensorPtr& t) {
  double v = 0;
  to_host(*cast(reduce(op, t, nullptr, 0, false), Dtype::Float64), &v, sizeof v);
  return v;
}

}  // namespace porta::ops
