// add/sub with alpha and addcmul/addcdiv with value, in C++: PyTorch's values,
// dtype rules and gradients (porta_add_alpha, porta_addcmul); nansum and nanmean; logspace; max_pool2d's indices.
#include <cmath>
#include <limits>

#include <porta/nn.hpp>

#include "mock_device.hpp"

using porta::Tensor;
using F = std::vector<float>;
using I = std::vector<int64_t>;

TEST(ScaledSums, AddAndSubWithAlpha) {
  const Tensor a = Tensor::from_vector(F{1, 2}), b = Tensor::from_vector(F{3, 4});
  EXPECT_EQ(a.add(b, 2).to_vector<float>(), (F{7, 10}));
  EXPECT_EQ(porta::sub(a, b, 0.5).to_vector<float>(), (F{-0.5, 0}));
  const Tensor i = Tensor::from_vector(I{1, 2});
  const int64_t big = (int64_t{1} << 60) + 1;
  EXPECT_EQ(i.add(i, big).to_vector<int64_t>(), (I{1 + big, 2 + 2 * big})) << "an int64 alpha keeps every bit";
  EXPECT_THROW((void)i.add(i, 2.5), porta::Error) << "an integral result refuses a floating alpha";
  EXPECT_THROW((void)a.add(b, true), porta::Error) << "a bool alpha needs a bool result";
  Tensor acc = Tensor::from_vector(F{1, 1});
  acc.add_(b, 2).sub_(a, 1);
  EXPECT_EQ(acc.to_vector<float>(), (F{6, 7}));
  EXPECT_THROW(i.add_(a, 2), porta::Error) << "a float result does not go into an int64 tensor";
}

TEST(ScaledSums, AlphaScalesTheGradient) {
  const Tensor a = Tensor::from_vector(F{1, 2}).requires_grad_(), b = Tensor::from_vector(F{3, 4}).requires_grad_();
  a.sub(b, 3).sum().backward();
  EXPECT_EQ(a.grad().to_vector<float>(), (F{1, 1}));
  EXPECT_EQ(b.grad().to_vector<float>(), (F{-3, -3}));
}

TEST(ScaledSums, AddcmulAndAddcdiv) {
  const Tensor x = Tensor::from_vector(F{1, 2}), t1 = Tensor::from_vector(F{2, 3}), t2 = Tensor::from_vector(F{4, 6});
  EXPECT_EQ(x.addcmul(t1, t2).to_vector<float>(), (F{9, 20}));
  EXPECT_EQ(porta::addcmul(x, t1, t2, 0.5).to_vector<float>(), (F{5, 11}));
  EXPECT_EQ(x.addcdiv(t1, t2, 2).to_vector<float>(), (F{2, 3}));
  const Tensor i = Tensor::from_vector(I{1, 2});
  EXPECT_EQ(i.addcmul(i, i, 2.5).to_vector<int64_t>(), (I{3, 10})) << "value truncates for an integral result";
  EXPECT_THROW((void)i.addcdiv(i, i), porta::Error) << "integer division is refused, as PyTorch";
  // float16 computes in float32: 300 * 400 overflows float16 but the sum does not
  const Tensor h = Tensor::from_vector(F{-60000}).half();
  const Tensor p = Tensor::from_vector(F{300}).half(), q = Tensor::from_vector(F{400}).half();
  EXPECT_EQ(h.addcmul(p, q).cast(porta::kFloat32).to_vector<float>(), (F{60000}));
  Tensor acc = Tensor::from_vector(F{0, 0});
  acc.addcmul_(t1, t2, 1).addcdiv_(t2, t1, 2);
  EXPECT_EQ(acc.to_vector<float>(), (F{12, 22}));
}

TEST(NanReductions, NansumAndNanmeanLeaveNaNOut) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Tensor x = Tensor::from_vector(F{1, nan, 3, nan, nan, nan}, {2, 3});
  EXPECT_EQ(x.nansum().to_vector<float>(), (F{4}));
  EXPECT_EQ(x.nansum({1}).to_vector<float>(), (F{4, 0}));
  const std::vector<float> mean = x.nanmean({1}).to_vector<float>();
  EXPECT_EQ(mean[0], 2);
  EXPECT_TRUE(std::isnan(mean[1])) << "a row with no number has no mean";
  EXPECT_THROW((void)Tensor::from_vector(I{1, 2}).nanmean(), porta::Error) << "floating tensors only, as PyTorch";
  EXPECT_EQ(Tensor::from_vector(I{1, 2}).nansum().to_vector<int64_t>(), (I{3}));
  const Tensor g = Tensor::from_vector(F{1, nan, 3}).requires_grad_();
  g.nanmean().backward();
  EXPECT_EQ(g.grad().to_vector<float>(), (F{0.5, 0, 0.5}));
}

TEST(Logspace, PowersOfTheBase) {
  EXPECT_EQ(Tensor::logspace(0, 3, 4, 10, {}, porta::kInt64).to_vector<int64_t>(), (I{1, 10, 100, 1000}));
  EXPECT_EQ(Tensor::logspace(-1, 2, 5, 2, {}, porta::kInt32).to_vector<int32_t>(), (std::vector<int32_t>{0, 0, 1, 2, 4}))
      << "an integer dtype truncates";
  EXPECT_EQ(Tensor::logspace(2, 3, 1, 3).to_vector<float>(), (F{9}));
  EXPECT_EQ(Tensor::logspace(0, 1, 0).numel(), 0);
  EXPECT_THROW((void)Tensor::logspace(0, 1, 2, 10, {}, porta::kBool), porta::Error);
}

TEST(MaxPool2dWithIndices, WhereEachMaximumIs) {
  // [1, 1, 3, 4]: ceil mode keeps a last column of windows that runs past the end
  const Tensor x = Tensor::from_vector(F{1, 5, 2, 0, 7, 3, 9, 9, 4, 8, 6, 1}, {1, 1, 3, 4});
  const auto [values, indices] = porta::nn::functional::max_pool2d_with_indices(x, 2, 2, 0, 1, true);
  EXPECT_EQ(values.to_vector<float>(), (F{7, 9, 8, 6}));
  EXPECT_EQ(indices.to_vector<int64_t>(), (I{4, 6, 9, 10})) << "h * W + w in the plane, the first of equal maxima";
  EXPECT_EQ(values.to_vector<float>(), porta::nn::functional::max_pool2d(x, 2, 2, 0, 1, true).to_vector<float>());
}
