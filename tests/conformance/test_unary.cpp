// Every UNARY op of PORTA_OP_LIST, on every dtype, layout and shape class.
#include <cmath>

#include "device_params.hpp"
#include "op_tables.hpp"
#include "reference.hpp"

namespace conformance {
namespace {

class Unary : public DeviceTest {
 protected:
  void check(const UnaryOp& op, const HostTensor& in, Layout layout) {
    op_case(op.name, in.dtype, [&] {
      SCOPED_TRACE(std::string(op.name) + " " + dtype_name(in.dtype) + " " + shape_str(in.shape) + " " +
                   layout_name(layout));
      Tensor a = upload(in, dev(), layout);
      if (!unary_supported(op.op, in.dtype)) {
        expect_failure(PORTA_ERROR_UNSUPPORTED_DTYPE, [&](porta_tensor** o) { return op.fn(a, o); });
        return;
      }
      Tensor out;
      CHECK_OK(op.fn(a, out.out()));
      EXPECT_EQ(device_string(device_of(out)), GetParam().name);
      EXPECT_TRUE(is_contiguous(out));
      const HostTensor ref = ref_unary(op.op, in);
      expect_close(download(out), ref, tolerance_for(ref.dtype, is_transcendental(op.op)), op.name);
      expect_close(download(a), in, kExact, std::string(op.name) + " left its input alone");
    });
  }
};
PORTA_INSTANTIATE_FOR_EVERY_DEVICE(Unary);

// The inputs where each op is defined, by its domain column
// (GeneralInputsOutsideTheDomain covers the rest).
Values values_for(porta_op op) {
  switch (domain_of(op)) {
    case PORTA_DOMAIN_POSITIVE: return Values::Positive;
    case PORTA_DOMAIN_UNIT: return Values::Unit;
    default: return Values::General;
  }
}

TEST_P(Unary, EveryDtypeAndLayout) {
  uint32_t seed = 1;
  for (const UnaryOp& op : kUnaryOps)
    for (DLDataType dt : kAllDtypes)
      for (Layout layout : kAllLayouts) check(op, sample_host(dt, {7, 9}, seed++, values_for(op.op)), layout);
}

TEST_P(Unary, ZeroDimAndEmptyAndHigherRank) {
  uint32_t seed = 100;
  for (const UnaryOp& op : kUnaryOps)
    for (DLDataType dt : {porta_float32, porta_float64, porta_int32, porta_bool})
      for (const Shape& s : {Shape{}, Shape{0}, Shape{3, 0}, Shape{2, 3, 4}, Shape{1, 1, 5}})
        check(op, sample_host(dt, s, seed++, values_for(op.op)), Layout::Transposed);
}

TEST_P(Unary, GeneralInputsOutsideTheDomain) {
  uint32_t seed = 200;
  for (const UnaryOp& op : kUnaryOps)
    for (DLDataType dt : {porta_float32, porta_float64, porta_int64})
      check(op, sample_host(dt, {5, 8}, seed++, Values::General), Layout::Contiguous);
}

// Large enough to be split across threads or thread blocks.
TEST_P(Unary, LargeNonContiguousInputs) {
  for (const UnaryOp& op : kUnaryOps)
    if (op.op == PORTA_OP_NEG || op.op == PORTA_OP_EXP) {
      check(op, sample_host(porta_float32, {517, 2049}, 400), Layout::Transposed);
      check(op, sample_host(porta_int32, {1031, 997}, 401), Layout::Strided);
    }
}

TEST_P(Unary, SpecialFloatValues) {
  const std::vector<double> specials = {0.0, -0.0, 1.0, -1.0, 50.0, -50.0, 100.0, -100.0, INFINITY, -INFINITY, NAN};
  for (const UnaryOp& op : kUnaryOps)
    for (DLDataType dt : {porta_float32, porta_float64})
      check(op, make_host(dt, {static_cast<int64_t>(specials.size())}, specials), Layout::Contiguous);
}

TEST_P(Unary, ExpandedInput) {
  for (const UnaryOp& op : kUnaryOps)
    op_case(op.name, porta_float32, [&] {
      const DLDataType dt = unary_supported(op.op, porta_float32) ? porta_float32 : porta_int32;
      const HostTensor small = sample_host(dt, {1, 5}, 300, values_for(op.op));
      Tensor base = upload(small, dev());
      const Shape target{4, 5};
      Tensor a, out;
      CHECK_OK(porta_expand(base, target.data(), 2, a.out()));
      CHECK_OK(op.fn(a, out.out()));
      const HostTensor ref = ref_unary(op.op, broadcast_host(small, target));
      expect_close(download(out), ref, tolerance_for(ref.dtype, is_transcendental(op.op)), op.name);
    });
}

}  // namespace
}  // namespace conformance
