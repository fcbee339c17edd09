// Differentiable ops: each computes with porta::ops and, when an input
// requires grad, records the node that knows its backward formula. The C API
// calls these; backward formulas call porta::ops (no double backward).
#pragma once

#include <vector>

#include "ops/ops.hpp"

namespace porta::ag {

// ---- elementwise (elementwise_grad.cpp)
TensorPtr unary(porta_op op, const TensorPtr& a);
TensorPtr binary(porta_op op, const TensorPtr& a, const TensorPtr& b);
TensorPtr binary_scalar(porta_op op, const TensorPtr& a, double s);
TensorPtr where(const TensorPtr& cond, const TensorPtr& a, const TensorPtr& b);
TensorPtr cast(const TensorPtr& t, Dtype dtype);

// PyTorch's opmath rule for an op composed of several kernels: with float16 or bfloat16 inputs it runs in
// float32 (opmath_dtype) and rounds its result once (its gradient, through the casts, too), as PyTorch's fused
// kernels do; other dtypes run as they are. `f` takes the inputs (cast or not) and returns the result.
inline TensorPtr opmath(const TensorPtr& t) { return t && is_low_precision(t->dtype) ? cast(t, Dtype::Float32) : t; }
template <class F>
TensorPtr in_opmath(const TensorPtr& a, F&& f) {
  if (!is_low_precision(a->dtype)) return f(a);
  return cast(f(opmath(a)), a->dtype);
}

// ---- in place (inplace.cpp): t = op(t[, other]), recorded as PyTorch's add_, relu_, copy_
void unary_(porta_op op, const TensorPtr& t);
void binary_(porta_op op, const TensorPtr& t, const TensorPtr& other);
void binary_scalar_(porta_op op, const TensorPtr& t, double s);
// `op` names the caller in errors.
void copy_(const TensorPtr& dst, const TensorPtr& src, const char* op);

// ---- reductions (reduce_grad.cpp) and matmul (matmul_grad.cpp)
TensorPtr reduce(porta_op op, const TensorPtr& t, const int32_t* dims, int32_t num_dims, bool keepdim);
// `value` (computed without autograd) as a 0-d result of t whose gradient is shared evenly among t's elements
// equal to it, NaN matching NaN: PyTorch's rule for median() over every element.
TensorPtr shared_among_equals(const TensorPtr& t, const TensorPtr& value);
TensorPtr matmul(const TensorPtr& a, const TensorPtr& b);
// alpha * (a @ b) + beta * c in one GEMM (ops::matmul's), differentiable in a, b and c.
TensorPtr matmul(const TensorPtr& a, const TensorPtr& b, double alpha, const TensorPtr& c, double beta);

// ---- indexing and scans (index_grad.cpp): gradients to the data operands
// `op` names the caller in errors.
TensorPtr gather(const TensorPtr& src, int32_t dim, const TensorPtr& index, const char* op = "gather");
// ASSIGN and SUM are differentiable; other reductions refuse inputs that require grad.
TensorPtr scatter(const TensorPtr& self, int32_t dim, const TensorPtr& index, const TensorPtr& src,
                  porta_scatter_reduce reduce, const char* op = "scatter");
TensorPtr scan(porta_op op, const TensorPtr& t, int32_t dim, bool reverse);

// ---- joins and splits (join.cpp), as torch.cat / stack / split / unbind
TensorPtr cat(const std::vector<TensorPtr>& tensors, int32_t dim);
TensorPtr stack(const std::vector<TensorPtr>& tensors, int32_t dim);
std::vector<TensorPtr> split(const TensorPtr& t, const std::vector<int64_t>& sizes, int32_t dim);
std::vector<TensorPtr> unbind(const TensorPtr& t, int32_t dim);

// ---- views and moves (view_grad.cpp)
TensorPtr view(const TensorPtr& t, const Dims& shape);
TensorPtr reshape(const TensorPtr& t, const Dims& shape);
TensorPtr slice(const TensorPtr& t, int32_t dim, int64_t start, int64_t stop, int64_t step);
TensorPtr select(const TensorPtr& t, int32_t dim, int64_t index);
TensorPtr diagonal(const TensorPtr& t, int64_t offset, int32_t dim1, int32_t dim2);
TensorPtr unfold(const TensorPtr& t, int32_t dim, int64_t size, int64_t step);
TensorPtr transpose(const TensorPtr& t, int32_t dim0, int32_t dim1);
TensorPtr permute(const TensorPtr& t, const int32_t* dims, int32_t ndim);
TensorPtr expand(const TensorPtr& t, const Dims& shape);
TensorPtr unsqueeze(const TensorPtr& t, int32_t dim);
TensorPtr squeeze(const TensorPtr& t, int32_t dim);
TensorPtr contiguous(const TensorPtr& t);
TensorPtr clone(const TensorPtr& t);
TensorPtr to(const TensorPtr& t, DeviceState& dev, bool non_blocking = false);
TensorPtr detach(const TensorPtr& t);
TensorPtr flatten(const TensorPtr& t, int32_t start_dim, int32_t end_dim);

}  // namespace porta::ag
