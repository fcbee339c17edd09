// Bad-argument cases, part 2: elementwise ops, reductions, linear algebra,
// composite ops and autograd (porta.h's middle sections, in its order; the
// indexing section between the last two is test_c_api_bad_args_indexing.cpp).
#include "c_api_bad_args.hpp"

#include <cmath>
#include <string>

#include "../conformance/op_tables.hpp"

namespace porta_bad_args {
namespace {

using Unary = porta_status (*)(porta_tensor*, porta_tensor**);
using Binary = porta_status (*)(porta_tensor*, porta_tensor*, porta_tensor**);
using Scalar = porta_status (*)(porta_tensor*, double, porta_tensor**);
using Reduce = porta_status (*)(porta_tensor*, const int32_t*, int32_t, int, porta_tensor**);
using ArgReduce = porta_status (*)(porta_tensor*, int32_t, int, porta_tensor**);

void check_unary(Fixture& x, Unary op, bool refuses_bool) {
  expect_handle_and_out_checked(x, op);
  Untouched<porta_tensor*> out;
  if (refuses_bool) REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "bool", op(x.mask.get(), out.p()));
}

// Handles on either side, devices, shapes (and bool, for arithmetic).
void check_binary(Fixture& x, Binary op, bool refuses_bool, const char* shape_hint = "cannot be broadcast") {
  expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) { return op(t, x.f.get(), o); });
  expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) { return op(x.f.get(), t, o); });
  Untouched<porta_tensor*> out;
  REFUSED(PORTA_ERROR_INVALID_HANDLE, "b is NULL", op(x.f.get(), nullptr, out.p()));
  REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1", op(x.f.get(), x.other.get(), out.p()));
  REFUSED(PORTA_ERROR_SHAPE_MISMATCH, shape_hint, op(x.f.get(), x.f4.get(), out.p()));
  if (refuses_bool) REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "bool", op(x.mask.get(), x.mask.get(), out.p()));
}

// Handles and out (a double that no int64 holds is a float scalar, as PyTorch's Python float: no refusal).
void check_scalar(Fixture& x, Scalar op) {
  expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) { return op(t, 2.0, o); });
}

void check_reduce(Fixture& x, Reduce op) {
  const int32_t dim1 = 1, twice[2] = {0, 0}, outside = 2;
  expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) { return op(t, &dim1, 1, 0, o); });
  Untouched<porta_tensor*> out;
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dims must not be NULL", op(x.f.get(), nullptr, 1, 0, out.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "num_dims -1 is out of range", op(x.f.get(), &dim1, -1, 0, out.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "num_dims 17 is out of range", op(x.f.get(), &dim1, 17, 0, out.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "appears twice", op(x.f.get(), twice, 2, 0, out.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dimension 2 is out of range", op(x.f.get(), &outside, 1, 0, out.p()));
  const int32_t lowest = INT32_MIN;
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out of range", op(x.f.get(), &lowest, 1, 0, out.p()));
}

void check_argreduce(Fixture& x, ArgReduce op) {
  expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) { return op(t, 0, 0, o); });
  Untouched<porta_tensor*> out;
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dimension 2 is out of range", op(x.f.get(), 2, 0, out.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out of range", op(x.f.get(), INT32_MIN + 1, 0, out.p()));
  const int64_t none = 0;
  porta_tensor* empty = nullptr;
  ASSERT_EQ(porta_zeros(&none, 1, porta_float32, x.cpu, &empty), PORTA_OK);
  Tensor owned(empty);
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "the tensor is empty", op(empty, PORTA_ALL_DIMS, 0, out.p()));
}

// Whether an op refuses bool operands: all but those that compute in float
// (exp, div, ...) and the comparisons, from its row of porta/ops.h, and
// those PyTorch defines on bool (add and maximum: or; mul and minimum: and).
bool refuses_bool(porta_op op) {
  porta_op_info info{};
  info.struct_size = sizeof(info);
  EXPECT_EQ(porta_op_get_info(op, &info), PORTA_OK);
  const bool defined_on_bool = op == PORTA_OP_ADD || op == PORTA_OP_MUL || op == PORTA_OP_MAXIMUM ||
                               op == PORTA_OP_MINIMUM || info.dtypes == PORTA_DTYPES_INTEGRAL ||
                               op == PORTA_OP_BITWISE_NOT;  // the core's logical not on bool
  return info.result != PORTA_RESULT_FLOAT && info.result != PORTA_RESULT_BOOL && !defined_on_bool;
}

const Case kScalarTensor = {
    "porta_scalar_tensor", [](Fixture& x) {
      Untouched<porta_tensor*> out;
      REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL",
              porta_scalar_tensor(PORTA_SCALAR_INT, 1, 0.0, x.cpu, nullptr));
      REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "kind 7 is not a porta_scalar_kind",
              porta_scalar_tensor(7, 1, 0.0, x.cpu, out.p()));
      REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "a bool is 0 or 1, got 2",
              porta_scalar_tensor(PORTA_SCALAR_BOOL, 2, 0.0, x.cpu, out.p()));
      REFUSED(PORTA_ERROR_NO_SUCH_DEVICE, "mock:7",
              porta_scalar_tensor(PORTA_SCALAR_FLOAT, 0, 1.5, DLDevice{x.mock.device_type, 7}, out.p()));
    }};

// One case per UNARY row, per BINARY and COMPARE row, then per scalar form,
// from the op table (porta.h declares each group in id order).
std::vector<Case> elementwise_cases() {
  std::vector<Case> cases;
  for (const conformance::UnaryOp& u : conformance::kUnaryOps)
    cases.push_back({u.name, [u](Fixture& x) { check_unary(x, u.fn, refuses_bool(u.op)); }});
  for (const conformance::BinaryOp& b : conformance::kBinaryOps)
    cases.push_back({b.name, [b](Fixture& x) { check_binary(x, b.fn, refuses_bool(b.op)); }});
  for (Case& c : cases) c.entry = "porta_" + c.entry;
  cases.push_back(kScalarTensor);
  for (const conformance::BinaryOp& b : conformance::kBinaryOps)
    cases.push_back({"porta_" + std::string(b.name) + "_scalar", [b](Fixture& x) { check_scalar(x, b.scalar); }});
  return cases;
}

const Case kCast = {"porta_cast", [](Fixture& x) {
                      expect_handle_and_out_checked(
                          x, [](porta_tensor* t, porta_tensor** o) { return porta_cast(t, porta_int32, o); });
                      Untouched<porta_tensor*> out;
                      REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "unsupported dtype",
                              porta_cast(x.f.get(), DLDataType{kDLFloat, 8, 1}, out.p()));
                      REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "lanes 2",
                              porta_cast(x.f.get(), DLDataType{kDLInt, 32, 2}, out.p()));
                    }};

const Case kCases[] = {
    {"porta_where",
     [](Fixture& x) {
       porta_tensor *m = x.mask.get(), *f = x.f.get();
       expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) { return porta_where(m, t, f, o); });
       expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) { return porta_where(m, f, t, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "cond is NULL", porta_where(nullptr, f, f, out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_where(Fixture::released(), f, f, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "the condition must be bool", porta_where(f, f, f, out.p()));
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1", porta_where(m, f, x.other.get(), out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "cannot be broadcast", porta_where(m, f, x.f4.get(), out.p()));
     }},
    {"porta_unary_inplace",
     [](Fixture& x) {
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_unary_inplace(PORTA_OP_RELU, nullptr));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_unary_inplace(PORTA_OP_RELU, Fixture::released()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a live", porta_unary_inplace(PORTA_OP_RELU, Fixture::foreign()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "op -1 is not a porta_op",
               porta_unary_inplace(-1, x.f.get()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "is not a porta_op", porta_unary_inplace(PORTA_OP_COUNT, x.f.get()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "sum has no in-place form", porta_unary_inplace(PORTA_OP_SUM, x.f.get()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "result type float32 can't be cast to the desired output type int64",
               porta_unary_inplace(PORTA_OP_EXP, x.labels.get()));
       Tensor leaf = x.leaf();
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "leaf tensor that requires grad", porta_unary_inplace(PORTA_OP_RELU, leaf.get()));
       EXPECT_EQ(porta_test::values(x.f.get()), (std::vector<float>{1, 2, 3, 4, 5, 6})) << "a refused write changed the tensor";
     }},
    {"porta_binary_inplace",
     [](Fixture& x) {
       porta_tensor* f = x.f.get();
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_binary_inplace(PORTA_OP_ADD, nullptr, f));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "other is NULL", porta_binary_inplace(PORTA_OP_ADD, f, nullptr));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_binary_inplace(PORTA_OP_ADD, f, Fixture::released()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "relu has no in-place form", porta_binary_inplace(PORTA_OP_RELU, f, f));
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1", porta_binary_inplace(PORTA_OP_ADD, f, x.other.get()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "cannot be broadcast", porta_binary_inplace(PORTA_OP_ADD, f, x.f4.get()));
       const int64_t wide[3] = {4, 2, 3};
       porta_tensor* big = nullptr;
       ASSERT_EQ(porta_ones(wide, 3, porta_float32, x.cpu, &big), PORTA_OK) << porta_last_error();
       Tensor owned(big);
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "doesn't match the broadcast shape [4, 2, 3]",
               porta_binary_inplace(PORTA_OP_MUL, f, big));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "can't be cast to the desired output type int64",
               porta_binary_inplace(PORTA_OP_DIV, x.labels.get(), x.labels.get()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "bool", porta_binary_inplace(PORTA_OP_SUB, x.mask.get(), x.mask.get()));
       // An expanded view: one memory location behind several elements.
       const int64_t row[1] = {3}, grid[2] = {2, 3};
       porta_tensor *vec = nullptr, *expanded = nullptr;
       ASSERT_EQ(porta_ones(row, 1, porta_float32, x.cpu, &vec), PORTA_OK);
       Tensor owned_vec(vec);
       ASSERT_EQ(porta_expand(vec, grid, 2, &expanded), PORTA_OK) << porta_last_error();
       Tensor owned_expanded(expanded);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "more than one element of the written-to tensor refers to a single memory",
               porta_binary_inplace(PORTA_OP_ADD, expanded, f));
       EXPECT_EQ(porta_test::values(vec), (std::vector<float>{1, 1, 1}));
       EXPECT_EQ(porta_test::values(f), (std::vector<float>{1, 2, 3, 4, 5, 6})) << "a refused write changed the tensor";
     }},
    {"porta_binary_scalar_inplace",
     [](Fixture& x) {
       porta_tensor* f = x.f.get();
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_binary_scalar_inplace(PORTA_OP_ADD, nullptr, 1.0));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released",
               porta_binary_scalar_inplace(PORTA_OP_ADD, Fixture::released(), 1.0));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "is not a porta_op",
               porta_binary_scalar_inplace(1000, f, 1.0));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "exp has no in-place form", porta_binary_scalar_inplace(PORTA_OP_EXP, f, 1.0));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "result type float32 can't be cast to the desired output type int64",
               porta_binary_scalar_inplace(PORTA_OP_ADD, x.labels.get(), 1.5));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "result type float32 can't be cast to the desired output type int64",
               porta_binary_scalar_inplace(PORTA_OP_ADD, x.labels.get(), 1e300));
       Tensor leaf = x.leaf();
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "leaf tensor that requires grad",
               porta_binary_scalar_inplace(PORTA_OP_MUL, leaf.get(), 2.0));
       EXPECT_EQ(porta_test::values(f), (std::vector<float>{1, 2, 3, 4, 5, 6})) << "a refused write changed the tensor";
     }},

    // ---- reductions
    {"porta_sum", [](Fixture& x) { check_reduce(x, porta_sum); }},
    {"porta_mean",
     [](Fixture& x) {
       check_reduce(x, porta_mean);
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "mean: needs a floating tensor (float16, bfloat16, float32 or float64)",
               porta_mean(x.labels.get(), nullptr, 0, 0, out.p()));
     }},
    {"porta_max",
     [](Fixture& x) {
       check_reduce(x, porta_max);
       const int64_t none[2] = {0, 3};
       porta_tensor* empty = nullptr;
       ASSERT_EQ(porta_zeros(none, 2, porta_float32, x.cpu, &empty), PORTA_OK);
       Tensor owned(empty);
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "cannot reduce over zero elements",
               porta_max(empty, nullptr, 0, 0, out.p()));
     }},
    {"porta_min", [](Fixture& x) { check_reduce(x, porta_min); }},
    {"porta_argmax", [](Fixture& x) { check_argreduce(x, porta_argmax); }},
    {"porta_argmin", [](Fixture& x) { check_argreduce(x, porta_argmin); }},

    // ---- linear algebra
    {"porta_matmul",
     [](Fixture& x) {
       check_binary(x, porta_matmul, false, "cannot be multiplied");
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "matmul is not defined for bool tensors",
               porta_matmul(x.mask.get(), x.mask.get(), out.p()));
       porta_tensor* scalar = nullptr;
       ASSERT_EQ(porta_ones(nullptr, 0, porta_float32, x.cpu, &scalar), PORTA_OK);
       Tensor owned(scalar);
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "at least 1 dimension", porta_matmul(scalar, x.f.get(), out.p()));
     }},

    // ---- composite ops
    {"porta_clamp",
     [](Fixture& x) {
       const double lo = 0, hi = 1, huge = 1e300;
       expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) { return porta_clamp(t, &lo, &hi, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "at least one of min and max",
               porta_clamp(x.f.get(), nullptr, nullptr, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "bool", porta_clamp(x.mask.get(), &lo, &hi, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "value 1e+300 cannot be converted to type float32 without overflow",
               porta_clamp(x.labels.get(), &huge, nullptr, out.p()));
     }},
    {"porta_clamp_tensor",
     [](Fixture& x) {
       porta_tensor* f = x.f.get();
       expect_handle_and_out_checked(x,
                                     [&](porta_tensor* t, porta_tensor** o) { return porta_clamp_tensor(t, f, f, o); });
       Untouched<porta_tensor*> out;
       // min and max may be NULL (not both); a dead handle is refused in either place.
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "min is not a live porta_tensor (already released?)",
               porta_clamp_tensor(f, Fixture::released(), f, out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "max is not a live porta_tensor",
               porta_clamp_tensor(f, f, Fixture::foreign(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "at least one of min and max",
               porta_clamp_tensor(f, nullptr, nullptr, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "bool", porta_clamp_tensor(x.mask.get(), f, f, out.p()));
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1", porta_clamp_tensor(f, x.other.get(), nullptr, out.p()));
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1", porta_clamp_tensor(f, nullptr, x.other.get(), out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "cannot be broadcast", porta_clamp_tensor(f, x.f4.get(), nullptr, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "cannot be broadcast", porta_clamp_tensor(f, f, x.f4.get(), out.p()));
     }},
    {"porta_lerp",
     [](Fixture& x) {
       porta_tensor* f = x.f.get();
       expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) { return porta_lerp(t, f, f, o); });
       expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) { return porta_lerp(f, t, f, o); });
       expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) { return porta_lerp(f, f, t, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "weight is NULL", porta_lerp(f, f, nullptr, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "expected a floating tensor, got int64",
               porta_lerp(x.labels.get(), x.labels.get(), x.labels.get(), out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "must have one dtype", porta_lerp(f, f, x.mask.get(), out.p()));
       Tensor f64 = make({2, 3}, x.cpu, porta_float64);
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "float32, float64 and float32", porta_lerp(f, f64.get(), f, out.p()));
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1", porta_lerp(f, x.other.get(), f, out.p()));
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1", porta_lerp(f, f, x.other.get(), out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "cannot be broadcast", porta_lerp(f, x.f4.get(), f, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "cannot be broadcast", porta_lerp(f, f, x.f4.get(), out.p()));
     }},
    {"porta_add_alpha",
     [](Fixture& x) {
       porta_tensor *f = x.f.get(), *two = nullptr, *half = nullptr;
       ASSERT_EQ(porta_scalar_tensor(PORTA_SCALAR_INT, 2, 0.0, x.cpu, &two), PORTA_OK);
       ASSERT_EQ(porta_scalar_tensor(PORTA_SCALAR_FLOAT, 0, 0.5, x.cpu, &half), PORTA_OK);
       Tensor two_owner(two), half_owner(half);
       expect_handle_and_out_checked(
           x, [&](porta_tensor* t, porta_tensor** o) { return porta_add_alpha(PORTA_OP_ADD, t, f, two, o); });
       expect_handle_and_out_checked(
           x, [&](porta_tensor* t, porta_tensor** o) { return porta_add_alpha(PORTA_OP_SUB, f, t, two, o); });
       expect_handle_and_out_checked(
           x, [&](porta_tensor* t, porta_tensor** o) { return porta_add_alpha(PORTA_OP_ADD, f, f, t, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "op must be PORTA_OP_ADD or PORTA_OP_SUB, got 16",
               porta_add_alpha(PORTA_OP_MUL, f, f, two, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "must be a 0-d tensor", porta_add_alpha(PORTA_OP_ADD, f, f, f, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "alpha must not be a floating point number",
               porta_add_alpha(PORTA_OP_ADD, x.labels.get(), x.labels.get(), half, out.p()));
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1", porta_add_alpha(PORTA_OP_ADD, f, x.other.get(), two, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "cannot be broadcast",
               porta_add_alpha(PORTA_OP_ADD, f, x.f4.get(), two, out.p()));
     }},
    {"porta_addcmul",
     [](Fixture& x) {
       porta_tensor *f = x.f.get(), *two = nullptr;
       ASSERT_EQ(porta_scalar_tensor(PORTA_SCALAR_INT, 2, 0.0, x.cpu, &two), PORTA_OK);
       Tensor two_owner(two);
       for (int k = 0; k < 4; ++k)
         expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) {
           porta_tensor* a[4] = {f, f, f, two};
           a[k] = t;
           return porta_addcmul(PORTA_OP_MUL, a[0], a[1], a[2], a[3], o);
         });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "op must be PORTA_OP_MUL or PORTA_OP_DIV, got 14",
               porta_addcmul(PORTA_OP_ADD, f, f, f, two, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "addcdiv: integer division is not supported",
               porta_addcmul(PORTA_OP_DIV, f, x.labels.get(), x.labels.get(), two, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "not defined for bool",
               porta_addcmul(PORTA_OP_MUL, x.mask.get(), x.mask.get(), x.mask.get(), two, out.p()));
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1", porta_addcmul(PORTA_OP_MUL, f, x.other.get(), f, two, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "cannot be broadcast",
               porta_addcmul(PORTA_OP_MUL, f, f, x.f4.get(), two, out.p()));
     }},
    {"porta_logsumexp", [](Fixture& x) { check_reduce(x, porta_logsumexp); }},
    {"porta_nansum", [](Fixture& x) { check_reduce(x, porta_nansum); }},
    {"porta_nanmean",
     [](Fixture& x) {
       check_reduce(x, porta_nanmean);
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "nanmean: expected a floating tensor, got int64",
               porta_nanmean(x.labels.get(), nullptr, 0, 0, out.p()));
     }},
    {"porta_gelu",
     [](Fixture& x) {
       expect_handle_and_out_checked(
           x, [](porta_tensor* t, porta_tensor** o) { return porta_gelu(t, PORTA_GELU_TANH, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "approximate must be PORTA_GELU_NONE (0) or PORTA_GELU_TANH (1), got 7",
               porta_gelu(x.f.get(), 7, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "got -1", porta_gelu(x.f.get(), -1, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "gelu: expected a floating tensor, got int64",
               porta_gelu(x.labels.get(), PORTA_GELU_NONE, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "got bool", porta_gelu(x.mask.get(), PORTA_GELU_NONE, out.p()));
     }},
    {"porta_silu",
     [](Fixture& x) {
       expect_handle_and_out_checked(x, porta_silu);
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "silu: expected a floating tensor, got int64",
               porta_silu(x.labels.get(), out.p()));
     }},
    {"porta_softplus",
     [](Fixture& x) {
       expect_handle_and_out_checked(x, [](porta_tensor* t, porta_tensor** o) { return porta_softplus(t, 1, 20, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "softplus: expected a floating tensor, got int64",
               porta_softplus(x.labels.get(), 1, 20, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "beta must not be 0", porta_softplus(x.f.get(), 0, 20, out.p()));
     }},
    {"porta_leaky_relu",
     [](Fixture& x) {
       expect_handle_and_out_checked(x, [](porta_tensor* t, porta_tensor** o) { return porta_leaky_relu(t, 0.01, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "leaky_relu: expected a floating tensor, got bool",
               porta_leaky_relu(x.mask.get(), 0.01, out.p()));
     }},
    {"porta_elu",
     [](Fixture& x) {
       expect_handle_and_out_checked(x, [](porta_tensor* t, porta_tensor** o) { return porta_elu(t, 1, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "elu: expected a floating tensor, got int64",
               porta_elu(x.labels.get(), 1, out.p()));
     }},
    {"porta_hardtanh",
     [](Fixture& x) {
       expect_handle_and_out_checked(x, [](porta_tensor* t, porta_tensor** o) { return porta_hardtanh(t, -1, 1, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "hardtanh: expected a floating tensor, got int64",
               porta_hardtanh(x.labels.get(), -1, 1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "min_val (1) must not exceed max_val (-1)",
               porta_hardtanh(x.f.get(), 1, -1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "must not exceed", porta_hardtanh(x.f.get(), NAN, 1, out.p()));
     }},
    {"porta_isnan", [](Fixture& x) { expect_handle_and_out_checked(x, porta_isnan); }},
    {"porta_isinf", [](Fixture& x) { expect_handle_and_out_checked(x, porta_isinf); }},
    {"porta_isfinite", [](Fixture& x) { expect_handle_and_out_checked(x, porta_isfinite); }},
    {"porta_nan_to_num",
     [](Fixture& x) {
       const double v = 1;
       expect_handle_and_out_checked(
           x, [&](porta_tensor* t, porta_tensor** o) { return porta_nan_to_num(t, &v, nullptr, &v, o); });
       expect_handle_and_out_checked(
           x, [](porta_tensor* t, porta_tensor** o) { return porta_nan_to_num(t, nullptr, nullptr, nullptr, o); });
     }},
    {"porta_logical_not", [](Fixture& x) { expect_handle_and_out_checked(x, porta_logical_not); }},
    {"porta_logical_and", [](Fixture& x) { check_binary(x, porta_logical_and, false); }},
    {"porta_logical_or", [](Fixture& x) { check_binary(x, porta_logical_or, false); }},
    {"porta_logical_xor", [](Fixture& x) { check_binary(x, porta_logical_xor, false); }},
};

// porta.h's indexing section (indexing_cases()) and its statistics, shapes and
// products (statistics_cases()) come here, before autograd.

const Case kAutogradCases[] = {
    // ---- autograd
    {"porta_tensor_set_requires_grad",
     [](Fixture& x) {
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_set_requires_grad(nullptr, 1));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_tensor_set_requires_grad(Fixture::released(), 1));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "only float tensors", porta_tensor_set_requires_grad(x.labels.get(), 1));
       Tensor p = x.leaf();
       porta_tensor* y = nullptr;
       ASSERT_EQ(porta_mul_scalar(p.get(), 2, &y), PORTA_OK);
       Tensor owned(y);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "only leaf tensors", porta_tensor_set_requires_grad(y, 0));
     }},
    {"porta_tensor_requires_grad",
     [](Fixture& x) {
       Untouched<int> out;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_requires_grad(nullptr, out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released",
               porta_tensor_requires_grad(Fixture::released(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_tensor_requires_grad(x.f.get(), nullptr));
     }},
    {"porta_tensor_is_leaf",
     [](Fixture& x) {
       Untouched<int> out;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_is_leaf(nullptr, out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a tensor at all", porta_tensor_is_leaf(Fixture::foreign(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_tensor_is_leaf(x.f.get(), nullptr));
     }},
    {"porta_tensor_grad",
     [](Fixture& x) {
       expect_handle_and_out_checked(x, [](porta_tensor* t, porta_tensor** o) { return porta_tensor_grad(t, o); });
     }},
    {"porta_tensor_set_grad",
     [](Fixture& x) {
       Tensor p = x.leaf();
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_set_grad(nullptr, x.f.get()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_tensor_set_grad(p.get(), Fixture::released()));
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1", porta_tensor_set_grad(p.get(), x.other.get()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "does not match the tensor", porta_tensor_set_grad(p.get(), x.f4.get()));
       porta_tensor* g = nullptr;
       EXPECT_EQ(porta_tensor_grad(p.get(), &g), PORTA_OK);
       EXPECT_EQ(g, nullptr) << "a refused set_grad changed the gradient";
     }},
    {"porta_backward",
     [](Fixture& x) {
       Tensor p = x.leaf();
       porta_tensor* y = nullptr;
       ASSERT_EQ(porta_mul_scalar(p.get(), 2, &y), PORTA_OK);
       Tensor owned(y);
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_backward(nullptr, nullptr));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_backward(y, Fixture::released()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "does not require grad", porta_backward(x.f.get(), nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "one-element tensor", porta_backward(y, nullptr));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "gradient shape [4]", porta_backward(y, x.f4.get()));
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1", porta_backward(y, x.other.get()));
     }},
    {"porta_detach", [](Fixture& x) { expect_handle_and_out_checked(x, porta_detach); }},
    {"porta_set_grad_enabled",
     [](Fixture&) {
       // Any int is a valid flag: nothing to refuse.
       EXPECT_EQ(porta_set_grad_enabled(INT32_MIN), PORTA_OK);
       EXPECT_EQ(porta_set_grad_enabled(1), PORTA_OK);
     }},
    {"porta_is_grad_enabled",
     [](Fixture&) { REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_is_grad_enabled(nullptr)); }},
    {"porta_backward_ex",
     [](Fixture& x) {
       Tensor p = x.leaf();
       porta_tensor* y = nullptr;
       ASSERT_EQ(porta_sum(p.get(), nullptr, 0, 0, &y), PORTA_OK);
       Tensor owned(y);
       porta_tensor* roots[1] = {y};
       porta_tensor* bad[1] = {Fixture::released()};
       porta_tensor* constant[1] = {x.f.get()};
       porta_tensor* leaf[1] = {p.get()};
       porta_tensor* out[1] = {nullptr};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "num_roots must be >= 1", porta_backward_ex(roots, nullptr, 0, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "roots must not be NULL", porta_backward_ex(nullptr, nullptr, 1, nullptr));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_backward_ex(bad, nullptr, 1, nullptr));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_backward_ex(roots, bad, 1, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "does not require grad", porta_backward_ex(constant, nullptr, 1, nullptr));
       porta_backward_options o{};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "struct_size must be set", porta_backward_ex(roots, nullptr, 1, &o));
       o.struct_size = sizeof(o);
       o.num_inputs = -1;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "must be >= 0", porta_backward_ex(roots, nullptr, 1, &o));
       o.num_inputs = 1;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "options->inputs must not be NULL", porta_backward_ex(roots, nullptr, 1, &o));
       o.inputs = constant;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "input 0 does not require grad", porta_backward_ex(roots, nullptr, 1, &o));
       o.inputs = nullptr, o.num_inputs = 0, o.grads_out = out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "grads_out needs options->inputs", porta_backward_ex(roots, nullptr, 1, &o));
       // An input the root does not reach: refused unless allow_unused.
       Tensor q = x.leaf();
       porta_tensor* unused[1] = {q.get()};
       o.inputs = unused, o.num_inputs = 1, o.retain_graph = 1;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "not used in the graph", porta_backward_ex(roots, nullptr, 1, &o));
       EXPECT_EQ(out[0], nullptr);
       o.allow_unused = 1;
       EXPECT_EQ(porta_backward_ex(roots, nullptr, 1, &o), PORTA_OK) << porta_last_error();
       EXPECT_EQ(out[0], nullptr);
       o.inputs = leaf;
       EXPECT_EQ(porta_backward_ex(roots, nullptr, 1, &o), PORTA_OK) << porta_last_error();
       EXPECT_NE(out[0], nullptr);
       porta_tensor_release(out[0]);
       porta_tensor* g = nullptr;
       EXPECT_EQ(porta_tensor_grad(p.get(), &g), PORTA_OK);
       EXPECT_EQ(g, nullptr) << "grads_out must not accumulate into .grad";
     }},
    {"porta_tensor_register_hook",
     [](Fixture& x) {
       Tensor p = x.leaf();
       uint64_t handle = 0;
       static int released = 0;
       auto hook = [](void*, porta_tensor*, porta_tensor**) { return PORTA_OK; };
       auto release = [](void*) { ++released; };
       released = 0;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_register_hook(nullptr, hook, nullptr, release, &handle));
       EXPECT_EQ(released, 1) << "a refused registration releases user_data";
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released",
               porta_tensor_register_hook(Fixture::released(), hook, nullptr, nullptr, &handle));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "hook must not be NULL",
               porta_tensor_register_hook(p.get(), nullptr, nullptr, nullptr, &handle));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "handle must not be NULL",
               porta_tensor_register_hook(p.get(), hook, nullptr, nullptr, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "doesn't require gradient",
               porta_tensor_register_hook(x.f.get(), hook, nullptr, nullptr, &handle));
     }},
    {"porta_tensor_remove_hook",
     [](Fixture& x) {
       Tensor p = x.leaf();
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_remove_hook(nullptr, 1));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_tensor_remove_hook(Fixture::released(), 1));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "no hook with handle 0", porta_tensor_remove_hook(p.get(), 0));
       uint64_t handle = 0;
       auto hook = [](void*, porta_tensor*, porta_tensor**) { return PORTA_OK; };
       ASSERT_EQ(porta_tensor_register_hook(p.get(), hook, nullptr, nullptr, &handle), PORTA_OK);
       EXPECT_EQ(porta_tensor_remove_hook(p.get(), handle), PORTA_OK);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "removed already", porta_tensor_remove_hook(p.get(), handle));
     }},
    {"porta_tensor_version",
     [](Fixture& x) {
       uint64_t v = 0;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_version(nullptr, &v));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_tensor_version(Fixture::released(), &v));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_tensor_version(x.f.get(), nullptr));
     }},
    {"porta_tensor_retain_grad",
     [](Fixture& x) {
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_retain_grad(nullptr));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_tensor_retain_grad(Fixture::released()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "requires_grad=False", porta_tensor_retain_grad(x.f.get()));
     }},
    {"porta_tensor_retains_grad",
     [](Fixture& x) {
       int v = 0;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_retains_grad(nullptr, &v));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_tensor_retains_grad(Fixture::released(), &v));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_tensor_retains_grad(x.f.get(), nullptr));
     }},
    {"porta_function_attach",
     [](Fixture& x) {
       Tensor p = x.leaf();
       porta_tensor* ins[1] = {p.get()};
       porta_tensor* bad[1] = {Fixture::released()};
       auto backward = [](void*, porta_tensor*, porta_tensor**, int32_t) { return PORTA_OK; };
       static int released = 0;
       auto release = [](void*) { ++released; };
       released = 0;
       porta_tensor* out = nullptr;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "output is NULL",
               porta_function_attach(nullptr, ins, 1, backward, nullptr, release, nullptr, &out));
       EXPECT_EQ(released, 1) << "a refused attach releases user_data";
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "inputs must not be NULL",
               porta_function_attach(x.f.get(), nullptr, 1, backward, nullptr, nullptr, nullptr, &out));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "must be >= 0",
               porta_function_attach(x.f.get(), ins, -1, backward, nullptr, nullptr, nullptr, &out));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released",
               porta_function_attach(x.f.get(), bad, 1, backward, nullptr, nullptr, nullptr, &out));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "backward must not be NULL",
               porta_function_attach(x.f.get(), ins, 1, nullptr, nullptr, nullptr, nullptr, &out));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL",
               porta_function_attach(x.f.get(), ins, 1, backward, nullptr, nullptr, nullptr, nullptr));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "must be float",
               porta_function_attach(x.labels.get(), ins, 1, backward, nullptr, nullptr, nullptr, &out));
       EXPECT_EQ(out, nullptr);
     }},
    {"porta_function_attach_outputs",
     [](Fixture& x) {
       Tensor p = x.leaf();
       porta_tensor* ins[1] = {p.get()};
       porta_tensor* two[2] = {x.f.get(), x.f4.get()};
       porta_tensor* with_ints[2] = {x.f.get(), x.labels.get()};
       porta_tensor* apart[2] = {x.f.get(), x.other.get()};
       porta_tensor* bad[1] = {Fixture::released()};
       auto backward = [](void*, porta_tensor* const*, int32_t, porta_tensor**, int32_t) { return PORTA_OK; };
       static int released = 0;
       auto release = [](void*) { ++released; };
       released = 0;
       porta_tensor* out[2] = {nullptr, nullptr};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL",
               porta_function_attach_outputs(two, 2, ins, 1, backward, nullptr, release, nullptr, nullptr));
       EXPECT_EQ(released, 1) << "a refused attach releases user_data";
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "num_outputs must be >= 1",
               porta_function_attach_outputs(two, 0, ins, 1, backward, nullptr, nullptr, nullptr, out));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "outputs must not be NULL",
               porta_function_attach_outputs(nullptr, 2, ins, 1, backward, nullptr, nullptr, nullptr, out));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released",
               porta_function_attach_outputs(bad, 1, ins, 1, backward, nullptr, nullptr, nullptr, out));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "inputs must not be NULL",
               porta_function_attach_outputs(two, 2, nullptr, 1, backward, nullptr, nullptr, nullptr, out));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "must be >= 0",
               porta_function_attach_outputs(two, 2, ins, -1, backward, nullptr, nullptr, nullptr, out));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released",
               porta_function_attach_outputs(two, 2, bad, 1, backward, nullptr, nullptr, nullptr, out));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "backward must not be NULL",
               porta_function_attach_outputs(two, 2, ins, 1, nullptr, nullptr, nullptr, nullptr, out));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "must be float",
               porta_function_attach_outputs(with_ints, 2, ins, 1, backward, nullptr, nullptr, nullptr, out));
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "must share a device",
               porta_function_attach_outputs(apart, 2, ins, 1, backward, nullptr, nullptr, nullptr, out));
       EXPECT_EQ(out[0], nullptr);
       EXPECT_EQ(out[1], nullptr);
     }},
    {"porta_set_anomaly_enabled",
     [](Fixture&) {
       // Any int is a valid flag: nothing to refuse (left off, as the other tests expect).
       EXPECT_EQ(porta_set_anomaly_enabled(INT32_MIN), PORTA_OK);
       EXPECT_EQ(porta_set_anomaly_enabled(0), PORTA_OK);
     }},
    {"porta_is_anomaly_enabled",
     [](Fixture&) {
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_is_anomaly_enabled(nullptr));
     }},
    {"porta_tensor_move_to",
     [](Fixture& x) {
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_move_to(nullptr, x.mock));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_tensor_move_to(Fixture::released(), x.mock));
       REFUSED(PORTA_ERROR_NO_SUCH_DEVICE, "cpu:7", porta_tensor_move_to(x.f.get(), DLDevice{kDLCPU, 7}));
       Tensor p = x.leaf();
       porta_tensor* y = nullptr;
       ASSERT_EQ(porta_mul_scalar(p.get(), 2, &y), PORTA_OK);
       Tensor owned(y);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "only leaf tensors move", porta_tensor_move_to(y, x.mock));
     }},
    {"porta_tensor_set_data",
     [](Fixture& x) {
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_set_data(nullptr, x.f.get()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "src is NULL", porta_tensor_set_data(x.f.get(), nullptr));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_tensor_set_data(x.f.get(), Fixture::released()));
       Tensor p = x.leaf();
       porta_tensor* y = nullptr;
       ASSERT_EQ(porta_mul_scalar(p.get(), 2, &y), PORTA_OK);
       Tensor owned(y);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "only a leaf's data can be replaced", porta_tensor_set_data(y, x.f.get()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "its data must be float", porta_tensor_set_data(p.get(), x.labels.get()));
       EXPECT_EQ(porta_test::values(p.get()), (std::vector<float>{1, 2, 3, 4, 5, 6}));
     }},
};

}  // namespace

std::vector<Case> op_cases() {
  std::vector<Case> cases = {kCast};
  for (const Case& c : elementwise_cases()) cases.push_back(c);
  cases.insert(cases.end(), std::begin(kCases), std::end(kCases));
  for (const Case& c : indexing_cases()) cases.push_back(c);
  for (const Case& c : sorting_cases()) cases.push_back(c);
  for (const Case& c : statistics_cases()) cases.push_back(c);
  cases.insert(cases.end(), std::begin(kAutogradCases), std::end(kAutogradCases));
  return cases;
}

}  // namespace porta_bad_args
