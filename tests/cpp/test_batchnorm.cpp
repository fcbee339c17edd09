// Module buffers and BatchNorm1d/2d in C++: training normalizes by the batch's statistics and moves the
// running ones by momentum (the variance unbiased), eval uses the running ones; the buffers are in the
// state dict after each module's parameters (PyTorch's order), are saved and loaded, moved by to(device),
// cast by to(dtype) (num_batches_tracked stays int64) and copied by clone(); bad ranks are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <porta/nn.hpp>
#include <string>
#include <vector>

#include "mock_device.hpp"
#include "tensor_values.hpp"

using porta::Tensor;
using porta_test::values;
namespace nn = porta::nn;

namespace {

void expect_close(const porta_test::D& got, const porta_test::D& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "element " << i;
}

TEST(BatchNorm, TrainingUsesTheBatchAndMovesTheRunningStatistics) {
  nn::BatchNorm1d bn(nn::BatchNormOptions(2).momentum(0.25));
  // [N=4, C=2]: channel 0 is 1, 2, 3, 4 (mean 2.5, biased var 1.25, unbiased 5/3); channel 1 is 0, 0, 2, 2
  const Tensor x = porta_test::vec({1, 0, 2, 0, 3, 2, 4, 2}, {4, 2}).cast(porta::kFloat32);
  const Tensor y = bn(x);
  const double s0 = std::sqrt(1.25 + 1e-5), s1 = std::sqrt(1.0 + 1e-5);
  expect_close(values(y), {-1.5 / s0, -1 / s1, -0.5 / s0, -1 / s1, 0.5 / s0, 1 / s1, 1.5 / s0, 1 / s1}, 1e-5);
  expect_close(values(bn.running_mean), {0.25 * 2.5, 0.25 * 1.0}, 1e-6);
  expect_close(values(bn.running_var), {0.75 + 0.25 * 5.0 / 3.0, 0.75 + 0.25 * 4.0 / 3.0}, 1e-6);
  EXPECT_EQ(bn.num_batches_tracked.item<int64_t>(), 1);
  bn.eval();
  const porta_test::D rm = values(bn.running_mean), rv = values(bn.running_var);
  const porta_test::D got = values(bn(x));
  for (size_t i = 0; i < got.size(); ++i) {
    const size_t c = i % 2;
    EXPECT_NEAR(got[i], (values(x)[i] - rm[c]) / std::sqrt(rv[c] + 1e-5), 1e-5) << i;
  }
  EXPECT_EQ(bn.num_batches_tracked.item<int64_t>(), 1);  // eval does not count
  EXPECT_THROW(bn(Tensor::zeros({4, 2, 3, 3})), porta::Error);
  nn::BatchNorm2d bn2(2);
  EXPECT_THROW(bn2(x), porta::Error);
}

TEST(BatchNorm, BuffersInTheStateDictSavedLoadedMovedCastAndCloned) {
  auto model = std::make_shared<nn::Sequential>();
  model->push_back(std::make_shared<nn::Conv2d>(1, 2, 3));
  model->push_back(std::make_shared<nn::BatchNorm2d>(2));
  std::vector<std::string> names;
  for (auto& [name, t] : model->state_dict()) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"0.weight", "0.bias", "1.weight", "1.bias", "1.running_mean",
                                             "1.running_var", "1.num_batches_tracked"}));
  EXPECT_EQ(model->parameters().size(), 4u);
  EXPECT_EQ(model->buffers().size(), 3u);
  (*model)(Tensor::randn({3, 1, 5, 5}));  // training: the running statistics move
  const std::string path = ::testing::TempDir() + "porta_batchnorm_state.safetensors";
  model->save(path);
  auto fresh = std::make_shared<nn::Sequential>();
  fresh->push_back(std::make_shared<nn::Conv2d>(1, 2, 3));
  fresh->push_back(std::make_shared<nn::BatchNorm2d>(2));
  fresh->load(path);
  std::remove(path.c_str());
  for (size_t i = 0; i < 3; ++i)
    EXPECT_EQ(values(fresh->buffers()[i]), values(model->buffers()[i])) << model->named_buffers()[i].first;

  auto copy = model->clone();
  const porta_test::D before = values(model->buffers()[0]);
  (*copy)(Tensor::randn({3, 1, 5, 5}));  // moves the copy's statistics only
  EXPECT_EQ(values(model->buffers()[0]), before);
  EXPECT_NE(values(copy->buffers()[0]), before);

  model->to(porta::kFloat64);
  EXPECT_EQ(model->buffers()[0].dtype(), porta::kFloat64);
  EXPECT_EQ(model->buffers()[2].dtype(), porta::kInt64);
  EXPECT_EQ((*model)(Tensor::randn({2, 1, 5, 5}, {}, porta::kFloat64)).dtype(), porta::kFloat64);
}

class BatchNormOnMock : public MockDeviceTest {};

TEST_F(BatchNormOnMock, ToDeviceMovesTheBuffers) {
  const porta::Device mock("mock:1");
  nn::BatchNorm1d bn(3);
  bn.to(mock);
  EXPECT_EQ(bn.running_mean.device(), mock);
  EXPECT_EQ(bn.num_batches_tracked.device(), mock);
  const Tensor y = bn(Tensor::randn({4, 3}).to(mock));
  EXPECT_EQ(y.device(), mock);
  EXPECT_EQ(bn.num_batches_tracked.cpu().item<int64_t>(), 1);
  EXPECT_NE(values(bn.running_mean), (porta_test::D{0, 0, 0}));
}

}  // namespace
