// porta/lr_scheduler.hpp and porta/nn_utils.hpp: every scheduler's lrs are the doubles torch's Python
// schedulers give (printed by torch 2.x's torch.optim.lr_scheduler with repr, so exact), the refusals,
// and gradient clipping and parameter vectors against hand-computed values.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <porta/lr_scheduler.hpp>
#include <porta/nn_utils.hpp>
#include <string>
#include <vector>

using porta::Tensor;
namespace optim = porta::optim;
namespace utils = porta::nn::utils;

namespace {

struct Fixture {
  Tensor p = Tensor::zeros({1}).requires_grad_();
  optim::SGD opt{{p}, {.lr = 0.1}};
};

// The lr after construction, then after each of `steps` steps (optimizer first, as PyTorch wants).
std::vector<double> lrs(optim::LRScheduler& s, optim::Optimizer& opt, int steps) {
  std::vector<double> out{s.get_last_lr()};
  for (int i = 0; i < steps; ++i) {
    opt.step();
    s.step();
    out.push_back(s.get_last_lr());
    EXPECT_EQ(opt.lr(), out.back());
  }
  return out;
}

using Make = std::function<std::shared_ptr<optim::LRScheduler>(optim::Optimizer&)>;

template <class S, class... Args>
Make make(Args... args) {
  return [=](optim::Optimizer& o) { return std::make_shared<S>(o, args...); };
}

// torch.optim.lr_scheduler's values for the same schedules on SGD(lr=0.1).
const std::map<std::string, std::pair<Make, std::vector<double>>>& cases() {
  static const std::map<std::string, std::pair<Make, std::vector<double>>> table{
      {"StepLR", {make<optim::StepLR>(3, 0.5), {0.1, 0.1, 0.1, 0.05, 0.05, 0.05, 0.025, 0.025}}},
      {"MultiStepLR",
       {make<optim::MultiStepLR>(std::vector<int64_t>{2, 5, 5}, 0.1),
        {0.1, 0.1, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.00010000000000000005,
         0.00010000000000000005}}},
      {"ExponentialLR",
       {make<optim::ExponentialLR>(0.9),
        {0.1, 0.09000000000000001, 0.08100000000000002, 0.07290000000000002, 0.06561000000000002}}},
      {"CosineAnnealingLR",
       {make<optim::CosineAnnealingLR>(5, 0.01),
        {0.1, 0.09140576474687263, 0.06890576474687263, 0.04109423525312736, 0.018594235253127367, 0.01,
         0.018594235253127367, 0.04109423525312739, 0.06890576474687267, 0.09140576474687269, 0.10000000000000006,
         0.09140576474687272, 0.06890576474687268}}},
      {"LambdaLR",
       {make<optim::LambdaLR>(std::function<double(int64_t)>([](int64_t e) { return 1.0 / double(e + 1); })),
        {0.1, 0.05, 0.03333333333333333, 0.025, 0.020000000000000004}}},
      {"MultiplicativeLR",
       {make<optim::MultiplicativeLR>(std::function<double(int64_t)>([](int64_t) { return 0.95; })),
        {0.1, 0.095, 0.09025, 0.0857375, 0.08145062499999998}}},
      {"LinearLR",
       {make<optim::LinearLR>(0.25, 0.75, int64_t{4}),
        {0.025, 0.037500000000000006, 0.05, 0.0625, 0.075, 0.075, 0.075}}},
      {"ConstantLR", {make<optim::ConstantLR>(0.5, int64_t{3}), {0.05, 0.05, 0.05, 0.1, 0.1}}},
      {"OneCycleLR-cos",
       {make<optim::OneCycleLR>(optim::OneCycleLROptions{.max_lr = 1.0, .total_steps = 10, .cycle_momentum = false}),
        {0.040000000000000036, 0.52, 1.0, 0.9504846320134737, 0.8117456539497631, 0.6112620219362893,
         0.38874197806371075, 0.18825834605023697, 0.049519367986526286, 4e-06, 0.04951936798652623}}},
      // Step 12 of this one is negative in PyTorch too (its last phase ends at step 11): not stepped here.
      {"OneCycleLR-linear-three-phase",
       {make<optim::OneCycleLR>(optim::OneCycleLROptions{.max_lr = 1.0,
                                                         .epochs = 2,
                                                         .steps_per_epoch = 6,
                                                         .pct_start = 0.25,
                                                         .anneal_strategy = optim::AnnealStrategy::linear,
                                                         .cycle_momentum = false,
                                                         .div_factor = 10.0,
                                                         .final_div_factor = 100.0,
                                                         .three_phase = true}),
        {0.1, 0.55, 1.0, 0.55, 0.09999999999999998, 0.08585714285714287, 0.07171428571428572, 0.05757142857142858,
         0.043428571428571434, 0.02928571428571429, 0.015142857142857152, 0.0010000000000000009}}},
      {"SequentialLR",
       {[](optim::Optimizer& o) -> std::shared_ptr<optim::LRScheduler> {
          std::vector<std::shared_ptr<optim::LRScheduler>> parts{std::make_shared<optim::ConstantLR>(o, 0.1, 2),
                                                                 std::make_shared<optim::ExponentialLR>(o, 0.9)};
          return std::make_shared<optim::SequentialLR>(o, parts, std::vector<int64_t>{3});
        },
        {0.010000000000000002, 0.010000000000000002, 0.10000000000000002, 0.1, 0.09000000000000001, 0.08100000000000002,
         0.07290000000000002}}},
      // LambdaLR made after ConstantLR starts from the shared initial_lr (0.1), not from 0.01.
      {"ChainedScheduler",
       {[](optim::Optimizer& o) -> std::shared_ptr<optim::LRScheduler> {
          std::vector<std::shared_ptr<optim::LRScheduler>> parts{
              std::make_shared<optim::ConstantLR>(o, 0.1, 2),
              std::make_shared<optim::LambdaLR>(o, [](int64_t e) { return std::pow(0.9, double(e)); })};
          return std::make_shared<optim::ChainedScheduler>(parts);
        },
        {0.1, 0.09000000000000001, 0.08100000000000002, 0.0729, 0.06561}}},
  };
  return table;
}

}  // namespace

TEST(LRScheduler, EveryScheduleIsTorchsToTheLastBit) {
  for (const auto& [name, entry] : cases()) {
    Fixture f;
    auto s = entry.first(f.opt);
    const std::vector<double>& expected = entry.second;
    const std::vector<double> got = lrs(*s, f.opt, static_cast<int>(expected.size()) - 1);
    ASSERT_EQ(got.size(), expected.size()) << name;
    for (size_t t = 0; t < got.size(); ++t) EXPECT_EQ(got[t], expected[t]) << name << " at epoch " << t;
  }
}

TEST(LRScheduler, StepLRMatchesItsClosedFormAndDrivesTheOptimizer) {
  Tensor p = Tensor::ones({1}).requires_grad_();
  optim::SGD opt({p}, {.lr = 1.0});
  optim::StepLR s(opt, 1, 0.5);
  EXPECT_EQ(s.last_epoch(), 0);
  EXPECT_EQ(s.base_lr(), 1.0);
  for (int i = 0; i < 3; ++i) {  // lr 1, 0.5, 0.25 with gradient 1
    opt.zero_grad();
    p.sum().backward();
    opt.step();
    s.step();
    EXPECT_DOUBLE_EQ(s.get_last_lr(), std::pow(0.5, i + 1));
  }
  EXPECT_FLOAT_EQ(p.item<float>(), 1.0f - 1.75f);
}

TEST(LRScheduler, ReduceLROnPlateauIsTorchs) {
  Fixture f;
  optim::ReduceLROnPlateauScheduler s(f.opt, optim::ReduceLROnPlateauScheduler::min, 0.3, 1, 0.01,
                                      optim::ReduceLROnPlateauScheduler::rel, 2, 0.001, 1e-4);
  const std::vector<double> metrics{5.0, 4.0, 4.0, 3.99, 4.5, 4.0, 4.0, 2.0, 2.0,
                                    2.1, 2.0, 2.0, 2.0,  2.0, 2.0, 2.0, 2.0, 2.0};
  const std::vector<double> expected{0.1,
                                     0.1,
                                     0.1,
                                     0.03,
                                     0.03,
                                     0.03,
                                     0.03,
                                     0.03,
                                     0.03,
                                     0.009,
                                     0.009,
                                     0.009,
                                     0.009,
                                     0.0026999999999999997,
                                     0.0026999999999999997,
                                     0.0026999999999999997,
                                     0.0026999999999999997,
                                     0.001};
  for (size_t i = 0; i < metrics.size(); ++i) {
    s.step(metrics[i]);
    EXPECT_EQ(s.get_last_lr(), expected[i]) << "epoch " << i + 1;
  }
  EXPECT_EQ(s.best(), 2.0);
  EXPECT_EQ(s.last_epoch(), 18);

  Fixture g;
  optim::ReduceLROnPlateauScheduler up(g.opt, optim::ReduceLROnPlateauScheduler::max, 0.5, 0, 0.5,
                                       optim::ReduceLROnPlateauScheduler::abs);
  up.step(1.0);
  up.step(1.4);  // not 0.5 better than 1.0: reduced at once (patience 0)
  EXPECT_DOUBLE_EQ(up.get_last_lr(), 0.05);
  EXPECT_EQ(up.best(), 1.0);
}

TEST(LRScheduler, RefusesWhatPortaCannotDo) {
  Fixture f;
  try {
    optim::OneCycleLR s(f.opt, {.max_lr = 1.0, .total_steps = 10});  // PyTorch's default cycle_momentum
    FAIL() << "cycle_momentum=true must be refused";
  } catch (const porta::Error& e) {
    EXPECT_EQ(e.status(), PORTA_ERROR_NOT_IMPLEMENTED);
    EXPECT_NE(std::string(e.what()).find(".cycle_momentum = false"), std::string::npos) << e.what();
  }
  optim::OneCycleLR s(f.opt, {.max_lr = 1.0, .total_steps = 2, .cycle_momentum = false});
  s.step();
  s.step();
  EXPECT_THROW(s.step(), porta::Error) << "past total_steps";
  EXPECT_THROW((optim::OneCycleLR(f.opt, {.max_lr = 1.0, .cycle_momentum = false})), porta::Error);
  EXPECT_THROW(optim::StepLR(f.opt, 0), porta::Error);
  EXPECT_THROW(optim::CosineAnnealingLR(f.opt, 0), porta::Error);
  EXPECT_THROW(optim::ConstantLR(f.opt, 1.5), porta::Error);
  EXPECT_THROW(optim::ReduceLROnPlateauScheduler(f.opt, optim::ReduceLROnPlateauScheduler::min, 1.0), porta::Error);
  Fixture other;
  std::vector<std::shared_ptr<optim::LRScheduler>> mixed{std::make_shared<optim::StepLR>(f.opt, 2),
                                                         std::make_shared<optim::StepLR>(other.opt, 2)};
  EXPECT_THROW(optim::ChainedScheduler{mixed}, porta::Error);
  EXPECT_THROW(optim::SequentialLR(f.opt, mixed, {}), porta::Error);
}

namespace {
Tensor param_with_grad(const std::vector<float>& grad, const porta::Shape& shape) {
  Tensor p = Tensor::zeros(shape).requires_grad_();
  p.set_grad(Tensor::from_vector(grad, shape));
  return p;
}
}  // namespace

TEST(NnUtils, ClipGradNorm) {
  Tensor a = param_with_grad({3, -4, 1, 2}, {2, 2}), b = param_with_grad({0.5f, -12, 0.25f}, {3});
  Tensor none = Tensor::zeros({2}).requires_grad_();
  const double norm = std::sqrt(9 + 16 + 1 + 4 + 0.25 + 144 + 0.0625);
  EXPECT_NEAR(utils::clip_grad_norm_({a, b, none}, 1.0), norm, 1e-5);
  const double coef = 1.0 / (norm + 1e-6);
  const std::vector<float> ga = a.grad().to_vector<float>(), gb = b.grad().to_vector<float>();
  EXPECT_NEAR(ga[1], -4 * coef, 1e-6);
  EXPECT_NEAR(gb[1], -12 * coef, 1e-6);
  EXPECT_FALSE(none.grad().defined());
  EXPECT_NEAR(utils::clip_grad_norm_(b, 100.0, INFINITY), 12 * coef, 1e-6) << "the largest |g|; no clipping";
  EXPECT_NEAR(b.grad().to_vector<float>()[1], -12 * coef, 1e-6);
  EXPECT_EQ(utils::clip_grad_norm_({none}, 1.0), 0.0);

  Tensor bad = param_with_grad({1, INFINITY}, {2});
  EXPECT_THROW(utils::clip_grad_norm_(bad, 1.0, 2.0, /*error_if_nonfinite=*/true), porta::Error);
  EXPECT_EQ(utils::clip_grad_norm_(bad, 1.0), INFINITY);
}

TEST(NnUtils, ClipGradValueAndParameterVectors) {
  Tensor a = param_with_grad({3, -4, 1, 2}, {2, 2});
  utils::clip_grad_value_({a}, 2.5);
  EXPECT_EQ(a.grad().to_vector<float>(), (std::vector<float>{2.5f, -2.5f, 1, 2}));

  Tensor w = Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3}).requires_grad_();
  Tensor bias = Tensor::from_vector<float>({7, 8}).requires_grad_();
  const Tensor vec = utils::parameters_to_vector({w, bias});
  EXPECT_EQ(vec.shape(), (porta::Shape{8}));
  EXPECT_TRUE(vec.requires_grad());
  EXPECT_EQ(vec.to_vector<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8}));

  const Tensor fresh = Tensor::arange(0.0, 8.0);
  utils::vector_to_parameters(fresh, {w, bias});
  EXPECT_EQ(w.shape(), (porta::Shape{2, 3}));
  EXPECT_TRUE(w.requires_grad());
  EXPECT_EQ(bias.to_vector<float>(), (std::vector<float>{6, 7}));
  fresh.fill_(1.0);  // the parameters share its memory, as libtorch's
  EXPECT_EQ(bias.to_vector<float>(), (std::vector<float>{1, 1}));
}
