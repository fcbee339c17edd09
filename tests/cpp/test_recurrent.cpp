// The recurrent layers in C++ (user ABI 1.6): LSTM / GRU / RNN with
// libtorch's options and return types, the cells, PyTorch's parameter
// names, clone(), and a sequence model that learns. The per-device values
// and gradients are checked by tests/gradcheck and tests/python/test_recurrent.py.
#include <gmock/gmock.h>

#include <cmath>
#include <porta/nn.hpp>
#include <porta/optim.hpp>

#include "tensor_values.hpp"

using porta::Tensor;
using porta_test::D;
using porta_test::values;

namespace nn = porta::nn;

namespace {

void expect_near(const Tensor& a, const Tensor& b, double tol = 1e-6) {
  const D x = values(a), y = values(b);
  ASSERT_EQ(x.size(), y.size());
  for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(x[i], y[i], tol) << "element " << i;
}

TEST(Recurrent, LstmReturnsLibtorchsTuplesAndMatchesItsCellUnrolled) {
  porta::manual_seed(3);
  nn::LSTM lstm(nn::LSTMOptions(3, 4).num_layers(1).batch_first(true));
  nn::LSTMCell cell(3, 4);
  {
    porta::NoGradGuard no_grad;
    cell.weight_ih.copy_(lstm.flat_weights()[0]), cell.weight_hh.copy_(lstm.flat_weights()[1]);
    cell.bias_ih.copy_(lstm.flat_weights()[2]), cell.bias_hh.copy_(lstm.flat_weights()[3]);
  }
  const Tensor x = Tensor::randn({2, 5, 3});  // [N, T, I]
  auto [out, state] = lstm.forward(x);
  auto [h_n, c_n] = state;
  EXPECT_EQ(out.shape(), (porta::Shape{2, 5, 4}));
  EXPECT_EQ(h_n.shape(), (porta::Shape{1, 2, 4}));
  std::optional<nn::LSTMCell::State> hc;
  for (int64_t t = 0; t < 5; ++t) {
    hc = cell(x.select(1, t), hc);
    expect_near(out.select(1, t), std::get<0>(*hc));
  }
  expect_near(c_n.select(0, 0), std::get<1>(*hc));
}

TEST(Recurrent, GruAndRnnTakeAnInitialStateAndGoBothWays) {
  nn::GRU gru(nn::GRUOptions(3, 2).num_layers(2).bidirectional(true));
  const Tensor x = Tensor::randn({4, 1, 3}), h0 = Tensor::randn({4, 1, 2});
  auto [out, h_n] = gru(x, h0);
  EXPECT_EQ(out.shape(), (porta::Shape{4, 1, 4}));
  EXPECT_EQ(h_n.shape(), (porta::Shape{4, 1, 2}));
  // The last layer's forward direction ends at the last step, its reverse at the first.
  expect_near(h_n.select(0, 2), out.select(0, 3).slice(1, 0, 2));
  expect_near(h_n.select(0, 3), out.select(0, 0).slice(1, 2, 4));
  nn::RNN relu(nn::RNNOptions(3, 2).nonlinearity(nn::Nonlinearity::ReLU).bias(false));
  auto [r, rh] = relu(x);
  const D relu_values = values(r);
  EXPECT_GE(*std::min_element(relu_values.begin(), relu_values.end()), 0.0);
  EXPECT_EQ(relu.describe(), "RNN(3, 2, bias=False)");
  nn::GRUCell gru_cell(3, 2);
  EXPECT_EQ(gru_cell(x.select(0, 0)).shape(), (porta::Shape{1, 2}));
  EXPECT_EQ(nn::RNNCell(3, 2)(x.select(0, 0).select(0, 0)).shape(), (porta::Shape{2}));  // unbatched
}

TEST(Recurrent, ParametersCarryPyTorchsNamesAndCloneIsDeep) {
  nn::LSTM lstm(nn::LSTMOptions(3, 4).num_layers(2).bidirectional(true));
  const auto names = lstm.named_parameters();
  ASSERT_EQ(names.size(), 16u);
  EXPECT_EQ(names[0].first, "weight_ih_l0");
  EXPECT_EQ(names[4].first, "weight_ih_l0_reverse");
  EXPECT_EQ(names[15].first, "bias_hh_l1_reverse");
  EXPECT_EQ(names[8].second.shape(), (porta::Shape{16, 8}));
  for (auto& [n, p] : names)
    for (double v : values(p)) EXPECT_LE(std::abs(v), 0.5) << n;  // U(-1/sqrt(4), 1/sqrt(4))
  auto copy = std::dynamic_pointer_cast<nn::LSTM>(lstm.clone());
  ASSERT_TRUE(copy);
  {
    porta::NoGradGuard no_grad;
    copy->flat_weights()[0].fill_(0.0);
  }
  EXPECT_NE(values(lstm.flat_weights()[0]), values(copy->flat_weights()[0]));
  EXPECT_EQ(values(copy->named_parameters()[0].second), values(copy->flat_weights()[0]));
  const Tensor x = Tensor::randn({2, 1, 3});
  EXPECT_THAT([&] { static_cast<nn::Module&>(lstm).forward(x); },
              testing::ThrowsMessage<porta::Error>(testing::HasSubstr("no single-tensor forward")));
  EXPECT_THAT(
      [&] {
        lstm(Tensor::randn({2, 1, 5}));
      },
      testing::ThrowsMessage<porta::Error>(testing::HasSubstr("w_ih must be [16, 5]")));
}

TEST(Recurrent, AnLstmLearnsToCountOnes) {
  // Sequences of 0/1 of length 6; the target is how many ones the sequence holds.
  porta::manual_seed(11);
  nn::LSTM lstm(nn::LSTMOptions(1, 8).batch_first(true));
  nn::Linear head(8, 1);
  std::vector<Tensor> params = lstm.parameters();
  for (const Tensor& p : head.parameters()) params.push_back(p);
  porta::optim::Adam opt(params, porta::optim::AdamOptions{.lr = 0.05});
  const Tensor x = Tensor::rand({32, 6, 1}).gt(0.5).cast(porta::kFloat32);
  const Tensor y = x.sum({1});
  double first = 0, last = 0;
  for (int step = 0; step < 300; ++step) {
    auto [out, state] = lstm(x);
    Tensor loss = nn::functional::mse_loss(head(std::get<0>(state).select(0, 0)), y);
    opt.zero_grad();
    loss.backward();
    opt.step();
    (step == 0 ? first : last) = loss.item<double>();
  }
  EXPECT_LT(last, first / 50) << "first loss " << first << ", last " << last;
}

}  // namespace
