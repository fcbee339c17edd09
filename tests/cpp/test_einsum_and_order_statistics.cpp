// The user ABI 1.7 ops in C++: movedim, diagonal, diag, meshgrid,
// repeat_interleave, unfold, einsum, var_mean / std_mean, median /
// nanmedian, histc, cummax / cummin, mode, searchsorted, bucketize and
// unique(dim), each as a method or free function, with values checked
// exactly (the per-device checks are the Python suites).
#include <gmock/gmock.h>

#include <cmath>
#include <tuple>

#include "tensor_values.hpp"

using porta::Tensor;
using porta_test::D;
using porta_test::I;
using porta_test::ivec;
using porta_test::values;
using porta_test::vec;
using testing::HasSubstr;

namespace {

TEST(EinsumAndOrderStatistics, MovedAndDiagonalViews) {
  const Tensor x = vec({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_EQ(x.movedim(0, 1).shape(), (porta::Shape{3, 2}));
  EXPECT_EQ(values(porta::movedim(x, {0}, {-1})), (D{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(values(x.diagonal()), (D{1, 5}));
  EXPECT_EQ(values(x.diagonal(1)), (D{2, 6}));
  EXPECT_EQ(values(porta::diagonal(x, -1)), (D{4}));
  Tensor m = vec({0, 0, 0, 0}, {2, 2});
  m.diagonal().fill_(7.0);  // a view: writes reach m
  EXPECT_EQ(values(m), (D{7, 0, 0, 7}));
  EXPECT_EQ(values(vec({1, 2}).diag(1)), (D{0, 1, 0, 0, 0, 2, 0, 0, 0}));
  EXPECT_EQ(values(porta::diag(x)), (D{1, 5}));
}

TEST(EinsumAndOrderStatistics, MeshgridRepeatInterleaveUnfold) {
  const std::vector<Tensor> ij = porta::meshgrid({vec({1, 2, 3}), vec({4, 5})});
  EXPECT_EQ(ij[0].shape(), (porta::Shape{3, 2}));
  EXPECT_EQ(values(ij[1]), (D{4, 5, 4, 5, 4, 5}));
  const std::vector<Tensor> xy = porta::meshgrid({vec({1, 2, 3}), vec({4, 5})}, "xy");
  EXPECT_EQ(values(xy[0]), (D{1, 2, 3, 1, 2, 3}));
  EXPECT_THAT([] { (void)porta::meshgrid({vec({1})}, "yx"); },
              testing::ThrowsMessage<porta::Error>(HasSubstr("indexing must be")));
  const Tensor x = vec({1, 2, 3, 4}, {2, 2});
  EXPECT_EQ(values(x.repeat_interleave(2)), (D{1, 1, 2, 2, 3, 3, 4, 4}));
  EXPECT_EQ(values(x.repeat_interleave(ivec({0, 2}), 0)), (D{3, 4, 3, 4}));
  EXPECT_EQ(values(x.repeat_interleave(ivec({1, 2}), 1, 3)), (D{1, 2, 2, 3, 4, 4}));
  EXPECT_THAT(
      [&] {
        (void)x.repeat_interleave(ivec({1, 2}), 1, 5);
      },
      testing::ThrowsMessage<porta::Error>(HasSubstr("output_size 5 does not match")));
  EXPECT_EQ(values(vec({1, 2, 3, 4, 5}).unfold(0, 2, 2)), (D{1, 2, 3, 4}));
}

TEST(EinsumAndOrderStatistics, Einsum) {
  const Tensor a = vec({1, 2, 3, 4, 5, 6}, {2, 3}), b = vec({1, 0, 2, 1, 0, 1}, {3, 2});
  EXPECT_EQ(values(porta::einsum("ij,jk->ik", {a, b})), values(a.mm(b)));
  EXPECT_EQ(values(porta::einsum("ij->ji", {a})), values(a.transpose(0, 1)));
  EXPECT_EQ(porta::einsum("ii", {vec({1, 2, 3, 4}, {2, 2})}).item<double>(), 5);
  EXPECT_THAT([&] { (void)porta::einsum("ij,jk->ik", {a}); },
              testing::ThrowsMessage<porta::Error>(HasSubstr("fewer operands")));
}

TEST(EinsumAndOrderStatistics, OrderStatistics) {
  const Tensor x = vec({3, 1, 2, 10, 40, 20}, {2, 3});
  auto [var, mean] = porta::var_mean(x, {1});
  EXPECT_EQ(values(var)[0], 1);
  EXPECT_NEAR(values(var)[1], 700.0 / 3, 1e-4);
  EXPECT_EQ(values(mean)[0], 2);
  EXPECT_NEAR(values(mean)[1], 70.0 / 3, 1e-5);
  EXPECT_EQ(std::get<0>(porta::std_mean(vec({1, 3}), {}, 0.0)).item<double>(), 1);
  EXPECT_EQ(x.median().item<double>(), 3);
  auto [v, i] = x.median(1);
  EXPECT_EQ(values(v), (D{2, 20}));
  EXPECT_EQ(i.to_vector<int64_t>(), (I{2, 2}));
  const Tensor n = vec({1, NAN, 5});
  EXPECT_TRUE(std::isnan(n.median().item<double>()));
  EXPECT_EQ(n.nanmedian().item<double>(), 1);
  EXPECT_EQ(values(vec({0, 1, 1, 2, 9}).histc(3, 0, 3)), (D{1, 2, 1}));
}

TEST(EinsumAndOrderStatistics, RunningAndSearchStatistics) {
  auto [v, i] = vec({1, 3, 3, 2, 5}).cummax(0);
  EXPECT_EQ(values(v), (D{1, 3, 3, 3, 5}));
  EXPECT_EQ(i.to_vector<int64_t>(), (I{0, 1, 2, 2, 4}));
  auto [lo, where] = porta::cummin(vec({3, 1, 1, 2}), 0);
  EXPECT_EQ(values(lo), (D{3, 1, 1, 1}));
  EXPECT_EQ(where.to_vector<int64_t>(), (I{0, 1, 2, 2}));
  auto [m, at] = vec({3, 1, 3, 1, 2}).mode();
  EXPECT_EQ(m.item<double>(), 1);
  EXPECT_EQ(at.item<int64_t>(), 3);
  const Tensor seq = vec({1, 2, 2, 3});
  EXPECT_EQ(porta::searchsorted(seq, vec({2, 0, 9})).to_vector<int64_t>(), (I{1, 0, 4}));
  EXPECT_EQ(porta::searchsorted(seq, vec({2}), false, /*right=*/true).to_vector<int64_t>(), (I{3}));
  EXPECT_EQ(porta::bucketize(vec({2.5}), seq, /*out_int32=*/true).dtype().bits, 32);
  auto [rows, inverse, counts] = vec({1, 2, 0, 9, 1, 2}, {3, 2}).unique(0);
  EXPECT_EQ(values(rows), (D{0, 9, 1, 2}));
  EXPECT_EQ(inverse.to_vector<int64_t>(), (I{1, 0, 1}));
  EXPECT_EQ(counts.to_vector<int64_t>(), (I{1, 2}));
  EXPECT_EQ(std::get<2>(porta::unique_consecutive(vec({1, 1, 1, 1, 2, 2}, {3, 2}), 0)).to_vector<int64_t>(), (I{2, 1}));
  EXPECT_THAT(
      [&] {
        (void)porta::bucketize(vec({1}), vec({1, 2}, {1, 2}));
      },
      testing::ThrowsMessage<porta::Error>(HasSubstr("boundaries tensor must be 1 dimension")));
}

}  // namespace
