// Matrix products with NumPy matmul semantics, lowered to one batched GEMM
// kernel call: C[batch, M, N] = alpha A[batch, M, K] @ B[batch, K, N] +
// beta C (C filled from the added term first, or given: matmul_into).
#include <cmath>

#include "runtime/error.hpp"
#include "ops/ops.hpp"

namespace porta::ops {
namespace {

// A [.., rows, cols] operand as the kernel wants it: row-major (stride 1
// along cols) or transposed (stride 1 along rows), with one batch stride.
struct Operand {
  TensorPtr t;
  int64_t batch_stride = 0, row_stride = 0, col_stride = 0;
};

// Tries to express the (already broadcast) operand without copying.
bool layout(const porta_tensor& t, int64_t batch, Operand* op) {
  const int32_t nd = t.ndim();
  const int64_t rows = t.shape[nd - 2], cols = t.shape[nd - 1];
  const int64_t rs = t.strides[nd - 2], cs = t.strides[nd - 1];
  // Batch dims must collapse to a single stride.
  int64_t bstride = 0;
  bool first = true;
  int64_t expect = 0;
  for (int32_t i = nd - 3; i >= 0; --i) {
    if (t.shape[i] == 1) continue;
    if (first) {
      bstride = t.strides[i];
      expect = bstride * t.shape[i];
      first = false;
    } else {
      if (t.strides[i] != expect) return false;
      expect *= t.shape[i];
    }
  }
  if (batch == 1) bstride = 0;
  if ((cols == 1 || cs == 1) && (rows == 1 || rs >= cols)) {  // row-major
    op->row_stride = rows == 1 ? cols : rs;
    op->col_stride = 1;
  } else if ((rows == 1 || rs == 1) && (cols == 1 || cs >= rows)) {  // transposed
    op->row_stride = 1;
    op->col_stride = cols == 1 ? rows : cs;
  } else {
    return false;
  }
  op->batch_stride = bstride;
  return true;
}

Operand prepare(const TensorPtr& t, const Dims& batch_shape, int64_t batch) {
  Dims target = batch_shape;
  target.push_back(t->shape[t->ndim() - 2]);
  target.push_back(t->shape[t->ndim() - 1]);
  Operand op;
  op.t = expand(t, target);
  if (!layout(*op.t, batch, &op)) {
    op.t = clone(op.t);
    layout(*op.t, batch, &op);
  }
  return op;
}

// matmul's operands checked, made at least 2-D and of one dtype, and the
// product's shape.
struct Product {
  TensorPtr a, b;
  Dtype dt;
  Dims batch_shape, out_shape;
  int64_t batch = 1, M = 0, K = 0, N = 0;
};

Product plan(const TensorPtr& a_in, const TensorPtr& b_in) {
  check_same_device("matmul", {a_in.get(), b_in.get()});
  if (a_in->ndim() == 0 || b_in->ndim() == 0)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "matmul: both operands need at least 1 dimension (got shapes ",
         a_in->shape.str(), " and ", b_in->shape.str(), ")");
  if (a_in->dtype != b_in->dtype)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "matmul: expected both operands to have the same dtype, but got ",
         dtype_name(a_in->dtype), " and ", dtype_name(b_in->dtype), " (as PyTorch, matmul does not promote); cast one "
         "first (porta_cast, .to(dtype))");
  Product p;
  p.dt = a_in->dtype;
  if (p.dt == Dtype::Bool)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "matmul is not defined for bool tensors (as PyTorch); cast first (porta_cast)");
  const bool a_vec = a_in->ndim() == 1, b_vec = b_in->ndim() == 1;
  p.a = cast(a_vec ? unsqueeze(a_in, 0) : a_in, p.dt);
  p.b = cast(b_vec ? unsqueeze(b_in, 1) : b_in, p.dt);
  p.M = p.a->shape[p.a->ndim() - 2], p.K = p.a->shape[p.a->ndim() - 1];
  const int64_t K2 = p.b->shape[p.b->ndim() - 2];
  p.N = p.b->shape[p.b->ndim() - 1];
  if (p.K != K2)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "matmul: shapes ", a_in->shape.str(), " and ", b_in->shape.str(),
         " cannot be multiplied (", p.K, " columns vs ", K2, " rows)");
  Dims ab, bb;
  for (int32_t i = 0; i < p.a->ndim() - 2; ++i) ab.push_back(p.a->shape[i]);
  for (int32_t i = 0; i < p.b->ndim() - 2; ++i) bb.push_back(p.b->shape[i]);
  p.batch_shape = broadcast_shapes("matmul", ab, bb);
  p.batch = checked_numel(p.batch_shape);
  p.out_shape = p.batch_shape;
  if (!a_vec) p.out_shape.push_back(p.M);
  if (!b_vec) p.out_shape.push_back(p.N);
  return p;
}

// out = alpha * (a @ b) + beta * out, out contiguous of the product's shape
// (beta == 0: out is not read; alpha == 0: a and b are not read, BLAS's rule,
// so every plugin leaves NaN in them out of the result alike).
void gemm_into(const Product& p, const TensorPtr& out, double alpha, double beta) {
  if (out->numel() == 0) return;
  if (p.K == 0 || alpha == 0.0) {  // an empty sum, or none: beta out, or zeros
    if (beta == 0.0)
      copy_into(out, full(*out->device, Dims{}, 0.0, out->dtype));
    else if (beta != 1.0)
      binary_scalar_into(PORTA_OP_MUL, out, beta, out);
    return;
  }
  Operand A = prepare(p.a, p.batch_shape, p.batch), B = prepare(p.b, p.batch_shape, p.batch);
  int64_t rows = p.M, nbatch = p.batch;
  // A shared B with a row-major, densely batched A folds into one big GEMM.
  if (p.batch > 1 && B.batch_stride == 0 && A.col_stride == 1 && A.batch_stride == p.M * A.row_stride) {
    rows = p.batch * p.M;
    nbatch = 1;
  }
  KernelArg ka(*A.t, Dims{nbatch, rows, p.K}, Dims{nbatch > 1 ? A.batch_stride : 0, A.row_stride, A.col_stride});
  KernelArg kb(*B.t, Dims{nbatch, p.K, p.N}, Dims{nbatch > 1 ? B.batch_stride : 0, B.row_stride, B.col_stride});
  KernelArg kc(*out, Dims{nbatch, rows, p.N}, Dims{rows * p.N, p.N, 1});
  KernelArg ins[2] = {ka, kb};
  porta_matmul_params params{sizeof(params), alpha, beta};
  launch(*out->device, PORTA_OP_MATMUL, p.dt, ins, 2, kc, &params);
}

// An integer product, exact and wrapping as PyTorch's (its integer GEMM accumulates in the dtype; modulo its
// width that is the int64 sum here): a [.., M, K, 1] * b [.., 1, K, N] summed over K, so it takes M * K * N
// elements of memory (BLAS has no integer GEMM; PyTorch's CPU loops too). alpha * product + beta * c.
TensorPtr integer_product(const Product& p, double alpha, const TensorPtr& c, double beta) {
  check_fill_value("matmul", alpha, p.dt);  // PyTorch's checked conversion: inf does not fit an integer
  check_fill_value("matmul", beta, p.dt);
  if (alpha != std::trunc(alpha) || beta != std::trunc(beta))
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "matmul: an integer product takes integer alpha and beta (as PyTorch), got ",
         alpha, " and ", beta);
  const TensorPtr terms = binary(PORTA_OP_MUL, unsqueeze(p.a, p.a->ndim()), unsqueeze(p.b, p.b->ndim() - 2));
  const int32_t k = terms->ndim() - 2;
  TensorPtr product = cast(reduce(PORTA_OP_SUM, terms, &k, 1, false), p.dt);
  if (alpha != 1.0) product = binary_scalar(PORTA_OP_MUL, product, alpha);
  if (c && beta != 0.0) product = binary(PORTA_OP_ADD, product, beta == 1.0 ? c : binary_scalar(PORTA_OP_MUL, c, beta));
  return contiguous(reshape(cast(product, p.dt), p.out_shape));
}

}  // namespace

TensorPtr matmul(const TensorPtr& a_in, const TensorPtr& b_in) { return matmul(a_in, b_in, 1.0, TensorPtr(), 0.0); }

TensorPtr matmul(const TensorPtr& a_in, const TensorPtr& b_in, double alpha, const TensorPtr& c, double beta) {
  const Product p = plan(a_in, b_in);
  const bool adds = c && beta != 0.0;
  if (adds) {
    check_same_device("matmul", {a_in.get(), c.get()});
    if (c->dtype != p.dt)
      fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "matmul: the added term is ", dtype_name(c->dtype), ", the product ",
           dtype_name(p.dt), "; cast it first");
    if (broadcast_shapes("matmul", c->shape, p.out_shape) != p.out_shape)
      fail(PORTA_ERROR_SHAPE_MISMATCH, "matmul: the added term of shape ", c->shape.str(),
           " does not broadcast to the product's shape ", p.out_shape.str());
  }
  if (!is_floating(p.dt)) return integer_product(p, alpha, adds ? c : TensorPtr(), adds ? beta : 0.0);
  TensorPtr out = empty(*p.a->device, p.dt, p.out_shape);
  if (adds) copy_into(out, c);  // broadcasts c, or refuses a shape that does not
  gemm_into(p, out, alpha, adds ? beta : 0.0);
  return out;
}

void matmul_into(const TensorPtr& out, const TensorPtr& a_in, const TensorPtr& b_in, double alpha, double beta) {
  const Product p = plan(a_in, b_in);
  check_same_device("matmul", {a_in.get(), out.get()});
  if (out->dtype != p.dt || out->shape != p.out_shape || !out->is_contiguous())
    fail(PORTA_ERROR_INVALID_ARGUMENT, "matmul: the output must be a contiguous ", dtype_name(p.dt),
         " tensor of shape ", p.out_shape.str(), ", got a ", out->is_contiguous() ? "contiguous " : "non-contiguous ",
         dtype_name(out->dtype), " one of shape ", out->shape.str());
  if (out->storage == p.a->storage || out->storage == p.b->storage)
    fail(PORTA_ERROR_INVALID_ARGUMENT,
         "matmul: the output shares memory with an operand; write into a tensor of its "
         "own");
  begin_write(*out, "matmul");
  if (!is_floating(p.dt)) {
    copy_into(out, integer_product(p, alpha, beta != 0.0 ? clone(out) : TensorPtr(), beta));
    return;
  }
  gemm_into(p, out, alpha, beta);
}

}  // namespace porta::ops
