// torch.nn.RNN, LSTM and GRU (and their cells), composed from Porta ops.
//
// The input projection of every step, x w_ih^T + b_ih (+ b_hh on the LSTM
// kernels), is one recorded linear() over the whole sequence. The
// recurrence that follows is one autograd node per layer and direction: its
// forward runs the steps, its backward runs them back through time with
// Porta ops. (Recording each
// step's ops instead would take a view of the [T, N, G H] projection per
// step, and each view's backward would write a [T, N, G H] gradient: the
// backward of a T-step sequence would cost T times the sequence.)
#include <string>
#include <utility>

#include "autograd/node.hpp"
#include "nn/nn.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"

namespace porta::nn {
namespace {

int64_t gate_count(porta_rnn_mode mode) { return mode == PORTA_RNN_LSTM ? 4 : mode == PORTA_RNN_GRU ? 3 : 1; }

void check_mode(const char* op, int64_t mode) {
  if (mode != PORTA_RNN_TANH && mode != PORTA_RNN_RELU && mode != PORTA_RNN_LSTM && mode != PORTA_RNN_GRU)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": unknown mode ", mode, " (use PORTA_RNN_TANH, RELU, LSTM or GRU)");
}

struct LayerWeights {
  TensorPtr w_ih, w_hh, b_ih, b_hh;  // biases both or null
};

// Checks one layer's weights (`where` names them in errors) against its
// input size and the input's dtype and device; returns the hidden size.
int64_t check_weights(const char* op, porta_rnn_mode mode, const LayerWeights& w, int64_t input_size,
                      const porta_tensor& input, const std::string& where) {
  if (!w.w_ih || !w.w_hh) fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": ", where, " needs w_ih and w_hh");
  if (!w.b_ih != !w.b_hh) fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": ", where, ": give b_ih and b_hh, or neither");
  const int64_t g = gate_count(mode);
  if (w.w_hh->ndim() != 2 || w.w_hh->shape[0] != g * w.w_hh->shape[1])
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": ", where, ": w_hh must be [", g, " * hidden_size, hidden_size], got ",
         w.w_hh->shape.str());
  const int64_t h = w.w_hh->shape[1];
  if (w.w_ih->ndim() != 2 || w.w_ih->shape[0] != g * h || w.w_ih->shape[1] != input_size)
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": ", where, ": w_ih must be [", g * h, ", ", input_size, "], got ",
         w.w_ih->shape.str());
  for (const TensorPtr* b : {&w.b_ih, &w.b_hh})
    if (*b && ((*b)->ndim() != 1 || (*b)->shape[0] != g * h))
      fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": ", where, ": biases must be [", g * h, "], got ", (*b)->shape.str());
  for (const TensorPtr* t : {&w.w_ih, &w.w_hh, &w.b_ih, &w.b_hh}) {
    if (!*t) continue;
    check_same_device(op, {&input, t->get()});
    if ((*t)->dtype != input.dtype)
      fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op, ": ", where, ": weights must have the input's dtype ",
           dtype_name(input.dtype), ", got ", dtype_name((*t)->dtype));
  }
  return h;
}

// A state tensor (h0, c0, a cell's h or c) must be `shape` on the input's device and dtype.
void check_state(const char* op, const char* what, const TensorPtr& s, const Dims& shape, const porta_tensor& input) {
  if (!s) return;
  check_same_device(op, {&input, s.get()});
  if (s->shape != shape)
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": expected ", what, " of shape ", shape.str(), ", got ", s->shape.str());
  if (s->dtype != input.dtype)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op, ": ", what, " must have the input's dtype ", dtype_name(input.dtype),
         ", got ", dtype_name(s->dtype));
}

TensorPtr add(const TensorPtr& a, const TensorPtr& b) { return ops::binary(PORTA_OP_ADD, a, b); }
TensorPtr sub(const TensorPtr& a, const TensorPtr& b) { return ops::binary(PORTA_OP_SUB, a, b); }
TensorPtr mul(const TensorPtr& a, const TensorPtr& b) { return ops::binary(PORTA_OP_MUL, a, b); }
TensorPtr one_minus(const TensorPtr& a) { return ops::binary_scalar(PORTA_OP_ADD, ops::unary(PORTA_OP_NEG, a), 1.0); }
// The derivative of sigmoid from its value s: s (1 - s); of tanh from its value t: 1 - t^2.
TensorPtr sigmoid_slope(const TensorPtr& s) { return mul(s, one_minus(s)); }
TensorPtr tanh_slope(const TensorPtr& t) { return one_minus(mul(t, t)); }
// Gate k of [N, G H].
TensorPtr gate(const TensorPtr& gates, int64_t k, int64_t h) { return ops::slice(gates, 1, k * h, (k + 1) * h, 1); }

// Whether t's device runs an LSTM step's pointwise part on its RNN kernels
// (plugin ABI 1.7, optional: where it has none the step is composed here).
bool has_lstm_kernels(const porta_tensor& t) {
  return has_kernel(*t.device, PORTA_OP_LSTM_CELL, t.dtype) && has_kernel(*t.device, PORTA_OP_LSTM_CELL_BACKWARD, t.dtype);
}

// Runs RNN kernel op on contiguous operands; false when it declined the call.
bool lstm_kernel(porta_op op, std::initializer_list<TensorPtr> ins, std::initializer_list<TensorPtr> outs) {
  std::vector<KernelArg> in, out;
  for (const TensorPtr& t : ins) in.emplace_back(*ops::contiguous(t));
  for (const TensorPtr& t : outs) out.emplace_back(*t);
  const porta_tensor& first = **outs.begin();
  return try_launch(*first.device, op, first.dtype, in.data(), static_cast<int32_t>(in.size()), out.data(),
                    static_cast<int32_t>(out.size()), nullptr);
}
// One direction of one layer: the recurrence over the projected inputs gi
// [T, N, G H] from h0 (and c0) [N, H]. Its output Y is [T, N, H], or for
// LSTM [2, T, N, H]: the h plane, then the c plane.
struct Recurrence {
  porta_rnn_mode mode;
  bool reverse;  // steps run from T - 1 down to 0
  int64_t steps, batch, hidden;

  int64_t time(int64_t s) const { return reverse ? steps - 1 - s : s; }
  // Y's h (plane 0) or c (plane 1) at time t.
  TensorPtr at(const TensorPtr& y, int32_t plane, int64_t t) const {
    return mode == PORTA_RNN_LSTM ? ops::select(ops::select(y, 0, plane), 0, t) : ops::select(y, 0, t);
  }
  // h (or c) before step s: the initial state, or the previous step's.
  TensorPtr before(const TensorPtr& y, int32_t plane, const TensorPtr& initial, int64_t s) const {
    return s == 0 ? initial : at(y, plane, time(s - 1));
  }

  // Runs the steps. `saved` (null: not recording) receives, per step in
  // order, what the backward needs: LSTM [N, 5H] (i, f, g, o, tanh(c), as
  // the LSTM_CELL kernel writes them); GRU r, z, n and the hidden part of
  // n's pre-activation.
  TensorPtr forward(const TensorPtr& gi, const TensorPtr& h0, const TensorPtr& c0, const TensorPtr& w_hh,
                    const TensorPtr& b_hh, std::vector<TensorPtr>* saved) const {
    const bool lstm = mode == PORTA_RNN_LSTM;
    // Every step writes its h (and c) into y: no zero fill.
    TensorPtr y = empty(*gi->device, gi->dtype, lstm ? Dims{2, steps, batch, hidden} : Dims{steps, batch, hidden});
    TensorPtr h = h0, c = c0;
    // On the LSTM kernels b_hh joins the input's projection once, not each
    // step's hidden one (a step is then one GEMM and one kernel).
    const bool kernels = lstm && has_lstm_kernels(*gi);
    const TensorPtr inputs = kernels && b_hh ? add(gi, b_hh) : gi;
    // w_hh^T laid out once: each step's GEMM then reads its B operand by rows
    // (oneDNN, [32, 128] @ [128, 512] on 2 threads: 27 -> 18 us a step).
    const TensorPtr w_hh_t = ops::contiguous(ops::transpose(w_hh, 0, 1));
    for (int64_t s = 0; s < steps; ++s) {
      const int64_t t = time(s);
      TensorPtr x = ops::select(inputs, 0, t);
      TensorPtr gh = ops::matmul(h, w_hh_t);
      if (b_hh && !kernels) gh = add(gh, b_hh);
      if (mode == PORTA_RNN_TANH || mode == PORTA_RNN_RELU) {
        h = ops::unary(mode == PORTA_RNN_TANH ? PORTA_OP_TANH : PORTA_OP_RELU, add(x, gh));
      } else if (lstm && kernels && lstm_step(x, gh, c, y, t, &h, &c, saved)) {
        continue;  // h and c were written into y
      } else if (lstm) {
        TensorPtr pre = add(x, gh);
        TensorPtr i = ops::unary(PORTA_OP_SIGMOID, gate(pre, 0, hidden));
        TensorPtr f = ops::unary(PORTA_OP_SIGMOID, gate(pre, 1, hidden));
        TensorPtr g = ops::unary(PORTA_OP_TANH, gate(pre, 2, hidden));
        TensorPtr o = ops::unary(PORTA_OP_SIGMOID, gate(pre, 3, hidden));
        c = add(mul(f, c), mul(i, g));
        TensorPtr tc = ops::unary(PORTA_OP_TANH, c);
        h = mul(o, tc);
        if (saved) saved->push_back(ag::cat({i, f, g, o, tc}, 1));
        ops::copy_into(at(y, 1, t), c);
      } else {  // GRU
        TensorPtr r = ops::unary(PORTA_OP_SIGMOID, add(gate(x, 0, hidden), gate(gh, 0, hidden)));
        TensorPtr z = ops::unary(PORTA_OP_SIGMOID, add(gate(x, 1, hidden), gate(gh, 1, hidden)));
        TensorPtr ghn = gate(gh, 2, hidden);
        TensorPtr n = ops::unary(PORTA_OP_TANH, add(gate(x, 2, hidden), mul(r, ghn)));
        h = add(n, mul(z, sub(h, n)));  // (1 - z) n + z h
        if (saved) saved->insert(saved->end(), {r, z, n, ops::contiguous(ghn)});
      }
      ops::copy_into(at(y, 0, t), h);
    }
    return y;
  }

  // One LSTM step on the LSTM_CELL kernel, h and c written into y at t;
  // false (nothing changed) when the kernel declined it.
  bool lstm_step(const TensorPtr& gi_t, const TensorPtr& gh, const TensorPtr& c_prev, const TensorPtr& y, int64_t t,
                 TensorPtr* h, TensorPtr* c, std::vector<TensorPtr>* saved) const {
    TensorPtr h_out = at(y, 0, t), c_out = at(y, 1, t);
    TensorPtr act = empty(*gi_t->device, gi_t->dtype, Dims{batch, 5 * hidden});
    if (!lstm_kernel(PORTA_OP_LSTM_CELL, {gi_t, gh, c_prev}, {h_out, c_out, act})) return false;
    *h = h_out, *c = c_out;
    if (saved) saved->push_back(act);
    return true;
  }
};

struct RecurrenceNode final : autograd::Node {
  Recurrence rec{};
  autograd::SavedTensor y, h0, c0, w_hh;
  std::vector<TensorPtr> steps;  // Recurrence::forward's `saved`
  const char* name() const override {
    switch (rec.mode) {
      case PORTA_RNN_LSTM:
        return "LstmBackward";
      case PORTA_RNN_GRU:
        return "GruBackward";
      case PORTA_RNN_RELU:
        return "RnnReluBackward";
      default:
        return "RnnTanhBackward";
    }
  }
  void release_saved() override {
    y.reset(), h0.reset(), c0.reset(), w_hh.reset();
    steps.clear();
  }

  // Gradients for {gi, h0, c0, w_hh, b_hh} from the gradient of Y.
  std::vector<TensorPtr> apply(const TensorPtr& gy) override {
    const TensorPtr& out = y.get();
    const TensorPtr& h_init = h0.get();
    const TensorPtr& weight = w_hh.get();
    const bool lstm = rec.mode == PORTA_RNN_LSTM, gru = rec.mode == PORTA_RNN_GRU;
    const int64_t h = rec.hidden, per_step = lstm ? 1 : gru ? 4 : 0;
    DeviceState& dev = *gy->device;
    const Dims gates_shape{rec.steps, rec.batch, gate_count(rec.mode) * h};
    // Every step writes its gate gradients into d_gi (and d_gh): no zero fill.
    TensorPtr d_gi = empty(dev, gy->dtype, gates_shape);
    TensorPtr d_gh = gru ? empty(dev, gy->dtype, gates_shape) : d_gi;  // the same except for GRU
    TensorPtr dh_next = ops::full(dev, Dims{rec.batch, h}, 0.0, gy->dtype), dc_next = lstm ? dh_next : TensorPtr();
    const bool kernels = lstm && has_lstm_kernels(*gy);
    for (int64_t s = rec.steps - 1; s >= 0; --s) {
      const int64_t t = rec.time(s);
      const TensorPtr* saved = per_step ? &steps[static_cast<size_t>(s * per_step)] : nullptr;
      if (kernels) {  // the step's gate gradients straight into d_gi, and dc_prev
        TensorPtr d_gates = ops::select(d_gi, 0, t), dc_prev = empty(dev, gy->dtype, Dims{rec.batch, h});
        if (lstm_kernel(PORTA_OP_LSTM_CELL_BACKWARD,
                        {rec.at(gy, 0, t), dh_next, rec.at(gy, 1, t), dc_next, saved[0], rec.before(out, 1, c0.get(), s)},
                        {d_gates, dc_prev})) {
          dc_next = dc_prev;
          dh_next = ops::matmul(d_gates, weight);
          continue;
        }
      }
      TensorPtr dh = add(rec.at(gy, 0, t), dh_next);
      TensorPtr dx, dgh, dh_direct;
      if (rec.mode == PORTA_RNN_TANH) {
        dx = mul(dh, tanh_slope(rec.at(out, 0, t)));
      } else if (rec.mode == PORTA_RNN_RELU) {
        dx = mul(dh, ops::cast(ops::binary_scalar(PORTA_OP_GT, rec.at(out, 0, t), 0.0), gy->dtype));
      } else if (lstm) {
        const TensorPtr i = gate(saved[0], 0, h), f = gate(saved[0], 1, h), g = gate(saved[0], 2, h),
                        o = gate(saved[0], 3, h), tc = gate(saved[0], 4, h);
        TensorPtr dc = add(add(rec.at(gy, 1, t), dc_next), mul(mul(dh, o), tanh_slope(tc)));
        TensorPtr c_prev = rec.before(out, 1, c0.get(), s);
        dx = ag::cat({mul(mul(dc, g), sigmoid_slope(i)), mul(mul(dc, c_prev), sigmoid_slope(f)),
                      mul(mul(dc, i), tanh_slope(g)), mul(mul(dh, tc), sigmoid_slope(o))},
                     1);
        dc_next = mul(dc, f);
      } else {  // GRU: h = n + z (h_prev - n)
        const TensorPtr &r = saved[0], &z = saved[1], &n = saved[2], &ghn = saved[3];
        TensorPtr dn = mul(mul(dh, one_minus(z)), tanh_slope(n));
        TensorPtr dr = mul(mul(dn, ghn), sigmoid_slope(r));
        TensorPtr dz = mul(mul(dh, sub(rec.before(out, 0, h_init, s), n)), sigmoid_slope(z));
        dx = ag::cat({dr, dz, dn}, 1);
        dgh = ag::cat({dr, dz, mul(dn, r)}, 1);
        dh_direct = mul(dh, z);
        ops::copy_into(ops::select(d_gh, 0, t), dgh);
      }
      ops::copy_into(ops::select(d_gi, 0, t), dx);
      dh_next = ops::matmul(gru ? dgh : dx, weight);
      if (dh_direct) dh_next = add(dh_next, dh_direct);
    }
    // Every step's h before it, in time order, for w_hh's gradient (one matmul).
    TensorPtr y_h = lstm ? ops::select(out, 0, 0) : out;
    TensorPtr first = ops::unsqueeze(h_init, 0);
    TensorPtr h_prev = rec.steps == 1 ? first
                       : rec.reverse  ? ag::cat({ops::slice(y_h, 0, 1, rec.steps, 1), first}, 0)
                                      : ag::cat({first, ops::slice(y_h, 0, 0, rec.steps - 1, 1)}, 0);
    const Dims rows{rec.steps * rec.batch, -1};
    TensorPtr dw =
        next[3] ? ops::matmul(ops::transpose(ops::reshape(d_gh, rows), 0, 1), ops::reshape(h_prev, rows)) : TensorPtr();
    const int32_t batch_dims[2] = {0, 1};
    TensorPtr db = next.size() > 4 && next[4] ? ops::reduce(PORTA_OP_SUM, d_gh, batch_dims, 2, false) : TensorPtr();
    return {d_gi, dh_next, dc_next, dw, db};
  }
};

// Runs one direction of one layer, recorded as one node when any operand
// requires grad.
TensorPtr run_recurrence(const Recurrence& rec, const TensorPtr& gi, const TensorPtr& h0, const TensorPtr& c0,
                         const TensorPtr& w_hh, const TensorPtr& b_hh) {
  if (!autograd::needs_grad({&gi, &h0, &c0, &w_hh, &b_hh})) return rec.forward(gi, h0, c0, w_hh, b_hh, nullptr);
  auto node = std::make_shared<RecurrenceNode>();
  node->rec = rec;
  TensorPtr y = rec.forward(gi, h0, c0, w_hh, b_hh, &node->steps);
  node->y = y, node->h0 = h0, node->c0 = c0, node->w_hh = w_hh;
  for (const TensorPtr* in : {&gi, &h0, &c0, &w_hh, &b_hh})
    node->next.push_back(*in ? autograd::gradient_edge(*in) : nullptr);
  y->grad_fn = std::move(node);
  y->requires_grad = true;
  return y;
}

// The recorded h (plane 0) and c (plane 1) sequences [T, N, H] of a Y.
TensorPtr plane(const Recurrence& rec, const TensorPtr& y, int32_t p) {
  return rec.mode == PORTA_RNN_LSTM ? ag::select(y, 0, p) : y;
}

TensorPtr zeros_state(const porta_tensor& like, int64_t batch, int64_t hidden) {
  return ops::full(*like.device, Dims{batch, hidden}, 0.0, like.dtype);
}

// The input projection of every step, x w_ih^T + b_ih, and the b_hh left
// for the recurrence to add. Where the LSTM kernels run the steps, b_hh joins
// b_ih here (b_ih + b_hh is [4H]): one bias add over the projection and one
// sum for the biases' gradient, instead of two each (the recurrence would add
// b_hh to the whole projection before its first step anyway).
std::pair<TensorPtr, TensorPtr> project_input(porta_rnn_mode mode, const TensorPtr& x, const TensorPtr& w_ih,
                                              const TensorPtr& b_ih, const TensorPtr& b_hh) {
  if (mode != PORTA_RNN_LSTM || !b_ih || !b_hh || !has_lstm_kernels(*x)) return {linear(x, w_ih, b_ih), b_hh};
  return {linear(x, w_ih, ag::binary(PORTA_OP_ADD, b_ih, b_hh)), TensorPtr()};
}

}  // namespace

RnnState rnn_cell(porta_rnn_mode mode, const TensorPtr& x, const TensorPtr& h, const TensorPtr& c,
                  const TensorPtr& w_ih, const TensorPtr& w_hh, const TensorPtr& b_ih, const TensorPtr& b_hh) {
  const char* op = "rnn_cell";
  check_mode(op, mode);
  check_float(op, "input", *x);
  const bool lstm = mode == PORTA_RNN_LSTM;
  if (!lstm && c) fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": c is the LSTM's cell state: pass NULL for this mode");
  if (lstm && !h != !c) fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": give the LSTM both h and c, or neither");
  if (x->ndim() != 1 && x->ndim() != 2)
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": expected input [N, input_size] or [input_size], got ", x->shape.str());
  const bool batched = x->ndim() == 2;
  const int64_t n = batched ? x->shape[0] : 1;
  const int64_t hidden = check_weights(op, mode, {w_ih, w_hh, b_ih, b_hh}, x->shape[x->ndim() - 1], *x, "the cell");
  const Dims state_shape = batched ? Dims{n, hidden} : Dims{hidden};
  check_state(op, "h", h, state_shape, *x);
  check_state(op, "c", c, state_shape, *x);
  auto batch = [&](const TensorPtr& t) { return !t ? zeros_state(*x, n, hidden) : batched ? t : ag::unsqueeze(t, 0); };
  const Recurrence rec{mode, false, 1, n, hidden};
  auto [gi, b_left] = project_input(mode, batch(x), w_ih, b_ih, b_hh);
  TensorPtr y = run_recurrence(rec, ag::unsqueeze(gi, 0), batch(h), lstm ? batch(c) : TensorPtr(), w_hh, b_left);
  auto last = [&](int32_t p) {
    TensorPtr s = ag::select(plane(rec, y, p), 0, 0);
    return batched ? s : ag::squeeze(s, 0);
  };
  return {last(0), lstm ? last(1) : TensorPtr()};
}

RnnOutput rnn(const TensorPtr& input, const TensorPtr& h0, const TensorPtr& c0, const std::vector<TensorPtr>& params,
              const porta_rnn_options& o) {
  const char* op = "rnn";
  check_mode(op, o.mode);
  const auto mode = static_cast<porta_rnn_mode>(o.mode);
  check_float(op, "input", *input);
  if (o.num_layers < 1) fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": num_layers must be at least 1, got ", o.num_layers);
  if (!(o.dropout >= 0.0 && o.dropout <= 1.0))
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": dropout must be in [0, 1], got ", o.dropout);
  const bool lstm = mode == PORTA_RNN_LSTM;
  if (!lstm && c0) fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": c0 is the LSTM's cell state: pass NULL for this mode");
  if (lstm && !h0 != !c0) fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": give the LSTM both h0 and c0, or neither");
  const int64_t dirs = o.bidirectional ? 2 : 1, layers = o.num_layers, per_layer = o.has_biases ? 4 : 2;
  if (static_cast<int64_t>(params.size()) != layers * dirs * per_layer)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": expected ", layers * dirs * per_layer, " weights (", layers, " layers x ",
         dirs, " directions x ", per_layer, "), got ", params.size());
  if (input->ndim() != 2 && input->ndim() != 3)
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": expected input [T, N, input_size] (batch_first: [N, T, input_size]) or ",
         "[T, input_size], got ", input->shape.str());
  const bool batched = input->ndim() == 3;
  TensorPtr x = !batched ? ag::unsqueeze(input, 1) : o.batch_first ? ag::transpose(input, 0, 1) : input;
  const int64_t steps = x->shape[0], n = x->shape[1];
  if (steps == 0) fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": the sequence is empty (T = 0); expected at least one step");

  std::vector<LayerWeights> weights;
  int64_t hidden = 0;
  for (int64_t l = 0; l < layers; ++l)
    for (int64_t d = 0; d < dirs; ++d) {
      const size_t at = static_cast<size_t>((l * dirs + d) * per_layer);
      LayerWeights w{params[at], params[at + 1], o.has_biases ? params[at + 2] : TensorPtr(),
                     o.has_biases ? params[at + 3] : TensorPtr()};
      const std::string where = "layer " + std::to_string(l) + (d ? " (reverse)" : "");
      const int64_t h = check_weights(op, mode, w, l == 0 ? x->shape[2] : dirs * hidden, *input, where);
      if (l + d > 0 && h != hidden)
        fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": ", where, " has hidden size ", h, ", the layers before ", hidden);
      hidden = h;
      weights.push_back(std::move(w));
    }
  const Dims state_shape = batched ? Dims{layers * dirs, n, hidden} : Dims{layers * dirs, hidden};
  check_state(op, "h0", h0, state_shape, *input);
  check_state(op, "c0", c0, state_shape, *input);
  TensorPtr h0b = h0 && !batched ? ag::unsqueeze(h0, 1) : h0, c0b = c0 && !batched ? ag::unsqueeze(c0, 1) : c0;
  auto initial = [&](const TensorPtr& s, int64_t k) {
    return s ? ag::select(s, 0, k) : zeros_state(*input, n, hidden);
  };

  std::vector<TensorPtr> h_n, c_n;
  TensorPtr layer_in = x;
  for (int64_t l = 0; l < layers; ++l) {
    std::vector<TensorPtr> outs;
    for (int64_t d = 0; d < dirs; ++d) {
      const int64_t k = l * dirs + d;
      const LayerWeights& w = weights[static_cast<size_t>(k)];
      const Recurrence rec{mode, d == 1, steps, n, hidden};
      auto [gi, b_left] = project_input(mode, layer_in, w.w_ih, w.b_ih, w.b_hh);
      TensorPtr y = run_recurrence(rec, gi, initial(h0b, k), lstm ? initial(c0b, k) : TensorPtr(), w.w_hh, b_left);
      const int64_t last = d == 1 ? 0 : steps - 1;
      outs.push_back(plane(rec, y, 0));
      h_n.push_back(ag::select(outs.back(), 0, last));
      if (lstm) c_n.push_back(ag::select(plane(rec, y, 1), 0, last));
    }
    layer_in = dirs == 2 ? ag::cat(outs, 2) : outs[0];
    if (l + 1 < layers) layer_in = dropout(layer_in, o.dropout, o.training != 0);
  }
  TensorPtr hn = ag::stack(h_n, 0), cn = lstm ? ag::stack(c_n, 0) : TensorPtr();
  if (!batched) return {ag::squeeze(layer_in, 1), ag::squeeze(hn, 1), cn ? ag::squeeze(cn, 1) : TensorPtr()};
  return {o.batch_first ? ag::transpose(layer_in, 0, 1) : layer_in, hn, cn};
}

}  // namespace porta::nn
