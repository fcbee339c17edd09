// Parameter groups of porta::optim (libtorch's OptimizerParamGroup): each group steps with its own options,
// exactly as an optimizer of its own would; lrs per group and shared; state numbered across the groups; a
// parameter in two groups refused; a scheduler drives every group. And functional::
// scaled_dot_product_attention against softmax(q k^T / sqrt(E) + causal mask) v written out.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <porta/lr_scheduler.hpp>
#include <porta/nn.hpp>
#include <vector>

#include "tensor_values.hpp"

using porta::Tensor;
using porta_test::values;
using porta_test::vec;
namespace optim = porta::optim;

namespace {

// A leaf holding `v` with gradient `g`.
Tensor leaf(const porta_test::D& v, const porta_test::D& g) {
  Tensor t = vec(v).requires_grad_();
  t.set_grad(vec(g));
  return t;
}

TEST(OptimizerGroups, EachGroupStepsAsAnOptimizerOfItsOwn) {
  const porta_test::D wv{1.0, -2.0, 3.0}, bv{0.5, 0.25}, wg{0.1, 0.2, -0.3}, bg{-1.0, 2.0};
  Tensor w = leaf(wv, wg), b = leaf(bv, bg);
  const optim::AdamOptions base{.lr = 0.01, .beta1 = 0.9, .beta2 = 0.95, .weight_decay = 0.0};
  optim::AdamOptions decay = base;
  decay.weight_decay = 0.1;
  optim::AdamW grouped({{{w}, decay}, {{b}, std::nullopt}}, base);
  Tensor w_alone = leaf(wv, wg), b_alone = leaf(bv, bg);
  optim::AdamW for_w({w_alone}, decay), for_b({b_alone}, base);
  for (int i = 0; i < 3; ++i) {
    grouped.step();
    for_w.step();
    for_b.step();
  }
  EXPECT_EQ(values(w), values(w_alone));
  EXPECT_EQ(values(b), values(b_alone));
  EXPECT_EQ(grouped.num_param_groups(), 2u);
  // state numbered across the groups: parameter 1 is b, the first of group 1
  EXPECT_EQ(values(grouped.state(1, 0)), values(for_b.state(0, 0)));
  EXPECT_EQ(grouped.step_count(1), 3);
  grouped.zero_grad();
  EXPECT_FALSE(w.grad().defined());
  EXPECT_FALSE(b.grad().defined());
}

TEST(OptimizerGroups, LearningRatesPerGroupAndShared) {
  Tensor a = leaf({1.0}, {1.0}), b = leaf({2.0}, {1.0});
  optim::SGD opt({{{a}, optim::SGDOptions{.lr = 0.1}}, {{b}, optim::SGDOptions{.lr = 0.2}}}, {.lr = 0.5});
  EXPECT_EQ(opt.group_lr(0), 0.1);
  EXPECT_EQ(opt.group_lr(1), 0.2);
  EXPECT_THROW(opt.lr(), porta::Error);  // they differ: a scheduler would not know which to scale
  EXPECT_THROW(optim::StepLR(opt, 1), porta::Error);
  EXPECT_THROW(opt.group_lr(2), porta::Error);
  opt.set_lr(0.3);
  EXPECT_EQ(opt.lr(), 0.3);
  opt.set_group_lr(1, 0.05);
  EXPECT_EQ(opt.group_lr(1), 0.05);
}

TEST(OptimizerGroups, ASchedulerDrivesEveryGroup) {
  Tensor a = leaf({1.0}, {1.0}), b = leaf({2.0}, {1.0});
  optim::SGD opt({{{a}, std::nullopt}, {{b}, optim::SGDOptions{.lr = 0.1, .weight_decay = 0.5}}}, {.lr = 0.1});
  optim::LambdaLR sched(opt, [](int64_t epoch) { return 1.0 / double(epoch + 1); });
  opt.step();
  sched.step();
  EXPECT_EQ(opt.group_lr(0), 0.05);
  EXPECT_EQ(opt.group_lr(1), 0.05);
  EXPECT_NEAR(values(a)[0], 1.0 - 0.1, 1e-15);
  EXPECT_NEAR(values(b)[0], 2.0 - 0.1 * (1.0 + 0.5 * 2.0), 1e-15);  // SGD's L2 term: g + weight_decay * p
}

TEST(OptimizerGroups, RefusesAParameterInTwoGroupsNoGroupsAndAMovedFromOptimizer) {
  Tensor a = leaf({1.0}, {1.0});
  try {
    optim::Adam opt({{{a}, std::nullopt}, {{a}, std::nullopt}});
    FAIL() << "a parameter in two groups was accepted";
  } catch (const porta::Error& e) {
    EXPECT_NE(std::string(e.what()).find("one group only"), std::string::npos) << e.what();
  }
  EXPECT_THROW(optim::Adam(std::vector<optim::ParamGroup<optim::AdamOptions>>{}), porta::Error);
  optim::SGD first({a}, {.lr = 0.1});
  optim::SGD second = std::move(first);
  EXPECT_THROW(first.step(), porta::Error);  // NOLINT(bugprone-use-after-move): a moved-from optimizer refuses
  EXPECT_THROW(first.state_slots(), porta::Error);
  EXPECT_NO_THROW(second.step());
}

TEST(Attention, ScaledDotProductAttentionIsItsFormula) {
  porta::manual_seed(3);
  const Tensor q = Tensor::randn({2, 4, 3}, {}, porta::kFloat64), k = Tensor::randn({2, 4, 3}, {}, porta::kFloat64),
               v = Tensor::randn({2, 4, 5}, {}, porta::kFloat64);
  namespace F = porta::nn::functional;
  const Tensor causal = Tensor::ones({4, 4}, {}, porta::kFloat64).tril() > 0.5;
  const Tensor scores = q.matmul(k.transpose(-2, -1)) / std::sqrt(3.0);
  const Tensor expected = F::softmax(scores.masked_fill(causal.logical_not(), -INFINITY), -1).matmul(v);
  const porta_test::D got = values(F::scaled_dot_product_attention(q, k, v, {}, 0.0, true));
  const porta_test::D want = values(expected);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-12) << i;
  // an explicit bool mask and scale give the same as is_causal with the default scale
  const porta_test::D masked = values(F::scaled_dot_product_attention(q, k, v, causal, 0.0, false, 1 / std::sqrt(3.0)));
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(masked[i], want[i], 1e-12) << i;
}

}  // namespace

// maximize: every step takes the negated gradient, so ascending f is descending -f (PyTorch's maximize=).
TEST(OptimMaximize, AscendsAsDescendingTheNegation) {
  using F = std::vector<float>;
  const porta::Tensor up = porta::Tensor::from_vector(F{1, -2}).requires_grad_();
  const porta::Tensor down = porta::Tensor::from_vector(F{1, -2}).requires_grad_();
  porta::optim::Adam ascend({up}, {.lr = 0.1, .weight_decay = 0.1, .maximize = true});
  porta::optim::Adam descend({down}, {.lr = 0.1, .weight_decay = 0.1});
  for (int i = 0; i < 3; ++i) {
    (up * porta::Tensor::from_vector(F{3, 0.5})).sum().backward();
    (down * porta::Tensor::from_vector(F{-3, -0.5})).sum().backward();
    ascend.step();
    descend.step();
    ascend.zero_grad();
    descend.zero_grad();
  }
  EXPECT_EQ(up.to_vector<float>(), down.to_vector<float>());
  EXPECT_NE(up.to_vector<float>(), (F{1, -2}));
}
