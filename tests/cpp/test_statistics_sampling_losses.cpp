// The user ABI 1.4 composites in C++ (porta.h's "statistics, shapes and
// products", the sampling functions with porta::Generator, and the new
// losses and normalization layers of porta/nn.hpp): each reachable as a
// method, a free function or a module, with values checked exactly or in
// double against closed forms (the per-device checks are the Python suites).
#include <gmock/gmock.h>

#include <cmath>
#include <porta/nn.hpp>

#include "mock_device.hpp"
#include "tensor_values.hpp"

using porta::Tensor;
using testing::HasSubstr;
using porta_test::D;
using porta_test::values;
using porta_test::vec;

namespace {

TEST(StatisticsSamplingLosses, Statistics) {
  const Tensor x = vec({1, 2, 4, 8}, {2, 2});
  EXPECT_NEAR(x.var().item<double>(), 9.583333333333334, 1e-12);
  EXPECT_EQ(values(x.var({1}, 0.0)), (D{0.25, 4}));
  EXPECT_NEAR(porta::std(x).item<double>(), std::sqrt(9.583333333333334), 1e-12);
  EXPECT_EQ(x.prod().item<double>(), 64);
  EXPECT_EQ(values(x.prod(0)), (D{4, 16}));
  EXPECT_TRUE(x.all().item<bool>());
  EXPECT_EQ(values(vec({0, 1, 0, 0}, {2, 2}).any({1})), (D{1, 0}));
  EXPECT_EQ(x.count_nonzero().item<int64_t>(), 4);
  EXPECT_NEAR(vec({3, 4}).norm().item<double>(), 5.0, 1e-15);
  EXPECT_EQ(vec({3, -4}).norm(INFINITY).item<double>(), 4.0);
}

TEST(StatisticsSamplingLosses, ShapesAndProducts) {
  const Tensor x = vec({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_EQ(values(x.flip({1})), (D{3, 2, 1, 6, 5, 4}));
  EXPECT_EQ(values(porta::roll(x, {1}, {1})), (D{3, 1, 2, 6, 4, 5}));
  EXPECT_EQ(x.repeat({1, 2}).shape(), (porta::Shape{2, 6}));
  EXPECT_EQ(values(x.tril()), (D{1, 0, 0, 4, 5, 0}));
  EXPECT_EQ(values(porta::triu(x, 1)), (D{0, 2, 3, 0, 0, 6}));
  EXPECT_EQ(values(porta::outer(vec({1, 2}), vec({1, 10}))), (D{1, 10, 2, 20}));
  EXPECT_EQ(values(x.mm(x.transpose(0, 1))), (D{14, 32, 32, 77}));
  EXPECT_EQ(porta::dot(vec({1, 2}), vec({3, 4})).item<double>(), 11);
  EXPECT_EQ(values(porta::addmm(vec({1, 1}), x, vec({1, 0, 1}, {3, 1}).expand({3, 2}), 0.0, 2.0)),
            (D{8, 8, 20, 20}));
  EXPECT_THAT([&] { (void)porta::mm(vec({1, 2}), x); },
              testing::ThrowsMessage<porta::Error>(HasSubstr("mm: self must be 2-D")));
}

TEST(StatisticsSamplingLosses, SamplingWithAGenerator) {
  porta::Generator g(7);
  const Tensor a = Tensor::uniform({1000}, -2.0, 2.0, {}, porta::kFloat64, &g);
  EXPECT_EQ(g.get_state().second, 1000u);
  g.manual_seed(7);
  EXPECT_EQ(values(Tensor::uniform({1000}, -2.0, 2.0, {}, porta::kFloat64, &g)), values(a));
  EXPECT_LT(std::abs(a.mean().item<double>()), 0.15);
  const Tensor r = Tensor::randint(0, 3, {300}, {}, porta::kInt64, &g);
  EXPECT_EQ(r.min().item<int64_t>(), 0);
  EXPECT_EQ(r.max().item<int64_t>(), 2);
  EXPECT_EQ(values(porta::bernoulli(vec({0, 1, 1, 0}), &g)), (D{0, 1, 1, 0}));
  EXPECT_EQ(values(porta::multinomial(vec({0, 0, 5}), 3, true, &g)), (D{2, 2, 2}));
  EXPECT_EQ(values(porta::normal(vec({1, 2}), vec({0, 0}), &g)), (D{1, 2}));
}

TEST(StatisticsSamplingLosses, LossesAndNormalization) {
  namespace F = porta::nn::functional;
  const Tensor p = vec({0.5, 0.5});
  EXPECT_NEAR(F::binary_cross_entropy(p, vec({1, 0})).item<double>(), std::log(2.0), 1e-12);
  EXPECT_NEAR(porta::nn::BCEWithLogitsLoss()(vec({0, 0}), vec({1, 0})).item<double>(), std::log(2.0), 1e-12);
  EXPECT_EQ(porta::nn::L1Loss()(vec({1, 2}), vec({2, 4})).item<double>(), 1.5);
  EXPECT_EQ(porta::nn::HuberLoss(PORTA_REDUCTION_SUM, 1.0)(vec({0, 0}), vec({0.5, 3})).item<double>(), 0.125 + 2.5);
  const Tensor logp = vec({std::log(0.25), std::log(0.75)}, {1, 2});
  const Tensor target = Tensor::from_vector(std::vector<int64_t>{1}, {1});
  EXPECT_NEAR(porta::nn::NLLLoss()(logp, target).item<double>(), -std::log(0.75), 1e-12);
  EXPECT_NEAR(F::cross_entropy_loss(vec({0, 0}, {1, 2}), target, {}, -100, PORTA_REDUCTION_MEAN, 0.2).item<double>(),
              std::log(2.0), 1e-12);
  porta::nn::LayerNorm ln({2});
  const Tensor y = ln.forward(vec({1, 3, 2, 2}, {2, 2}).cast(porta::kFloat32));  // the module's dtype
  EXPECT_NEAR(values(y)[0], -1.0 / std::sqrt(1.0 + 1e-5), 1e-6);
  EXPECT_EQ(values(y)[2], 0.0);
  const Tensor rm = Tensor::zeros({1}, {}, porta::kFloat64), rv = Tensor::full({1}, 1.0, {}, porta::kFloat64);
  (void)F::batch_norm(vec({1, 3}, {2, 1}), rm, rv, {}, {}, true, 0.5);
  EXPECT_EQ(values(rm), (D{1.0}));      // 0.5 * 0 + 0.5 * 2
  EXPECT_EQ(values(rv), (D{1.5}));      // 0.5 * 1 + 0.5 * 2 (unbiased)
  EXPECT_THAT(porta::nn::GroupNorm(1, 2).describe(), HasSubstr("GroupNorm(1, 2"));
}

}  // namespace
