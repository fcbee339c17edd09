// porta/amp.hpp: an Autocast scope runs PyTorch's autocast lists in the low
// dtype (per device type) and restores the state when it ends, on this thread
// only; GradScaler skips a step with an infinity and backs off, grows back
// after growth_interval good steps; the storage dtypes from C++ (kFloat16,
// kBFloat16, half(), promote_types).
#include <gtest/gtest.h>
#include <porta/float16.h>

#include <cmath>
#include <porta/amp.hpp>
#include <porta/nn.hpp>
#include <thread>

#include "mock_device.hpp"

using porta::Tensor;
namespace F = porta::nn::functional;

namespace {

TEST(Autocast, ScopeLowersMatmulsAndRestores) {
  const Tensor x = Tensor::randn({4, 6}), w = Tensor::randn({3, 6}).requires_grad_();
  Tensor y, loss;
  {
    porta::amp::Autocast region("cpu");  // the CPU's default: bfloat16
    EXPECT_TRUE(porta::amp::is_autocast_enabled("cpu"));
    y = F::linear(x, w);
    EXPECT_EQ(y.dtype(), porta::kBFloat16);
    EXPECT_EQ(x.matmul(x.t()).dtype(), porta::kBFloat16);
    {
      porta::amp::Autocast off("cpu", porta::kBFloat16, false);
      EXPECT_EQ(x.matmul(x.t()).dtype(), porta::kFloat32);
    }
    EXPECT_EQ(y.relu().dtype(), porta::kBFloat16);
    loss = F::mse_loss(y, Tensor::zeros({4, 3}));  // the float32 list (the CPU's has the losses)
    EXPECT_EQ(loss.dtype(), porta::kFloat32);
    DLDataType seen{};
    std::thread([&] { seen = x.matmul(x.t()).dtype(); }).join();
    EXPECT_EQ(seen, porta::kFloat32);  // another thread is outside the region
  }
  EXPECT_FALSE(porta::amp::is_autocast_enabled("cpu"));
  EXPECT_EQ(x.matmul(x.t()).dtype(), porta::kFloat32);
  loss.backward();
  EXPECT_EQ(w.grad().dtype(), porta::kFloat32);
}

TEST(Autocast, RefusesWhatItDoesNotDo) {
  EXPECT_THROW(porta::amp::Autocast("cpu", porta::kFloat32), porta::Error);
  EXPECT_THROW(porta::amp::Autocast("gpu"), porta::Error);
  EXPECT_FALSE(porta::amp::is_autocast_enabled("cpu"));
}

TEST(GradScalerCpp, SkipsAStepWithAnInfAndBacksOff) {
  Tensor w = Tensor::full({2}, 1.0).requires_grad_();
  porta::optim::SGD opt({w}, {.lr = 0.5});
  porta::amp::GradScaler scaler({.init_scale = 8.0, .growth_interval = 2});
  scaler.scale((w * w).sum()).backward();
  w.set_grad(w.grad() * INFINITY);  // injected
  EXPECT_FALSE(scaler.step(opt));
  scaler.update();
  EXPECT_EQ(scaler.get_scale(), 4.0);
  EXPECT_EQ(w.to_vector<float>(), (std::vector<float>{1.0f, 1.0f}));
  for (int i = 0; i < 2; ++i) {
    opt.zero_grad();
    scaler.scale((w * w).sum()).backward();
    EXPECT_TRUE(scaler.step(opt));  // gradients unscaled: w -= 0.5 * 2w
    scaler.update();
  }
  EXPECT_EQ(scaler.get_scale(), 8.0);
  EXPECT_EQ(w.to_vector<float>(), (std::vector<float>{0.0f, 0.0f}));
}

TEST(StorageDtypesCpp, HalfBfloat16AndPromotion) {
  const Tensor x = Tensor::full({3}, 0.1);
  EXPECT_EQ(x.half().dtype(), porta::kFloat16);
  EXPECT_EQ(x.to(porta::kBFloat16).dtype(), porta::kBFloat16);
  EXPECT_EQ(Tensor::full({}, 0.1).bfloat16().item<double>(),
            static_cast<double>(porta_bfloat16_to_float32(porta_float32_to_bfloat16(0.1f))));
  EXPECT_EQ(porta::promote_types(porta::kUInt8, porta::kInt8), porta::kInt16);
  EXPECT_EQ(porta::promote_types(porta::kFloat16, porta::kBFloat16), porta::kFloat32);
  EXPECT_EQ((x.half() + x.bfloat16()).dtype(), porta::kFloat32);
  EXPECT_EQ(porta::dtype_name(porta::kInt8), "int8");
  EXPECT_EQ(Tensor::full({2}, 300.0, {}, porta::kInt16).to_vector<int16_t>(), (std::vector<int16_t>{300, 300}));
}

}  // namespace
