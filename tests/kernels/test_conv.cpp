// IM2COL against its defining formula; COL2IM as its adjoint and against a
// naive scatter.
#include <cmath>
#include <limits>

#include "kernel_test_util.hpp"

namespace porta_test {
namespace {

struct ConvCase {
  int64_t n, c, h, w;
  int32_t kh, kw, sh, sw, ph, pw, dh, dw;
  porta_conv2d_params params() const { return {sizeof(porta_conv2d_params), kh, kw, sh, sw, ph, pw, dh, dw, 1}; }
  int64_t oh() const { return (h + 2 * ph - dh * (kh - 1) - 1) / sh + 1; }
  int64_t ow() const { return (w + 2 * pw - dw * (kw - 1) - 1) / sw + 1; }
  std::vector<int64_t> x_shape() const { return {n, c, h, w}; }
  std::vector<int64_t> cols_shape() const { return {c * kh * kw, n * oh() * ow()}; }
  // Position of x[n][c] tap (i, j) at output (r, q) in cols [C*KH*KW, N*OH*OW].
  size_t col_index(int64_t n_, int64_t c_, int64_t i, int64_t j, int64_t r, int64_t q) const {
    return static_cast<size_t>(((c_ * kh + i) * kw + j) * (n * oh() * ow()) + (n_ * oh() + r) * ow() + q);
  }
};

const ConvCase kCases[] = {
    {2, 3, 8, 8, 3, 3, 1, 1, 1, 1, 1, 1},     // SimpleCNN's layer shape: the stride-1 fast path
    {2, 4, 6, 6, 3, 3, 1, 1, 1, 1, 1, 1},     //
    {1, 2, 7, 5, 3, 3, 1, 1, 0, 0, 1, 1},     // no padding
    {2, 2, 9, 7, 3, 2, 2, 3, 1, 2, 1, 1},     // strides and padding differ per axis
    {1, 3, 10, 11, 3, 3, 1, 1, 2, 2, 2, 2},   // dilation
    {1, 2, 9, 8, 2, 3, 2, 1, 1, 1, 3, 2},     // dilation with stride
    {1, 1, 5, 5, 1, 1, 1, 1, 0, 0, 1, 1},     // 1x1
    {1, 2, 6, 7, 2, 2, 3, 3, 0, 0, 1, 1},     // stride > kernel: some inputs are never read
    {1, 1, 4, 6, 5, 3, 1, 2, 2, 1, 1, 1},     // padding about the kernel size
    {3, 2, 1, 9, 1, 3, 1, 1, 0, 1, 1, 1},     // one row
    {1, 2, 1, 5, 1, 3, 2, 1, 1, 1, 1, 1},     // the only row tap reads nothing but padding
    {4, 16, 32, 32, 3, 3, 1, 1, 1, 1, 1, 1},  // big enough to run on several threads
    {3, 8, 28, 28, 3, 3, 2, 2, 1, 1, 1, 1},   // likewise, strided
};

template <class T>
std::vector<double> im2col_reference(const ConvCase& k, const Tensor<T>& x) {
  const int64_t oh = k.oh(), ow = k.ow();
  std::vector<double> cols(static_cast<size_t>(k.n * k.c * k.kh * k.kw * oh * ow));
  for (int64_t n = 0; n < k.n; ++n)
    for (int64_t c = 0; c < k.c; ++c)
      for (int64_t i = 0; i < k.kh; ++i)
        for (int64_t j = 0; j < k.kw; ++j)
          for (int64_t r = 0; r < oh; ++r)
            for (int64_t q = 0; q < ow; ++q) {
              const int64_t ih = r * k.sh - k.ph + i * k.dh, iw = q * k.sw - k.pw + j * k.dw;
              const bool inside = ih >= 0 && ih < k.h && iw >= 0 && iw < k.w;
              cols[k.col_index(n, c, i, j, r, q)] = inside ? static_cast<double>(x[((n * k.c + c) * k.h + ih) * k.w + iw]) : 0.0;
            }
  return cols;
}

template <class T>
std::vector<double> col2im_reference(const ConvCase& k, const Tensor<T>& cols) {
  const int64_t oh = k.oh(), ow = k.ow();
  std::vector<double> x(static_cast<size_t>(k.n * k.c * k.h * k.w), 0.0);
  for (int64_t n = 0; n < k.n; ++n)
    for (int64_t c = 0; c < k.c; ++c)
      for (int64_t i = 0; i < k.kh; ++i)
        for (int64_t j = 0; j < k.kw; ++j)
          for (int64_t r = 0; r < oh; ++r)
            for (int64_t q = 0; q < ow; ++q) {
              const int64_t ih = r * k.sh - k.ph + i * k.dh, iw = q * k.sw - k.pw + j * k.dw;
              if (ih >= 0 && ih < k.h && iw >= 0 && iw < k.w)
                x[static_cast<size_t>(((n * k.c + c) * k.h + ih) * k.w + iw)] +=
                    static_cast<double>(cols[static_cast<int64_t>(k.col_index(n, c, i, j, r, q))]);
            }
  return x;
}

template <class T>
class ConvKernels : public ::testing::Test {};
TYPED_TEST_SUITE(ConvKernels, FloatTypes);

TYPED_TEST(ConvKernels, Im2colMatchesTheFormula) {
  using T = TypeParam;
  uint32_t seed = 1;
  for (const ConvCase& k : kCases) {
    SCOPED_TRACE(testing::Message() << "case " << (&k - kCases));
    Tensor<T> x = random_tensor<T>(k.x_shape(), seed++);
    Tensor<T> cols(k.cols_shape(), std::numeric_limits<T>::quiet_NaN());  // every entry must be written
    const porta_conv2d_params p = k.params();
    ASSERT_EQ(call<T>(PORTA_OP_IM2COL, {x.dl()}, {cols.dl()}, &p), PORTA_OK) << last_error();
    expect_near_all(cols, im2col_reference(k, x), 0.0, "im2col");
  }
}

TYPED_TEST(ConvKernels, Col2imIsTheAdjointOfIm2col) {
  using T = TypeParam;
  uint32_t seed = 100;
  for (const ConvCase& k : kCases) {
    SCOPED_TRACE(testing::Message() << "case " << (&k - kCases));
    Tensor<T> x = random_tensor<T>(k.x_shape(), seed++);
    Tensor<T> y = random_tensor<T>(k.cols_shape(), seed++);
    Tensor<T> cols(k.cols_shape()), back(k.x_shape(), std::numeric_limits<T>::quiet_NaN());
    const porta_conv2d_params p = k.params();
    ASSERT_EQ(call<T>(PORTA_OP_IM2COL, {x.dl()}, {cols.dl()}, &p), PORTA_OK) << last_error();
    ASSERT_EQ(call<T>(PORTA_OP_COL2IM, {y.dl()}, {back.dl()}, &p), PORTA_OK) << last_error();
    double lhs = 0, rhs = 0, scale = 0;
    for (int64_t i = 0; i < cols.numel(); ++i) {
      lhs += static_cast<double>(cols[i]) * static_cast<double>(y[i]);
      scale += std::abs(static_cast<double>(cols[i]) * static_cast<double>(y[i]));
    }
    for (int64_t i = 0; i < x.numel(); ++i) rhs += static_cast<double>(x[i]) * static_cast<double>(back[i]);
    EXPECT_NEAR(lhs, rhs, tolerance<T>() * (1 + scale));
    expect_near_all(back, col2im_reference(k, y), tolerance<T>(), "col2im");
  }
}

TYPED_TEST(ConvKernels, HonoursByteOffsets) {
  using T = TypeParam;
  const ConvCase k = kCases[0];
  Tensor<T> x = random_tensor<T>(k.x_shape(), 7);
  Tensor<T> shifted(k.x_shape(), T(0), 5);
  for (int64_t i = 0; i < x.numel(); ++i) shifted[i] = x[i];
  Tensor<T> cols(k.cols_shape(), T(0), 3), back(k.x_shape(), T(0), 11);
  const porta_conv2d_params p = k.params();
  ASSERT_EQ(call<T>(PORTA_OP_IM2COL, {shifted.dl()}, {cols.dl()}, &p), PORTA_OK) << last_error();
  expect_near_all(cols, im2col_reference(k, x), 0.0, "im2col");
  ASSERT_EQ(call<T>(PORTA_OP_COL2IM, {cols.dl()}, {back.dl()}, &p), PORTA_OK) << last_error();
  expect_near_all(back, col2im_reference(k, cols), tolerance<T>(), "col2im");
}

TYPED_TEST(ConvKernels, RejectsMissingParamsAndMismatchedShapes) {
  using T = TypeParam;
  const ConvCase k = kCases[3];
  Tensor<T> x(k.x_shape()), cols(k.cols_shape());
  EXPECT_EQ(call<T>(PORTA_OP_IM2COL, {x.dl()}, {cols.dl()}, nullptr), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("im2col"), std::string::npos) << last_error();
  porta_conv2d_params p = k.params();
  p.struct_size = sizeof(size_t) + 2 * sizeof(int32_t);  // an older, shorter struct
  EXPECT_EQ(call<T>(PORTA_OP_COL2IM, {cols.dl()}, {x.dl()}, &p), PORTA_ERROR_INVALID_ARGUMENT);
  p = k.params();
  p.stride_h = 0;
  EXPECT_EQ(call<T>(PORTA_OP_IM2COL, {x.dl()}, {cols.dl()}, &p), PORTA_ERROR_INVALID_ARGUMENT);
  p = k.params();
  p.kernel_w += 1;  // cols no longer has C*KH*KW rows
  EXPECT_EQ(call<T>(PORTA_OP_IM2COL, {x.dl()}, {cols.dl()}, &p), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("cols must be"), std::string::npos) << last_error();
}

}  // namespace
}  // namespace porta_test
