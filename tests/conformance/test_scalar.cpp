// The *_scalar forms of every BINARY and COMPARE op, and 0-d tensor operands:
// the scalar takes a's dtype, except that a non-integral scalar with an
// integer or bool tensor gives float32 (and an integral one with bool, int64).
#include <cmath>

#include "device_params.hpp"
#include "op_tables.hpp"
#include "reference.hpp"

namespace conformance {
namespace {

class Scalar : public DeviceTest {};
PORTA_INSTANTIATE_FOR_EVERY_DEVICE(Scalar);

TEST_P(Scalar, EveryDtypeAndScalarKind) {
  uint32_t seed = 1;
  for (const BinaryOp& op : kBinaryOps)
    for (DLDataType dt : kAllDtypes)
      for (double s : {2.0, 0.5, -1.5, 0.0, -3.0, 1.0, 0.1}) {
        if (dt.code == kDLUInt && s < 0 && std::floor(s) == s) continue;  // -3 stored into uint8 is undefined
        for (Layout layout : {Layout::Contiguous, Layout::Strided}) {
          const HostTensor a = sample_host(dt, {3, 5}, seed++, Values::Grid);
          op_case(std::string(op.name) + "_scalar", dt, [&] {
            SCOPED_TRACE(std::string(op.name) + "_scalar(" + dtype_name(dt) + " " + layout_name(layout) + ", " +
                         std::to_string(s) + ")");
            Tensor x = upload(a, dev(), layout), out;
            const DLDataType st = scalar_dtype(dt, s);
            if (!binary_supported(op.op, dt, st)) {
              expect_failure(PORTA_ERROR_UNSUPPORTED_DTYPE, [&](porta_tensor** o) { return op.scalar(x, s, o); });
              return;
            }
            if (op.op == PORTA_OP_POW && !is_float(st) && s < 0) {  // PyTorch: no negative integer power of integers
              expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return op.scalar(x, s, o); });
              return;
            }
            if (zero_division(op.op, a, make_host(st, {}, {s}))) {
              expect_zero_division_error([&](porta_tensor** o) { return op.scalar(x, s, o); });
              return;
            }
            CHECK_OK(op.scalar(x, s, out.out()));
            const HostTensor ref = ref_binary_scalar(op.op, a, s);
            expect_close(download(out), ref, tolerance_for(ref.dtype, is_transcendental(op.op)), op.name);
          });
        }
      }
}

TEST_P(Scalar, ResultDtypes) {
  struct Case {
    DLDataType a;
    double s;
    DLDataType result;
  };
  const Case cases[] = {{porta_int32, 2.0, porta_int32},     {porta_int32, 0.5, porta_float32},
                        {porta_uint8, 3.0, porta_uint8},     {porta_int64, 2.5, porta_float32},
                        {porta_bool, 2.0, porta_int64},      {porta_bool, 0.5, porta_float32},
                        {porta_float64, 2.0, porta_float64}, {porta_float32, 0.1, porta_float32}};
  for (const Case& c : cases) {
    SCOPED_TRACE(dtype_name(c.a) + " + " + std::to_string(c.s));
    Tensor a = upload(sample_host(c.a, {3}, 1, Values::Grid), dev()), out, cmp, quotient;
    CHECK_OK(porta_add_scalar(a, c.s, out.out()));
    EXPECT_EQ(dtype_name(dtype_of(out)), dtype_name(c.result));
    CHECK_OK(porta_lt_scalar(a, c.s, cmp.out()));
    EXPECT_EQ(dtype_name(dtype_of(cmp)), "bool");
    CHECK_OK(porta_div_scalar(a, c.s, quotient.out()));
    EXPECT_EQ(dtype_name(dtype_of(quotient)), dtype_name(floating_or_float32(c.result)));
  }
}

// A 0-d tensor operand broadcasts like a scalar and promotes as PyTorch's: its dtype counts only when of a
// higher category than the dimensioned operand's (float32 x 0-d float64 is float32).
TEST_P(Scalar, ZeroDimTensorOperands) {
  uint32_t seed = 500;
  for (const BinaryOp& op : kBinaryOps)
    for (DLDataType da : kAllDtypes)
      for (DLDataType db : {porta_float64, porta_int32, porta_bool}) {
        const HostTensor a = sample_host(da, {2, 3}, seed++, Values::Grid),
                         b = sample_host(db, {}, seed++, Values::Grid);
        op_case(op.name, result_type(a, b), [&] {
          SCOPED_TRACE(std::string(op.name) + "(" + dtype_name(da) + " [2, 3], " + dtype_name(db) + " [])");
          Tensor x = upload(a, dev()), y = upload(b, dev()), out, out_rev;
          if (!binary_supported(op.op, da, db)) {
            expect_failure(PORTA_ERROR_UNSUPPORTED_DTYPE, [&](porta_tensor** o) { return op.fn(x, y, o); });
            return;
          }
          const auto check = [&](porta_tensor* l, porta_tensor* r, const HostTensor& hl, const HostTensor& hr,
                                 Tensor& result) {
            if (zero_division(op.op, hl, hr)) {
              expect_zero_division_error([&](porta_tensor** o) { return op.fn(l, r, o); });
              return;
            }
            CHECK_OK(op.fn(l, r, result.out()));
            const HostTensor ref = ref_binary(op.op, hl, hr);
            expect_close(download(result), ref, tolerance_for(ref.dtype, is_transcendental(op.op)), op.name);
          };
          check(x, y, a, b, out);
          check(y, x, b, a, out_rev);
        });
      }
}

}  // namespace
}  // namespace conformance
