// Plugins, logging and threads from C++: load_plugin throws with the reason,
// a log handler receives the core's lines, set/get_num_threads round-trip;
// parameters of a module used twice are listed once.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <porta/nn.hpp>
#include <porta/optim.hpp>
#include <porta/porta.hpp>

#include <cmath>
#include <string>
#include <vector>

TEST(Runtime, LoadPluginThrowsWithTheReason) {
  try {
    porta::load_plugin("/nonexistent/libporta_plugin_acme.so");
    FAIL() << "no exception";
  } catch (const porta::Error& e) {
    EXPECT_EQ(e.status(), PORTA_ERROR_BACKEND);
    EXPECT_THAT(e.what(), testing::HasSubstr("no such file"));
  }
  EXPECT_THROW(porta::add_plugin_path("relative"), porta::Error);
}

TEST(Runtime, ALogHandlerReceivesTheCoresLines) {
  std::vector<std::pair<porta_log_level, std::string>> lines;
  porta::set_log_handler([&](porta_log_level level, const std::string& m) { lines.emplace_back(level, m); });
  const porta_log_level before = porta::get_log_level();
  porta::set_log_level(PORTA_LOG_WARN);
  porta_tensor* raw = nullptr;
  const int64_t one = 1;
  ASSERT_EQ(porta_zeros(&one, 1, porta_float32, DLDevice{kDLCPU, 0}, &raw), PORTA_OK);
  porta_tensor_release(raw);
  porta_tensor_release(raw);  // a dead handle: the core warns
  porta::set_log_handler(nullptr);
  porta::set_log_level(before);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].first, PORTA_LOG_WARN);
  EXPECT_THAT(lines[0].second, testing::HasSubstr("dead handle"));
  EXPECT_THROW(porta::set_log_level(static_cast<porta_log_level>(9)), porta::Error);
}

TEST(Runtime, NumThreadsRoundTrips) {
  const int before = porta::get_num_threads();
  EXPECT_GE(before, 1);
  porta::set_num_threads(2);
  EXPECT_EQ(porta::get_num_threads(), 2);
  EXPECT_EQ(porta::Tensor::ones({1000, 100}).sum().item<float>(), 100000.0f);
  EXPECT_THROW(porta::set_num_threads(0), porta::Error);
  porta::set_num_threads(before);
}

TEST(Parameters, AModuleUsedTwiceIsListedOnceAndOptimizersRefuseDuplicates) {
  auto lin = std::make_shared<porta::nn::Linear>(3, 3);
  porta::nn::Sequential model{lin, std::make_shared<porta::nn::ReLU>(), lin};
  EXPECT_EQ(model.parameters().size(), 2u) << "weight and bias, once each";
  EXPECT_EQ(model.state_dict().size(), 4u) << "state_dict keeps both names, as PyTorch's";
  model.load_state_dict(model.state_dict());
  porta::optim::SGD ok(model.parameters(), {.lr = 0.1});
  std::vector<porta::Tensor> twice = lin->parameters();
  twice.push_back(twice[0]);
  try {
    porta::optim::SGD bad(twice, {.lr = 0.1});
    FAIL() << "a parameter listed twice was accepted";
  } catch (const porta::Error& e) {
    EXPECT_THAT(e.what(), testing::HasSubstr("parameter 2 is parameter 0 again"));
  }
  EXPECT_THROW(porta::optim::Adam(std::vector<porta::Tensor>{}), porta::Error);
}

// RMSprop and Adagrad from C++: one step of PyTorch's rule, and their state slots.
TEST(Optimizers, RmspropAndAdagradFromCpp) {
  porta::Tensor p = porta::Tensor::from_vector(std::vector<double>{1.0, -2.0}, {2}).requires_grad_();
  porta::optim::RMSprop rms({p}, {.lr = 0.1, .momentum = 0.5, .centered = true});
  p.set_grad(porta::Tensor::from_vector(std::vector<double>{0.5, 1.0}, {2}));
  rms.step();
  EXPECT_EQ(rms.state_slots(), 3);
  // square_avg = 0.01 g^2, grad_avg = 0.01 g, avg = sqrt(square_avg - grad_avg^2) + eps, p -= lr * g / avg.
  const auto after = p.to_vector<double>();
  for (size_t i = 0; i < 2; ++i) {
    const double g = i ? 1.0 : 0.5, avg = std::sqrt(0.01 * g * g - 1e-4 * g * g) + 1e-8;
    EXPECT_NEAR(after[i], (i ? -2.0 : 1.0) - 0.1 * g / avg, 1e-12);
  }
  porta::Tensor q = porta::Tensor::from_vector(std::vector<double>{3.0}, {1}).requires_grad_();
  porta::optim::Adagrad ada({q}, {.lr = 0.5, .initial_accumulator_value = 1.0});
  q.set_grad(porta::Tensor::from_vector(std::vector<double>{2.0}, {1}));
  ada.step();
  EXPECT_NEAR(q.to_vector<double>()[0], 3.0 - 0.5 * 2.0 / (std::sqrt(5.0) + 1e-10), 1e-12);
  EXPECT_EQ(ada.state_slots(), 1);
}
