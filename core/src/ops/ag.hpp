// Differentiable ops: each computes with porta::ops and, when an input
// requires grad, records the node that knows its backward formula. The C API
// calls these; backward formulas call porta::ops (no double backward).
#pragma once

#include "ops/ops.hpp"

namespace porta::ag {

// ---- elementwise (elementwise_grad.cpp)
TensorPtr unary(porta_op op, const TensorPtr& a);
TensorPtr binary(porta_op op, const TensorPtr& a, const TensorPtr& b);
TensorPtr binary_scalar(porta_op op, const TensorPtr& a, double s);
TensorPtr where(const TensorPtr& cond, const TensorPtr& a, const TensorPtr& b);
TensorPtr cast(const TensorPtr& t, Dtype dtype);

// ---- in place (inplace.cpp): t = op(t[, other]), recorded as PyTorch's add_, relu_, copy_
void unary_(porta_op op, const TensorPtr& t);
void binary_(porta_op op, const TensorPtr& t, const TensorPtr& other);
void binary_scalar_(porta_op op, const TensorPtr& t, double s);
// `op` names the caller in errors.
void copy_(const TensorPtr& dst, const TensorPtr& src, const char* op);

// ---- reductions and matmul (reduce_grad.cpp)
TensorPtr reduce(porta_op op, const TensorPtr& t, const int32_t* dims, int32_t num_dims, bool keepdim);
TensorPtr matmul(const TensorPtr& a, const TensorPtr& b);

// ---- views and moves (view_grad.cpp)
TensorPtr view(const TensorPtr& t, const Dims& shape);
TensorPtr reshape(const TensorPtr& t, const Dims& shape);
TensorPtr slice(const TensorPtr& t, int32_t dim, int64_t start, int64_t stop, int64_t step);
TensorPtr select(const TensorPtr& t, int32_t dim, int64_t index);
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
