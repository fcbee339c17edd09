// Host kernels of the RNN kind: an LSTM step's pointwise part, a task per
// block of rows, each row's gates through the same sigmoid and tanh the
// unary kernels use (SLEEF's where it is loaded, vector_math.hpp), every
// other step one float operation as ops.h writes it, so a step gives the
// bits of the composite the core would otherwise run (at the CPU's widest
// vectors: PORTA_WIDEST_VECTORS).
#include <cstdio>
#include <utility>
#include <vector>

#include "elementwise_math.hpp"
#include "host_kernels.hpp"
#include "lane_math.hpp"
#include "rnn_math.hpp"
#include "strided_loop.hpp"
#include "vector_math.hpp"

namespace porta::host {
namespace {

// y = Op(x) over n values, as the UNARY kernel of Op computes it.
template <uint32_t Op, class T>
void unary_into(const T* x, T* y, int64_t n) {
  if (!vecmath::apply(porta_op(Op), x, y, n))
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
    unary_into<PORTA_OP_SIGMOID>(a, a, 2 * H);  // i, f
    unary_into<PORTA_OP_TANH>(a + 2 * H, a + 2 * H, H);
    unary_into<PORTA_OP_SIGMOID>(a + 3 * H, a + 3 * H, H);
    T* cr = cell + r * H;
    for (int64_t k = 0; k < H; ++k) cr[k] = a[H + k] * c_prev[r * H + k] + a[k] * a[2 * H + k];
    unary_into<PORTA_OP_TANH>(cr, a + 4 * H, H);
    for (int64_t k = 0; k < H; ++k) h[r * H + k] = a[3 * H + k] * a[4 * H + k];
  }
}

// One row's units, each stream of values its own restrict pointer (the
// gates' activations a0..a4 and gradients d0..d3 H apart): the loop over the
// units vectorizes, which GCC does not do for nine pointers that might
// overlap, nor for d[k] and d[H + k] with H unknown (scalar, the backward
// of docs/examples/char_lstm.py's step took 2.1 of its 24 ms). The unit
// runs on one unit's copies, as H = 1, k = 0: lstm_backward_unit's own
// arithmetic.
template <class T>
inline void lstm_backward_row(const T* __restrict a0, const T* __restrict a1, const T* __restrict a2,
                              const T* __restrict a3, const T* __restrict a4, T* __restrict d0, T* __restrict d1,
                              T* __restrict d2, T* __restrict d3, T* __restrict dc_prev, const T* __restrict dh,
                              const T* __restrict dh_next, const T* __restrict dc, const T* __restrict dc_next,
                              const T* __restrict c_prev, int64_t H) {
  for (int64_t k = 0; k < H; ++k) {
    const T a[5] = {a0[k], a1[k], a2[k], a3[k], a4[k]};
    T d[4];
    dc_prev[k] = math::lstm_backward_unit(a, d, 1, 0, dh[k], dh_next[k], dc[k], dc_next[k], c_prev[k]);
    d0[k] = d[0], d1[k] = d[1], d2[k] = d[2], d3[k] = d[3];
  }
}

template <class T>
PORTA_WIDEST_VECTORS void lstm_cell_backward_rows(const porta_kernel_call* c, int64_t begin, int64_t end, int64_t H,
                                                  bool apart) {
  const T *dh = data_of<const T>(c->inputs[0]), *dh_next = data_of<const T>(c->inputs[1]);
  const T *dc = data_of<const T>(c->inputs[2]), *dc_next = data_of<const T>(c->inputs[3]);
  const T *act = data_of<const T>(c->inputs[4]), *c_prev = data_of<const T>(c->inputs[5]);
  T *dgates = data_of<T>(c->outputs[0]), *dc_prev = data_of<T>(c->outputs[1]);
  for (int64_t r = begin; r < end; ++r) {
    const int64_t at = r * H;
    if (apart) {
      const T* a = act + r * 5 * H;
      T* d = dgates + r * 4 * H;
      lstm_backward_row(a, a + H, a + 2 * H, a + 3 * H, a + 4 * H, d, d + H, d + 2 * H, d + 3 * H, dc_prev + at,
                        dh + at, dh_next + at, dc + at, dc_next + at, c_prev + at, H);
      continue;
    }
    for (int64_t k = 0; k < H; ++k)
      dc_prev[at + k] = math::lstm_backward_unit(act + r * 5 * H, dgates + r * 4 * H, H, k, dh[at + k], dh_next[at + k],
                                                 dc[at + k], dc_next[at + k], c_prev[at + k]);
  }
}

// Whether no output's memory overlaps another operand's (contiguous
// operands: each spans numel values from its start).
bool outputs_apart(const porta_kernel_call* c) {
  const auto span = [](const DLTensor& t) {
    const char* start = static_cast<const char*>(t.data) + t.byte_offset;
    int64_t n = 1;
    for (int32_t d = 0; d < t.ndim; ++d) n *= t.shape[d];
    return std::pair<const char*, const char*>(start, start + n * ((t.dtype.bits * t.dtype.lanes + 7) / 8));
  };
  const auto overlap = [&](const DLTensor& x, const DLTensor& y) {
    const auto [x0, x1] = span(x);
    const auto [y0, y1] = span(y);
    return x0 < y1 && y0 < x1;
  };
  for (int32_t o = 0; o < c->num_outputs; ++o) {
    for (int32_t i = 0; i < c->num_inputs; ++i)
      if (overlap(c->outputs[o], c->inputs[i])) return false;
    for (int32_t p = o + 1; p < c->num_outputs; ++p)
      if (overlap(c->outputs[o], c->outputs[p])) return false;
  }
  return true;
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
  [[maybe_unused]] const bool apart = !forward && outputs_apart(c);
  // Blocks of at least 2^15 / 32 = 1024 units: a unit is some thirty
  // operations, five of them transcendental, so a step of [32, 128] splits
  // across threads (2 threads, docs/examples/char_lstm.py's forward 7.6 ->
  // 6.5 ms), where blocks of 4096 units kept it whole.
  parallel_for(N, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(32 * H, 1)), [&](int64_t b, int64_t e) {
    if constexpr (forward)
      lstm_cell_rows<T>(c, b, e, H);
    else
      lstm_cell_backward_rows<T>(c, b, e, H, apart);
  });
  return PORTA_OK;
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

}  // namespace porta::host
