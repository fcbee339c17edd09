// Optimizers against updates computed by hand (PyTorch's formulas), on
// every device; state follows a parameter that moves after the optimizer was made.
#include <cmath>

#include "training_util.hpp"

using namespace porta;

namespace {

class Optimizers : public testing::TestWithParam<Device> {
 protected:
  // A parameter with a fixed gradient g = [0.5, -1.0, 2.0] at every step.
  Tensor param(const std::vector<float>& v) {
    Tensor p = Tensor::from_vector(v, GetParam());
    p.requires_grad_(true);
    return p;
  }
  void set_grad(const Tensor& p) { p.set_grad(Tensor::from_vector(std::vector<float>{0.5f, -1.0f, 2.0f}, GetParam())); }
};

void expect_values(const Tensor& t, const std::vector<double>& want, double tol = 1e-5) {
  std::vector<float> got = t.cpu().to_vector<float>();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "element " << i;
}

}  // namespace

TEST_P(Optimizers, SgdWithMomentumDampeningNesterovAndWeightDecay) {
  const std::vector<double> g{0.5, -1.0, 2.0};
  struct Config { double lr, momentum, dampening, wd; bool nesterov; };
  for (Config c : {Config{0.1, 0, 0, 0, false}, Config{0.1, 0.9, 0, 0, false}, Config{0.05, 0.9, 0.1, 0.01, false},
                   Config{0.1, 0.9, 0, 0.001, true}}) {
    Tensor p = param({1.0f, 2.0f, 3.0f});
    optim::SGD opt({p}, {.lr = c.lr, .momentum = c.momentum, .dampening = c.dampening, .weight_decay = c.wd,
                         .nesterov = c.nesterov});
    std::vector<double> x{1, 2, 3}, buf(3, 0);
    for (int step = 0; step < 3; ++step) {
      set_grad(p);
      opt.step();
      for (size_t i = 0; i < 3; ++i) {
        double d = g[i] + c.wd * x[i];
        if (c.momentum != 0) {
          buf[i] = step == 0 ? d : c.momentum * buf[i] + (1 - c.dampening) * d;
          d = c.nesterov ? d + c.momentum * buf[i] : buf[i];
        }
        x[i] -= c.lr * d;
      }
    }
    expect_values(p, x);
  }
}

TEST_P(Optimizers, AdamAndAdamWMatchTheirFormulas) {
  const std::vector<double> g{0.5, -1.0, 2.0};
  for (bool decoupled : {false, true}) {
    const double lr = 0.01, b1 = 0.9, b2 = 0.999, eps = 1e-8, wd = 0.1;
    Tensor p = param({1.0f, 2.0f, 3.0f});
    std::unique_ptr<optim::Optimizer> opt;
    if (decoupled) opt = std::make_unique<optim::AdamW>(std::vector<Tensor>{p}, optim::AdamOptions{.lr = lr, .weight_decay = wd});
    else opt = std::make_unique<optim::Adam>(std::vector<Tensor>{p}, optim::AdamOptions{.lr = lr, .weight_decay = wd});
    std::vector<double> x{1, 2, 3}, m(3, 0), v(3, 0);
    for (int t = 1; t <= 4; ++t) {
      set_grad(p);
      opt->step();
      for (size_t i = 0; i < 3; ++i) {
        double gi = g[i];
        if (decoupled) x[i] *= 1 - lr * wd;
        else gi += wd * x[i];
        m[i] = b1 * m[i] + (1 - b1) * gi;
        v[i] = b2 * v[i] + (1 - b2) * gi * gi;
        const double mhat = m[i] / (1 - std::pow(b1, t)), vhat = v[i] / (1 - std::pow(b2, t));
        x[i] -= lr * mhat / (std::sqrt(vhat) + eps);
      }
    }
    expect_values(p, x);
  }
}

TEST_P(Optimizers, ZeroGradClearsAndParametersWithoutGradsAreSkipped) {
  Tensor p = param({1.0f, 2.0f, 3.0f}), q = param({4.0f, 5.0f, 6.0f});
  optim::SGD opt({p, q}, {.lr = 1.0});
  set_grad(p);
  opt.step();
  expect_values(q, {4, 5, 6});
  expect_values(p, {0.5, 3.0, 1.0});
  opt.zero_grad();
  EXPECT_FALSE(p.grad().defined());
}

TEST_P(Optimizers, StateFollowsAParameterThatMoves) {
  Tensor p = param({1.0f, 2.0f, 3.0f});
  optim::SGD opt({p}, {.lr = 0.1, .momentum = 0.9});
  set_grad(p);
  opt.step();  // momentum buffer created on GetParam()
  const Device other = GetParam().is_cpu() ? Device("mock:1") : Device("cpu");
  p.move_to(other);
  EXPECT_EQ(p.device(), other);
  p.set_grad(Tensor::from_vector(std::vector<float>{0.5f, -1.0f, 2.0f}, other));
  opt.step();  // the buffer follows to `other`
  // x1 = x0 - 0.1 g; buf = 0.9 g + g = 1.9 g; x2 = x1 - 0.1 * 1.9 g
  expect_values(p, {1 - 0.29 * 0.5, 2 + 0.29, 3 - 0.29 * 2});
}

TEST_P(Optimizers, BadOptionsAndNonLeafParametersAreRefused) {
  Tensor p = param({1.0f, 2.0f, 3.0f});
  EXPECT_THROW(optim::SGD({p}, {.lr = -1}), Error);
  EXPECT_THROW(optim::SGD({p}, {.lr = 0.1, .momentum = 0, .nesterov = true}), Error);
  EXPECT_THROW(optim::Adam({p}, {.beta1 = 1.0}), Error);
  Tensor derived = p.mul(2.0);
  try {
    optim::SGD opt({derived}, {.lr = 0.1});
    FAIL() << "a non-leaf parameter was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not a leaf"), std::string::npos) << e.what();
  }
}

PORTA_FOR_EVERY_DEVICE(Optimizers);
