// Shape and linear-algebra ops composed from index_select, expand, where and
// matmul, each with PyTorch's shape rules: flip, roll, repeat, tril / triu,
// outer, mm, mv, dot, bmm, addmm, baddbmm. Gradients come through the parts.
#include <cmath>
#include <vector>

#include "runtime/error.hpp"
#include "ops/composite/composite.hpp"

namespace porta::composite {
namespace {

void require_ndim(const char* op, const char* what, const porta_tensor& t, int32_t ndim) {
  if (t.ndim() != ndim)
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": ", what, " must be ", ndim, "-D, got ", t.ndim(), "-D ", t.shape.str());
}

// beta * c + alpha * (a @ b), a @ b checked by the caller: in the one GEMM
// (MATMUL's alpha and beta) when c is on the product's device, else as a sum.
// c must have the product's dtype, as PyTorch requires. beta == 0: c is not read, as PyTorch.
TensorPtr scaled_sum(const char* op, const TensorPtr& c, const TensorPtr& a, const TensorPtr& b, double beta,
                     double alpha) {
  Dims product = a->shape;
  product[product.n - 1] = b->shape[b->ndim() - 1];
  if (ops::broadcast_shapes(op, c->shape, product) != product)
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": input ", c->shape.str(), " must broadcast to the product's shape ",
         product.str());
  if (c->dtype != a->dtype || b->dtype != a->dtype)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op, ": input dtypes must be the same, got input ", dtype_name(c->dtype), ", ",
         dtype_name(a->dtype), " and ", dtype_name(b->dtype), " (as PyTorch); cast them to one dtype");
  if (c->device == a->device) return ag::matmul(a, b, alpha, c, beta);
  TensorPtr p = alpha == 1.0 ? ag::matmul(a, b) : ag::binary_scalar(PORTA_OP_MUL, ag::matmul(a, b), alpha);
  if (beta == 0.0) return p;
  return ag::binary(PORTA_OP_ADD, p, beta == 1.0 ? c : ag::binary_scalar(PORTA_OP_MUL, c, beta));
}

}  // namespace

TensorPtr flip(const TensorPtr& a, const int32_t* dims, int32_t num_dims) {
  if (num_dims < 0 || num_dims > PORTA_MAX_DIMS)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "flip: num_dims ", num_dims, " is out of range");
  if (num_dims > 0) require(dims, "dims");
  bool seen[PORTA_MAX_DIMS] = {};
  TensorPtr x = a;
  for (int32_t i = 0; i < num_dims; ++i) {
    const int32_t d = ops::wrap_dim("flip", dims[i], a->ndim());
    if (a->ndim() == 0) continue;
    if (seen[d]) fail(PORTA_ERROR_INVALID_ARGUMENT, "flip: dim ", d, " appears multiple times in the list of dims");
    seen[d] = true;
    const int64_t n = a->shape[d];
    if (n > 1) x = index_select(x, d, ops::arange_int(*a->device, n - 1, -1, -1, Dtype::Int64));
  }
  return x.get() == a.get() ? ag::clone(a) : x;  // always a new tensor, as PyTorch
}

TensorPtr roll(const TensorPtr& a, const int64_t* shifts, int32_t num_shifts, const int32_t* dims, int32_t num_dims) {
  if (num_shifts < 1 || num_shifts > PORTA_MAX_DIMS || num_dims < 0 || num_dims > PORTA_MAX_DIMS)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "roll: num_shifts (", num_shifts, ") must be in [1, ", PORTA_MAX_DIMS,
         "] and num_dims (", num_dims, ") in [0, ", PORTA_MAX_DIMS, "]");
  require(shifts, "shifts");
  if (num_dims == 0) {
    if (num_shifts != 1)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "roll: without dims, shifts must have one entry (got ", num_shifts, ")");
    const int32_t zero = 0;
    return ag::reshape(roll(ag::reshape(a, Dims{a->numel()}), shifts, 1, &zero, 1), a->shape);
  }
  require(dims, "dims");
  if (a->ndim() == 0)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "roll: dimension specified as ", dims[0],
         " but the tensor has no dimensions (a 0-d tensor rolls only without dims, as PyTorch)");
  if (num_shifts != num_dims)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "roll: shifts and dims must align. shifts: ", num_shifts, ", dims: ", num_dims);
  TensorPtr x = a;
  for (int32_t i = 0; i < num_dims; ++i) {
    const int32_t d = ops::wrap_dim("roll", dims[i], a->ndim());
    const int64_t n = a->shape[d];
    const int64_t s = n == 0 ? 0 : ((shifts[i] % n) + n) % n;
    if (s == 0) continue;
    // out[j] = x[(j - s) mod n]
    TensorPtr idx = ops::binary_scalar(PORTA_OP_REMAINDER,
                                       ops::arange_int(*a->device, n - s, 2 * n - s, 1, Dtype::Int64),
                                       static_cast<double>(n));
    x = index_select(x, d, idx);
  }
  return x.get() == a.get() ? ag::clone(a) : x;
}

TensorPtr repeat(const TensorPtr& a, const int64_t* repeats, int32_t n) {
  if (n < a->ndim())
    fail(PORTA_ERROR_INVALID_ARGUMENT, "repeat: number of dimensions of repeat dims (", n,
         ") can not be smaller than number of dimensions of tensor (", a->ndim(), ")");
  if (n > PORTA_MAX_DIMS / 2)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "repeat: at most ", PORTA_MAX_DIMS / 2, " repeats are supported, got ", n);
  if (n > 0) require(repeats, "repeats");
  Dims padded, split, expanded, out;
  for (int32_t i = 0; i < n - a->ndim(); ++i) padded.push_back(1);
  for (int32_t i = 0; i < a->ndim(); ++i) padded.push_back(a->shape[i]);
  for (int32_t i = 0; i < n; ++i) {
    if (repeats[i] < 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "repeat: repeats can not be negative, got ", repeats[i]);
    split.push_back(1), split.push_back(padded[i]);
    expanded.push_back(repeats[i]), expanded.push_back(padded[i]);
    out.push_back(repeats[i] * padded[i]);
  }
  if (n == 0) return ag::clone(a);
  return ag::reshape(ag::clone(ag::expand(ag::reshape(a, split), expanded)), out);  // a copy even for 1s
}

TensorPtr diagonal_number(DeviceState& dev, int64_t rows, int64_t cols) {
  TensorPtr r = ops::reshape(ops::arange_int(dev, 0, rows, 1, Dtype::Int64), Dims{rows, 1});
  TensorPtr c = ops::reshape(ops::arange_int(dev, 0, cols, 1, Dtype::Int64), Dims{1, cols});
  return ops::binary(PORTA_OP_SUB, c, r);
}

TensorPtr triangle(const TensorPtr& a, int64_t diagonal, bool lower) {
  const char* op = lower ? "tril" : "triu";
  if (a->ndim() < 2)
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": input tensor must have at least 2 dimensions, got ", a->ndim());
  DeviceState& dev = *a->device;
  const int64_t rows = a->shape[a->ndim() - 2], cols = a->shape[a->ndim() - 1];
  TensorPtr offset = diagonal_number(dev, rows, cols);
  TensorPtr k = ops::full_int(dev, Dims{}, diagonal, Dtype::Int64);
  TensorPtr keep = ops::binary(lower ? PORTA_OP_LE : PORTA_OP_GE, offset, k);
  return ag::where(keep, a, ops::full(dev, Dims{}, 0.0, a->dtype));
}

TensorPtr outer(const TensorPtr& a, const TensorPtr& b) {
  require_ndim("outer", "input", *a, 1);
  require_ndim("outer", "vec2", *b, 1);
  return ag::binary(PORTA_OP_MUL, ag::unsqueeze(a, 1), ag::unsqueeze(b, 0));
}

namespace {
void check_mm(const TensorPtr& a, const TensorPtr& b) {
  require_ndim("mm", "self", *a, 2);
  require_ndim("mm", "mat2", *b, 2);
}
}  // namespace

TensorPtr mm(const TensorPtr& a, const TensorPtr& b) {
  check_mm(a, b);
  return ag::matmul(a, b);
}

TensorPtr mv(const TensorPtr& a, const TensorPtr& v) {
  require_ndim("mv", "self", *a, 2);
  require_ndim("mv", "vec", *v, 1);
  return ag::matmul(a, v);
}

TensorPtr dot(const TensorPtr& a, const TensorPtr& b) {
  require_ndim("dot", "self", *a, 1);
  require_ndim("dot", "tensor", *b, 1);
  if (a->shape[0] != b->shape[0])
    fail(PORTA_ERROR_SHAPE_MISMATCH, "dot: inconsistent tensor size, expected tensor [", a->shape[0],
         "] and src [", b->shape[0], "] to have the same number of elements");
  return ag::matmul(a, b);
}

namespace {
void check_bmm(const TensorPtr& a, const TensorPtr& b) {
  require_ndim("bmm", "self", *a, 3);
  require_ndim("bmm", "mat2", *b, 3);
  if (a->shape[0] != b->shape[0])
    fail(PORTA_ERROR_SHAPE_MISMATCH, "bmm: batch sizes differ: ", a->shape.str(), " and ", b->shape.str(),
         " (bmm does not broadcast; use matmul)");
}
}  // namespace

TensorPtr bmm(const TensorPtr& a, const TensorPtr& b) {
  check_bmm(a, b);
  return ag::matmul(a, b);
}

TensorPtr addmm(const TensorPtr& c, const TensorPtr& a, const TensorPtr& b, double beta, double alpha) {
  check_mm(a, b);
  return scaled_sum("addmm", c, a, b, beta, alpha);
}

TensorPtr baddbmm(const TensorPtr& c, const TensorPtr& a, const TensorPtr& b, double beta, double alpha) {
  check_bmm(a, b);
  return scaled_sum("baddbmm", c, a, b, beta, alpha);
}

}  // namespace porta::composite
