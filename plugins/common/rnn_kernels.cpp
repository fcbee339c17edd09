// Host kernels of the RNN kind: an LSTM step's pointwise part, a task per
// block of rows, each row's gates through the same sigmoid and tanh the
// unary kernels use (SLEEF's where it is loaded, vector_math.hpp), every
// other step one float operation as ops.h writes it, so a step gives the
// bits of the composite the core would otherwise run (at the CPU's widest
// vectors: PORTA_WIDEST_VECTORS).
#include <cstdio>
#include <vector>

#include "elementwise_math.hpp"
#include "host_kernels.hpp"
#include "lane_math.hpp"
#include "rnn_math.hpp"
#include "strided_loop.hpp"
#include "vector_math.hpp"

namespace porta::host {
namespace {

// y = fn(x) over n values, as the UNARY kernel of op computes it.
template <uint32_t Op, class T>
void unary_into(vecmath::Fn fn, const T* x, T* y, int64_t n) {
  if (!vecmath::apply(fn, x, y, n))
    for (int64_t k = 0; k < n; ++k) y[k] = math::Math<Op>{}(x[k]);
}

template <class T>
PORTA_WIDEST_VECTORS void lstm_cell_rows(const porta_kernel_call* c, int64_t begin, int64_t end, int64_t H) {
  const T *gi = data_of<const T>(c->inputs[0]), *gh = data_of<const T>(c->inputs[1]);
  const T* c_prev = data_of<const T>(c->inputs[2]);
  T *h = data_of<T>(c->outputs[0]), *cell = data_of<T>(c->outputs[1]), *act = data_of<T>(c->outputs[2]);
  for (int64_t r = begin; r < end; ++r) {
    T* a = act + r * 5 * H;  // i, f, g, o, tanh(c)
    for (int64_t k = 0; k < 4 * H; ++k) a[k] = gi[r * 4 * H + k] + gh[r * 4 * H + k];
    unary_into<PORTA_OP_SIGMOID>(vecmath::Fn::Sigmoid, a, a, 2 * H);  // i, f
    unary_into<PORTA_OP_TANH>(vecmath::Fn::Tanh, a + 2 * H, a + 2 * H, H);
    unary_into<PORTA_OP_SIGMOID>(vecmath::Fn::Sigmoid, a + 3 * H, a + 3 * H, H);
    T* cr = cell + r * H;
    for (int64_t k = 0; k < H; ++k) cr[k] = a[H + k] * c_prev[r * H + k] + a[k] * a[2 * H + k];
    unary_into<PORTA_OP_TANH>(vecmath::Fn::Tanh, cr, a + 4 * H, H);
    for (int64_t k = 0; k < H; ++k) h[r * H + k] = a[3 * H + k] * a[4 * H + k];
  }
}

template <class T>
PORTA_WIDEST_VECTORS void lstm_cell_backward_rows(const porta_kernel_call* c, int64_t begin, int64_t end, int64_t H) {
  const T *dh = data_of<const T>(c->inputs[0]), *dh_next = data_of<const T>(c->inputs[1]);
  const T *dc = data_of<const T>(c->inputs[2]), *dc_next = data_of<const T>(c->inputs[3]);
  const T *act = data_of<const T>(c->inputs[4]), *c_prev = data_of<const T>(c->inputs[5]);
  T *dgates = data_of<T>(c->outputs[0]), *dc_prev = data_of<T>(c->outputs[1]);
  for (int64_t r = begin; r < end; ++r)
    for (int64_t k = 0; k < H; ++k) {
      const int64_t at = r * H + k;
      dc_prev[at] = math::lstm_backward_unit(act + r * 5 * H, dgates + r * 4 * H, H, k, dh[at], dh_next[at], dc[at],
                                             dc_next[at], c_prev[at]);
    }
}

template <uint32_t Op, class T>
porta_status rnn_kernel(const porta_kernel_call* c) {
  constexpr bool forward = Op == PORTA_OP_LSTM_CELL;
  const int32_t inputs = forward ? 3 : 6, outputs = forward ? 3 : 2;
  // c_prev [N, H]: input 2 forward, 5 backward.
  const DLTensor* state = c->num_inputs == inputs ? &c->inputs[forward ? 2 : 5] : nullptr;
  if (!state || c->num_outputs != outputs || state->ndim != 2) {
    char msg[128];
    std::snprintf(msg, sizeof msg, "%s: expected %d inputs, %d outputs and [N, H] states", plugin::op_name(Op), inputs,
                  outputs);
    return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
  }
  const int64_t N = state->shape[0], H = state->shape[1];
  parallel_for(N, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(8 * H, 1)), [&](int64_t b, int64_t e) {
    if constexpr (forward)
      lstm_cell_rows<T>(c, b, e, H);
    else
      lstm_cell_backward_rows<T>(c, b, e, H);
  });
  return PORTA_OK;
}

template <class T>
porta_kernel_fn find_for(uint32_t op) {
  switch (op) {
    case PORTA_OP_LSTM_CELL: return &rnn_kernel<PORTA_OP_LSTM_CELL, T>;
    case PORTA_OP_LSTM_CELL_BACKWARD: return &rnn_kernel<PORTA_OP_LSTM_CELL_BACKWARD, T>;
    default: return nullptr;
  }
}

}  // namespace

porta_kernel_fn find_rnn_kernel(uint32_t op, int dtype) {
  if (dtype == kDtFloat32) return find_for<float>(op);
  if (dtype == kDtFloat64) return find_for<double>(op);
  return nullptr;
}

}  // namespace porta::host
