// Module::to(dtype) (libtorch's module->to(torch::kFloat64)): floating parameters and their gradients are
// cast in place, keeping their identity, so the layer computes in the new dtype and an optimizer made
// after the cast steps it; one that stepped before refuses, naming the fix; non-floating dtypes are refused.
#include <gtest/gtest.h>

#include <porta/nn.hpp>
#include <porta/optim.hpp>
#include <string>

#include "tensor_values.hpp"

using porta::Tensor;
using porta_test::values;
namespace nn = porta::nn;
using porta::operator==;

namespace {

TEST(ModuleDtype, CastsParametersAndGradientsInPlace) {
  porta::manual_seed(5);
  nn::Linear layer(3, 2);
  const Tensor weight = layer.weight;  // the same handle before and after
  const porta_test::D before = values(layer.weight);
  const Tensor x = Tensor::randn({4, 3});
  layer(x).sum().backward();
  const porta_test::D grad_before = values(layer.weight.grad());
  layer.to(porta::kFloat64);
  EXPECT_EQ(weight.dtype(), porta::kFloat64);
  EXPECT_EQ(layer.bias.dtype(), porta::kFloat64);
  EXPECT_EQ(values(weight), before);  // float32 values are exact in float64
  EXPECT_EQ(weight.grad().dtype(), porta::kFloat64);
  EXPECT_EQ(values(weight.grad()), grad_before);
  const Tensor y = layer(x.cast(porta::kFloat64));
  EXPECT_EQ(y.dtype(), porta::kFloat64);
  porta::optim::SGD opt({layer.weight, layer.bias}, {.lr = 0.1});
  opt.step();
  EXPECT_EQ(weight.dtype(), porta::kFloat64);
  layer.to(porta::Device("cpu"), porta::kFloat32);
  EXPECT_EQ(weight.dtype(), porta::kFloat32);
}

TEST(ModuleDtype, RefusesIntegerDtypesAndAStaleOptimizer) {
  nn::Linear layer(3, 2);
  EXPECT_THROW(layer.to(porta::kInt64), porta::Error);
  EXPECT_EQ(layer.weight.dtype(), porta::kFloat32);
  porta::optim::Adam opt({layer.weight, layer.bias});
  layer(Tensor::randn({4, 3})).sum().backward();
  opt.step();  // the state is float32 now
  layer.to(porta::kFloat64);
  layer(Tensor::randn({4, 3}, {}, porta::kFloat64)).sum().backward();
  try {
    opt.step();
    FAIL() << "an optimizer with float32 state stepped a float64 parameter";
  } catch (const porta::Error& e) {
    EXPECT_NE(std::string(e.what()).find("make a new optimizer"), std::string::npos) << e.what();
  }
}

}  // namespace
