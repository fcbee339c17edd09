// porta::nn attention layers, as libtorch spells them: MultiheadAttention (MultiheadAttentionOptions(E, heads)
// .dropout(p).bias(b).batch_first(b)) and TransformerEncoderLayer (TransformerEncoderLayerOptions(d_model,
// nhead).dim_feedforward(n).dropout(p).activation(...).norm_first(b).batch_first(b)). Compositions of
// Linear, functional::scaled_dot_product_attention, LayerNorm and Dropout, with Python's (and PyTorch's)
// parameter names, order and initialization, so a PyTorch state dict loads unchanged.
//
// The module masks mean what PyTorch's modules say: a bool attn_mask or key_padding_mask is true where
// attention is NOT allowed (the opposite of scaled_dot_product_attention's); a float mask is added to the
// scores. MultiheadAttention::forward returns libtorch's (output, weights); weights are undefined when
// need_weights is false. libtorch has no batch_first; Porta's is PyTorch's Python one.
#pragma once

#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "porta/nn.hpp"

namespace porta::nn {

/// MultiheadAttention's options (libtorch's builder).
struct MultiheadAttentionOptions {
  MultiheadAttentionOptions(int64_t embed_dim, int64_t num_heads) : embed_dim_(embed_dim), num_heads_(num_heads) {}
  MultiheadAttentionOptions& dropout(double v) { return dropout_ = v, *this; }
  MultiheadAttentionOptions& bias(bool v) { return bias_ = v, *this; }
  MultiheadAttentionOptions& batch_first(bool v) { return batch_first_ = v, *this; }
  int64_t embed_dim_, num_heads_;
  double dropout_ = 0.0;
  bool bias_ = true, batch_first_ = false;
};

/// torch::nn::MultiheadAttention with one input projection in_proj_weight [3E, E] (xavier-uniform),
/// in_proj_bias [3E] (zeros) and out_proj (bias zeros).
class MultiheadAttention : public Module {
 public:
  explicit MultiheadAttention(const MultiheadAttentionOptions& o) : o_(o) {
    if (o.embed_dim_ <= 0 || o.num_heads_ <= 0 || o.embed_dim_ % o.num_heads_ != 0)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                  porta::detail::cat("[MultiheadAttention] embed_dim (", o.embed_dim_,
                                     ") must be a positive multiple of num_heads (", o.num_heads_, ")"));
    const int64_t e = o.embed_dim_;
    in_proj_weight = register_parameter("in_proj_weight", Tensor::empty({3 * e, e}));
    if (o.bias_) in_proj_bias = register_parameter("in_proj_bias", Tensor::zeros({3 * e}));
    out_proj = register_module("out_proj", std::make_shared<Linear>(e, e, o.bias_));
    const double bound = std::sqrt(6.0 / double(e + 3 * e));  // xavier_uniform_: fan_in e, fan_out 3e
    in_proj_weight.uniform_(-bound, bound);
    NoGradGuard no_grad;
    if (o.bias_) out_proj->bias.fill_(0.0);
  }
  MultiheadAttention(int64_t embed_dim, int64_t num_heads)
      : MultiheadAttention(MultiheadAttentionOptions(embed_dim, num_heads)) {}

  /// (output [L, N, E] or batch_first [N, L, E], weights [N, L, S] averaged over heads, or [N, heads, L, S]).
  std::tuple<Tensor, Tensor> forward(const Tensor& query, const Tensor& key, const Tensor& value,
                                     const Tensor& key_padding_mask = {}, bool need_weights = true,
                                     const Tensor& attn_mask = {}, bool average_attn_weights = true,
                                     bool is_causal = false) {
    check_device(query);
    auto batched = [&](const Tensor& t) { return o_.batch_first_ ? t : t.transpose(0, 1); };  // -> [N, len, E]
    const Tensor q_in = batched(query), k_in = batched(key), v_in = batched(value);
    if (q_in.ndim() != 3)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                  porta::detail::cat("[MultiheadAttention] query must be 3-D ([L, N, E], or [N, L, E] with "
                                     "batch_first), got ",
                                     q_in.ndim(), "-D"));
    const int64_t n = q_in.size(0), lq = q_in.size(1), s = k_in.size(1), e = o_.embed_dim_, h = o_.num_heads_,
                  d = e / h;
    const std::vector<Tensor> w = in_proj_weight.chunk(3, 0);
    const std::vector<Tensor> b = in_proj_bias.defined() ? in_proj_bias.chunk(3, 0) : std::vector<Tensor>(3);
    auto heads = [&](const Tensor& x, int i, int64_t len) {
      return functional::linear(x, w[size_t(i)], b[size_t(i)]).reshape({n, len, h, d}).transpose(1, 2);
    };
    const Tensor q = heads(q_in, 0, lq), k = heads(k_in, 1, s), v = heads(v_in, 2, s);
    const Tensor mask = combined_mask(attn_mask, key_padding_mask, is_causal, n, lq, s, query);
    const double p = is_training() ? o_.dropout_ : 0.0;
    Tensor out, weights;
    if (need_weights) {
      Tensor scores = q.matmul(k.transpose(-2, -1)) * (1.0 / std::sqrt(double(d)));
      if (mask.defined())
        scores = mask.dtype() == kBool ? scores.masked_fill(mask.logical_not(), -INFINITY) : scores + mask;
      weights = functional::softmax(scores, -1);
      out = functional::dropout(weights, p, is_training()).matmul(v);
      if (average_attn_weights) weights = weights.mean({1});
    } else {
      out = functional::scaled_dot_product_attention(q, k, v, mask, p);
    }
    out = (*out_proj)(out.transpose(1, 2).reshape({n, lq, e}));
    return {o_.batch_first_ ? out : out.transpose(0, 1), weights};
  }
  /// forward(query, key, value, ...).
  std::tuple<Tensor, Tensor> operator()(const Tensor& query, const Tensor& key, const Tensor& value,
                                        const Tensor& key_padding_mask = {}, bool need_weights = true,
                                        const Tensor& attn_mask = {}) {
    return forward(query, key, value, key_padding_mask, need_weights, attn_mask);
  }
  std::string describe() const override {
    return porta::detail::cat("MultiheadAttention(embed_dim=", o_.embed_dim_, ", num_heads=", o_.num_heads_,
                              ", batch_first=", o_.batch_first_ ? "True" : "False", ")");
  }
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override {
    auto copy = copy_of(*this, memo);
    copy->in_proj_weight = copy->parameter("in_proj_weight");
    copy->in_proj_bias = copy->parameter("in_proj_bias");
    copy->out_proj = clone_module(memo, out_proj);
    return copy;
  }
  const MultiheadAttentionOptions& options() const { return o_; }

  Tensor in_proj_weight, in_proj_bias;
  std::shared_ptr<Linear> out_proj;

 private:
  /// One mask for [N, heads, L, S] as scaled_dot_product_attention reads it: bool (true: allowed) when every
  /// given mask is bool, else additive; undefined when there is none.
  Tensor combined_mask(Tensor attn_mask, const Tensor& key_padding_mask, bool is_causal, int64_t n, int64_t lq,
                       int64_t s, const Tensor& like) const {
    if (!attn_mask.defined() && is_causal) attn_mask = Tensor::ones({lq, s}, like.device(), kBool).triu(1);
    std::vector<Tensor> masks;
    if (attn_mask.defined())
      masks.push_back(attn_mask.ndim() == 3 ? attn_mask.reshape({n, o_.num_heads_, lq, s}) : attn_mask);
    if (key_padding_mask.defined()) masks.push_back(key_padding_mask.reshape({n, 1, 1, s}));
    if (masks.empty()) return {};
    bool all_bool = true;
    for (const Tensor& m : masks) all_bool = all_bool && m.dtype() == kBool;
    if (all_bool) {
      Tensor allowed = masks[0].logical_not();
      for (size_t i = 1; i < masks.size(); ++i) allowed = allowed.logical_and(masks[i].logical_not());
      return allowed;
    }
    Tensor total;
    for (Tensor m : masks) {
      if (m.dtype() == kBool) m = Tensor::zeros(m.shape(), like.device(), like.dtype()).masked_fill(m, -INFINITY);
      total = total.defined() ? total + m : m;
    }
    return total;
  }
  MultiheadAttentionOptions o_;
};

/// TransformerEncoderLayer's feed-forward activation (libtorch's torch::kReLU / torch::kGELU).
enum class Activation { ReLU, GELU };

/// TransformerEncoderLayer's options (libtorch's builder; norm_first, batch_first and layer_norm_eps as
/// PyTorch's Python layer has them).
struct TransformerEncoderLayerOptions {
  TransformerEncoderLayerOptions(int64_t d_model, int64_t nhead) : d_model_(d_model), nhead_(nhead) {}
  TransformerEncoderLayerOptions& dim_feedforward(int64_t v) { return dim_feedforward_ = v, *this; }
  TransformerEncoderLayerOptions& dropout(double v) { return dropout_ = v, *this; }
  TransformerEncoderLayerOptions& activation(Activation v) { return activation_ = v, *this; }
  TransformerEncoderLayerOptions& layer_norm_eps(double v) { return layer_norm_eps_ = v, *this; }
  TransformerEncoderLayerOptions& batch_first(bool v) { return batch_first_ = v, *this; }
  TransformerEncoderLayerOptions& norm_first(bool v) { return norm_first_ = v, *this; }
  int64_t d_model_, nhead_, dim_feedforward_ = 2048;
  double dropout_ = 0.1, layer_norm_eps_ = 1e-5;
  Activation activation_ = Activation::ReLU;
  bool batch_first_ = false, norm_first_ = false;
};

/// torch::nn::TransformerEncoderLayer: self-attention and a feed-forward block, each with dropout, a residual
/// and LayerNorm (after each, or before with norm_first).
class TransformerEncoderLayer : public Module {
 public:
  explicit TransformerEncoderLayer(const TransformerEncoderLayerOptions& o) : o_(o) {
    self_attn = register_module(
        "self_attn",
        std::make_shared<MultiheadAttention>(
            MultiheadAttentionOptions(o.d_model_, o.nhead_).dropout(o.dropout_).batch_first(o.batch_first_)));
    linear1 = register_module("linear1", std::make_shared<Linear>(o.d_model_, o.dim_feedforward_));
    dropout = register_module("dropout", std::make_shared<Dropout>(o.dropout_));
    linear2 = register_module("linear2", std::make_shared<Linear>(o.dim_feedforward_, o.d_model_));
    norm1 = register_module("norm1", std::make_shared<LayerNorm>(Shape{o.d_model_}, o.layer_norm_eps_));
    norm2 = register_module("norm2", std::make_shared<LayerNorm>(Shape{o.d_model_}, o.layer_norm_eps_));
    dropout1 = register_module("dropout1", std::make_shared<Dropout>(o.dropout_));
    dropout2 = register_module("dropout2", std::make_shared<Dropout>(o.dropout_));
  }
  TransformerEncoderLayer(int64_t d_model, int64_t nhead)
      : TransformerEncoderLayer(TransformerEncoderLayerOptions(d_model, nhead)) {}

  /// src [S, N, E] (or batch_first [N, S, E]); the masks as MultiheadAttention's.
  Tensor forward(const Tensor& src, const Tensor& src_mask, const Tensor& src_key_padding_mask = {},
                 bool is_causal = false) {
    Tensor x = src;
    if (o_.norm_first_) {
      x = x + self_attention((*norm1)(x), src_mask, src_key_padding_mask, is_causal);
      return x + feed_forward((*norm2)(x));
    }
    x = (*norm1)(x + self_attention(x, src_mask, src_key_padding_mask, is_causal));
    return (*norm2)(x + feed_forward(x));
  }
  /// No masks: a single-tensor layer (it can sit in a Sequential).
  Tensor forward(const Tensor& src) override { return forward(src, Tensor()); }
  using Module::operator();
  std::string describe() const override {
    return porta::detail::cat("TransformerEncoderLayer(d_model=", o_.d_model_, ", nhead=", o_.nhead_,
                              ", dim_feedforward=", o_.dim_feedforward_, ")");
  }
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override {
    auto copy = copy_of(*this, memo);
    copy->self_attn = clone_module(memo, self_attn);
    copy->linear1 = clone_module(memo, linear1);
    copy->linear2 = clone_module(memo, linear2);
    copy->norm1 = clone_module(memo, norm1);
    copy->norm2 = clone_module(memo, norm2);
    copy->dropout = clone_module(memo, dropout);
    copy->dropout1 = clone_module(memo, dropout1);
    copy->dropout2 = clone_module(memo, dropout2);
    return copy;
  }

  std::shared_ptr<MultiheadAttention> self_attn;
  std::shared_ptr<Linear> linear1, linear2;
  std::shared_ptr<LayerNorm> norm1, norm2;
  std::shared_ptr<Dropout> dropout, dropout1, dropout2;

 private:
  Tensor self_attention(const Tensor& x, const Tensor& mask, const Tensor& padding, bool is_causal) {
    return (*dropout1)(std::get<0>(self_attn->forward(x, x, x, padding, false, mask, true, is_causal)));
  }
  Tensor feed_forward(const Tensor& x) {
    const Tensor hidden = (*linear1)(x);
    const Tensor act = o_.activation_ == Activation::ReLU ? hidden.relu() : functional::gelu(hidden);
    return (*dropout2)((*linear2)((*dropout)(act)));
  }
  TransformerEncoderLayerOptions o_;
};

}  // namespace porta::nn
