// Named ops, generated from PORTA_OP_LIST: each as a method and as a free function.
#include <cmath>

#include "mock_device.hpp"

using porta::Tensor;
using D = std::vector<double>;
using I = std::vector<int64_t>;

namespace {

Tensor vec(D values, porta::Shape shape = {}) {
  if (shape.empty()) shape = {static_cast<int64_t>(values.size())};
  return Tensor::from_vector(values, shape);
}

void expect_near(const Tensor& t, const D& expected) {
  const D got = t.to_vector<double>();
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], 1e-12) << "element " << i;
}

}  // namespace

TEST(Ops, Unary) {
  const Tensor x = vec({-1, 0.25, 4});
  expect_near(x.neg(), {1, -0.25, -4});
  expect_near(porta::neg(x), {1, -0.25, -4});
  expect_near(x.exp(), {std::exp(-1.0), std::exp(0.25), std::exp(4.0)});
  expect_near(porta::exp(x), {std::exp(-1.0), std::exp(0.25), std::exp(4.0)});
  expect_near(x.abs().log(), {0, std::log(0.25), std::log(4.0)});
  expect_near(porta::log(porta::abs(x)), {0, std::log(0.25), std::log(4.0)});
  expect_near(x.abs().sqrt(), {1, 0.5, 2});
  expect_near(porta::sqrt(x.abs()), {1, 0.5, 2});
  expect_near(x.relu(), {0, 0.25, 4});
  expect_near(porta::relu(x), {0, 0.25, 4});
  expect_near(x.sigmoid(), {1 / (1 + std::exp(1.0)), 1 / (1 + std::exp(-0.25)), 1 / (1 + std::exp(-4.0))});
  expect_near(porta::sigmoid(x), {1 / (1 + std::exp(1.0)), 1 / (1 + std::exp(-0.25)), 1 / (1 + std::exp(-4.0))});
  expect_near(x.tanh(), {std::tanh(-1.0), std::tanh(0.25), std::tanh(4.0)});
  expect_near(porta::tanh(x), {std::tanh(-1.0), std::tanh(0.25), std::tanh(4.0)});
}

TEST(Ops, Binary) {
  const Tensor a = vec({1, 2, 3}), b = vec({3, 2, 1});
  expect_near(a.add(b), {4, 4, 4});
  expect_near(porta::add(a, 1.0), {2, 3, 4});
  expect_near(a.sub(b), {-2, 0, 2});
  expect_near(porta::sub(a, b), {-2, 0, 2});
  expect_near(a.mul(2.0), {2, 4, 6});
  expect_near(porta::mul(a, b), {3, 4, 3});
  expect_near(a.div(b), {1.0 / 3, 1, 3});
  expect_near(porta::div(a, 2.0), {0.5, 1, 1.5});
  expect_near(a.pow(b), {1, 4, 3});
  expect_near(porta::pow(a, 2.0), {1, 4, 9});
  expect_near(a.maximum(b), {3, 2, 3});
  expect_near(porta::maximum(a, Tensor::full({}, 2.0)), {2, 2, 3});  // a tensor only, as PyTorch's
  expect_near(a.minimum(b), {1, 2, 1});
  expect_near(porta::minimum(a, Tensor::full({}, 2.0)), {1, 2, 2});
  EXPECT_EQ(a.eq(b).to_vector<bool>(), (std::vector<bool>{false, true, false}));
  EXPECT_EQ(porta::ne(a, 2.0).to_vector<bool>(), (std::vector<bool>{true, false, true}));
  EXPECT_EQ(a.lt(b).to_vector<bool>(), (std::vector<bool>{true, false, false}));
  EXPECT_EQ(porta::le(a, b).to_vector<bool>(), (std::vector<bool>{true, true, false}));
  EXPECT_EQ(a.gt(2.0).to_vector<bool>(), (std::vector<bool>{false, false, true}));
  EXPECT_EQ(porta::ge(a, 2.0).to_vector<bool>(), (std::vector<bool>{false, true, true}));
}

TEST(Ops, Where) {
  const Tensor a = vec({1, 2, 3}), b = vec({-1, -2, -3});
  const Tensor cond = Tensor::from_vector(std::vector<bool>{true, false, true});
  expect_near(porta::where(cond, a, b), {1, -2, 3});
  expect_near(a.where(cond, b), {1, -2, 3});
  expect_near(porta::where(a > 1.5, a, vec({0})), {0, 2, 3});  // all three broadcast
}

TEST(Ops, Reductions) {
  const Tensor m = vec({1, 5, 3, 4, 2, 6}, {2, 3});
  expect_near(m.sum(), {21});
  EXPECT_EQ(m.sum().ndim(), 0);
  expect_near(porta::sum(m, {0}), {5, 7, 9});
  expect_near(m.sum({-1}, true), {9, 12});
  EXPECT_EQ(m.sum({-1}, true).shape(), (porta::Shape{2, 1}));
  expect_near(m.mean(), {3.5});
  expect_near(porta::mean(m, {1}), {3, 4});
  expect_near(m.max(), {6});
  expect_near(porta::max(m, {0}), {4, 5, 6});
  expect_near(m.min(porta::Dims{1}), {1, 2});
  expect_near(porta::min(m), {1});
  EXPECT_EQ(m.argmax().to_vector<int64_t>(), I{5});
  EXPECT_EQ(porta::argmax(m, 1).to_vector<int64_t>(), (I{1, 2}));
  EXPECT_EQ(m.argmin(0, true).shape(), (porta::Shape{1, 3}));
  EXPECT_EQ(porta::argmin(m).to_vector<int64_t>(), I{0});
  EXPECT_EQ(Tensor::from_vector(std::vector<bool>{true, true, false}).sum().item<int64_t>(), 2);
}

TEST(Ops, Matmul) {
  const Tensor a = vec({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor b = vec({1, 0, 0, 1, 1, 1}, {3, 2});
  expect_near(a.matmul(b), {4, 5, 10, 11});
  expect_near(porta::matmul(a, b), {4, 5, 10, 11});
  expect_near(a.matmul(a.t()), {14, 32, 32, 77});  // a transposed operand
  expect_near(a.matmul(vec({1, 1, 1})), {6, 15});  // matrix @ vector
}

TEST(Ops, Cast) {
  const Tensor x = vec({-1.7, 0, 2.9});
  EXPECT_EQ(x.cast(porta::kInt32).to_vector<int32_t>(), (std::vector<int32_t>{-1, 0, 2}));
  EXPECT_EQ(x.cast(porta::kBool).to_vector<bool>(), (std::vector<bool>{true, false, true}));
  EXPECT_EQ(x.cast(porta::kFloat64).handle(), x.handle()) << "same dtype: the same handle";
}

class OpsOnMock : public MockDeviceTest {};

TEST_F(OpsOnMock, OpsRunOnTheMockDevice) {
  const Tensor a = vec({1, 2, 3, 4}, {2, 2}).to("mock:0");
  const Tensor r = a.matmul(a).relu().sum({0});
  EXPECT_EQ(r.device(), porta::Device("mock:0"));
  expect_near(r, {22, 32});
}
