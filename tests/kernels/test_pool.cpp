// Max and average pooling against naive loops: padding, strides unlike the
// kernel, dilation (max), both divisor rules (avg), and the gradients.
#include <cmath>
#include <limits>

#include "kernel_test_util.hpp"

namespace porta_test {
namespace {

struct PoolCase {
  int64_t n, c, h, w;
  int32_t kh, kw, sh, sw, ph, pw, dh, dw;
  porta_pool2d_params params(bool include_pad = false) const {
    return {sizeof(porta_pool2d_params), kh, kw, sh, sw, ph, pw, dh, dw, include_pad ? 1 : 0};
  }
  int64_t oh() const { return (h + 2 * ph - dh * (kh - 1) - 1) / sh + 1; }
  int64_t ow() const { return (w + 2 * pw - dw * (kw - 1) - 1) / sw + 1; }
  std::vector<int64_t> in_shape() const { return {n, c, h, w}; }
  std::vector<int64_t> out_shape() const { return {n, c, oh(), ow()}; }
  // Calls visit(out_index, in_index or -1 for padding) for every window tap, in window order.
  template <class F>
  void for_each_tap(F&& visit) const {
    int64_t o = 0;
    for (int64_t pl = 0; pl < n * c; ++pl)
      for (int64_t r = 0; r < oh(); ++r)
        for (int64_t q = 0; q < ow(); ++q, ++o)
          for (int64_t i = 0; i < kh; ++i)
            for (int64_t j = 0; j < kw; ++j) {
              const int64_t ih = r * sh - ph + i * dh, iw = q * sw - pw + j * dw;
              const bool inside = ih >= 0 && ih < h && iw >= 0 && iw < w;
              visit(o, inside ? pl * h * w + ih * w + iw : int64_t{-1});
            }
  }
};

const PoolCase kCases[] = {
    {2, 3, 8, 8, 2, 2, 2, 2, 0, 0, 1, 1},    // the 2x2 stride-2 fast path
    {1, 2, 7, 9, 2, 2, 2, 2, 0, 0, 1, 1},    // fast path, odd sizes (last row and column unused)
    {2, 2, 9, 9, 3, 3, 2, 2, 1, 1, 1, 1},    // overlapping windows with padding
    {1, 2, 8, 10, 3, 2, 1, 3, 1, 1, 1, 1},   // stride unlike the kernel, per axis
    {1, 2, 6, 7, 2, 2, 3, 3, 0, 0, 1, 1},    // stride > kernel: gaps
    {1, 1, 5, 7, 4, 4, 1, 1, 2, 2, 1, 1},    // padding = kernel / 2
    {1, 1, 10, 10, 3, 3, 2, 1, 1, 1, 2, 2},  // dilation (max only)
    {2, 1, 9, 8, 2, 3, 1, 2, 1, 1, 3, 2},    // dilation and stride (max only)
    {4, 16, 32, 32, 2, 2, 2, 2, 0, 0, 1, 1}, // big enough to run on several threads
    {4, 16, 28, 28, 3, 3, 2, 2, 1, 1, 1, 1}, // likewise, general path
};

template <class T>
class PoolKernels : public ::testing::Test {};
TYPED_TEST_SUITE(PoolKernels, FloatTypes);

TYPED_TEST(PoolKernels, MaxPoolMatchesNaiveLoops) {
  using T = TypeParam;
  uint32_t seed = 1;
  for (const PoolCase& k : kCases) {
    SCOPED_TRACE(testing::Message() << "case " << (&k - kCases));
    Tensor<T> x = random_tensor<T>(k.in_shape(), seed++);
    Tensor<T> y(k.out_shape(), std::numeric_limits<T>::quiet_NaN());
    Tensor<int64_t> idx(k.out_shape(), -7);
    const porta_pool2d_params p = k.params();
    ASSERT_EQ(call<T>(PORTA_OP_MAX_POOL2D, {x.dl()}, {y.dl(), idx.dl()}, &p), PORTA_OK) << last_error();
    std::vector<double> best(static_cast<size_t>(y.numel()), -INFINITY);
    std::vector<int64_t> at(static_cast<size_t>(y.numel()), -1);
    k.for_each_tap([&](int64_t o, int64_t i) {
      if (i >= 0 && (at[o] < 0 || static_cast<double>(x[i]) > best[o])) best[o] = static_cast<double>(x[i]), at[o] = i;
    });
    expect_near_all(y, best, 0.0, "max_pool2d values");
    const int64_t plane = k.h * k.w, out_plane = k.oh() * k.ow();
    for (int64_t o = 0; o < y.numel(); ++o) ASSERT_EQ(idx[o], at[o] - (o / out_plane) * plane) << "index at " << o;
  }
}

TYPED_TEST(PoolKernels, MaxPoolTakesTheFirstMaximumAndTheLastNaN) {
  using T = TypeParam;
  const PoolCase k{1, 1, 4, 4, 3, 3, 1, 1, 1, 1, 1, 1};
  Tensor<T> x(k.in_shape(), T(2));
  Tensor<T> y(k.out_shape());
  Tensor<int64_t> idx(k.out_shape());
  const porta_pool2d_params p = k.params();
  ASSERT_EQ(call<T>(PORTA_OP_MAX_POOL2D, {x.dl()}, {y.dl(), idx.dl()}, &p), PORTA_OK) << last_error();
  EXPECT_EQ(idx[0], 0);       // window rows -1..1, cols -1..1: first in-bounds tap is (0, 0)
  EXPECT_EQ(idx[5], 0);       // window rows 0..2, cols 0..2
  EXPECT_EQ(idx[15], 2 * 4 + 2);
  x[5] = std::numeric_limits<T>::quiet_NaN();  // (1, 1)
  x[6] = std::numeric_limits<T>::quiet_NaN();  // (1, 2): later, so it wins where both are (PyTorch's rule)
  ASSERT_EQ(call<T>(PORTA_OP_MAX_POOL2D, {x.dl()}, {y.dl(), idx.dl()}, &p), PORTA_OK) << last_error();
  EXPECT_TRUE(std::isnan(y[0]));
  EXPECT_EQ(idx[0], 5);  // window cols -1..1 holds only the first NaN
  EXPECT_EQ(idx[1], 6);
  EXPECT_EQ(idx[3], 6);  // window cols 2..4 holds only the second NaN
  EXPECT_EQ(y[15], T(2));
}

// Wider padding than PyTorch allows: a window of padding alone yields -inf
// and index -1, which the backward skips.
TYPED_TEST(PoolKernels, MaxPoolWindowOfPaddingOnly) {
  using T = TypeParam;
  const PoolCase k{1, 1, 1, 3, 1, 1, 2, 1, 1, 0, 1, 1};  // rows -1 and 1 are padding
  Tensor<T> x = random_tensor<T>(k.in_shape(), 3);
  Tensor<T> y(k.out_shape());
  Tensor<int64_t> idx(k.out_shape());
  ASSERT_EQ(k.oh(), 2);
  const porta_pool2d_params p = k.params();
  ASSERT_EQ(call<T>(PORTA_OP_MAX_POOL2D, {x.dl()}, {y.dl(), idx.dl()}, &p), PORTA_OK) << last_error();
  for (int64_t o = 0; o < y.numel(); ++o) {
    EXPECT_EQ(y[o], -std::numeric_limits<T>::infinity());
    EXPECT_EQ(idx[o], -1);
  }
  Tensor<T> gy(k.out_shape(), T(1)), gx(k.in_shape(), T(5));
  ASSERT_EQ(call<T>(PORTA_OP_MAX_POOL2D_BACKWARD, {gy.dl(), idx.dl()}, {gx.dl()}, &p), PORTA_OK) << last_error();
  for (int64_t i = 0; i < gx.numel(); ++i) EXPECT_EQ(gx[i], T(0));
}

TYPED_TEST(PoolKernels, MaxPoolBackwardSumsIntoTheIndexedPositions) {
  using T = TypeParam;
  uint32_t seed = 50;
  for (const PoolCase& k : kCases) {
    SCOPED_TRACE(testing::Message() << "case " << (&k - kCases));
    Tensor<T> x = random_tensor<T>(k.in_shape(), seed++);
    Tensor<T> y(k.out_shape());
    Tensor<int64_t> idx(k.out_shape());
    const porta_pool2d_params p = k.params();
    ASSERT_EQ(call<T>(PORTA_OP_MAX_POOL2D, {x.dl()}, {y.dl(), idx.dl()}, &p), PORTA_OK) << last_error();
    Tensor<T> gy = random_tensor<T>(k.out_shape(), seed++);
    Tensor<T> gx(k.in_shape(), std::numeric_limits<T>::quiet_NaN());
    ASSERT_EQ(call<T>(PORTA_OP_MAX_POOL2D_BACKWARD, {gy.dl(), idx.dl()}, {gx.dl()}, &p), PORTA_OK) << last_error();
    std::vector<double> want(static_cast<size_t>(gx.numel()), 0.0);
    const int64_t plane = k.h * k.w, out_plane = k.oh() * k.ow();
    for (int64_t o = 0; o < gy.numel(); ++o) want[(o / out_plane) * plane + idx[o]] += static_cast<double>(gy[o]);
    expect_near_all(gx, want, tolerance<T>(), "max_pool2d_backward");
  }
}

TYPED_TEST(PoolKernels, AvgPoolMatchesNaiveLoops) {
  using T = TypeParam;
  uint32_t seed = 200;
  for (const PoolCase& k : kCases) {
    if (k.dh != 1 || k.dw != 1) continue;
    for (bool include_pad : {false, true}) {
      SCOPED_TRACE(testing::Message() << "case " << (&k - kCases) << " include_pad " << include_pad);
      Tensor<T> x = random_tensor<T>(k.in_shape(), seed++);
      Tensor<T> y(k.out_shape(), std::numeric_limits<T>::quiet_NaN());
      const porta_pool2d_params p = k.params(include_pad);
      ASSERT_EQ(call<T>(PORTA_OP_AVG_POOL2D, {x.dl()}, {y.dl()}, &p), PORTA_OK) << last_error();
      std::vector<double> sum(static_cast<size_t>(y.numel()), 0.0), count(sum.size(), 0.0);
      k.for_each_tap([&](int64_t o, int64_t i) {
        if (i >= 0) sum[o] += static_cast<double>(x[i]);
        if (i >= 0 || include_pad) count[o] += 1;
      });
      for (size_t o = 0; o < sum.size(); ++o) sum[o] /= count[o];
      expect_near_all(y, sum, tolerance<T>(), "avg_pool2d");
    }
  }
}

TYPED_TEST(PoolKernels, AvgPoolBackwardMatchesNaiveLoops) {
  using T = TypeParam;
  uint32_t seed = 300;
  for (const PoolCase& k : kCases) {
    if (k.dh != 1 || k.dw != 1) continue;
    for (bool include_pad : {false, true}) {
      SCOPED_TRACE(testing::Message() << "case " << (&k - kCases) << " include_pad " << include_pad);
      Tensor<T> gy = random_tensor<T>(k.out_shape(), seed++);
      Tensor<T> gx(k.in_shape(), std::numeric_limits<T>::quiet_NaN());
      const porta_pool2d_params p = k.params(include_pad);
      ASSERT_EQ(call<T>(PORTA_OP_AVG_POOL2D_BACKWARD, {gy.dl()}, {gx.dl()}, &p), PORTA_OK) << last_error();
      std::vector<double> count(static_cast<size_t>(gy.numel()), 0.0), want(static_cast<size_t>(gx.numel()), 0.0);
      k.for_each_tap([&](int64_t o, int64_t i) {
        if (i >= 0 || include_pad) count[o] += 1;
      });
      k.for_each_tap([&](int64_t o, int64_t i) {
        if (i >= 0) want[i] += static_cast<double>(gy[o]) / count[o];
      });
      expect_near_all(gx, want, tolerance<T>(), "avg_pool2d_backward");
    }
  }
}

TYPED_TEST(PoolKernels, RejectsBadCalls) {
  using T = TypeParam;
  const PoolCase k = kCases[2];
  Tensor<T> x(k.in_shape()), y(k.out_shape());
  Tensor<int64_t> idx(k.out_shape());
  const porta_pool2d_params p = k.params();
  EXPECT_EQ(call<T>(PORTA_OP_AVG_POOL2D, {x.dl()}, {y.dl()}, nullptr), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("avg_pool2d"), std::string::npos) << last_error();
  EXPECT_EQ(call<T>(PORTA_OP_MAX_POOL2D, {x.dl()}, {y.dl()}, &p), PORTA_ERROR_INVALID_ARGUMENT);
  Tensor<T> wrong({k.n, k.c, k.oh() + 1, k.ow()});
  EXPECT_EQ(call<T>(PORTA_OP_AVG_POOL2D, {x.dl()}, {wrong.dl()}, &p), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("output"), std::string::npos) << last_error();
  porta_pool2d_params bad = p;
  bad.dilation_w = 0;
  EXPECT_EQ(call<T>(PORTA_OP_MAX_POOL2D, {x.dl()}, {y.dl(), idx.dl()}, &bad), PORTA_ERROR_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace porta_test
