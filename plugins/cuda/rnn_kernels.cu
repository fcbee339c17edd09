// RNN kernels (ops.h, PORTA_OP_KIND_RNN): an LSTM step's pointwise part, a
// thread per (row, hidden unit), with the unary kernels' sigmoid and tanh
// (elementwise_math.hpp's functors).
#include "elementwise_math.hpp"
#include "kernels.hpp"
#include "rnn_math.hpp"
#include "strided_index.cuh"

namespace porta::cuda {
namespace {

template <class T>
__global__ void __launch_bounds__(kThreads) lstm_cell_kernel(const T* gi, const T* gh, const T* c_prev, T* h, T* cell,
                                                             T* act, int64_t N, int64_t H) {
  const math::Math<PORTA_OP_SIGMOID> sigmoid;
  const math::Math<PORTA_OP_TANH> tanh_;
  for (int64_t at = thread_index(); at < N * H; at += thread_count()) {
    const int64_t r = at / H, k = at % H;
    const T* pi = gi + r * 4 * H;
    const T* ph = gh + r * 4 * H;
    T* a = act + r * 5 * H;
    const T i = sigmoid(pi[k] + ph[k]), f = sigmoid(pi[H + k] + ph[H + k]);
    const T g = tanh_(pi[2 * H + k] + ph[2 * H + k]), o = sigmoid(pi[3 * H + k] + ph[3 * H + k]);
    const T c = f * c_prev[at] + i * g, t = tanh_(c);
    a[k] = i, a[H + k] = f, a[2 * H + k] = g, a[3 * H + k] = o, a[4 * H + k] = t;
    cell[at] = c;
    h[at] = o * t;
  }
}

template <class T>
__global__ void __launch_bounds__(kThreads)
    lstm_cell_backward_kernel(const T* dh, const T* dh_next, const T* dc, const T* dc_next, const T* act,
                              const T* c_prev, T* dgates, T* dc_prev, int64_t N, int64_t H) {
  for (int64_t at = thread_index(); at < N * H; at += thread_count()) {
    const int64_t r = at / H, k = at % H;
    dc_prev[at] = math::lstm_backward_unit(act + r * 5 * H, dgates + r * 4 * H, H, k, dh[at], dh_next[at], dc[at],
                                           dc_next[at], c_prev[at]);
  }
}

template <uint32_t Op, class T>
porta_status rnn_kernel(const porta_kernel_call* c) {
  constexpr bool forward = Op == PORTA_OP_LSTM_CELL;
  const int32_t inputs = forward ? 3 : 6, outputs = forward ? 3 : 2;
  const DLTensor* state = c->num_inputs == inputs ? &c->inputs[forward ? 2 : 5] : nullptr;
  if (!state || c->num_outputs != outputs || state->ndim != 2)
    return reportf(PORTA_ERROR_INVALID_ARGUMENT, "%s: expected %d inputs, %d outputs and [N, H] states",
                   plugin::op_name(Op), inputs, outputs);
  Launch l;
  if (porta_status st = begin(c, &l); st != PORTA_OK) return st;
  const int64_t N = state->shape[0], H = state->shape[1];
  const auto in = [c](int i) { return data_of<const T>(c->inputs[i]); };
  const auto out = [c](int i) { return data_of<T>(c->outputs[i]); };
  if constexpr (forward)
    lstm_cell_kernel<T><<<l.blocks(N * H), kThreads, 0, l.stream>>>(in(0), in(1), in(2), out(0), out(1), out(2), N, H);
  else
    lstm_cell_backward_kernel<T><<<l.blocks(N * H), kThreads, 0, l.stream>>>(in(0), in(1), in(2), in(3), in(4), in(5),
                                                                             out(0), out(1), N, H);
  return launched(plugin::op_name(Op));
}

template <class T>
porta_kernel_fn find_for(uint32_t op) {
  return lookup_kind<PORTA_OP_KIND_RNN>(op, []<uint32_t Op>(op_id<Op>) {
    static_assert(op_in<Op, PORTA_OP_LSTM_CELL, PORTA_OP_LSTM_CELL_BACKWARD>, "an RNN row rnn_kernel does not serve");
    return &rnn_kernel<Op, T>;
  });
}

}  // namespace

porta_kernel_fn find_rnn_kernel(uint32_t op, int dtype) {
  if (dtype == kDtFloat32) return find_for<float>(op);
  if (dtype == kDtFloat64) return find_for<double>(op);
  return nullptr;
}

}  // namespace porta::cuda
