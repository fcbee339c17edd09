// Neural-network ops of the core, differentiable (they record autograd
// nodes like porta::ag). Conv, pooling, softmax and the cross-entropy loss
// run plugin kernels forward and backward; the rest compose Porta ops.
#pragma once

#include <porta/porta.h>

#include "ops/ag.hpp"

namespace porta::nn {

TensorPtr linear(const TensorPtr& x, const TensorPtr& weight, const TensorPtr& bias);
// x [N, C, H, W] or [C, H, W]; groups > 1 convolves each channel group with its filters (a split and a cat).
TensorPtr conv2d(const TensorPtr& x, const TensorPtr& weight, const TensorPtr& bias, const porta_conv2d_options& o);
// conv2d over a height of 1: x [N, C, L] or [C, L], weight [F, C / groups, K].
TensorPtr conv1d(const TensorPtr& x, const TensorPtr& weight, const TensorPtr& bias, int32_t stride, int32_t padding,
                 int32_t dilation, int32_t groups);
// The adjoint of conv2d: x [N, C, H, W] or [C, H, W], weight [C, F / groups, KH, KW]; output_padding {h, w}.
TensorPtr conv_transpose2d(const TensorPtr& x, const TensorPtr& weight, const TensorPtr& bias,
                           const porta_conv2d_options& o, const int32_t output_padding[2]);
// conv_transpose2d over a height of 1: x [N, C, L] or [C, L], weight [C, F / groups, K].
TensorPtr conv_transpose1d(const TensorPtr& x, const TensorPtr& weight, const TensorPtr& bias, int32_t stride,
                           int32_t padding, int32_t output_padding, int32_t dilation, int32_t groups);
// ceil_mode pads the end so the plugins' floor-mode kernels see the extra windows.
TensorPtr max_pool2d(const TensorPtr& x, const porta_pool2d_options& o);
// max_pool2d and where each maximum is: its position h * W + w in its [H, W] plane (PyTorch's indices, int64).
std::pair<TensorPtr, TensorPtr> max_pool2d_with_indices(const TensorPtr& x, const porta_pool2d_options& o);
TensorPtr avg_pool2d(const TensorPtr& x, const porta_pool2d_options& o);
// masked_rows_zero: a row of -inf gives zeros (attention's fully masked rows, PyTorch's _safe_softmax).
TensorPtr softmax(const TensorPtr& x, int32_t dim, bool log, bool masked_rows_zero = false);
// Samples whose target is ignore_index are left out (PyTorch's default: -100).
TensorPtr cross_entropy(const TensorPtr& logits, const TensorPtr& target, porta_reduction reduction,
                        int64_t ignore_index = -100);
TensorPtr mse_loss(const TensorPtr& input, const TensorPtr& target, porta_reduction reduction);
TensorPtr dropout(const TensorPtr& x, double p, bool training);
// Dropout's multiplier of `shape`: 0 with probability p, else 1 / (1 - p), from Porta's generator.
TensorPtr dropout_scale(DeviceState& dev, const Dims& shape, Dtype dtype, double p);

// ---- normalization.cpp (weight and bias may be null)
TensorPtr layer_norm(const TensorPtr& x, const Dims& normalized_shape, const TensorPtr& weight, const TensorPtr& bias,
                     double eps);
TensorPtr group_norm(const TensorPtr& x, int64_t groups, const TensorPtr& weight, const TensorPtr& bias, double eps);
// Running statistics (both or neither) are updated in place while training.
TensorPtr batch_norm(const TensorPtr& x, const TensorPtr& running_mean, const TensorPtr& running_var,
                     const TensorPtr& weight, const TensorPtr& bias, bool training, double momentum, double eps);

// ---- attention.cpp: scale NaN means 1 / sqrt(E); attn_mask may be null
TensorPtr scaled_dot_product_attention(const TensorPtr& q, const TensorPtr& k, const TensorPtr& v,
                                       const TensorPtr& attn_mask, double dropout_p, bool is_causal, double scale,
                                       bool training);

// ---- recurrent.cpp: torch.nn.RNN / LSTM / GRU and their cells (porta.h's
// porta_rnn_mode gate layout). c and c_n are null except for LSTM.
struct RnnState {
  TensorPtr h, c;
};
// One step; h (and c) null means zeros; biases both or null.
RnnState rnn_cell(porta_rnn_mode mode, const TensorPtr& x, const TensorPtr& h, const TensorPtr& c,
                  const TensorPtr& w_ih, const TensorPtr& w_hh, const TensorPtr& b_ih, const TensorPtr& b_hh);
struct RnnOutput {
  TensorPtr output, h_n, c_n;
};
RnnOutput rnn(const TensorPtr& input, const TensorPtr& h0, const TensorPtr& c0, const std::vector<TensorPtr>& params,
              const porta_rnn_options& options);

// ---- pad_and_adaptive_pool.cpp (porta.h's porta_pad, porta_adaptive_avg_pool2d, porta_feature_dropout)
// pads: (left, right) pairs, the last dimension first; negative crops (constant mode).
TensorPtr pad(const TensorPtr& x, const std::vector<int64_t>& pads, porta_pad_mode mode, double value);
TensorPtr adaptive_avg_pool2d(const TensorPtr& x, int64_t out_h, int64_t out_w);
// Zeroes whole channels: the mask has x's shape with its last spatial_dims dims 1.
TensorPtr feature_dropout(const TensorPtr& x, double p, bool training, int32_t spatial_dims);

// ---- interpolate.cpp (porta.h's porta_interpolate; scales NaN: none given)
TensorPtr interpolate(const TensorPtr& x, int64_t out_h, int64_t out_w, double scale_h, double scale_w,
                      porta_interpolate_mode mode, bool align_corners);

// ---- losses.cpp: PyTorch's losses beyond cross_entropy and mse_loss
TensorPtr nll_loss(const TensorPtr& log_probs, const TensorPtr& target, const TensorPtr& weight, int64_t ignore_index,
                   porta_reduction reduction);
// Class indices or probabilities as target; weight may be null.
TensorPtr cross_entropy_loss(const TensorPtr& logits, const TensorPtr& target, const TensorPtr& weight,
                             int64_t ignore_index, porta_reduction reduction, double label_smoothing);
TensorPtr binary_cross_entropy(const TensorPtr& input, const TensorPtr& target, const TensorPtr& weight,
                               porta_reduction reduction);
TensorPtr binary_cross_entropy_with_logits(const TensorPtr& input, const TensorPtr& target, const TensorPtr& weight,
                                           const TensorPtr& pos_weight, porta_reduction reduction);
TensorPtr l1_loss(const TensorPtr& input, const TensorPtr& target, porta_reduction reduction);
TensorPtr smooth_l1_loss(const TensorPtr& input, const TensorPtr& target, porta_reduction reduction, double beta);
TensorPtr huber_loss(const TensorPtr& input, const TensorPtr& target, porta_reduction reduction, double delta);
// reduction may be PORTA_REDUCTION_BATCHMEAN.
TensorPtr kl_div(const TensorPtr& input, const TensorPtr& target, porta_reduction reduction, bool log_target);

// Initializers (in place, not recorded).
void init_uniform(const TensorPtr& t, double low, double high);
void init_normal(const TensorPtr& t, double mean, double std);
int64_t fan_in(const porta_tensor& t);
void init_kaiming_uniform(const TensorPtr& t, double a);
// torch.nn.Linear's and Conv2d's reset_parameters: weight kaiming-uniform
// with a = sqrt(5), bias (may be null) U(+-1/sqrt(fan_in)).
void init_layer_default(const TensorPtr& weight, const TensorPtr& bias);

// Throws INVALID_ARGUMENT naming `op` unless `reduction` is NONE, MEAN or SUM.
void check_reduction(porta_reduction reduction, const char* op);
TensorPtr apply_reduction(const TensorPtr& per_item, porta_reduction reduction, const char* op);
// total / count for a loss's mean over the samples it keeps (a count of 0: NaN, as PyTorch, with a gradient of
// 0 for every input rather than 0 * inf).
TensorPtr mean_of_kept(const TensorPtr& total, const TensorPtr& count);
// The dtypes PyTorch's nll_loss takes class indices in: int64 and uint8.
inline bool is_class_index(Dtype d) { return d == Dtype::Int64 || d == Dtype::UInt8; }

// Positions of a sliding window, (in + 2 pad - dilation (kernel - 1) - 1) / stride + 1,
// without overflow for any argument values (stride >= 1); 0 when the window does not fit.
inline int64_t window_output_size(int64_t in, int64_t pad, int64_t dilation, int64_t kernel, int64_t stride) {
  int64_t reach = 0, span = 0;
  if (__builtin_mul_overflow(dilation, kernel - 1, &reach) || __builtin_add_overflow(in, 2 * pad, &span) ||
      __builtin_sub_overflow(span, reach + 1, &span) || span < 0)
    return 0;
  return span / stride + 1;
}

}  // namespace porta::nn
