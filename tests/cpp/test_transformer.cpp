// porta/nn_transformer.hpp: MultiheadAttention and TransformerEncoderLayer carry PyTorch's parameter names,
// shapes and order; their outputs are the formulas written out with Porta ops (float64, in eval so dropout
// is off), through both attention paths (need_weights or not) and every mask kind; gradients reach every
// parameter; and a clone is independent.
#include <gtest/gtest.h>

#include <cmath>
#include <porta/nn.hpp>
#include <string>
#include <vector>

#include "tensor_values.hpp"

using porta::Tensor;
using porta_test::values;
namespace nn = porta::nn;
namespace F = porta::nn::functional;

namespace {

void expect_close(const Tensor& got, const Tensor& want, double tol = 1e-12) {
  ASSERT_EQ(got.shape(), want.shape());
  const porta_test::D g = values(got), w = values(want);
  for (size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], w[i], tol) << "element " << i;
}

// Every parameter in float64 (so the written-out formulas compare to 1e-12).
template <class M>
void to_double(M& m) {
  for (auto& [name, p] : m.named_parameters()) p.set_data(p.detach().cast(porta::kFloat64));
}

Tensor randn(porta::Shape shape) { return Tensor::randn(shape, {}, porta::kFloat64); }

// MultiheadAttention's output written out: [N, L, E] inputs, a bool mask (true: excluded) or none.
Tensor mha_formula(nn::MultiheadAttention& m, const Tensor& q_in, const Tensor& kv_in, const Tensor& excluded) {
  const int64_t n = q_in.size(0), l = q_in.size(1), s = kv_in.size(1), e = q_in.size(2);
  const int64_t h = m.options().num_heads_, d = e / h;
  const std::vector<Tensor> w = m.in_proj_weight.chunk(3), b = m.in_proj_bias.chunk(3);
  auto heads = [&](const Tensor& x, int i, int64_t len) {
    return (x.matmul(w[size_t(i)].transpose(0, 1)) + b[size_t(i)]).reshape({n, len, h, d}).transpose(1, 2);
  };
  Tensor scores = heads(q_in, 0, l).matmul(heads(kv_in, 1, s).transpose(-2, -1)) / std::sqrt(double(d));
  if (excluded.defined()) scores = scores.masked_fill(excluded, -INFINITY);
  const Tensor out = F::softmax(scores, -1).matmul(heads(kv_in, 2, s)).transpose(1, 2).reshape({n, l, e});
  return out.matmul(m.out_proj->weight.transpose(0, 1)) + m.out_proj->bias;
}

TEST(MultiheadAttention, CarriesPyTorchsNamesShapesAndInit) {
  nn::MultiheadAttention m(8, 2);
  std::vector<std::string> names;
  std::vector<porta::Shape> shapes;
  for (auto& [name, p] : m.named_parameters()) names.push_back(name), shapes.push_back(p.shape());
  EXPECT_EQ(names, (std::vector<std::string>{"in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"}));
  EXPECT_EQ(shapes, (std::vector<porta::Shape>{{24, 8}, {24}, {8, 8}, {8}}));
  const double bound = std::sqrt(6.0 / 32.0);
  for (double v : values(m.in_proj_weight)) EXPECT_LE(std::abs(v), bound);
  for (double v : values(m.in_proj_bias)) EXPECT_EQ(v, 0.0);
  for (double v : values(m.out_proj->bias)) EXPECT_EQ(v, 0.0);
  EXPECT_THROW(nn::MultiheadAttention(8, 3), porta::Error);
}

TEST(MultiheadAttention, IsItsFormulaThroughBothPathsAndEveryMask) {
  porta::manual_seed(7);
  nn::MultiheadAttention m(nn::MultiheadAttentionOptions(8, 2).batch_first(true));
  to_double(m);
  m.in_proj_bias.detach().uniform_(-0.5, 0.5);
  m.eval();
  const Tensor q = randn({2, 3, 8}), kv = randn({2, 5, 8});
  // no mask
  auto [plain, weights] = m.forward(q, kv, kv);
  expect_close(plain, mha_formula(m, q, kv, {}));
  EXPECT_EQ(weights.shape(), (porta::Shape{2, 3, 5}));
  expect_close(std::get<0>(m.forward(q, kv, kv, {}, /*need_weights=*/false)), plain);
  // a key padding mask: the last two keys of batch 1 excluded
  const Tensor padding = porta_test::ivec({0, 0, 0, 0, 0, 0, 0, 0, 1, 1}, {2, 5}).gt(0.5);
  const Tensor padded = mha_formula(m, q, kv, padding.reshape({2, 1, 1, 5}));
  auto [with_padding, padded_weights] = m.forward(q, kv, kv, padding);
  expect_close(with_padding, padded);
  expect_close(std::get<0>(m.forward(q, kv, kv, padding, false)), padded);
  expect_close(padded_weights.select(0, 1).slice(1, 3, 5), Tensor::zeros({3, 2}, {}, porta::kFloat64));
  // a float attn_mask of -inf equals the bool one; is_causal equals triu(1)
  const Tensor causal = Tensor::ones({3, 3}, {}, porta::kBool).triu(1);
  const Tensor self_causal = mha_formula(m, q, q, causal);
  expect_close(std::get<0>(m.forward(q, q, q, {}, true, causal)), self_causal);
  expect_close(std::get<0>(m.forward(q, q, q, {}, false, {}, true, /*is_causal=*/true)), self_causal);
  const Tensor additive = Tensor::zeros({3, 3}, {}, porta::kFloat64).masked_fill(causal, -INFINITY);
  expect_close(std::get<0>(m.forward(q, q, q, {}, false, additive)), self_causal);
  // sequence-first by default: the same numbers transposed
  nn::MultiheadAttention seq_first(8, 2);
  const nn::StateDict trained = m.named_parameters();
  for (size_t i = 0; i < trained.size(); ++i)
    seq_first.named_parameters()[i].second.set_data(trained[i].second.detach().clone());
  seq_first.eval();
  expect_close(std::get<0>(seq_first.forward(q.transpose(0, 1), kv.transpose(0, 1), kv.transpose(0, 1))),
               plain.transpose(0, 1));
}

TEST(TransformerEncoderLayer, IsItsFormulaPostAndPreNorm) {
  porta::manual_seed(11);
  for (bool norm_first : {false, true}) {
    nn::TransformerEncoderLayer layer(nn::TransformerEncoderLayerOptions(8, 2)
                                          .dim_feedforward(16)
                                          .batch_first(true)
                                          .norm_first(norm_first)
                                          .activation(nn::Activation::GELU));
    to_double(layer);
    layer.norm1->weight.detach().uniform_(0.5, 1.5);
    layer.eval();
    const Tensor x = randn({2, 4, 8});
    auto sa = [&](const Tensor& t) { return mha_formula(*layer.self_attn, t, t, {}); };
    auto ff = [&](const Tensor& t) { return (*layer.linear2)(F::gelu((*layer.linear1)(t))); };
    Tensor want;
    if (norm_first) {
      const Tensor y = x + sa((*layer.norm1)(x));
      want = y + ff((*layer.norm2)(y));
    } else {
      const Tensor y = (*layer.norm1)(x + sa(x));
      want = (*layer.norm2)(y + ff(y));
    }
    expect_close(layer(x), want);
  }
}

TEST(TransformerEncoderLayer, NamesGradientsAndClones) {
  nn::TransformerEncoderLayer layer(nn::TransformerEncoderLayerOptions(8, 2).dim_feedforward(16).dropout(0.0));
  std::vector<std::string> names;
  for (auto& [name, p] : layer.named_parameters()) names.push_back(name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"self_attn.in_proj_weight", "self_attn.in_proj_bias", "self_attn.out_proj.weight",
                                      "self_attn.out_proj.bias", "linear1.weight", "linear1.bias", "linear2.weight",
                                      "linear2.bias", "norm1.weight", "norm1.bias", "norm2.weight", "norm2.bias"}));
  const Tensor x = Tensor::randn({4, 2, 8});  // [S, N, E]
  const Tensor causal = Tensor::ones({4, 4}, {}, porta::kBool).triu(1);
  layer.forward(x, causal).pow(2).sum().backward();
  for (auto& [name, p] : layer.named_parameters()) EXPECT_TRUE(p.grad().defined()) << name;
  auto copy = std::dynamic_pointer_cast<nn::TransformerEncoderLayer>(layer.clone());
  ASSERT_TRUE(copy);
  copy->linear1->weight.detach().fill_(0.0);
  EXPECT_NE(values(layer.linear1->weight)[0], 0.0);
  EXPECT_EQ(values(copy->named_parameters()[4].second)[0], 0.0);  // linear1.weight: the member is the parameter
}

}  // namespace
