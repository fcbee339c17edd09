// Matrix products with NumPy matmul semantics, lowered to one batched GEMM
// kernel call: C[batch, M, N] = alpha A[batch, M, K] @ B[batch, K, N] +
// beta C (C filled from the added term first).
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

}  // namespace

TensorPtr matmul(const TensorPtr& a_in, const TensorPtr& b_in) { return matmul(a_in, b_in, 1.0, TensorPtr(), 0.0); }

TensorPtr matmul(const TensorPtr& a_in, const TensorPtr& b_in, double alpha, const TensorPtr& c, double beta) {
  check_same_device("matmul", {a_in.get(), b_in.get()});
  if (a_in->ndim() == 0 || b_in->ndim() == 0)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "matmul: both operands need at least 1 dimension (got shapes ",
         a_in->shape.str(), " and ", b_in->shape.str(), ")");
  if (a_in->dtype != b_in->dtype)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "matmul: expected both operands to have the same dtype, but got ",
         dtype_name(a_in->dtype), " and ", dtype_name(b_in->dtype), " (as PyTorch, matmul does not promote); cast one "
         "first (porta_cast, .to(dtype))");
  const Dtype dt = a_in->dtype;
  if (!is_floating(dt))
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "matmul: supports float32 and float64, got ", dtype_name(a_in->dtype), " and ",
         dtype_name(b_in->dtype), "; cast first (porta_cast)");
  const bool a_vec = a_in->ndim() == 1, b_vec = b_in->ndim() == 1;
  TensorPtr a = a_vec ? unsqueeze(a_in, 0) : a_in;
  TensorPtr b = b_vec ? unsqueeze(b_in, 1) : b_in;
  a = cast(a, dt);
  b = cast(b, dt);
  const int64_t M = a->shape[a->ndim() - 2], K = a->shape[a->ndim() - 1];
  const int64_t K2 = b->shape[b->ndim() - 2], N = b->shape[b->ndim() - 1];
  if (K != K2)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "matmul: shapes ", a_in->shape.str(), " and ", b_in->shape.str(),
         " cannot be multiplied (", K, " columns vs ", K2, " rows)");
  Dims ab, bb;
  for (int32_t i = 0; i < a->ndim() - 2; ++i) ab.push_back(a->shape[i]);
  for (int32_t i = 0; i < b->ndim() - 2; ++i) bb.push_back(b->shape[i]);
  const Dims batch_shape = broadcast_shapes("matmul", ab, bb);
  const int64_t batch = checked_numel(batch_shape);

  Dims out_shape = batch_shape;
  if (!a_vec) out_shape.push_back(M);
  if (!b_vec) out_shape.push_back(N);
  const bool adds = c && beta != 0.0;
  if (adds) {
    check_same_device("matmul", {a_in.get(), c.get()});
    if (c->dtype != dt)
      fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "matmul: the added term is ", dtype_name(c->dtype), ", the product ",
           dtype_name(dt), "; cast it first");
    if (broadcast_shapes("matmul", c->shape, out_shape) != out_shape)
      fail(PORTA_ERROR_SHAPE_MISMATCH, "matmul: the added term of shape ", c->shape.str(),
           " does not broadcast to the product's shape ", out_shape.str());
  }
  TensorPtr out = empty(*a->device, dt, out_shape);
  if (adds) copy_into(out, c);  // broadcasts c, or refuses a shape that does not
  if (out->numel() == 0) return out;
  if (K == 0) {  // an empty sum: beta c, or zeros
    if (!adds) return full(*a->device, out_shape, 0.0, dt);
    return beta == 1.0 ? out : binary_scalar(PORTA_OP_MUL, out, beta);
  }

  Operand A = prepare(a, batch_shape, batch), B = prepare(b, batch_shape, batch);
  int64_t rows = M, nbatch = batch;
  // A shared B with a row-major, densely batched A folds into one big GEMM.
  if (batch > 1 && B.batch_stride == 0 && A.col_stride == 1 && A.batch_stride == M * A.row_stride) {
    rows = batch * M;
    nbatch = 1;
  }
  KernelArg ka(*A.t, Dims{nbatch, rows, K}, Dims{nbatch > 1 ? A.batch_stride : 0, A.row_stride, A.col_stride});
  KernelArg kb(*B.t, Dims{nbatch, K, N}, Dims{nbatch > 1 ? B.batch_stride : 0, B.row_stride, B.col_stride});
  KernelArg kc(*out, Dims{nbatch, rows, N}, Dims{rows * N, N, 1});
  KernelArg ins[2] = {ka, kb};
  porta_matmul_params p{sizeof(p), alpha, adds ? beta : 0.0};
  launch(*out->device, PORTA_OP_MATMUL, dt, ins, 2, kc, &p);
  return out;
}

}  // namespace porta::ops
