// docs/examples/char_gpt.py in C++: a GPT-style character-level transformer (token and position
// embeddings, pre-LayerNorm blocks of causal self-attention and a GELU MLP, dropout), trained with AdamW
// in two parameter groups (matrices decay, biases and LayerNorm weights do not), a warm-up then cosine
// LambdaLR and gradient clipping, on the GNU GPL version 3 that Debian's base-files ships; it prints the
// validation loss against the uniform guess and samples text.
//
//   char_gpt [--steps N] [--device D] [--text FILE] [--seed S] [--batch B] [--losses FILE]
//
// The model is built, initialized and fed in the Python example's order, so on one seed the two draw the
// same weights, batches and dropout masks: tests/python/test_example_char_gpt.py checks that their loss
// curves agree (and the Python one against PyTorch's).
#include <porta/lr_scheduler.hpp>
#include <porta/nn.hpp>
#include <porta/optim.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>

using namespace porta;
namespace F = porta::nn::functional;

struct Config {
  int64_t vocab_size, block_size = 64, n_layer = 2, n_head = 4, n_embd = 64;
  double dropout = 0.1;
};

struct CausalSelfAttention : nn::Module {
  explicit CausalSelfAttention(const Config& cfg) : cfg_(cfg) {
    c_attn = register_module("c_attn", std::make_shared<nn::Linear>(cfg.n_embd, 3 * cfg.n_embd));
    c_proj = register_module("c_proj", std::make_shared<nn::Linear>(cfg.n_embd, cfg.n_embd));
    resid_dropout = register_module("resid_dropout", std::make_shared<nn::Dropout>(cfg.dropout));
  }
  Tensor forward(const Tensor& x) override {
    const int64_t B = x.size(0), T = x.size(1), C = x.size(2), hs = C / cfg_.n_head;
    std::vector<Tensor> qkv = (*c_attn)(x).split(cfg_.n_embd, 2);
    auto heads = [&](const Tensor& t) { return t.view({B, T, cfg_.n_head, hs}).transpose(1, 2); };
    Tensor y = F::scaled_dot_product_attention(heads(qkv[0]), heads(qkv[1]), heads(qkv[2]), {},
                                               is_training() ? cfg_.dropout : 0.0, /*is_causal=*/true);
    y = y.transpose(1, 2).contiguous().view({B, T, C});
    return (*resid_dropout)((*c_proj)(y));
  }
  std::string describe() const override { return "CausalSelfAttention"; }
  std::shared_ptr<nn::Linear> c_attn, c_proj;
  std::shared_ptr<nn::Dropout> resid_dropout;

 private:
  Config cfg_;
};

struct MLP : nn::Module {
  explicit MLP(const Config& cfg) {
    c_fc = register_module("c_fc", std::make_shared<nn::Linear>(cfg.n_embd, 4 * cfg.n_embd));
    gelu = register_module("gelu", std::make_shared<nn::GELU>());
    c_proj = register_module("c_proj", std::make_shared<nn::Linear>(4 * cfg.n_embd, cfg.n_embd));
    dropout = register_module("dropout", std::make_shared<nn::Dropout>(cfg.dropout));
  }
  Tensor forward(const Tensor& x) override { return (*dropout)((*c_proj)((*gelu)((*c_fc)(x)))); }
  std::string describe() const override { return "MLP"; }
  std::shared_ptr<nn::Linear> c_fc, c_proj;
  std::shared_ptr<nn::GELU> gelu;
  std::shared_ptr<nn::Dropout> dropout;
};

struct Block : nn::Module {
  explicit Block(const Config& cfg) {
    ln_1 = register_module("ln_1", std::make_shared<nn::LayerNorm>(Shape{cfg.n_embd}));
    attn = register_module("attn", std::make_shared<CausalSelfAttention>(cfg));
    ln_2 = register_module("ln_2", std::make_shared<nn::LayerNorm>(Shape{cfg.n_embd}));
    mlp = register_module("mlp", std::make_shared<MLP>(cfg));
  }
  Tensor forward(const Tensor& input) override {
    Tensor x = input + (*attn)((*ln_1)(input));
    return x + (*mlp)((*ln_2)(x));
  }
  std::string describe() const override { return "Block"; }
  std::shared_ptr<nn::LayerNorm> ln_1, ln_2;
  std::shared_ptr<CausalSelfAttention> attn;
  std::shared_ptr<MLP> mlp;
};

struct GPT : nn::Module {
  explicit GPT(const Config& cfg) : cfg(cfg) {
    wte = register_module("wte", std::make_shared<nn::Embedding>(cfg.vocab_size, cfg.n_embd));
    wpe = register_module("wpe", std::make_shared<nn::Embedding>(cfg.block_size, cfg.n_embd));
    drop = register_module("drop", std::make_shared<nn::Dropout>(cfg.dropout));
    h = register_module("h", std::make_shared<nn::ModuleList>());
    for (int64_t i = 0; i < cfg.n_layer; ++i) h->push_back(std::make_shared<Block>(cfg));
    ln_f = register_module("ln_f", std::make_shared<nn::LayerNorm>(Shape{cfg.n_embd}));
    lm_head = register_module("lm_head", std::make_shared<nn::Linear>(cfg.n_embd, cfg.vocab_size, false));
    // nanoGPT's init: N(0, 0.02) for every Linear and Embedding weight (the 2-D parameters), zero biases,
    // then GPT-2's scaled init of the residual projections.
    NoGradGuard no_grad;
    for (auto& [name, p] : named_parameters()) {
      if (p.ndim() == 2) p.normal_(0.0, 0.02);
      else if (name.ends_with(".bias")) p.fill_(0.0);
    }
    for (auto& [name, p] : named_parameters())
      if (name.ends_with("c_proj.weight")) p.normal_(0.0, 0.02 / std::sqrt(2.0 * double(cfg.n_layer)));
  }
  /// Logits [B, T, vocab] of idx [B, T].
  Tensor forward(const Tensor& idx) override {
    const int64_t T = idx.size(1);
    Tensor pos = Tensor::arange<int64_t>(0, T, 1, idx.device(), kInt64);
    Tensor x = (*drop)((*wte)(idx) + (*wpe)(pos));
    for (const auto& block : *h) x = (*block)(x);
    return (*lm_head)((*ln_f)(x));
  }
  std::string describe() const override { return "GPT"; }

  optim::AdamW configure_optimizer(double lr, double weight_decay = 0.1) const {
    std::vector<Tensor> decay, no_decay;
    for (const Tensor& p : parameters()) (p.ndim() >= 2 ? decay : no_decay).push_back(p);
    const optim::AdamOptions base{.lr = lr, .beta1 = 0.9, .beta2 = 0.95, .weight_decay = 0.0};
    optim::AdamOptions with_decay = base;
    with_decay.weight_decay = weight_decay;
    return optim::AdamW({{decay, with_decay}, {no_decay, base}}, base);
  }

  /// Appends max_new_tokens characters to idx [1, T], sampling from the top_k most likely.
  Tensor generate(Tensor idx, int max_new_tokens, double temperature = 0.8, int64_t top_k = 20) {
    NoGradGuard no_grad;
    for (int i = 0; i < max_new_tokens; ++i) {
      const int64_t T = idx.size(1);
      Tensor logits = forward(idx.slice(1, std::max<int64_t>(0, T - cfg.block_size), T));
      logits = logits.select(1, logits.size(1) - 1) / temperature;
      const int64_t k = std::min(top_k, logits.size(-1));
      auto [v, unused] = topk(logits, k);
      logits = logits.masked_fill(logits < v.slice(1, k - 1, k), -INFINITY);
      idx = cat({idx, multinomial(F::softmax(logits, -1), 1)}, 1);
    }
    return idx;
  }

  Config cfg;
  std::shared_ptr<nn::Embedding> wte, wpe;
  std::shared_ptr<nn::Dropout> drop;
  std::shared_ptr<nn::ModuleList> h;
  std::shared_ptr<nn::LayerNorm> ln_f;
  std::shared_ptr<nn::Linear> lm_head;
};

/// The lr factor of step s: linear warm-up, then a cosine down to a tenth (the Python example's).
double warmup_cosine(int64_t s, int64_t warmup, int64_t steps) {
  if (s < warmup) return double(s + 1) / double(warmup);
  const double progress = double(s - warmup) / double(std::max<int64_t>(steps - warmup, 1));
  return 0.1 + 0.9 * 0.5 * (1.0 + std::cos(M_PI * std::min(progress, 1.0)));
}

/// x, y [batch, block] from random windows of data, the starts drawn from g.
std::pair<Tensor, Tensor> random_batch(const Tensor& data, int64_t block, int64_t batch, Generator& g,
                                       const Device& device) {
  const std::vector<int64_t> starts =
      Tensor::randint(0, data.size(0) - block - 1, {batch}, Device(), kInt64, &g).to_vector<int64_t>();
  std::vector<Tensor> xs, ys;
  for (int64_t s : starts) {
    xs.push_back(data.slice(0, s, s + block));
    ys.push_back(data.slice(0, s + 1, s + block + 1));
  }
  return {stack(xs).to(device), stack(ys).to(device)};
}

int main(int argc, char** argv) try {
  int64_t steps = 2000, batch = 32;
  uint64_t seed = 1337;
  std::string text_path = "/usr/share/common-licenses/GPL-3", losses_path;
  std::optional<Device> chosen;
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (!std::strcmp(argv[i], "--steps") && has_value) steps = std::atoll(argv[++i]);
    else if (!std::strcmp(argv[i], "--device") && has_value) chosen = Device(argv[++i]);
    else if (!std::strcmp(argv[i], "--text") && has_value) text_path = argv[++i];
    else if (!std::strcmp(argv[i], "--seed") && has_value) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--batch") && has_value) batch = std::atoll(argv[++i]);
    else if (!std::strcmp(argv[i], "--losses") && has_value) losses_path = argv[++i];
    else {
      std::cerr << "usage: " << argv[0]
                << " [--steps N] [--device D] [--text FILE] [--seed S] [--batch B] [--losses FILE]\n";
      return 2;
    }
  }
  const Device device = chosen ? *chosen : try_gpu();

  std::ifstream in(text_path, std::ios::binary);
  if (!in) {
    std::cerr << "error: cannot read " << text_path << " (Debian's base-files package ships it)\n";
    return 1;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  // Characters are bytes here and code points in Python: the GPL's text is ASCII, so they agree.
  const std::set<unsigned char> charset(text.begin(), text.end());
  const std::vector<unsigned char> chars(charset.begin(), charset.end());
  std::map<unsigned char, int64_t> stoi;
  for (size_t i = 0; i < chars.size(); ++i) stoi[chars[i]] = int64_t(i);
  std::vector<int64_t> ids;
  for (unsigned char c : text) ids.push_back(stoi[c]);
  const Tensor data = Tensor::from_vector(ids);
  const int64_t split = int64_t(0.9 * double(ids.size()));
  const Tensor train_data = data.slice(0, 0, split), val_data = data.slice(0, split, data.size(0));

  manual_seed(seed);
  Generator g(seed);
  auto model = std::make_shared<GPT>(Config{.vocab_size = int64_t(chars.size())});
  model->to(device);
  const double uniform = std::log(double(chars.size()));
  int64_t n_params = 0;
  for (const Tensor& p : model->parameters()) n_params += p.numel();
  std::printf("%zu characters, %zu distinct (uniform guess: loss %.3f); %lld parameters on %s\n", text.size(),
              chars.size(), uniform, static_cast<long long>(n_params), device.str().c_str());

  optim::AdamW opt = model->configure_optimizer(3e-3);
  const int64_t warmup = 20;
  optim::LambdaLR sched(opt, [&](int64_t s) { return warmup_cosine(s, warmup, steps); });
  std::vector<double> losses;
  const int64_t log_every = std::max<int64_t>(steps / 10, 1);
  model->train();
  for (int64_t step = 0; step < steps; ++step) {
    auto [x, y] = random_batch(train_data, model->cfg.block_size, batch, g, device);
    Tensor logits = (*model)(x);
    Tensor loss = F::cross_entropy(logits.view({-1, logits.size(-1)}), y.view({-1}));
    opt.zero_grad();
    loss.backward();
    nn::utils::clip_grad_norm_(model->parameters(), 1.0);
    opt.step();
    sched.step();
    losses.push_back(loss.item<double>());
    if ((step + 1) % log_every == 0 || step + 1 == steps)
      std::printf("step %lld train loss %.3f lr %.2e\n", static_cast<long long>(step + 1), losses.back(),
                  sched.get_last_lr());
  }
  if (!losses_path.empty()) {
    std::ofstream out(losses_path);
    out.precision(17);
    for (double l : losses) out << l << "\n";
  }

  model->eval();
  double val_loss = 0;
  {
    NoGradGuard no_grad;
    auto [x, y] = random_batch(val_data, model->cfg.block_size, 64, g, device);
    Tensor logits = (*model)(x);
    val_loss = F::cross_entropy(logits.view({-1, logits.size(-1)}), y.view({-1})).item<double>();
  }
  std::printf("validation loss %.3f (%.2f of the uniform guess)\n", val_loss, val_loss / uniform);
  const std::string prompt = "This License";
  std::vector<int64_t> prompt_ids;
  for (unsigned char c : prompt) prompt_ids.push_back(stoi.at(c));
  const Tensor out = model->generate(Tensor::from_vector(prompt_ids, {1, int64_t(prompt_ids.size())}, device), 200);
  std::string sample;
  for (int64_t i : out.to_vector<int64_t>()) sample += char(chars[size_t(i)]);
  std::printf("sample: %s\n", sample.c_str());
  return 0;
} catch (const porta::Error& e) {
  std::cerr << "error: " << e.what() << "\n";
  return 1;
}
