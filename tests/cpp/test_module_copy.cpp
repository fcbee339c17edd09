// Module copies, clone() and moves, as a libtorch user meets them: a copy is
// the same module (its training flag included), clone() an independent one
// that keeps what was shared inside it shared, a moved-from module refuses use.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <porta/nn.hpp>

using porta::Tensor;
namespace nn = porta::nn;

namespace {

// A module of the user's own that holds a layer as a member and registers it.
struct Net : nn::Module {
  std::shared_ptr<nn::Linear> fc = register_module("fc", std::make_shared<nn::Linear>(2, 2));
  std::shared_ptr<nn::Dropout> drop = register_module("drop", std::make_shared<nn::Dropout>(0.5));
  Tensor forward(const Tensor& x) override { return (*drop)((*fc)(x)); }
  std::string describe() const override { return "Net"; }
  std::shared_ptr<Module> clone_with(nn::CloneMemo& memo) const override {
    auto copy = copy_of(*this, memo);
    copy->fc = clone_module(memo, fc);
    copy->drop = clone_module(memo, drop);
    return copy;
  }
};

// A module that does not implement clone, and a layer's subclass that does not override it.
struct Plain : nn::Module {
  Tensor forward(const Tensor& x) override { return x; }
  std::string describe() const override { return "Plain"; }
};
struct ScaledLinear : nn::Linear {
  ScaledLinear() : nn::Linear(2, 2) {}
  Tensor forward(const Tensor& x) override { return nn::Linear::forward(x) * 2.0; }
};

float first(const Tensor& t) { return t.to_vector<float>()[0]; }

}  // namespace

TEST(ModuleCopy, ACopyIsTheSameModuleTrainingFlagIncluded) {
  auto model = std::make_shared<Net>();
  Net copy = *model;
  copy.eval();
  EXPECT_FALSE(copy.is_training());
  EXPECT_FALSE(model->is_training()) << "the original's Dropout is off: it must say so";
  EXPECT_FALSE(model->drop->is_training());
  model->train();
  EXPECT_TRUE(copy.is_training());
  EXPECT_EQ(copy.parameters()[0].handle(), model->parameters()[0].handle());
}

TEST(ModuleCopy, CloneIsIndependentAndKeepsSharingInside) {
  auto lin = std::make_shared<nn::Linear>(3, 3);
  nn::Sequential model{lin, std::make_shared<nn::ReLU>(), lin};
  model.eval();
  auto copy = std::dynamic_pointer_cast<nn::Sequential>(model.clone());
  ASSERT_TRUE(copy);
  EXPECT_FALSE(copy->is_training()) << "the training flag is copied";
  const auto mine = model.parameters(), theirs = copy->parameters();
  ASSERT_EQ(theirs.size(), 2u) << "the layer used twice is still one layer in the clone";
  for (size_t i = 0; i < mine.size(); ++i) {
    EXPECT_NE(theirs[i].handle(), mine[i].handle());
    EXPECT_TRUE(theirs[i].requires_grad() && theirs[i].is_leaf());
    EXPECT_EQ(theirs[i].to_vector<float>(), mine[i].to_vector<float>());
  }
  {
    porta::NoGradGuard no_grad;
    theirs[0].fill_(7);
  }
  EXPECT_NE(first(mine[0]), 7.0f) << "the clone's parameters are its own";
  copy->train();
  EXPECT_FALSE(model.is_training());

  auto net = std::make_shared<Net>();
  auto net_copy = std::dynamic_pointer_cast<Net>(net->clone());
  ASSERT_TRUE(net_copy);
  EXPECT_NE(net_copy->fc.get(), net->fc.get());
  EXPECT_EQ(net_copy->fc->weight.handle(), net_copy->parameters()[0].handle())
      << "the member and the registered parameter are one tensor in the clone";
  EXPECT_THROW(Plain().clone(), porta::Error);
  EXPECT_THROW(ScaledLinear().clone(), porta::Error) << "cloning it as a Linear would drop its forward";
}

TEST(ModuleCopy, AMovedFromModuleRefusesUse) {
  nn::Linear a(2, 2);
  nn::Linear b = std::move(a);
  EXPECT_EQ(b.parameters().size(), 2u);
  try {
    (void)a.parameters();
    FAIL() << "a moved-from Linear listed parameters";
  } catch (const porta::Error& e) {
    EXPECT_THAT(e.what(), testing::HasSubstr("moved from"));
  }
  EXPECT_THROW(a(Tensor::ones({1, 2})), porta::Error);
  EXPECT_THROW(a.train(), porta::Error);
}

// ModuleList, ModuleDict, ParameterList and ParameterDict register what they
// hold (names, parameters(), optimizers) and clone() copies it.
TEST(Containers, RegisterWhatTheyHoldAndClone) {
  struct Model : porta::nn::Module {
    std::shared_ptr<porta::nn::ModuleList> blocks = register_module(
        "blocks", std::make_shared<porta::nn::ModuleList>(std::initializer_list<std::shared_ptr<porta::nn::Module>>{
                      std::make_shared<porta::nn::Linear>(2, 2), std::make_shared<porta::nn::ReLU>()}));
    std::shared_ptr<porta::nn::ModuleDict> heads = register_module("heads", std::make_shared<porta::nn::ModuleDict>());
    std::shared_ptr<porta::nn::ParameterDict> scales =
        register_module("scales", std::make_shared<porta::nn::ParameterDict>());
    std::shared_ptr<porta::nn::ParameterList> extra =
        register_module("extra", std::make_shared<porta::nn::ParameterList>());
    Model() {
      heads->insert("out", std::make_shared<porta::nn::Linear>(2, 1));
      scales->insert("x", porta::Tensor::full({2}, 1.0));
      extra->append(porta::Tensor::zeros({3}));
    }
    porta::Tensor forward(const porta::Tensor& x) override {
      return (*heads)["out"]->forward(blocks->at<porta::nn::Linear>(0)->forward(x * (*scales)["x"]));
    }
    std::string describe() const override { return "Model"; }
  };
  Model m;
  std::vector<std::string> names;
  for (auto& [name, t] : m.state_dict()) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"blocks.0.weight", "blocks.0.bias", "heads.out.weight", "heads.out.bias",
                                             "scales.x", "extra.0"}));
  EXPECT_EQ(m.parameters().size(), 6u);
  EXPECT_TRUE((*m.extra)[0].requires_grad());
  EXPECT_THROW(m.blocks->at<porta::nn::Linear>(1), porta::Error);
  EXPECT_THROW((*m.heads)["nope"], porta::Error);
  EXPECT_THROW(m.heads->insert("out", std::make_shared<porta::nn::ReLU>()), porta::Error);
  EXPECT_THROW(m.blocks->forward(porta::Tensor::ones({2})), porta::Error);
  auto list = std::make_shared<porta::nn::ModuleList>(
      std::initializer_list<std::shared_ptr<porta::nn::Module>>{std::make_shared<porta::nn::Linear>(2, 2)});
  auto copy = std::dynamic_pointer_cast<porta::nn::ModuleList>(list->clone());
  ASSERT_TRUE(copy);
  EXPECT_NE(copy->parameters()[0].handle(), list->parameters()[0].handle());
  EXPECT_EQ(copy->parameters()[0].to_vector<float>(), list->parameters()[0].to_vector<float>());
  auto pd = std::make_shared<porta::nn::ParameterDict>(
      std::initializer_list<std::pair<std::string, porta::Tensor>>{{"w", porta::Tensor::ones({1})}});
  auto pd_copy = std::dynamic_pointer_cast<porta::nn::ParameterDict>(pd->clone());
  ASSERT_TRUE(pd_copy);
  EXPECT_NE((*pd_copy)["w"].handle(), (*pd)["w"].handle());
}
