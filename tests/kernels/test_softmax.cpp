// Softmax and log-softmax over the middle axis of [outer, dim, inner]: the
// forward against a naive double reference, the backward against finite
// differences of a scalar function of the reference.
#include <cmath>
#include <iterator>
#include <limits>

#include "kernel_test_util.hpp"

namespace porta_test {
namespace {

struct Shape3 {
  int64_t outer, dim, inner;
  std::vector<int64_t> v() const { return {outer, dim, inner}; }
};
const Shape3 kShapes[] = {{4, 10, 1}, {1, 1, 1}, {3, 7, 5}, {2, 33, 1}, {1, 4, 9}};
// Big enough to run on several threads (too big for the finite differences).
const Shape3 kBigShapes[] = {{1024, 100, 1}, {8, 50, 200}};

// softmax (or log_softmax) of x in double.
std::vector<double> softmax_reference(const Shape3& s, const std::vector<double>& x, bool log) {
  std::vector<double> y(x.size());
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t t = 0; t < s.inner; ++t) {
      auto at = [&](int64_t k) { return static_cast<size_t>((o * s.dim + k) * s.inner + t); };
      double mx = -INFINITY, sum = 0;
      for (int64_t k = 0; k < s.dim; ++k) mx = std::max(mx, x[at(k)]);
      for (int64_t k = 0; k < s.dim; ++k) sum += std::exp(x[at(k)] - mx);
      for (int64_t k = 0; k < s.dim; ++k)
        y[at(k)] = log ? x[at(k)] - mx - std::log(sum) : std::exp(x[at(k)] - mx) / sum;
    }
  return y;
}

template <class T>
std::vector<double> as_double(const Tensor<T>& t) {
  std::vector<double> v(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) v[static_cast<size_t>(i)] = static_cast<double>(t[i]);
  return v;
}

template <class T>
class SoftmaxKernels : public ::testing::Test {};
TYPED_TEST_SUITE(SoftmaxKernels, FloatTypes);

TYPED_TEST(SoftmaxKernels, ForwardMatchesTheReferenceAndRowsSumToOne) {
  using T = TypeParam;
  uint32_t seed = 1;
  std::vector<Shape3> shapes(std::begin(kShapes), std::end(kShapes));
  shapes.insert(shapes.end(), std::begin(kBigShapes), std::end(kBigShapes));
  for (const Shape3& s : shapes) {
    for (bool log : {false, true}) {
      SCOPED_TRACE(testing::Message() << "shape [" << s.outer << ", " << s.dim << ", " << s.inner << "] log " << log);
      Tensor<T> x = random_tensor<T>(s.v(), seed++, -5, 5);
      Tensor<T> y(s.v(), std::numeric_limits<T>::quiet_NaN());
      ASSERT_EQ(call<T>(log ? PORTA_OP_LOG_SOFTMAX : PORTA_OP_SOFTMAX, {x.dl()}, {y.dl()}, nullptr), PORTA_OK);
      expect_near_all(y, softmax_reference(s, as_double(x), log), tolerance<T>(), "forward");
      for (int64_t o = 0; o < s.outer; ++o)
        for (int64_t t = 0; t < s.inner; ++t) {
          double sum = 0;
          for (int64_t k = 0; k < s.dim; ++k) {
            const double v = static_cast<double>(y[(o * s.dim + k) * s.inner + t]);
            sum += log ? std::exp(v) : v;
          }
          EXPECT_NEAR(sum, 1.0, 10 * tolerance<T>());
        }
    }
  }
}

TYPED_TEST(SoftmaxKernels, ForwardIsStableForLargeInputs) {
  using T = TypeParam;
  const Shape3 s{2, 6, 1};
  Tensor<T> x = random_tensor<T>(s.v(), 9, 1000, 1010);  // exp overflows without the max shift
  x[6] = T(-1000);                                       // a very negative entry in row 1
  std::vector<double> xd = as_double(x);
  for (bool log : {false, true}) {
    Tensor<T> y(s.v());
    ASSERT_EQ(call<T>(log ? PORTA_OP_LOG_SOFTMAX : PORTA_OP_SOFTMAX, {x.dl()}, {y.dl()}, nullptr), PORTA_OK);
    for (int64_t i = 0; i < y.numel(); ++i) ASSERT_TRUE(std::isfinite(y[i])) << i;
    expect_near_all(y, softmax_reference(s, xd, log), 100 * tolerance<T>(), "large inputs");
  }
}

// For f(x) = sum(w * F(x)) with F softmax or log_softmax, the kernel's
// backward(F(x), w) is df/dx; checked by central differences in double.
TYPED_TEST(SoftmaxKernels, BackwardMatchesFiniteDifferences) {
  using T = TypeParam;
  uint32_t seed = 40;
  for (const Shape3& s : kShapes) {
    for (bool log : {false, true}) {
      SCOPED_TRACE(testing::Message() << "shape [" << s.outer << ", " << s.dim << ", " << s.inner << "] log " << log);
      Tensor<T> x = random_tensor<T>(s.v(), seed++, -2, 2);
      Tensor<T> w = random_tensor<T>(s.v(), seed++);
      Tensor<T> y(s.v()), gx(s.v(), std::numeric_limits<T>::quiet_NaN());
      ASSERT_EQ(call<T>(log ? PORTA_OP_LOG_SOFTMAX : PORTA_OP_SOFTMAX, {x.dl()}, {y.dl()}, nullptr), PORTA_OK);
      const uint32_t op = log ? PORTA_OP_LOG_SOFTMAX_BACKWARD : PORTA_OP_SOFTMAX_BACKWARD;
      ASSERT_EQ(call<T>(op, {y.dl(), w.dl()}, {gx.dl()}, nullptr), PORTA_OK) << last_error();
      const std::vector<double> wd = as_double(w);
      auto f = [&](const std::vector<double>& xs) {
        const std::vector<double> ys = softmax_reference(s, xs, log);
        double v = 0;
        for (size_t i = 0; i < ys.size(); ++i) v += wd[i] * ys[i];
        return v;
      };
      std::vector<double> xd = as_double(x), want(xd.size());
      const double h = 1e-5;
      for (size_t i = 0; i < xd.size(); ++i) {
        const double keep = xd[i];
        xd[i] = keep + h;
        const double up = f(xd);
        xd[i] = keep - h;
        want[i] = (up - f(xd)) / (2 * h);
        xd[i] = keep;
      }
      expect_near_all(gx, want, std::is_same_v<T, float> ? 1e-4 : 1e-8, "backward");
    }
  }
}

// On the big shapes, the backward against its formula evaluated in double.
TYPED_TEST(SoftmaxKernels, BackwardMatchesItsFormulaOnBigShapes) {
  using T = TypeParam;
  uint32_t seed = 80;
  for (const Shape3& s : kBigShapes) {
    for (bool log : {false, true}) {
      SCOPED_TRACE(testing::Message() << "shape [" << s.outer << ", " << s.dim << ", " << s.inner << "] log " << log);
      Tensor<T> x = random_tensor<T>(s.v(), seed++, -2, 2), gy = random_tensor<T>(s.v(), seed++);
      Tensor<T> y(s.v()), gx(s.v());
      ASSERT_EQ(call<T>(log ? PORTA_OP_LOG_SOFTMAX : PORTA_OP_SOFTMAX, {x.dl()}, {y.dl()}, nullptr), PORTA_OK);
      const uint32_t op = log ? PORTA_OP_LOG_SOFTMAX_BACKWARD : PORTA_OP_SOFTMAX_BACKWARD;
      ASSERT_EQ(call<T>(op, {y.dl(), gy.dl()}, {gx.dl()}, nullptr), PORTA_OK) << last_error();
      std::vector<double> want(static_cast<size_t>(x.numel()));
      for (int64_t o = 0; o < s.outer; ++o)
        for (int64_t t = 0; t < s.inner; ++t) {
          auto at = [&](int64_t k) { return (o * s.dim + k) * s.inner + t; };
          double sum = 0;
          for (int64_t k = 0; k < s.dim; ++k)
            sum += static_cast<double>(gy[at(k)]) * (log ? 1.0 : static_cast<double>(y[at(k)]));
          for (int64_t k = 0; k < s.dim; ++k) {
            const double yk = static_cast<double>(y[at(k)]), gk = static_cast<double>(gy[at(k)]);
            want[static_cast<size_t>(at(k))] = log ? gk - std::exp(yk) * sum : yk * (gk - sum);
          }
        }
      expect_near_all(gx, want, 10 * tolerance<T>(), "backward");
    }
  }
}

TYPED_TEST(SoftmaxKernels, RejectsTensorsThatAreNot3d) {
  using T = TypeParam;
  Tensor<T> x({4, 5}), y({4, 5});
  EXPECT_EQ(call<T>(PORTA_OP_SOFTMAX, {x.dl()}, {y.dl()}, nullptr), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("softmax"), std::string::npos) << last_error();
}

}  // namespace
}  // namespace porta_test
