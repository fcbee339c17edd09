// Autograd through the binding: leaves, backward, no_grad, detach; and the
// tensor-level nn ops and initializers.
#include <cmath>

#include <porta/optim.hpp>

#include "mock_device.hpp"

using porta::Tensor;
using F = std::vector<float>;

TEST(Autograd, GradientsReachTheLeaves) {
  const Tensor w = Tensor::from_vector(F{1, 2, 3}).requires_grad_();
  EXPECT_TRUE(w.requires_grad());
  EXPECT_TRUE(w.is_leaf());
  EXPECT_FALSE(w.grad().defined()) << "no gradient before backward";
  const Tensor loss = (w * w).sum();
  EXPECT_TRUE(loss.requires_grad());
  EXPECT_FALSE(loss.is_leaf());
  loss.backward();
  EXPECT_EQ(w.grad().to_vector<float>(), (F{2, 4, 6}));
  w.set_grad(Tensor());
  EXPECT_FALSE(w.grad().defined()) << "an undefined tensor clears the gradient";
}

TEST(Autograd, BackwardTakesAnOutputGradient) {
  const Tensor w = Tensor::from_vector(F{1, 2}).requires_grad_();
  (w * 3).backward(Tensor::full({2}, 2));
  EXPECT_EQ(w.grad().to_vector<float>(), (F{6, 6}));
}

TEST(Autograd, NoGradGuardStopsRecordingWhileItLives) {
  const Tensor w = Tensor::ones({2}).requires_grad_();
  ASSERT_TRUE(porta::is_grad_enabled());
  {
    porta::NoGradGuard no_grad;
    EXPECT_FALSE(porta::is_grad_enabled());
    EXPECT_FALSE((w * 2).requires_grad());
  }
  EXPECT_TRUE(porta::is_grad_enabled());
  EXPECT_TRUE((w * 2).requires_grad());
}

TEST(Autograd, DetachSharesStorageButNotTheGraph) {
  const Tensor w = Tensor::ones({2}).requires_grad_();
  const Tensor d = w.detach();
  EXPECT_FALSE(d.requires_grad());
  d.fill_(4);
  EXPECT_EQ(w.to_vector<float>(), (F{4, 4}));
}

TEST(NnOps, SoftmaxLogSoftmaxFlatten) {
  const Tensor x = Tensor::from_vector(std::vector<double>{0, std::log(3.0)}, {1, 2});
  const std::vector<double> p = x.softmax(1).to_vector<double>();
  EXPECT_NEAR(p[0], 0.25, 1e-12);
  EXPECT_NEAR(p[1], 0.75, 1e-12);
  const std::vector<double> lp = x.log_softmax(-1).to_vector<double>();
  EXPECT_NEAR(lp[0], std::log(0.25), 1e-12);
  EXPECT_NEAR(lp[1], std::log(0.75), 1e-12);
  EXPECT_EQ(Tensor::zeros({2, 3, 4}).flatten().shape(), (porta::Shape{24}));
  EXPECT_EQ(Tensor::zeros({2, 3, 4}).flatten(1).shape(), (porta::Shape{2, 12}));
}

TEST(Init, UniformAndNormalFillInPlace) {
  const Tensor t = Tensor::zeros({1000});
  porta::manual_seed(3);
  EXPECT_EQ(t.uniform_(-1, 1).handle(), t.handle());
  const F u = t.to_vector<float>();
  for (float v : u) {
    EXPECT_GE(v, -1.f);
    EXPECT_LT(v, 1.f);
  }
  EXPECT_NE(u[0], u[1]);
  const double mean = t.normal_(5, 0.1).mean().item<double>();
  EXPECT_NEAR(mean, 5, 0.05);
}

TEST(Pinned, EmptyPinnedIsACpuTensor) {
  const Tensor t = Tensor::empty_pinned({4}, "cpu");
  EXPECT_TRUE(t.device().is_cpu());
  EXPECT_EQ(t.shape(), (porta::Shape{4}));
  EXPECT_NO_THROW((void)t.is_pinned());
}

class AutogradOnMock : public MockDeviceTest {};

TEST_F(AutogradOnMock, MoveToKeepsTheHandle) {
  const Tensor w = Tensor::from_vector(F{1, 2}).requires_grad_();
  porta_tensor* handle = w.handle();
  w.move_to("mock:0");
  EXPECT_EQ(w.handle(), handle);
  EXPECT_EQ(w.device(), porta::Device("mock:0"));
  (w * w).sum().backward();
  EXPECT_EQ(w.grad().device(), porta::Device("mock:0"));
  EXPECT_EQ(w.grad().to_vector<float>(), (F{2, 4}));
}

TEST(Optim, StateRoundTripsAndOptimizersMove) {
  const Tensor w = Tensor::from_vector(F{1, -2, 3}).requires_grad_();
  porta::optim::Adam adam({w}, {.lr = 0.1});
  EXPECT_EQ(adam.state_slots(), 2);
  EXPECT_FALSE(adam.state(0, 0).defined()) << "no state before the first step";
  (w * w).sum().backward();
  adam.step();
  EXPECT_EQ(adam.step_count(0), 1);
  const Tensor m = adam.state(0, 0);
  ASSERT_TRUE(m.defined());
  // exp_avg after one step is (1 - beta1) * grad = 0.1 * 2w.
  const std::vector<float> got = m.to_vector<float>();
  EXPECT_NEAR(got[0], 0.2, 1e-6);
  EXPECT_NEAR(got[1], -0.4, 1e-6);
  const Tensor w2 = Tensor::from_vector(F{1, -2, 3}).requires_grad_();
  porta::optim::Adam restored({w2}, {.lr = 0.1});
  restored.set_state(0, 0, m);
  restored.set_state(0, 1, adam.state(0, 1));
  restored.set_step_count(0, 1);
  porta::optim::Adam moved = std::move(restored);
  EXPECT_EQ(moved.step_count(0), 1);
  EXPECT_EQ(moved.state(0, 0).to_vector<float>(), got);
}
