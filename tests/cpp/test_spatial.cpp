// pad, adaptive_avg_pool2d and channel dropout in C++ (user ABI 1.6): the
// functional forms and the AdaptiveAvgPool2d, ZeroPad2d / ReflectionPad2d and
// Dropout2d modules; transposed convolutions and ceil-mode pooling (1.7)
// (per-device values: tests/python/test_spatial.py,
// test_conv_transpose_and_ceil_pool.py and tests/gradcheck).
#include <gmock/gmock.h>

#include <porta/nn.hpp>

#include "tensor_values.hpp"

using porta::Tensor;
using porta_test::D;
using porta_test::values;
using porta_test::vec;

namespace nn = porta::nn;
namespace F = porta::nn::functional;

namespace {

TEST(Spatial, PadInEveryMode) {
  const Tensor x = vec({1, 2, 3}, {1, 3});
  EXPECT_EQ(values(F::pad(x, {1, 2}, F::PadMode::Constant, 9)), (D{9, 1, 2, 3, 9, 9}));
  EXPECT_EQ(values(F::pad(x, {2, 1}, F::PadMode::Reflect)), (D{3, 2, 1, 2, 3, 2}));
  EXPECT_EQ(values(F::pad(x, {1, 1}, F::PadMode::Replicate)), (D{1, 1, 2, 3, 3}));
  EXPECT_EQ(values(F::pad(x, {1, 2}, F::PadMode::Circular)), (D{3, 1, 2, 3, 1, 2}));
  EXPECT_EQ(values(F::pad(x, {-1, 0})), (D{2, 3}));
  EXPECT_EQ(nn::ZeroPad2d(1)(Tensor::zeros({1, 1, 2, 2})).shape(), (porta::Shape{1, 1, 4, 4}));
  EXPECT_EQ(values(nn::ReflectionPad2d({1, 0, 0, 0})(vec({1, 2}, {1, 1, 1, 2}))), (D{2, 1, 2}));
  EXPECT_THROW(F::pad(x, {4, 0}, F::PadMode::Reflect), porta::Error);
}

TEST(Spatial, AdaptiveAveragePoolingUsesPyTorchsBins) {
  // 1 x 5 to 1 x 3: bins [0, 2), [1, 4), [3, 5).
  const Tensor x = vec({1, 2, 3, 4, 5}, {1, 1, 1, 5});
  EXPECT_EQ(values(nn::AdaptiveAvgPool2d(1, 3)(x)), (D{1.5, 3, 4.5}));
  EXPECT_EQ(values(F::adaptive_avg_pool2d(x, 1, 1)), (D{3}));
}

TEST(Spatial, Dropout2dZeroesWholeChannels) {
  porta::manual_seed(2);
  nn::Dropout2d drop(0.5);
  const D y = values(drop(Tensor::full({4, 8, 2, 2}, 1.0)));
  for (size_t c = 0; c < y.size(); c += 4)
    for (size_t k = 1; k < 4; ++k) EXPECT_EQ(y[c + k], y[c]) << "channel " << c / 4;
  drop.eval();
  EXPECT_EQ(values(drop(Tensor::full({1, 2, 1, 1}, 1.0))), (D{1, 1}));
  EXPECT_EQ(drop.describe(), "Dropout2d(p=0.5)");
}

}  // namespace

namespace {

TEST(Spatial, InterpolateAndUpsample) {
  const Tensor x = vec({1, 2, 3, 4}, {1, 1, 2, 2});
  EXPECT_EQ(values(nn::Upsample(2)(x)), (D{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4}));
  // align_corners: the corners stay, the middle is their mean.
  EXPECT_EQ(values(F::interpolate(x, 3, 3, F::InterpolateMode::Bilinear, true)),
            (D{1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4}));
  EXPECT_EQ(values(F::interpolate(x, 1, 1)), (D{1}));
  EXPECT_THROW(F::interpolate(x, 2, 2, F::InterpolateMode::Nearest, true), porta::Error);
}

}  // namespace

namespace {

TEST(Spatial, GroupedAndOneDimensionalConvolutions) {
  // Depthwise: each of 2 channels convolved with its own 1x1 filter (x2 and x3).
  nn::Conv2d depthwise(2, 2, 1, 1, 0, 1, /*bias=*/false, /*groups=*/2);
  EXPECT_EQ(depthwise.weight.shape(), (porta::Shape{2, 1, 1, 1}));
  {
    porta::NoGradGuard no_grad;
    depthwise.weight.copy_(vec({2, 3}, {2, 1, 1, 1}).cast(porta::kFloat32));
  }
  EXPECT_EQ(values(depthwise(vec({1, 1, 1, 1}, {1, 2, 1, 2}).cast(porta::kFloat32))), (D{2, 2, 3, 3}));
  EXPECT_THROW(nn::Conv2d(3, 2, 1, 1, 0, 1, true, 2), porta::Error);
  // conv1d of [C 1, L 4] with the kernel {1, -1}: neighbour differences.
  EXPECT_EQ(values(F::conv1d(vec({1, 4, 9, 16}, {1, 4}), vec({1, -1}, {1, 1, 2}))), (D{-3, -5, -7}));
  nn::Conv1d c1(4, 6, 3, 1, 1, 1, true, 2);
  EXPECT_EQ(c1(Tensor::randn({2, 4, 5})).shape(), (porta::Shape{2, 6, 5}));
  EXPECT_EQ(c1.describe(), "Conv1d(4, 6, kernel_size=(3,), stride=(1,), padding=(1,), groups=2)");
}

TEST(Spatial, TransposedConvolutionsAndCeilModePooling) {
  // A 1x1 input through a 2x2 kernel of stride 2: the kernel itself, scaled; two inputs place two copies.
  const Tensor k = vec({1, 2, 3, 4}, {1, 1, 2, 2});
  EXPECT_EQ(values(F::conv_transpose2d(vec({3}, {1, 1, 1, 1}), k, {}, 2)), (D{3, 6, 9, 12}));
  EXPECT_EQ(values(F::conv_transpose2d(vec({1, 10}, {1, 1, 1, 2}), k, {}, 2)), (D{1, 2, 10, 20, 3, 4, 30, 40}));
  EXPECT_EQ(F::conv_transpose2d(vec({1, 10}, {1, 1, 1, 2}), k, {}, 2, 0, 1).shape(), (porta::Shape{1, 1, 3, 5}));
  EXPECT_EQ(values(F::conv_transpose1d(vec({1, 2}, {1, 2}), vec({1, -1}, {1, 1, 2}))), (D{1, 1, -2}));
  nn::ConvTranspose2d up(4, 6, 3, 2, 1, 1);
  EXPECT_EQ(up.weight.shape(), (porta::Shape{4, 6, 3, 3}));
  EXPECT_EQ(up(Tensor::randn({2, 4, 5, 5})).shape(), (porta::Shape{2, 6, 10, 10}));
  EXPECT_EQ(up.describe(), "ConvTranspose2d(4, 6, kernel_size=3, stride=2, padding=1, output_padding=1)");
  nn::ConvTranspose1d up1(4, 2, 3, 1, 0, 0, 2, false);
  EXPECT_EQ(up1.weight.shape(), (porta::Shape{4, 1, 3}));
  EXPECT_EQ(up1(Tensor::randn({4, 5})).shape(), (porta::Shape{2, 7}));
  EXPECT_THAT([&] { (void)F::conv_transpose2d(k, k, {}, 2, 0, 2); },
              testing::ThrowsMessage<porta::Error>(testing::HasSubstr("output padding must be smaller")));
  // ceil_mode: a 5x5 input in 2x2 windows gives 3x3, the last ones partial (max of what is there; average
  // divided by the part inside the input, as PyTorch's).
  const Tensor x = Tensor::arange(0, 25).reshape({1, 1, 5, 5});
  EXPECT_EQ(values(F::max_pool2d(x, 2, 2, 0, 1, true)), (D{6, 8, 9, 16, 18, 19, 21, 23, 24}));
  EXPECT_EQ(values(nn::AvgPool2d(2, 2, 0, true)(x)), (D{3, 5, 6.5, 13, 15, 16.5, 20.5, 22.5, 24}));
  EXPECT_EQ(nn::MaxPool2d(2)(x).shape(), (porta::Shape{1, 1, 2, 2}));
}

}  // namespace
