// Double-precision host references for the training ops of PORTA_OP_LIST
// (conv lowering, pooling, softmax, cross entropy, layer and batch norm,
// an LSTM step), forward and backward,
// written from porta.h and the kernel contracts in porta/ops.h.
#pragma once

#include "reference.hpp"

namespace conformance {

// One 2-D window geometry: kernel, stride, padding, dilation as {h, w}.
struct Window2d {
  int64_t kh, kw, sh, sw, ph, pw, dh, dw;
  int64_t out_h(int64_t h) const { return (h + 2 * ph - dh * (kh - 1) - 1) / sh + 1; }
  int64_t out_w(int64_t w) const { return (w + 2 * pw - dw * (kw - 1) - 1) / sw + 1; }
};

// Forward value and, given the output gradient gy, the input gradients; each
// with the magnitude of its summed terms (tolerance scale).
struct ConvResult {
  Reduction y, dx, dw, db;
};
// x [N, C, H, W], w [F, C, KH, KW] (KH, KW of g must match), bias [F] or null; gy [N, F, OH, OW] or null.
ConvResult ref_conv2d(const HostTensor& x, const HostTensor& w, const HostTensor* bias, const Window2d& g,
                      const HostTensor* gy);

struct PoolResult {
  HostTensor y;
  Reduction dx;  // empty without gy
};
// Padding never wins; the first maximum of the window (row-major) takes the gradient.
PoolResult ref_max_pool2d(const HostTensor& x, const Window2d& g, const HostTensor* gy);
// Divisor KH*KW when count_include_pad, else the in-bounds count.
PoolResult ref_avg_pool2d(const HostTensor& x, const Window2d& g, bool count_include_pad, const HostTensor* gy);

// softmax / log_softmax along dim, and dx for the output gradient gy (may be null).
struct SoftmaxResult {
  HostTensor y, dx;
};
SoftmaxResult ref_softmax(const HostTensor& x, int32_t dim, bool log, const HostTensor* gy);

// Cross entropy of logits [N, C] and int64 target [N] with a porta_reduction;
// dx for the gradient of the loss (shape of the loss), may be null.
struct CrossEntropyResult {
  HostTensor loss, dx;
};
CrossEntropyResult ref_cross_entropy(const HostTensor& logits, const HostTensor& target, int reduction,
                                     const HostTensor* gloss);

// layer_norm over rows of x's last `n` values; w, b of n values (or null:
// ones and zeros); gy as x gives dx, dw and db (ops.h, PORTA_OP_KIND_NORM).
struct LayerNormRef {
  HostTensor y, dx, dw, db;
};
LayerNormRef ref_layer_norm(const HostTensor& x, int64_t n, const HostTensor* w, const HostTensor* b, double eps,
                            const HostTensor& gy);

// batch_norm in training of x [N, C, *]: every channel normalized by its
// batch mean and population variance; w, b of C values or null; gy as x.
// dw, db as LayerNormRef's; mean and var [C] for the running statistics.
struct BatchNormRef {
  HostTensor y, dx, dw, db, mean, var;
};
BatchNormRef ref_batch_norm(const HostTensor& x, const HostTensor* w, const HostTensor* b, double eps,
                            const HostTensor& gy);

// One LSTM step (PyTorch's gates i, f, g, o) of x [N, I] from h, c [N, H]
// with w_ih [4H, I], w_hh [4H, H], b_ih, b_hh [4H]; given the gradients gh,
// gc of the new h and c, every input's gradient.
struct LstmCellRef {
  HostTensor h, c, dx, dh, dc, dw_ih, dw_hh, db;  // db: of b_ih and of b_hh alike
};
LstmCellRef ref_lstm_cell(const HostTensor& x, const HostTensor& h, const HostTensor& c, const HostTensor& w_ih,
                          const HostTensor& w_hh, const HostTensor& b_ih, const HostTensor& b_hh, const HostTensor& gh,
                          const HostTensor& gc);

}  // namespace conformance
