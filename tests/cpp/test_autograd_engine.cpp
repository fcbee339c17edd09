// porta/autograd.hpp: retain_graph, backward(inputs), autograd::grad and a second derivative, hooks (and an
// exception thrown by one), retain_grad, and a custom autograd::Function.
#include <gmock/gmock.h>

#include <any>
#include <cmath>
#include <stdexcept>

#include <porta/porta.hpp>

#include "mock_device.hpp"

using porta::Tensor;
using F = std::vector<float>;
namespace autograd = porta::autograd;

TEST(AutogradEngine, RetainGraphLetsAGraphRunTwice) {
  const Tensor x = Tensor::from_vector(F{1, 2}).requires_grad_();
  const Tensor y = (x * x).sum();
  y.backward({}, /*retain_graph=*/true);
  y.backward();
  EXPECT_EQ(x.grad().to_vector<float>(), (F{4, 8}));
  EXPECT_THROW(y.backward(), porta::Error) << "the graph was freed by the second call";
}

TEST(AutogradEngine, BackwardIntoNamedInputsOnly) {
  const Tensor a = Tensor::from_vector(F{2}).requires_grad_();
  const Tensor b = Tensor::from_vector(F{3}).requires_grad_();
  (a * b).sum().backward({}, std::nullopt, false, {a});
  EXPECT_EQ(a.grad().to_vector<float>(), (F{3}));
  EXPECT_FALSE(b.grad().defined());
}

TEST(AutogradEngine, GradGivesSecondDerivatives) {
  const Tensor x = Tensor::from_vector(F{0.5f, 2}).requires_grad_();
  const Tensor cube = x * x * x;
  const std::vector<Tensor> first = autograd::grad({cube.sum()}, {x}, {}, std::nullopt, /*create_graph=*/true);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].to_vector<float>(), (F{0.75f, 12}));
  EXPECT_TRUE(first[0].requires_grad());
  const std::vector<Tensor> second = autograd::grad({first[0].sum()}, {x});
  EXPECT_EQ(second[0].to_vector<float>(), (F{3, 12}));
  EXPECT_FALSE(x.grad().defined()) << "grad() returns gradients instead of accumulating them";
}

TEST(AutogradEngine, GradAllowUnusedGivesUndefined) {
  const Tensor x = Tensor::from_vector(F{1}).requires_grad_();
  const Tensor unused = Tensor::from_vector(F{1}).requires_grad_();
  const Tensor y = (x * 2).sum();
  EXPECT_THROW(autograd::grad({y}, {x, unused}, {}, true), porta::Error);
  const std::vector<Tensor> g = autograd::grad({y}, {x, unused}, {}, std::nullopt, false, /*allow_unused=*/true);
  EXPECT_EQ(g[0].to_vector<float>(), (F{2}));
  EXPECT_FALSE(g[1].defined());
}

TEST(AutogradEngine, HooksSeeReplaceAndAreRemovable) {
  const Tensor x = Tensor::from_vector(F{1, 2}).requires_grad_();
  std::vector<F> seen;
  const uint64_t looking = x.register_hook([&](const Tensor& g) { seen.push_back(g.to_vector<float>()); });
  const uint64_t doubling = x.register_hook([](const Tensor& g) { return g * 2; });
  (x * 3).sum().backward();
  EXPECT_EQ(seen, (std::vector<F>{{3, 3}}));
  EXPECT_EQ(x.grad().to_vector<float>(), (F{6, 6}));
  x.remove_hook(looking);
  x.remove_hook(doubling);
  EXPECT_THROW(x.remove_hook(doubling), porta::Error);
  x.set_grad(Tensor());
  (x * 3).sum().backward();
  EXPECT_EQ(seen.size(), 1u);
  EXPECT_EQ(x.grad().to_vector<float>(), (F{3, 3}));
}

TEST(AutogradEngine, AnExceptionInAHookReachesTheCaller) {
  const Tensor x = Tensor::from_vector(F{1}).requires_grad_();
  x.register_hook([](const Tensor&) -> Tensor { throw std::logic_error("the hook's own error"); });
  EXPECT_THROW(
      {
        try {
          (x * 2).sum().backward();
        } catch (const std::logic_error& e) {
          EXPECT_STREQ(e.what(), "the hook's own error");
          throw;
        }
      },
      std::logic_error);
  EXPECT_FALSE(x.grad().defined());
}

TEST(AutogradEngine, RetainGradKeepsAnIntermediateGradient) {
  const Tensor x = Tensor::from_vector(F{1, 2}).requires_grad_();
  const Tensor h = x * 3;
  EXPECT_FALSE(h.retains_grad());
  h.retain_grad();
  EXPECT_TRUE(h.retains_grad());
  (h * h).sum().backward();
  EXPECT_EQ(h.grad().to_vector<float>(), (F{6, 12}));
  const uint64_t before = x._version();
  x.detach().add_(1);
  EXPECT_EQ(x._version(), before + 1);
}

struct Cube : autograd::Function<Cube> {
  static Tensor forward(autograd::AutogradContext* ctx, const Tensor& x, double scale) {
    ctx->save_for_backward({x});
    ctx->saved_data["scale"] = scale;
    return x * x * x * scale;
  }
  static autograd::variable_list backward(autograd::AutogradContext* ctx, autograd::variable_list grads) {
    const Tensor x = ctx->get_saved_variables()[0];
    EXPECT_TRUE(ctx->needs_input_grad(0));
    EXPECT_FALSE(ctx->needs_input_grad(1));
    return {grads[0] * x * x * (3 * std::any_cast<double>(ctx->saved_data["scale"])), Tensor()};
  }
};

struct WrongCount : autograd::Function<WrongCount> {
  static Tensor forward(autograd::AutogradContext*, const Tensor& x) { return x * 2; }
  static autograd::variable_list backward(autograd::AutogradContext*, autograd::variable_list grads) {
    return {grads[0], grads[0]};
  }
};

TEST(AutogradEngine, ACustomFunctionRunsItsOwnBackward) {
  const Tensor x = Tensor::from_vector(F{1, 2}).requires_grad_();
  const Tensor y = Cube::apply(x, 2.0);
  EXPECT_EQ(y.to_vector<float>(), (F{2, 16}));
  y.sum().backward();
  EXPECT_EQ(x.grad().to_vector<float>(), (F{6, 24}));
  EXPECT_THROW(autograd::grad({Cube::apply(x, 1.0).sum()}, {x}, {}, std::nullopt, /*create_graph=*/true),
               porta::Error) << "a custom backward is not recorded, so it cannot be differentiated again";
}

// Several outputs (libtorch's variable_list forward): one node, a gradient for each float output (zeros for
// one the loss does not use), an undefined one for an integer output.
struct SinCos : autograd::Function<SinCos> {
  static autograd::variable_list forward(autograd::AutogradContext* ctx, const Tensor& x) {
    ctx->save_for_backward({x});
    return {x.sin(), x.cos(), x.gt(0.0)};
  }
  static autograd::variable_list backward(autograd::AutogradContext* ctx, autograd::variable_list grads) {
    const Tensor x = ctx->get_saved_variables()[0];
    EXPECT_EQ(grads.size(), 3u);
    EXPECT_FALSE(grads[2].defined()) << "the bool output gets no gradient";
    return {grads[0] * x.cos() - grads[1] * x.sin()};
  }
};

TEST(AutogradEngine, ACustomFunctionWithSeveralOutputsGetsAGradientForEach) {
  const Tensor x = Tensor::from_vector(F{0.5f, -1.0f}).requires_grad_();
  autograd::variable_list out = SinCos::apply(x);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].to_vector<float>(), x.detach().sin().to_vector<float>());
  EXPECT_EQ(out[2].dtype().code, kDLBool);
  (out[0].sum() + out[1].sum() * 3).backward();
  const Tensor want = (x.detach().cos() - x.detach().sin() * 3);
  EXPECT_EQ(x.grad().to_vector<float>(), want.to_vector<float>());
  x.set_grad(Tensor());
  SinCos::apply(x)[1].sum().backward();  // out[0] unused: its gradient is zeros
  EXPECT_EQ(x.grad().to_vector<float>(), (-x.detach().sin()).to_vector<float>());
}

TEST(AutogradEngine, ACustomBackwardIsChecked) {
  const Tensor x = Tensor::from_vector(F{1}).requires_grad_();
  try {
    WrongCount::apply(x).sum().backward();
    FAIL() << "a wrong gradient count must be refused";
  } catch (const porta::Error& e) {
    EXPECT_THAT(e.what(), testing::HasSubstr("WrongCountBackward returned an incorrect number of gradients "
                                             "(expected 1, got 2)"));
  }
  const Tensor h = x * 1;
  const Tensor y = Cube::apply(h, 1.0);
  h.add_(1);
  try {
    y.sum().backward();
    FAIL() << "a saved tensor written in place must be refused";
  } catch (const porta::Error& e) {
    EXPECT_THAT(e.what(), testing::HasSubstr("modified by an inplace operation"));
  }
  EXPECT_FALSE(x.grad().defined());
}

TEST(AutogradEngine, DetectAnomalyGuardNamesTheNodeThatMadeANan) {
  const Tensor x = Tensor::from_vector(F{0, 1}).requires_grad_();
  {
    autograd::DetectAnomalyGuard anomaly;
    EXPECT_TRUE(autograd::is_anomaly_enabled());
    try {
      (x.sqrt() * 0).sum().backward();
      FAIL() << "a NaN gradient must be reported while the guard lives";
    } catch (const porta::Error& e) {
      EXPECT_THAT(e.what(), testing::HasSubstr("Function 'SqrtBackward' returned nan values in its 0th output"));
    }
  }
  EXPECT_FALSE(autograd::is_anomaly_enabled());
  EXPECT_FALSE(x.grad().defined());
  (x.sqrt() * 0).sum().backward();
  EXPECT_TRUE(std::isnan(x.grad().to_vector<float>()[0]));
}
