// porta::nn recurrent layers, as libtorch spells them: RNN, LSTM, GRU with
// RNNOptions / LSTMOptions / GRUOptions (num_layers, bias, batch_first,
// dropout, bidirectional; RNN's nonlinearity), and RNNCell, LSTMCell,
// GRUCell. The recurrence is porta_rnn / porta_rnn_cell of the core.
// Parameters carry PyTorch's names and layout (weight_ih_l0, ...,
// bias_hh_l1_reverse), so a state dict saved from PyTorch loads unchanged.
//
// Their forward returns what libtorch's does: LSTM (output, (h_n, c_n)),
// RNN and GRU (output, h_n), LSTMCell (h', c'), RNNCell and GRUCell h'. As
// in libtorch, they are not single-tensor layers: Module::forward(x) throws
// for them (a Sequential cannot hold them; call them directly).
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "porta/nn.hpp"

namespace porta::nn {

/// Options of RNN, LSTM and GRU (libtorch's builder: RNNOptions(10, 20).num_layers(2)).
template <class Derived>
struct RecurrentOptions {
  RecurrentOptions(int64_t input_size, int64_t hidden_size) : input_size_(input_size), hidden_size_(hidden_size) {}
  Derived& num_layers(int64_t v) { return num_layers_ = v, self(); }
  Derived& bias(bool v) { return bias_ = v, self(); }
  Derived& batch_first(bool v) { return batch_first_ = v, self(); }
  Derived& dropout(double v) { return dropout_ = v, self(); }
  Derived& bidirectional(bool v) { return bidirectional_ = v, self(); }
  int64_t input_size_, hidden_size_, num_layers_ = 1;
  bool bias_ = true, batch_first_ = false, bidirectional_ = false;
  double dropout_ = 0.0;

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
};

/// RNN's nonlinearity (libtorch's torch::kTanh / torch::kReLU).
enum class Nonlinearity { Tanh, ReLU };

struct RNNOptions : RecurrentOptions<RNNOptions> {
  using RecurrentOptions::RecurrentOptions;
  RNNOptions& nonlinearity(Nonlinearity v) { return nonlinearity_ = v, *this; }
  Nonlinearity nonlinearity_ = Nonlinearity::Tanh;
};
struct LSTMOptions : RecurrentOptions<LSTMOptions> {
  using RecurrentOptions::RecurrentOptions;
};
struct GRUOptions : RecurrentOptions<GRUOptions> {
  using RecurrentOptions::RecurrentOptions;
};

namespace detail {

inline const char* recurrent_name(porta_rnn_mode mode) {
  return mode == PORTA_RNN_LSTM ? "LSTM" : mode == PORTA_RNN_GRU ? "GRU" : "RNN";
}
inline int64_t recurrent_gates(porta_rnn_mode mode) {
  return mode == PORTA_RNN_LSTM ? 4 : mode == PORTA_RNN_GRU ? 3 : 1;
}

/// What RNN, LSTM and GRU share: the parameters of every layer and direction
/// (PyTorch's order and initialization) and the call of porta_rnn.
class RecurrentBase : public Module {
 public:
  /// The parameters in PyTorch's _flat_weights order.
  const std::vector<Tensor>& flat_weights() const { return weights_; }
  std::string describe() const override {
    return porta::detail::cat(recurrent_name(mode_), "(", input_, ", ", hidden_,
                              layers_ != 1 ? porta::detail::cat(", num_layers=", layers_) : "",
                              bias_ ? "" : ", bias=False", batch_first_ ? ", batch_first=True" : "",
                              dropout_ != 0.0 ? ", dropout=" + porta::detail::py_float(dropout_) : "",
                              bidirectional_ ? ", bidirectional=True" : "", ")");
  }

 protected:
  template <class O>
  RecurrentBase(porta_rnn_mode mode, const RecurrentOptions<O>& o)
      : mode_(mode),
        input_(o.input_size_),
        hidden_(o.hidden_size_),
        layers_(o.num_layers_),
        bias_(o.bias_),
        batch_first_(o.batch_first_),
        bidirectional_(o.bidirectional_),
        dropout_(o.dropout_) {
    const char* name = recurrent_name(mode);
    if (hidden_ <= 0)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                  porta::detail::cat("[", name, "] hidden_size must be greater than zero"));
    if (layers_ <= 0)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                  porta::detail::cat("[", name, "] num_layers must be greater than zero"));
    if (!(dropout_ >= 0.0 && dropout_ <= 1.0))
      throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                  porta::detail::cat("[", name, "] dropout must be in [0, 1], got ", dropout_));
    const int64_t gates = recurrent_gates(mode) * hidden_, dirs = bidirectional_ ? 2 : 1;
    const double bound = 1.0 / std::sqrt(static_cast<double>(hidden_));
    for (int64_t l = 0; l < layers_; ++l)
      for (int64_t d = 0; d < dirs; ++d) {
        const std::string suffix = "_l" + std::to_string(l) + (d ? "_reverse" : "");
        const int64_t in = l == 0 ? input_ : hidden_ * dirs;
        std::vector<std::pair<std::string, Shape>> shapes{{"weight_ih", {gates, in}}, {"weight_hh", {gates, hidden_}}};
        if (bias_) shapes.insert(shapes.end(), {{"bias_ih", {gates}}, {"bias_hh", {gates}}});
        for (auto& [n, shape] : shapes) {
          Tensor p = register_parameter(n + suffix, Tensor::empty(shape));
          porta::detail::check(porta_init_uniform_(p.handle(), -bound, bound));
          names_.push_back(n + suffix);
          weights_.push_back(p);
        }
      }
  }

  /// porta_rnn: {output, h_n, c_n (LSTM only)}.
  std::tuple<Tensor, Tensor, Tensor> run(const Tensor& x, const Tensor& h0, const Tensor& c0) {
    check_device(x);
    porta_rnn_options o{sizeof(porta_rnn_options),
                        mode_,
                        static_cast<int32_t>(layers_),
                        bidirectional_,
                        batch_first_,
                        bias_,
                        is_training(),
                        dropout_};
    std::vector<porta_tensor*> handles;
    for (const Tensor& w : weights_) handles.push_back(w.handle());
    porta_tensor *out = nullptr, *hn = nullptr, *cn = nullptr;
    porta::detail::check(porta_rnn(x.checked_handle(), h0.handle(), c0.handle(), handles.data(),
                                   porta::detail::count(handles), &o, &out, &hn, &cn));
    return {Tensor::adopt(out), Tensor::adopt(hn), Tensor::adopt(cn)};
  }
  /// For clone_with: re-points the copy's weight list to its cloned parameters.
  void repoint_weights() {
    for (size_t i = 0; i < names_.size(); ++i) weights_[i] = parameter(names_[i]);
  }

 private:
  porta_rnn_mode mode_;
  int64_t input_, hidden_, layers_;
  bool bias_, batch_first_, bidirectional_;
  double dropout_;
  std::vector<std::string> names_;
  std::vector<Tensor> weights_;
};

/// What RNNCell, LSTMCell and GRUCell share.
class RecurrentCellBase : public Module {
 public:
  Tensor weight_ih, weight_hh, bias_ih, bias_hh;
  std::string describe() const override {
    return porta::detail::cat(mode_ == PORTA_RNN_LSTM  ? "LSTMCell("
                              : mode_ == PORTA_RNN_GRU ? "GRUCell("
                                                       : "RNNCell(",
                              input_, ", ", hidden_, bias_ih.defined() ? "" : ", bias=False", ")");
  }

 protected:
  RecurrentCellBase(porta_rnn_mode mode, int64_t input_size, int64_t hidden_size, bool bias)
      : mode_(mode), input_(input_size), hidden_(hidden_size) {
    const int64_t gates = recurrent_gates(mode) * hidden_size;
    weight_ih = register_parameter("weight_ih", Tensor::empty({gates, input_size}));
    weight_hh = register_parameter("weight_hh", Tensor::empty({gates, hidden_size}));
    if (bias) {
      bias_ih = register_parameter("bias_ih", Tensor::empty({gates}));
      bias_hh = register_parameter("bias_hh", Tensor::empty({gates}));
    }
    const double bound = 1.0 / std::sqrt(static_cast<double>(hidden_size));
    for (const Tensor& p : parameters()) porta::detail::check(porta_init_uniform_(p.handle(), -bound, bound));
  }
  /// porta_rnn_cell: {h', c' (LSTM only)}.
  std::pair<Tensor, Tensor> step(const Tensor& x, const Tensor& h, const Tensor& c) {
    check_device(x);
    porta_tensor *h1 = nullptr, *c1 = nullptr;
    porta::detail::check(porta_rnn_cell(mode_, x.checked_handle(), h.handle(), c.handle(), weight_ih.handle(),
                                        weight_hh.handle(), bias_ih.handle(), bias_hh.handle(), &h1, &c1));
    return {Tensor::adopt(h1), Tensor::adopt(c1)};
  }
  template <class M>
  static std::shared_ptr<Module> cloned(const M& self, CloneMemo& memo) {
    auto copy = copy_of(self, memo);
    copy->weight_ih = copy->parameter("weight_ih"), copy->weight_hh = copy->parameter("weight_hh");
    copy->bias_ih = copy->parameter("bias_ih"), copy->bias_hh = copy->parameter("bias_hh");
    return copy;
  }

 private:
  porta_rnn_mode mode_;
  int64_t input_, hidden_;
};

}  // namespace detail

namespace detail {

/// clone_with for a recurrent layer `Derived`: its weight list re-pointed to the cloned parameters.
template <class Derived>
class RecurrentLayer : public RecurrentBase {
 public:
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override {
    auto copy = copy_of(static_cast<const Derived&>(*this), memo);
    copy->repoint_weights();
    return copy;
  }

 protected:
  using RecurrentBase::RecurrentBase;
};

/// RNN and GRU: forward(input, h0 = {}) -> (output, h_n).
template <class Derived>
class HiddenStateLayer : public RecurrentLayer<Derived> {
 public:
  std::tuple<Tensor, Tensor> forward(const Tensor& input, const Tensor& h0 = {}) {
    auto [out, hn, cn] = this->run(input, h0, {});
    return {out, hn};
  }
  std::tuple<Tensor, Tensor> operator()(const Tensor& input, const Tensor& h0 = {}) { return forward(input, h0); }

 protected:
  using RecurrentLayer<Derived>::RecurrentLayer;
};

}  // namespace detail

/// torch::nn::RNN: forward(input, h0 = {}) -> (output, h_n).
class RNN : public detail::HiddenStateLayer<RNN> {
 public:
  RNN(int64_t input_size, int64_t hidden_size) : RNN(RNNOptions(input_size, hidden_size)) {}
  explicit RNN(const RNNOptions& o)
      : HiddenStateLayer(o.nonlinearity_ == Nonlinearity::Tanh ? PORTA_RNN_TANH : PORTA_RNN_RELU, o) {}
};

/// torch::nn::GRU: forward(input, h0 = {}) -> (output, h_n).
class GRU : public detail::HiddenStateLayer<GRU> {
 public:
  GRU(int64_t input_size, int64_t hidden_size) : GRU(GRUOptions(input_size, hidden_size)) {}
  explicit GRU(const GRUOptions& o) : HiddenStateLayer(PORTA_RNN_GRU, o) {}
};

/// torch::nn::LSTM: forward(input, (h0, c0) = {}) -> (output, (h_n, c_n)).
class LSTM : public detail::RecurrentLayer<LSTM> {
 public:
  LSTM(int64_t input_size, int64_t hidden_size) : LSTM(LSTMOptions(input_size, hidden_size)) {}
  explicit LSTM(const LSTMOptions& o) : RecurrentLayer(PORTA_RNN_LSTM, o) {}
  using State = std::tuple<Tensor, Tensor>;
  std::tuple<Tensor, State> forward(const Tensor& input, const std::optional<State>& hx = std::nullopt) {
    auto [out, hn, cn] = hx ? run(input, std::get<0>(*hx), std::get<1>(*hx)) : run(input, {}, {});
    return {out, State{hn, cn}};
  }
  std::tuple<Tensor, State> operator()(const Tensor& input, const std::optional<State>& hx = std::nullopt) {
    return forward(input, hx);
  }
};

namespace detail {

/// RNNCell and GRUCell: forward(input, h = {}) -> h'.
template <class Derived>
class HiddenStateCell : public RecurrentCellBase {
 public:
  Tensor forward(const Tensor& input, const Tensor& h) { return step(input, h, {}).first; }
  Tensor forward(const Tensor& input) override { return step(input, {}, {}).first; }
  Tensor operator()(const Tensor& input, const Tensor& h = {}) { return forward(input, h); }
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override {
    return cloned(static_cast<const Derived&>(*this), memo);
  }

 protected:
  using RecurrentCellBase::RecurrentCellBase;
};

}  // namespace detail

/// torch::nn::RNNCell: forward(input, h = {}) -> h'.
class RNNCell : public detail::HiddenStateCell<RNNCell> {
 public:
  RNNCell(int64_t input_size, int64_t hidden_size, bool bias = true, Nonlinearity nonlinearity = Nonlinearity::Tanh)
      : HiddenStateCell(nonlinearity == Nonlinearity::Tanh ? PORTA_RNN_TANH : PORTA_RNN_RELU, input_size, hidden_size,
                        bias) {}
};

/// torch::nn::GRUCell: forward(input, h = {}) -> h'.
class GRUCell : public detail::HiddenStateCell<GRUCell> {
 public:
  GRUCell(int64_t input_size, int64_t hidden_size, bool bias = true)
      : HiddenStateCell(PORTA_RNN_GRU, input_size, hidden_size, bias) {}
};

/// torch::nn::LSTMCell: forward(input, (h, c) = {}) -> (h', c').
class LSTMCell : public detail::RecurrentCellBase {
 public:
  LSTMCell(int64_t input_size, int64_t hidden_size, bool bias = true)
      : RecurrentCellBase(PORTA_RNN_LSTM, input_size, hidden_size, bias) {}
  using State = std::tuple<Tensor, Tensor>;
  State forward(const Tensor& input, const std::optional<State>& hx = std::nullopt) {
    auto [h, c] = hx ? step(input, std::get<0>(*hx), std::get<1>(*hx)) : step(input, {}, {});
    return {h, c};
  }
  State operator()(const Tensor& input, const std::optional<State>& hx = std::nullopt) { return forward(input, hx); }
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override { return cloned(*this, memo); }
};

}  // namespace porta::nn
