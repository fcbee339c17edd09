// Training: the same seed and model give the same losses on every device;
// modules move in place; state dicts load on any device; the tutorials'
// classic mistakes fail with messages that say what to do.
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "../../docs/examples/simple_cnn.hpp"
#include "training_util.hpp"

using namespace porta;

namespace {

// A small CNN like the tutorial's, so 20 steps stay quick on every device.
struct TinyCNN : nn::Module {
  std::shared_ptr<nn::Conv2d> conv = register_module("conv", std::make_shared<nn::Conv2d>(1, 4, 3, 1, 1));
  std::shared_ptr<nn::Linear> fc = register_module("fc", std::make_shared<nn::Linear>(4 * 4 * 4, 3));
  nn::MaxPool2d pool{2};
  Tensor forward(const Tensor& x) override { return (*fc)(pool((*conv)(x).relu()).view({-1, 4 * 4 * 4})); }
  std::string describe() const override { return "TinyCNN"; }
};

// 20 SGD-momentum steps from seed 0 on `device`; returns the losses.
std::vector<double> train_20_steps(const Device& device) {
  manual_seed(0);
  auto model = std::make_shared<TinyCNN>();
  model->to(device);
  Tensor x = Tensor::randn({8, 1, 8, 8}).to(device);
  Tensor y = Tensor::from_vector(std::vector<int64_t>{0, 1, 2, 0, 1, 2, 0, 1}).to(device);
  optim::SGD opt(model->parameters(), {.lr = 0.05, .momentum = 0.9});
  nn::CrossEntropyLoss criterion;
  std::vector<double> losses;
  for (int step = 0; step < 20; ++step) {
    Tensor loss = criterion((*model)(x), y);
    opt.zero_grad();
    loss.backward();
    opt.step();
    losses.push_back(loss.item<float>());
  }
  return losses;
}

class Training : public testing::TestWithParam<Device> {};

}  // namespace

// Tolerance: float32 kernels may sum in different orders on different
// devices; 20 steps keep the drift well under 1e-4 relative.
TEST_P(Training, SameSeedSameLossesAsOnCpu) {
  const std::vector<double> reference = train_20_steps(Device("cpu"));
  const std::vector<double> here = train_20_steps(GetParam());
  ASSERT_EQ(here.size(), reference.size());
  for (size_t i = 0; i < here.size(); ++i)
    EXPECT_NEAR(here[i], reference[i], 1e-4 * std::max(1.0, std::fabs(reference[i]))) << "step " << i;
  EXPECT_LT(here.back(), here.front()) << "the loss decreases";
}

TEST_P(Training, ModuleToKeepsParameterIdentityAndOptimizerWorksAfterwards) {
  manual_seed(1);
  auto model = std::make_shared<TinyCNN>();
  std::vector<Tensor> before = model->parameters();
  optim::SGD opt(model->parameters(), {.lr = 0.1, .momentum = 0.9});  // made before the move
  model->to(GetParam());
  std::vector<Tensor> after = model->parameters();
  for (size_t i = 0; i < before.size(); ++i) {
    EXPECT_EQ(before[i].handle(), after[i].handle()) << "parameter " << i << " kept its identity";
    EXPECT_EQ(after[i].device(), GetParam());
  }
  Tensor x = Tensor::randn({2, 1, 8, 8}).to(GetParam());
  Tensor loss = (*model)(x).sum();
  loss.backward();
  opt.step();
  EXPECT_EQ(before[0].grad().device(), GetParam()) << "grads land on the parameter's device";
}

TEST_P(Training, StateDictSavedOnOneDeviceLoadsOnAnother) {
  manual_seed(2);
  auto a = std::make_shared<TinyCNN>();
  a->to(GetParam());
  const std::string path = (std::filesystem::temp_directory_path() / ("porta_state_" + GetParam().str() + ".safetensors"))
                               .string();
  a->save(path);
  manual_seed(3);
  auto b = std::make_shared<TinyCNN>();
  b->to(Device("cpu"));
  b->load(path);
  Tensor x = Tensor::randn({2, 1, 8, 8});
  NoGradGuard no_grad;
  const auto ya = (*a)(x.to(GetParam())).cpu().to_vector<float>(), yb = (*b)(x).to_vector<float>();
  for (size_t i = 0; i < ya.size(); ++i) EXPECT_NEAR(ya[i], yb[i], 1e-5);
  auto names = a->state_dict();
  EXPECT_EQ(names.front().first, "conv.weight");
  std::remove(path.c_str());
}

TEST_P(Training, ModelAndDataOnDifferentDevicesFailNamingLayerDevicesAndFix) {
  const Device other = GetParam().is_cpu() ? Device("mock:1") : Device("cpu");
  auto model = std::make_shared<SimpleCNN>(1, 28);
  model->to(GetParam());
  Tensor x = Tensor::randn({2, 1, 28, 28}).to(other);
  try {
    (*model)(x);
    FAIL() << "the mismatch was not caught";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_EQ(e.status(), PORTA_ERROR_DEVICE_MISMATCH);
    EXPECT_NE(m.find("Conv2d(1, 64"), std::string::npos) << m;
    EXPECT_NE(m.find("'conv1'"), std::string::npos) << m;
    EXPECT_NE(m.find(GetParam().str()), std::string::npos) << m;
    EXPECT_NE(m.find(other.str()), std::string::npos) << m;
    EXPECT_NE(m.find("model.to("), std::string::npos) << m;
  }
}

TEST_P(Training, TheTutorialsViewBugFailsAtTheLossNamingBothBatchSizes) {
  // x.view(-1, 128*8*8) after one 2x2 pool of 32x32 maps gives 4x the batch rows.
  manual_seed(4);
  nn::Conv2d conv(3, 128, 3, 1, 1);
  conv.to(GetParam());
  nn::Linear fc(128 * 8 * 8, 10);
  fc.to(GetParam());
  nn::MaxPool2d pool(2, 2);
  Tensor x = Tensor::randn({4, 3, 32, 32}).to(GetParam());
  Tensor labels = Tensor::from_vector(std::vector<int64_t>{1, 2, 3, 4}).to(GetParam());
  Tensor flat = pool(conv(x)).view({-1, 128 * 8 * 8});  // [16, 8192]: the view "works"
  Tensor logits = fc(flat);
  try {
    nn::CrossEntropyLoss()(logits, labels);
    FAIL() << "batch size mismatch not caught";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("(16)"), std::string::npos) << m;
    EXPECT_NE(m.find("(4)"), std::string::npos) << m;
    EXPECT_NE(m.find("view(-1"), std::string::npos) << m;
  }
}

PORTA_FOR_EVERY_DEVICE(Training);
