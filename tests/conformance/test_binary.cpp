// Every BINARY and COMPARE op of PORTA_OP_LIST: all dtype pairs (promotion),
// NumPy broadcasting, non-contiguous and expanded operands, 0-d and empty.
#include <cmath>

#include "device_params.hpp"
#include "op_tables.hpp"
#include "reference.hpp"

namespace conformance {
namespace {

class Binary : public DeviceTest {
 protected:
  // Runs op on a and b (uploaded as laid out) and checks it against the reference.
  void check(const BinaryOp& op, const HostTensor& a, const HostTensor& b, Layout la, Layout lb) {
    SCOPED_TRACE(std::string(op.name) + "(" + dtype_name(a.dtype) + " " + shape_str(a.shape) + " " + layout_name(la) +
                 ", " + dtype_name(b.dtype) + " " + shape_str(b.shape) + " " + layout_name(lb) + ")");
    Tensor x = upload(a, dev(), la), y = upload(b, dev(), lb);
    check_tensors(op, x, y, a, b);
  }
  // One case per op and promoted operand dtype.
  void check_tensors(const BinaryOp& op, porta_tensor* x, porta_tensor* y, const HostTensor& a, const HostTensor& b) {
    op_case(op.name, promote(a.dtype, b.dtype), [&] {
      if (!binary_supported(op.op, a.dtype, b.dtype)) {
        expect_failure(PORTA_ERROR_UNSUPPORTED_DTYPE, [&](porta_tensor** o) { return op.fn(x, y, o); });
        return;
      }
      if (zero_division(op.op, a, b)) {
        expect_zero_division_error([&](porta_tensor** o) { return op.fn(x, y, o); });
        return;
      }
      Tensor out;
      CHECK_OK(op.fn(x, y, out.out()));
      EXPECT_EQ(device_string(device_of(out)), GetParam().name);
      const HostTensor ref = ref_binary(op.op, a, b);
      expect_close(download(out), ref, tolerance_for(ref.dtype, is_transcendental(op.op)), op.name);
    });
  }
};
PORTA_INSTANTIATE_FOR_EVERY_DEVICE(Binary);

TEST_P(Binary, EveryDtypePair) {
  uint32_t seed = 1;
  for (const BinaryOp& op : kBinaryOps)
    for (DLDataType da : kAllDtypes)
      for (DLDataType db : kAllDtypes)
        check(op, sample_host(da, {4, 6}, next_seed(seed), Values::Grid),
              sample_host(db, {4, 6}, next_seed(seed), Values::Grid), Layout::Contiguous, Layout::Contiguous);
}

TEST_P(Binary, NonContiguousOperands) {
  uint32_t seed = 1000;
  for (const BinaryOp& op : kBinaryOps)
    for (DLDataType dt : {porta_float32, porta_float64, porta_int32, porta_int64, porta_uint8})
      for (Layout la : kAllLayouts)
        for (Layout lb : kAllLayouts)
          check(op, sample_host(dt, {5, 3}, next_seed(seed), Values::Grid),
                sample_host(dt, {5, 3}, next_seed(seed), Values::Grid), la, lb);
}

TEST_P(Binary, Broadcasting) {
  const std::pair<Shape, Shape> cases[] = {
      {{3, 1}, {4}},    {{2, 1, 4}, {3, 1}},    {{}, {3, 4}},          {{3, 4}, {}},
      {{}, {}},         {{1}, {2, 3}},          {{0, 3}, {3}},         {{1}, {0}},
      {{2, 0}, {1, 1}}, {{4, 1, 1}, {1, 3, 2}}, {{5, 1, 3}, {5, 2, 1}}};
  uint32_t seed = 2000;
  for (const BinaryOp& op : kBinaryOps)
    for (DLDataType da : {porta_float32, porta_int32})
      for (DLDataType db : {da, porta_float64})
        for (const auto& [sa, sb] : cases)
          for (Layout layout : {Layout::Contiguous, Layout::Transposed})
            check(op, sample_host(da, sa, next_seed(seed), Values::Grid),
                  sample_host(db, sb, next_seed(seed), Values::Grid), layout, layout);
}

TEST_P(Binary, ExpandedOperands) {
  uint32_t seed = 3000;
  for (const BinaryOp& op : kBinaryOps) {
    const HostTensor a_small = sample_host(porta_float32, {1, 4}, seed++, Values::Grid);
    const HostTensor b_small = sample_host(porta_int64, {3, 1}, seed++, Values::Grid);
    const Shape target{3, 4};
    Tensor a0 = upload(a_small, dev()), b0 = upload(b_small, dev()), a, b;
    CHECK_OK(porta_expand(a0, target.data(), 2, a.out()));
    CHECK_OK(porta_expand(b0, target.data(), 2, b.out()));
    SCOPED_TRACE(op.name);
    check_tensors(op, a, b, broadcast_host(a_small, target), broadcast_host(b_small, target));
  }
}

// Large enough to be split across threads or thread blocks, with chunk
// boundaries falling inside rows of non-contiguous operands.
TEST_P(Binary, LargeNonContiguousOperands) {
  const HostTensor a = sample_host(porta_float32, {1001, 1037}, 4000, Values::Grid);
  const HostTensor b = sample_host(porta_float32, {1037}, 4001, Values::Grid);
  const HostTensor c = sample_host(porta_int64, {1001, 1037}, 4002, Values::Grid);
  for (const BinaryOp& op : kBinaryOps)
    if (op.op == PORTA_OP_MUL || op.op == PORTA_OP_SUB || op.op == PORTA_OP_GE) {
      check(op, a, b, Layout::Transposed, Layout::Strided);
      check(op, c, a, Layout::Strided, Layout::Transposed);
    }
}

TEST_P(Binary, UInt8ArithmeticWrapsAround) {
  const HostTensor a = make_host(porta_uint8, {4}, {200, 3, 16, 0});
  const HostTensor b = make_host(porta_uint8, {4}, {100, 5, 17, 1});
  for (const BinaryOp& op : kBinaryOps)
    if (op.op == PORTA_OP_ADD || op.op == PORTA_OP_SUB || op.op == PORTA_OP_MUL)
      check(op, a, b, Layout::Contiguous, Layout::Contiguous);
}

// IEEE special values: every pair of {0, -0, 1, -1, 2.5, inf, -inf, NaN}.
TEST_P(Binary, SpecialFloatValues) {
  const double specials[] = {0.0, -0.0, 1.0, -1.0, 2.5, INFINITY, -INFINITY, NAN};
  std::vector<double> va, vb;
  for (double x : specials)
    for (double y : specials) va.push_back(x), vb.push_back(y);
  const Shape s{static_cast<int64_t>(va.size())};
  for (const BinaryOp& op : kBinaryOps)
    for (DLDataType dt : {porta_float32, porta_float64})
      check(op, make_host(dt, s, va), make_host(dt, s, vb), Layout::Contiguous, Layout::Contiguous);
}

TEST_P(Binary, BadBroadcastIsShapeMismatch) {
  const std::pair<Shape, Shape> cases[] = {{{3}, {4}}, {{2, 3}, {3, 2}}, {{0}, {2}}};
  for (const BinaryOp& op : kBinaryOps)
    for (const auto& [sa, sb] : cases) {
      SCOPED_TRACE(std::string(op.name) + " " + shape_str(sa) + " vs " + shape_str(sb));
      Tensor a = upload(sample_host(porta_float32, sa, 1), dev()), b = upload(sample_host(porta_float32, sb, 2), dev());
      const std::string msg =
          expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return op.fn(a, b, o); });
      EXPECT_NE(msg.find(op.name), std::string::npos) << "the message does not name the op: " << msg;
    }
}

}  // namespace
}  // namespace conformance
