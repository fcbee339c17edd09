// The host kernels of CUMSUM and CUMPROD against the contract's reference
// (index_scan_cases.hpp, shared with the plugin test): both directions,
// outer and inner above 1, int64 wrapping, floats accumulated in double.
#include "host_runner.hpp"

namespace porta_test::index_scan {
namespace {

template <class D>
class ScanKernels : public ::testing::Test {};
TYPED_TEST_SUITE(ScanKernels, WideDtypes);

TYPED_TEST(ScanKernels, MatchTheReferenceInBothDirections) {
  Runner r = host_runner();
  scan_cases<TypeParam>(r);
}

// Many lines, split over threads; a float32 line whose running sum keeps
// digits float32 itself would lose (1e8 + 1 is 1e8 in float32).
TEST(ScanKernels, ManyLinesAndFloat32SumsAccumulateInDouble) {
  Runner r = host_runner();
  View<Float32> many = dense<Float32>({50, 20, 100});
  fill_random(many, 70);
  check_scan(r, PORTA_OP_CUMSUM, many, true, false);
  View<Float32> line = dense<Float32>({1, 12, 1}, 1.0f), out = dense<Float32>({1, 12, 1});
  line.storage.front() = 1e8f;
  line.storage.back() = -1e8f;
  ASSERT_EQ(r.run(PORTA_OP_CUMSUM, Float32::dl(), {operand(line)}, {operand(out)}, nullptr), PORTA_OK);
  EXPECT_EQ(out.storage[5], static_cast<float>(100000005.0));  // each result rounded from the double sum
  EXPECT_EQ(out.storage.back(), 10.0f);
}

TEST(ScanKernels, OnlyTheScanDtypesHaveKernels) {
  for (DLDataType dt : {Bool::dl(), UInt8::dl(), Int32::dl()}) {
    EXPECT_EQ(porta::host::find_host_kernel(PORTA_OP_CUMSUM, dt), nullptr);
    EXPECT_EQ(porta::host::find_host_kernel(PORTA_OP_CUMPROD, dt), nullptr);
  }
}

TEST(ScanKernels, RejectTooSmallParamsAndOtherShapes) {
  Runner r = host_runner();
  View<Int64> in = dense<Int64>({2, 3, 4}), out = dense<Int64>({2, 3, 4}), flat = dense<Int64>({24});
  const size_t too_small = sizeof(size_t);
  EXPECT_EQ(r.run(PORTA_OP_CUMSUM, Int64::dl(), {operand(in)}, {operand(out)}, &too_small),
            PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(r.last_error().find("cumsum: too-small porta_scan_params"), std::string::npos) << r.last_error();
  EXPECT_EQ(r.run(PORTA_OP_CUMPROD, Int64::dl(), {operand(flat)}, {operand(out)}, nullptr),
            PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(r.last_error().find("cumprod: expected contiguous [outer, n, inner]"), std::string::npos) << r.last_error();
}

}  // namespace
}  // namespace porta_test::index_scan
