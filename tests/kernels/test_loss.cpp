// Cross entropy with class indices against a naive logsumexp; its backward
// against finite differences; targets outside [0, C) are rejected.
#include <cmath>
#include <limits>

#include "kernel_test_util.hpp"

namespace porta_test {
namespace {

std::vector<double> loss_reference(int64_t n, int64_t classes, const std::vector<double>& x,
                                   const std::vector<int64_t>& target) {
  std::vector<double> loss(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const double* row = x.data() + i * classes;
    double mx = -INFINITY, sum = 0;
    for (int64_t k = 0; k < classes; ++k) mx = std::max(mx, row[k]);
    for (int64_t k = 0; k < classes; ++k) sum += std::exp(row[k] - mx);
    loss[static_cast<size_t>(i)] = mx + std::log(sum) - row[target[static_cast<size_t>(i)]];
  }
  return loss;
}

Tensor<int64_t> targets(int64_t n, int64_t classes, uint32_t seed) {
  Tensor<int64_t> t({n});
  std::mt19937 gen(seed);
  for (int64_t i = 0; i < n; ++i) t[i] = static_cast<int64_t>(gen() % static_cast<uint32_t>(classes));
  return t;
}

template <class T>
class LossKernels : public ::testing::Test {};
TYPED_TEST_SUITE(LossKernels, FloatTypes);

TYPED_TEST(LossKernels, CrossEntropyMatchesNaiveLogsumexp) {
  using T = TypeParam;
  const int64_t shapes[][2] = {{8, 10}, {1, 1}, {5, 3}, {3, 1000}, {8192, 10}};
  uint32_t seed = 1;
  for (const auto& nc : shapes) {
    for (double offset : {0.0, 500.0}) {  // large logits need the max shift
      const int64_t n = nc[0], classes = nc[1];
      SCOPED_TRACE(testing::Message() << "N " << n << " C " << classes << " offset " << offset);
      Tensor<T> x = random_tensor<T>({n, classes}, seed++, offset - 4, offset + 4);
      Tensor<int64_t> t = targets(n, classes, seed++);
      Tensor<T> loss({n}, std::numeric_limits<T>::quiet_NaN());
      ASSERT_EQ(call<T>(PORTA_OP_CROSS_ENTROPY, {x.dl(), t.dl()}, {loss.dl()}, nullptr), PORTA_OK) << last_error();
      std::vector<double> xd(x.storage.begin(), x.storage.end());
      // The loss is a difference of terms of size ~offset: allow for the inputs' rounding.
      expect_near_all(loss, loss_reference(n, classes, xd, t.values()), tolerance<T>() * (1 + offset),
                      "cross_entropy");
    }
  }
}

// For f(x) = sum_n g[n] * loss[n](x), the backward is df/dx.
TYPED_TEST(LossKernels, CrossEntropyBackwardMatchesFiniteDifferences) {
  using T = TypeParam;
  const int64_t n = 6, classes = 7;
  Tensor<T> x = random_tensor<T>({n, classes}, 11, -3, 3);
  Tensor<T> g = random_tensor<T>({n}, 12);
  Tensor<int64_t> t = targets(n, classes, 13);
  Tensor<T> gx({n, classes}, std::numeric_limits<T>::quiet_NaN());
  ASSERT_EQ(call<T>(PORTA_OP_CROSS_ENTROPY_BACKWARD, {x.dl(), t.dl(), g.dl()}, {gx.dl()}, nullptr), PORTA_OK)
      << last_error();
  std::vector<double> xd(x.storage.begin(), x.storage.end()), want(xd.size());
  auto f = [&](const std::vector<double>& xs) {
    const std::vector<double> loss = loss_reference(n, classes, xs, t.values());
    double v = 0;
    for (int64_t i = 0; i < n; ++i) v += static_cast<double>(g[i]) * loss[static_cast<size_t>(i)];
    return v;
  };
  const double h = 1e-5;
  for (size_t i = 0; i < xd.size(); ++i) {
    const double keep = xd[i];
    xd[i] = keep + h;
    const double up = f(xd);
    xd[i] = keep - h;
    want[i] = (up - f(xd)) / (2 * h);
    xd[i] = keep;
  }
  expect_near_all(gx, want, std::is_same_v<T, float> ? 1e-5 : 1e-8, "cross_entropy_backward");
}

TYPED_TEST(LossKernels, RejectsTargetsOutsideTheClasses) {
  using T = TypeParam;
  Tensor<T> x = random_tensor<T>({3, 5}, 21), g({3}, T(1)), loss({3}), gx({3, 5});
  for (int64_t bad : {int64_t{5}, int64_t{-1}, int64_t{-100}}) {
    Tensor<int64_t> t({3});
    t[0] = 1, t[1] = bad, t[2] = 4;
    EXPECT_EQ(call<T>(PORTA_OP_CROSS_ENTROPY, {x.dl(), t.dl()}, {loss.dl()}, nullptr), PORTA_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(last_error().find("cross_entropy"), std::string::npos) << last_error();
    EXPECT_NE(last_error().find("= " + std::to_string(bad)), std::string::npos) << last_error();
    EXPECT_NE(last_error().find("[0, 5)"), std::string::npos) << last_error();
    EXPECT_EQ(call<T>(PORTA_OP_CROSS_ENTROPY_BACKWARD, {x.dl(), t.dl(), g.dl()}, {gx.dl()}, nullptr),
              PORTA_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(last_error().find("cross_entropy_backward"), std::string::npos) << last_error();
  }
}

}  // namespace
}  // namespace porta_test
