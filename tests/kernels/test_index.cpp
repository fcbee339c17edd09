// The host kernels of GATHER and SCATTER against naive references on every
// dtype (index_scan_cases.hpp, shared with the plugin test), then what only
// the host kernels do: many lines and elements split over threads, and an
// error naming an index value outside the dim instead of an out-of-bounds
// access.
#include "host_runner.hpp"

namespace porta_test::index_scan {
namespace {

template <class D>
class IndexKernels : public ::testing::Test {};
TYPED_TEST_SUITE(IndexKernels, AnyDtypes);

TYPED_TEST(IndexKernels, GatherMatchesNaiveIndexing) {
  Runner r = host_runner();
  gather_cases<TypeParam>(r);
}

TYPED_TEST(IndexKernels, ScatterMatchesNaiveIndexingForEveryReduce) {
  Runner r = host_runner();
  scatter_cases<TypeParam>(r);
}

TYPED_TEST(IndexKernels, ScatterAppliesRepeatedIndicesInOrderAlongDim) {
  Runner r = host_runner();
  scatter_repeat_cases<TypeParam>(r);
}

TEST(IndexKernels, ScatterAmaxAndAminPropagateNaN) {
  Runner r = host_runner();
  scatter_nan_cases<Float32>(r);
  scatter_nan_cases<Float64>(r);
}

// Enough elements (gather) and lines (scatter) for several parallel chunks.
TEST(IndexKernels, LargeGatherAndScatterMatchNaiveIndexing) {
  Runner r = host_runner();
  View<Float32> src = transposed<Float32>({300, 257});
  fill_random(src, 60);
  View<Int64> index = dense<Int64>({300, 300});
  fill_index(index, 257, 61);
  check_gather(r, src, index, 1);
  View<Float32> self = dense<Float32>({3, 40000});
  fill_random(self, 62);
  View<Int64> rows = dense<Int64>({2, 40000});
  fill_index(rows, 3, 63);
  View<Float32> values = dense<Float32>({2, 40000});
  fill_random(values, 64);
  check_scatter(r, self, rows, values, 0, PORTA_SCATTER_SUM);
}

TEST(IndexKernels, RejectIndexValuesOutsideTheDim) {
  Runner r = host_runner();
  for (int64_t bad : {int64_t{5}, int64_t{-1}}) {
    View<Float64> src = dense<Float64>({2, 5}, 1.0), out = dense<Float64>({2, 3});
    View<Int64> index = dense<Int64>({2, 3});
    index.storage = {0, 1, 2, 3, bad, 4};
    const porta_index_params params{sizeof(porta_index_params), 1, PORTA_SCATTER_ASSIGN};
    EXPECT_EQ(r.run(PORTA_OP_GATHER, Float64::dl(), {operand(src), operand(index)}, {operand(out)}, &params),
              PORTA_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(r.last_error().find("gather: index value " + std::to_string(bad) + " is outside [0, 5)"),
              std::string::npos)
        << r.last_error();
    View<Float64> self = dense<Float64>({2, 5});
    EXPECT_EQ(r.run(PORTA_OP_SCATTER, Float64::dl(), {operand(index), operand(out)}, {operand(self)}, &params),
              PORTA_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(r.last_error().find("scatter: index value " + std::to_string(bad) + " is outside [0, 5)"),
              std::string::npos)
        << r.last_error();
  }
}

// The same from index_select's row copies: a matrix gathered along dim 0
// by one index value per row.
TEST(IndexKernels, RejectIndexValuesOutsideTheRowsOfAMatrix) {
  Runner r = host_runner();
  View<Float32> src = dense<Float32>({3, 4}, 1.0f), out = dense<Float32>({2, 4});
  View<Int64> index = dense<Int64>({2, 4});
  index.strides[1] = 0;
  index.storage[0] = 1;
  index.storage[static_cast<size_t>(index.strides[0])] = 3;
  const porta_index_params params{sizeof(porta_index_params), 0, PORTA_SCATTER_ASSIGN};
  EXPECT_EQ(r.run(PORTA_OP_GATHER, Float32::dl(), {operand(src), operand(index)}, {operand(out)}, &params),
            PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(r.last_error().find("gather: index value 3 is outside [0, 3)"), std::string::npos) << r.last_error();
}

TEST(IndexKernels, RejectCallsOutsideTheContract) {
  Runner r = host_runner();
  View<Bool> self = dense<Bool>({4}), src = dense<Bool>({4});
  View<Int64> index = dense<Int64>({4});
  const porta_index_params sum{sizeof(porta_index_params), 0, PORTA_SCATTER_SUM};
  EXPECT_EQ(r.run(PORTA_OP_SCATTER, Bool::dl(), {operand(index), operand(src)}, {operand(self)}, &sum),
            PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(r.last_error().find("scatter: reduce sum is not defined for bool"), std::string::npos) << r.last_error();
  const porta_index_params bad_reduce{sizeof(porta_index_params), 0, 9}, bad_dim{sizeof(porta_index_params), 1, 0};
  EXPECT_EQ(r.run(PORTA_OP_SCATTER, Bool::dl(), {operand(index), operand(src)}, {operand(self)}, &bad_reduce),
            PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(r.run(PORTA_OP_GATHER, Bool::dl(), {operand(src), operand(index)}, {operand(self)}, &bad_dim),
            PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(r.last_error().find("gather: dim 1 is outside [0, 1)"), std::string::npos) << r.last_error();
  EXPECT_EQ(r.run(PORTA_OP_GATHER, Bool::dl(), {operand(src), operand(index)}, {operand(self)}, nullptr),
            PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(r.last_error().find("gather: missing or too-small porta_index_params"), std::string::npos)
      << r.last_error();
  View<Bool> wide = dense<Bool>({5});  // gather's out must have the index's shape
  const porta_index_params dim0{sizeof(porta_index_params), 0, 0};
  EXPECT_EQ(r.run(PORTA_OP_GATHER, Bool::dl(), {operand(src), operand(index)}, {operand(wide)}, &dim0),
            PORTA_ERROR_INVALID_ARGUMENT);
}

TEST(IndexKernels, ScatterWithAnEmptyIndexLeavesSelf) {
  Runner r = host_runner();
  View<Int32> self = dense<Int32>({3, 2}, 7), src = dense<Int32>({0, 2});
  View<Int64> index = dense<Int64>({0, 2});
  const porta_index_params params{sizeof(porta_index_params), 0, PORTA_SCATTER_SUM};
  ASSERT_EQ(r.run(PORTA_OP_SCATTER, Int32::dl(), {operand(index), operand(src)}, {operand(self)}, &params), PORTA_OK)
      << r.last_error();
  EXPECT_EQ(self.storage, std::vector<int32_t>(6, 7));
}

}  // namespace
}  // namespace porta_test::index_scan
