// The backward passes of porta_rnn and porta_rnn_cell (each layer's
// direction one node whose backward runs back through time) against finite
// differences in float64 on every loaded device: every mode, several
// layers, both directions, batch_first and unbatched inputs, with and
// without biases, with and without initial states; each of output, h_n and
// c_n is checked as f. Small sizes: every element of every weight is
// perturbed.
#include <vector>

#include "gradcheck_suite.hpp"

using gradcheck::call;
using gradcheck::Case;
using gradcheck::GradCheck;
using gradcheck::Input;
using gradcheck::ok;
using gradcheck::Tensors;

namespace {

int64_t gates(porta_rnn_mode mode) { return mode == PORTA_RNN_LSTM ? 4 : mode == PORTA_RNN_GRU ? 3 : 1; }

struct Net {
  porta_rnn_mode mode;
  int64_t steps, batch, input, hidden;  // batch 0: an unbatched input
  int32_t layers = 1;
  bool bidirectional = false, bias = true, batch_first = false, states = true;
};
enum class Result { Output, HN, CN };

// x, then h0 (and c0) when given, then every layer's weights in porta_rnn's order.
std::vector<Input> inputs_of(const Net& n) {
  const int64_t dirs = n.bidirectional ? 2 : 1, g = gates(n.mode) * n.hidden;
  std::vector<Input> in;
  if (n.batch == 0)
    in.push_back({{n.steps, n.input}});
  else if (n.batch_first)
    in.push_back({{n.batch, n.steps, n.input}});
  else
    in.push_back({{n.steps, n.batch, n.input}});
  const std::vector<int64_t> state = n.batch ? std::vector<int64_t>{n.layers * dirs, n.batch, n.hidden}
                                             : std::vector<int64_t>{n.layers * dirs, n.hidden};
  if (n.states) {
    in.push_back({state});
    if (n.mode == PORTA_RNN_LSTM) in.push_back({state});
  }
  for (int32_t l = 0; l < n.layers; ++l)
    for (int64_t d = 0; d < dirs; ++d) {
      in.push_back({{g, l == 0 ? n.input : dirs * n.hidden}});
      in.push_back({{g, n.hidden}});
      if (n.bias) in.push_back({{g}}), in.push_back({{g}});
    }
  return in;
}

Case rnn_case(const char* name, const Net& n, Result which) {
  return Case{
      name, inputs_of(n), [=](const Tensors& x) -> porta_tensor* {
        const bool lstm = n.mode == PORTA_RNN_LSTM;
        const size_t first = n.states ? (lstm ? 3 : 2) : 1;
        porta_tensor* h0 = n.states ? x[1] : nullptr;
        porta_tensor* c0 = n.states && lstm ? x[2] : nullptr;
        const porta_rnn_options o{
            sizeof(porta_rnn_options), n.mode, n.layers, n.bidirectional, n.batch_first, n.bias, 0, 0.0};
        porta_tensor *out = nullptr, *hn = nullptr, *cn = nullptr;
        if (!ok(porta_rnn(x[0], h0, c0, x.data() + first, static_cast<int32_t>(x.size() - first), &o, &out, &hn, &cn),
                out))
          return nullptr;
        porta_tensor* keep = which == Result::Output ? out : which == Result::HN ? hn : cn;
        for (porta_tensor* t : {out, hn, cn})
          if (t != keep) porta_tensor_release(t);
        return keep;
      }};
}

// x [N, I], h (and c), w_ih, w_hh, b_ih, b_hh; result h' or (LSTM) c'.
Case cell_case(const char* name, porta_rnn_mode mode, bool c_result) {
  const int64_t g = gates(mode) * 3;
  std::vector<Input> in{{{2, 4}}, {{2, 3}}};
  if (mode == PORTA_RNN_LSTM) in.push_back({{2, 3}});
  in.insert(in.end(), {{{g, 4}}, {{g, 3}}, {{g}}, {{g}}});
  return Case{
      name, in, [=](const Tensors& x) -> porta_tensor* {
        const bool lstm = mode == PORTA_RNN_LSTM;
        const size_t w = lstm ? 3 : 2;
        porta_tensor *h = nullptr, *c = nullptr;
        if (!ok(porta_rnn_cell(mode, x[0], x[1], lstm ? x[2] : nullptr, x[w], x[w + 1], x[w + 2], x[w + 3], &h, &c), h))
          return nullptr;
        if (!c_result) {
          porta_tensor_release(c);
          return h;
        }
        porta_tensor_release(h);
        return c;
      }};
}

std::vector<Case> recurrent_cases() {
  const Net lstm2{
      .mode = PORTA_RNN_LSTM, .steps = 3, .batch = 2, .input = 3, .hidden = 2, .layers = 2, .bidirectional = true};
  const Net gru{.mode = PORTA_RNN_GRU, .steps = 3, .batch = 2, .input = 2, .hidden = 3, .bidirectional = true};
  const Net tanh2{
      .mode = PORTA_RNN_TANH, .steps = 4, .batch = 2, .input = 3, .hidden = 2, .layers = 2, .batch_first = true};
  const Net relu{.mode = PORTA_RNN_RELU, .steps = 3, .batch = 0, .input = 3, .hidden = 2, .bias = false};  // unbatched
  const Net lstm_zero{.mode = PORTA_RNN_LSTM, .steps = 2, .batch = 2, .input = 2, .hidden = 2, .states = false};
  return {
      rnn_case("lstm_2_layers_bidirectional_output", lstm2, Result::Output),
      rnn_case("lstm_2_layers_bidirectional_h_n", lstm2, Result::HN),
      rnn_case("lstm_2_layers_bidirectional_c_n", lstm2, Result::CN),
      rnn_case("lstm_zero_states_c_n", lstm_zero, Result::CN),
      rnn_case("gru_bidirectional_output", gru, Result::Output),
      rnn_case("gru_bidirectional_h_n", gru, Result::HN),
      rnn_case("rnn_tanh_2_layers_batch_first_output", tanh2, Result::Output),
      rnn_case("rnn_relu_unbatched_no_bias_h_n", relu, Result::HN),
      cell_case("lstm_cell_h", PORTA_RNN_LSTM, false),
      cell_case("lstm_cell_c", PORTA_RNN_LSTM, true),
      cell_case("gru_cell", PORTA_RNN_GRU, false),
      cell_case("rnn_tanh_cell", PORTA_RNN_TANH, false),
  };
}

}  // namespace

TEST_P(GradCheck, RecurrentLayers) { check_all(recurrent_cases()); }
