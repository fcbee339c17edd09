// Elementwise ops: dtype promotion, broadcasting, casts and copies.
#include <cmath>

#include "runtime/error.hpp"
#include "runtime/kernel_rules.hpp"
#include "runtime/op_descriptors.hpp"
#include "ops/ops.hpp"

namespace porta::ops {

Dims broadcast_shapes(const char* op, const Dims& a, const Dims& b) {
  Dims out;
  out.n = std::max(a.n, b.n);
  for (int32_t i = 0; i < out.n; ++i) {
    const int32_t ia = a.n - out.n + i, ib = b.n - out.n + i;
    const int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
    if (da != db && da != 1 && db != 1)
      fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": shapes ", a.str(), " and ", b.str(),
           " cannot be broadcast together (dimension ", i, " of the result: ", da, " vs ", db, ")");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

TensorPtr contiguous(const TensorPtr& t) {
  if (t->is_contiguous()) return t;
  return clone(t);
}

TensorPtr clone(const TensorPtr& t) {
  TensorPtr out = empty(*t->device, t->dtype, t->shape);
  if (out->numel() > 0) launch_elementwise(PORTA_OP_COPY, t->dtype, {t.get()}, *out);
  return out;
}

TensorPtr cast(const TensorPtr& t, Dtype dtype) {
  if (t->dtype == dtype) return t;
  // A plugin that declares a minor older than a rule of this cast: the core
  // applies the rule itself, converting on the host (kernel_rules.hpp).
  if (rule_predating_plugin(*t->device, PORTA_OP_CAST, t->dtype, dtype)) {
    DeviceState& host = Registry::get().device(DLDevice{kDLCPU, 0});
    return to(cast(to(t, host), dtype), *t->device);
  }
  TensorPtr out = empty(*t->device, dtype, t->shape);
  if (out->numel() > 0) launch_elementwise(PORTA_OP_CAST, dtype, {t.get()}, *out);
  return out;
}

// The operand dtype an elementwise op computes in, from its row of the op
// table: integers become float32 for the FLOAT-result ops (exp, div, ...);
// bool is refused unless the op takes every dtype.
static Dtype compute_dtype(porta_op op, Dtype dt) {
  const OpDescriptor& d = op_descriptor(op);
  if (d.result == PORTA_RESULT_FLOAT) return to_floating(dt);
  const bool integers_only = d.dtypes == PORTA_DTYPES_INTEGRAL || d.dtypes == PORTA_DTYPES_INTEGER;
  if (integers_only && is_floating(dt))
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, d.name, " is not defined for ", dtype_name(dt),
         " tensors (as PyTorch): it takes integers", d.dtypes == PORTA_DTYPES_INTEGRAL ? " and bool" : "");
  if (dt == Dtype::Bool && d.dtypes != PORTA_DTYPES_ANY && d.dtypes != PORTA_DTYPES_INTEGRAL)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, d.name, " is not defined for bool tensors; cast to a numeric dtype first");
  return dt;
}

// Integer floor_divide, remainder and fmod have no value for a zero divisor:
// refused, as PyTorch does on the CPU ("ZeroDivisionError"), on every device.
static bool divides_integers(porta_op op, Dtype dt) {
  return !is_floating(dt) && (op == PORTA_OP_FLOOR_DIVIDE || op == PORTA_OP_REMAINDER || op == PORTA_OP_FMOD);
}

static void check_nonzero_divisor(const char* name, const TensorPtr& divisor) {
  TensorPtr any_zero = reduce(PORTA_OP_MAX, binary_scalar(PORTA_OP_EQ, divisor, 0.0), nullptr, 0, false);
  uint8_t zero = 0;
  to_host(*any_zero, &zero, sizeof(zero));
  if (zero)
    fail(PORTA_ERROR_INVALID_ARGUMENT, name, ": ZeroDivisionError: integer division by zero (a divisor is 0); "
         "cast to a floating dtype for inf/nan results");
}

TensorPtr unary(porta_op op, const TensorPtr& a) {
  // bool's storage is uint8's: its ~ is the logical not, as PyTorch's
  if (op == PORTA_OP_BITWISE_NOT && a->dtype == Dtype::Bool) return binary_scalar(PORTA_OP_EQ, a, 0.0);
  const Dtype dt = compute_dtype(op, a->dtype);
  TensorPtr x = cast(a, dt);
  TensorPtr out = empty(*a->device, dt, a->shape);
  if (out->numel() > 0) launch_elementwise(op, dt, {x.get()}, *out);
  return out;
}

// Whether `op` on a float16/bfloat16 operand meets `other`, a 0-d operand
// of another floating dtype, in float32: PyTorch computes x * 0.1 (and
// x * a 0-d float32 tensor) as float(x) * float(0.1), rounded once, never
// with 0.1 rounded to x's dtype first (its opmath for a CPU scalar).
static bool meets_in_float32(porta_op op, Dtype dt, const porta_tensor& other) {
  if (dt != Dtype::Float16 && dt != Dtype::BFloat16) return false;
  if (other.ndim() != 0 || other.dtype == dt || !is_floating(other.dtype)) return false;
  return op == PORTA_OP_ADD || op == PORTA_OP_SUB || op == PORTA_OP_MUL || op == PORTA_OP_DIV;
}

// Bool operands of the ops PyTorch defines on bool: add and maximum are
// logical or, mul and minimum logical and.
static TensorPtr bool_binary(porta_op op, const TensorPtr& x, const TensorPtr& y, const Dims& shape) {
  const bool is_or = op == PORTA_OP_ADD || op == PORTA_OP_MAXIMUM;
  TensorPtr out = empty(*x->device, Dtype::Bool, shape);
  if (out->numel() == 0) return out;
  TensorPtr constant = full(*x->device, Dims{}, is_or ? 1.0 : 0.0, Dtype::Bool);
  if (is_or) launch_elementwise(PORTA_OP_WHERE, Dtype::Bool, {x.get(), constant.get(), y.get()}, *out);
  else launch_elementwise(PORTA_OP_WHERE, Dtype::Bool, {x.get(), y.get(), constant.get()}, *out);
  return out;
}

static bool defined_on_bool(porta_op op) {
  return op == PORTA_OP_ADD || op == PORTA_OP_MUL || op == PORTA_OP_MAXIMUM || op == PORTA_OP_MINIMUM;
}

TensorPtr binary(porta_op op, const TensorPtr& a, const TensorPtr& b) {
  const char* name = op_name(op);
  check_same_device(name, {a.get(), b.get()});
  // PyTorch's rule, whatever the operand order or the other operand's dtype.
  if (op == PORTA_OP_SUB && (a->dtype == Dtype::Bool || b->dtype == Dtype::Bool))
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "sub: subtraction with a bool tensor is not supported (as in PyTorch); to invert a "
         "mask compare it with 0 (porta_eq_scalar; ~mask in Python), else cast to a numeric dtype first");
  const Dtype common = result_type({a.get(), b.get()});
  const Dims shape = broadcast_shapes(name, a->shape, b->shape);
  if (common == Dtype::Bool && defined_on_bool(op)) return bool_binary(op, a, b, shape);
  const Dtype dt = compute_dtype(op, common);
  if (op == PORTA_OP_POW) {
    check_pow_exponent(dt, *b);
    if (is_integral(dt)) return integer_pow(cast(a, dt), cast(b, dt), shape);
  }
  if (meets_in_float32(op, dt, *a) || meets_in_float32(op, dt, *b))
    return cast(binary(op, cast(a, Dtype::Float32), cast(b, Dtype::Float32)), dt);
  const bool is_compare = op_descriptor(op).result == PORTA_RESULT_BOOL;
  TensorPtr x = cast(a, dt), y = cast(b, dt);
  TensorPtr out = empty(*a->device, is_compare ? Dtype::Bool : dt, shape);
  if (out->numel() > 0) {
    if (divides_integers(op, dt)) check_nonzero_divisor(name, y);
    launch_elementwise(op, dt, {x.get(), y.get()}, *out);
  }
  return out;
}

TensorPtr binary_scalar(porta_op op, const TensorPtr& a, double s) {
  return binary(op, a, wrapped_number(*a->device, Scalar::from_double(s)));
}

void binary_scalar_into(porta_op op, const TensorPtr& a, double s, const TensorPtr& out) {
  TensorPtr y = wrapped_number(*a->device, Scalar::from_double(s));
  const Dtype common = result_type({a.get(), y.get()});
  if (out->device == a->device && out->shape == a->shape && out->storage != a->storage &&
      op_descriptor(op).result != PORTA_RESULT_BOOL && !(common == Dtype::Bool && defined_on_bool(op))) {
    const Dtype dt = compute_dtype(op, common);
    if (dt == a->dtype && dt == out->dtype && !meets_in_float32(op, dt, *y)) {
      begin_write(*out, op_name(op));
      if (out->numel() == 0) return;
      y = cast(y, dt);
      if (divides_integers(op, dt)) check_nonzero_divisor(op_name(op), y);
      launch_elementwise(op, dt, {a.get(), y.get()}, *out);
      return;
    }
  }
  copy_into(out, binary(op, a, y));
}

TensorPtr where(const TensorPtr& cond, const TensorPtr& a, const TensorPtr& b) {
  check_same_device("where", {cond.get(), a.get(), b.get()});
  if (cond->dtype != Dtype::Bool)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "where: the condition must be bool, got ", dtype_name(cond->dtype),
         "; build it with a comparison such as porta_gt");
  const Dtype dt = result_type({a.get(), b.get()});
  for (const TensorPtr& t : {a, b})  // a number must fit the result, as PyTorch's where checks (a fill value)
    if (t->wrapped) check_fill_value("where", *t->wrapped, dt);
  const Dims shape = broadcast_shapes("where", broadcast_shapes("where", cond->shape, a->shape), b->shape);
  TensorPtr x = cast(a, dt), y = cast(b, dt);
  TensorPtr out = empty(*a->device, dt, shape);
  if (out->numel() > 0) launch_elementwise(PORTA_OP_WHERE, dt, {cond.get(), x.get(), y.get()}, *out);
  return out;
}

}  // namespace porta::ops
