// The arithmetic of LSTM_CELL_BACKWARD (porta/ops.h, PORTA_OP_KIND_RNN), one
// hidden unit at a time, each rounding step as ops.h writes it: written once
// for the host kernels and the CUDA plugin's.
#pragma once

#include <cstdint>

#include "host_device.hpp"

namespace porta::math {

// Unit k of one row: a the row's activations [5H] (i, f, g, o, tanh(c)), d
// the row's gate gradients [4H]; the gradients flowing into h and c (from the
// outputs and from the step after) and the previous cell's value. Returns
// the previous cell's gradient.
template <class T>
PORTA_HD T lstm_backward_unit(const T* a, T* d, int64_t H, int64_t k, T dh, T dh_next, T dc, T dc_next, T c_prev) {
  const T one(1), i = a[k], f = a[H + k], g = a[2 * H + k], o = a[3 * H + k], t = a[4 * H + k];
  const T u = dh + dh_next;
  const T e = (dc + dc_next) + (u * o) * (one - t * t);
  d[k] = (e * g) * (i * (one - i));
  d[H + k] = (e * c_prev) * (f * (one - f));
  d[2 * H + k] = (e * i) * (one - g * g);
  d[3 * H + k] = (u * t) * (o * (one - o));
  return e * f;
}

}  // namespace porta::math
