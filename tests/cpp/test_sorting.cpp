// The user ABI 1.5 sorting ops in C++: sort / argsort / topk / kthvalue /
// unique / unique_consecutive / bincount as Tensor methods and porta::
// functions, with sort's gradient (per-device, per-dtype conformance:
// tests/conformance/test_sort.cpp).
#include <gmock/gmock.h>

#include <cmath>

#include <porta/porta.hpp>

#include "tensor_values.hpp"

using porta::Tensor;
using porta_test::D;
using porta_test::values;
using porta_test::vec;

namespace {

TEST(Sorting, SortArgsortTopkKthvalue) {
  const Tensor x = vec({3, 1, 2, 1, 5, 0}, {2, 3});
  auto [v, i] = x.sort();
  EXPECT_EQ(values(v), (D{1, 2, 3, 0, 1, 5}));
  EXPECT_EQ(values(i), (D{1, 2, 0, 2, 0, 1}));
  auto [vd, id] = porta::sort(x, 0, true);
  EXPECT_EQ(values(vd), (D{3, 5, 2, 1, 1, 0}));
  EXPECT_EQ(values(id), (D{0, 1, 0, 1, 0, 1}));
  EXPECT_EQ(values(porta::argsort(vec({2, NAN, 1}))), (D{2, 0, 1}));  // NaN last
  auto [tv, ti] = x.topk(2);
  EXPECT_EQ(values(tv), (D{3, 2, 5, 1}));
  EXPECT_EQ(values(ti), (D{0, 2, 1, 0}));
  auto [kv, ki] = porta::kthvalue(x, 2, 1, true);
  EXPECT_EQ(kv.shape(), (porta::Shape{2, 1}));
  EXPECT_EQ(values(kv), (D{2, 1}));
  EXPECT_EQ(values(ki), (D{2, 0}));
  EXPECT_THROW(x.topk(4), porta::Error);
}

TEST(Sorting, SortedValuesCarryTheGradientBack) {
  Tensor x = vec({3, 1, 2}).requires_grad_();
  auto [v, i] = x.sort(0, true);
  (v * vec({1, 10, 100})).sum().backward();
  EXPECT_EQ(values(x.grad()), (D{1, 100, 10}));
}

TEST(Sorting, UniqueAndBincount) {
  const Tensor x = Tensor::from_vector(std::vector<int64_t>{2, 2, 0, 5, 0, 2}, {6});
  auto [u, inverse, counts] = x.unique();
  EXPECT_EQ(values(u), (D{0, 2, 5}));
  EXPECT_EQ(values(inverse), (D{1, 1, 0, 2, 0, 1}));
  EXPECT_EQ(values(counts), (D{2, 3, 1}));
  auto [c, ci, cc] = porta::unique_consecutive(x);
  EXPECT_EQ(values(c), (D{2, 0, 5, 0, 2}));
  EXPECT_EQ(values(cc), (D{2, 1, 1, 1, 1}));
  EXPECT_EQ(values(x.bincount()), (D{2, 0, 3, 0, 0, 1}));
  EXPECT_EQ(porta::bincount(x, Tensor(), 8).size(0), 8);
  EXPECT_EQ(values(x.bincount(vec({1, 1, 0.5, 1, 0.5, 1}))), (D{1, 0, 3, 0, 0, 1}));
}

}  // namespace
