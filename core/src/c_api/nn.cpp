// C API: neural-network ops and initializers.
#include "nn/nn.hpp"

#include "amp/autocast.hpp"
#include "c_api/c_api.hpp"

using namespace porta;

namespace {
porta_pool2d_options pool_options(const porta_pool2d_options* o, const char* op) {
  if (o == nullptr) fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": options (the kernel size at least) must not be NULL");
  return copy_in(o, porta_pool2d_options{sizeof(porta_pool2d_options), {0, 0}, {0, 0}, {0, 0}, {1, 1}, 1, 0, 0},
                 "porta_pool2d_options");
}
}  // namespace

PORTA_API porta_status porta_linear(porta_tensor* x, porta_tensor* weight, porta_tensor* bias, porta_tensor** out) {
  return produce(out, [&] {
    return nn::linear(amp::lower(arg(x, "x")), amp::lower(arg(weight, "weight")),
                      amp::lower(optional_arg(bias, "bias")));
  });
}

PORTA_API porta_status porta_conv2d(porta_tensor* x, porta_tensor* weight, porta_tensor* bias,
                                    const porta_conv2d_options* options, porta_tensor** out) {
  return produce(out, [&] {
    const porta_conv2d_options o =
        copy_in(options, porta_conv2d_options{sizeof(porta_conv2d_options), {1, 1}, {0, 0}, {1, 1}, 1},
                "porta_conv2d_options");
    return nn::conv2d(amp::lower(arg(x, "x")), amp::lower(arg(weight, "weight")),
                      amp::lower(optional_arg(bias, "bias")), o);
  });
}

PORTA_API porta_status porta_conv1d(porta_tensor* x, porta_tensor* weight, porta_tensor* bias, int32_t stride,
                                    int32_t padding, int32_t dilation, int32_t groups, porta_tensor** out) {
  return produce(out, [&] {
    return nn::conv1d(amp::lower(arg(x, "x")), amp::lower(arg(weight, "weight")),
                      amp::lower(optional_arg(bias, "bias")), stride, padding, dilation, groups);
  });
}

PORTA_API porta_status porta_conv_transpose2d(porta_tensor* x, porta_tensor* weight, porta_tensor* bias,
                                              const porta_conv2d_options* options, const int32_t* output_padding,
                                              porta_tensor** out) {
  return produce(out, [&] {
    const porta_conv2d_options o =
        options ? copy_in(options, porta_conv2d_options{sizeof(porta_conv2d_options), {1, 1}, {0, 0}, {1, 1}, 1},
                          "porta_conv2d_options")
                : porta_conv2d_options{sizeof(porta_conv2d_options), {1, 1}, {0, 0}, {1, 1}, 1};
    const int32_t none[2] = {0, 0};
    return nn::conv_transpose2d(amp::lower(arg(x, "x")), amp::lower(arg(weight, "weight")),
                                amp::lower(optional_arg(bias, "bias")), o, output_padding ? output_padding : none);
  });
}

PORTA_API porta_status porta_conv_transpose1d(porta_tensor* x, porta_tensor* weight, porta_tensor* bias, int32_t stride,
                                              int32_t padding, int32_t output_padding, int32_t dilation, int32_t groups,
                                              porta_tensor** out) {
  return produce(out, [&] {
    return nn::conv_transpose1d(amp::lower(arg(x, "x")), amp::lower(arg(weight, "weight")),
                                amp::lower(optional_arg(bias, "bias")), stride, padding, output_padding, dilation,
                                groups);
  });
}

PORTA_API porta_status porta_max_pool2d(porta_tensor* x, const porta_pool2d_options* options, porta_tensor** out) {
  return produce(out, [&] { return nn::max_pool2d(arg(x, "x"), pool_options(options, "max_pool2d")); });
}

PORTA_API porta_status porta_max_pool2d_with_indices(porta_tensor* x, const porta_pool2d_options* options,
                                                     porta_tensor** out, porta_tensor** indices) {
  return produce_pair(out, "out", indices, "indices", [&] {
    return nn::max_pool2d_with_indices(arg(x, "x"), pool_options(options, "max_pool2d"));
  });
}

PORTA_API porta_status porta_avg_pool2d(porta_tensor* x, const porta_pool2d_options* options, porta_tensor** out) {
  return produce(out, [&] { return nn::avg_pool2d(arg(x, "x"), pool_options(options, "avg_pool2d")); });
}

PORTA_API porta_status porta_softmax(porta_tensor* x, int32_t dim, porta_tensor** out) {
  return produce(
      out, [&] { return nn::softmax(amp::to_float32(arg(x, "x"), amp::Float32List::AcceleratorsOnly), dim, false); });
}

PORTA_API porta_status porta_log_softmax(porta_tensor* x, int32_t dim, porta_tensor** out) {
  return produce(
      out, [&] { return nn::softmax(amp::to_float32(arg(x, "x"), amp::Float32List::AcceleratorsOnly), dim, true); });
}

PORTA_API porta_status porta_cross_entropy(porta_tensor* logits, porta_tensor* target, porta_reduction reduction,
                                           porta_tensor** out) {
  return produce(
      out, [&] { return nn::cross_entropy(amp::to_float32(arg(logits, "logits")), arg(target, "target"), reduction); });
}

PORTA_API porta_status porta_cross_entropy_ignore(porta_tensor* logits, porta_tensor* target, porta_reduction reduction,
                                                  int64_t ignore_index, porta_tensor** out) {
  return produce(out, [&] {
    return nn::cross_entropy(amp::to_float32(arg(logits, "logits")), arg(target, "target"), reduction, ignore_index);
  });
}

PORTA_API porta_status porta_mse_loss(porta_tensor* input, porta_tensor* target, porta_reduction reduction,
                                      porta_tensor** out) {
  return produce(out, [&] {
    return nn::mse_loss(amp::to_float32(arg(input, "input")), amp::to_float32(arg(target, "target")), reduction);
  });
}

PORTA_API porta_status porta_dropout(porta_tensor* x, double p, int training, porta_tensor** out) {
  return produce(out, [&] { return nn::dropout(arg(x, "x"), p, training != 0); });
}

PORTA_API porta_status porta_flatten(porta_tensor* x, int32_t start_dim, int32_t end_dim, porta_tensor** out) {
  return produce(out, [&] { return ag::flatten(arg(x, "x"), start_dim, end_dim); });
}

PORTA_API porta_status porta_init_uniform_(porta_tensor* t, double low, double high) {
  return guard([&] { nn::init_uniform(arg(t, "t"), low, high); });
}

PORTA_API porta_status porta_init_normal_(porta_tensor* t, double mean, double std) {
  return guard([&] { nn::init_normal(arg(t, "t"), mean, std); });
}

PORTA_API porta_status porta_init_kaiming_uniform_(porta_tensor* t, double a) {
  return guard([&] { nn::init_kaiming_uniform(arg(t, "t"), a); });
}

PORTA_API porta_status porta_init_layer_default_(porta_tensor* weight, porta_tensor* bias) {
  return guard([&] { nn::init_layer_default(arg(weight, "weight"), optional_arg(bias, "bias")); });
}

PORTA_API porta_status porta_init_fan_in(const porta_tensor* t, int64_t* out) {
  return guard([&] {
    const porta_tensor& x = check_handle(t, "t");
    require(out, "out");
    *out = nn::fan_in(x);
  });
}

// ---- losses and normalization (nn/losses.cpp, nn/normalization.cpp), since 1.4

PORTA_API porta_status porta_nll_loss(porta_tensor* input, porta_tensor* target, porta_tensor* weight,
                                      int64_t ignore_index, porta_reduction reduction, porta_tensor** out) {
  return produce(out, [&] {
    return nn::nll_loss(amp::to_float32(arg(input, "input")), arg(target, "target"),
                        amp::to_float32(optional_arg(weight, "weight")), ignore_index, reduction);
  });
}

PORTA_API porta_status porta_cross_entropy_loss(porta_tensor* logits, porta_tensor* target, porta_tensor* weight,
                                                int64_t ignore_index, porta_reduction reduction, double label_smoothing,
                                                porta_tensor** out) {
  return produce(out, [&] {
    return nn::cross_entropy_loss(amp::to_float32(arg(logits, "logits")), amp::to_float32(arg(target, "target")),
                                  amp::to_float32(optional_arg(weight, "weight")), ignore_index, reduction,
                                  label_smoothing);
  });
}

PORTA_API porta_status porta_binary_cross_entropy(porta_tensor* input, porta_tensor* target, porta_tensor* weight,
                                                  porta_reduction reduction, porta_tensor** out) {
  return produce(out, [&] {
    amp::refuse_unsafe_binary_cross_entropy(arg(input, "input"));
    return nn::binary_cross_entropy(amp::to_float32(arg(input, "input")), amp::to_float32(arg(target, "target")),
                                    amp::to_float32(optional_arg(weight, "weight")), reduction);
  });
}

PORTA_API porta_status porta_binary_cross_entropy_with_logits(porta_tensor* input, porta_tensor* target,
                                                              porta_tensor* weight, porta_tensor* pos_weight,
                                                              porta_reduction reduction, porta_tensor** out) {
  return produce(out, [&] {
    return nn::binary_cross_entropy_with_logits(amp::to_float32(arg(input, "input")),
                                                amp::to_float32(arg(target, "target")),
                                                amp::to_float32(optional_arg(weight, "weight")),
                                                amp::to_float32(optional_arg(pos_weight, "pos_weight")), reduction);
  });
}

PORTA_API porta_status porta_l1_loss(porta_tensor* input, porta_tensor* target, porta_reduction reduction,
                                     porta_tensor** out) {
  return produce(out, [&] {
    return nn::l1_loss(amp::to_float32(arg(input, "input")), amp::to_float32(arg(target, "target")), reduction);
  });
}

PORTA_API porta_status porta_smooth_l1_loss(porta_tensor* input, porta_tensor* target, porta_reduction reduction,
                                            double beta, porta_tensor** out) {
  return produce(out, [&] {
    return nn::smooth_l1_loss(amp::to_float32(arg(input, "input")), amp::to_float32(arg(target, "target")), reduction,
                              beta);
  });
}

PORTA_API porta_status porta_huber_loss(porta_tensor* input, porta_tensor* target, porta_reduction reduction,
                                        double delta, porta_tensor** out) {
  return produce(out, [&] {
    return nn::huber_loss(amp::to_float32(arg(input, "input")), amp::to_float32(arg(target, "target")), reduction,
                          delta);
  });
}

PORTA_API porta_status porta_kl_div(porta_tensor* input, porta_tensor* target, porta_reduction reduction,
                                    int log_target, porta_tensor** out) {
  return produce(out, [&] {
    return nn::kl_div(amp::to_float32(arg(input, "input")), amp::to_float32(arg(target, "target")), reduction,
                      log_target != 0);
  });
}

PORTA_API porta_status porta_layer_norm(porta_tensor* x, const int64_t* normalized_shape, int32_t n,
                                        porta_tensor* weight, porta_tensor* bias, double eps, porta_tensor** out) {
  return produce(out, [&] {
    TensorPtr input = amp::to_float32(arg(x, "x"), amp::Float32List::AcceleratorsOnly);
    if (n < 1 || n > PORTA_MAX_DIMS)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "layer_norm: n (the length of normalized_shape) must be in [1, ",
           PORTA_MAX_DIMS, "], got ", n);
    return nn::layer_norm(input, Dims::from(normalized_shape, n, "normalized_shape"),
                          amp::to_float32(optional_arg(weight, "weight"), amp::Float32List::AcceleratorsOnly),
                          amp::to_float32(optional_arg(bias, "bias"), amp::Float32List::AcceleratorsOnly), eps);
  });
}

PORTA_API porta_status porta_group_norm(porta_tensor* x, int64_t groups, porta_tensor* weight, porta_tensor* bias,
                                        double eps, porta_tensor** out) {
  return produce(out, [&] {
    return nn::group_norm(amp::to_float32(arg(x, "x"), amp::Float32List::AcceleratorsOnly), groups,
                          amp::to_float32(optional_arg(weight, "weight"), amp::Float32List::AcceleratorsOnly),
                          amp::to_float32(optional_arg(bias, "bias"), amp::Float32List::AcceleratorsOnly), eps);
  });
}

PORTA_API porta_status porta_batch_norm(porta_tensor* x, porta_tensor* running_mean, porta_tensor* running_var,
                                        porta_tensor* weight, porta_tensor* bias, int training, double momentum,
                                        double eps, porta_tensor** out) {
  return produce(out, [&] {
    return nn::batch_norm(arg(x, "x"), optional_arg(running_mean, "running_mean"),
                          optional_arg(running_var, "running_var"), optional_arg(weight, "weight"),
                          optional_arg(bias, "bias"), training != 0, momentum, eps);
  });
}

PORTA_API porta_status porta_scaled_dot_product_attention(porta_tensor* q, porta_tensor* k, porta_tensor* v,
                                                          porta_tensor* attn_mask, double dropout_p, int is_causal,
                                                          double scale, int training, porta_tensor** out) {
  return produce(out, [&] {
    return nn::scaled_dot_product_attention(amp::lower(arg(q, "q")), amp::lower(arg(k, "k")), amp::lower(arg(v, "v")),
                                            amp::lower(optional_arg(attn_mask, "attn_mask")), dropout_p, is_causal != 0,
                                            scale, training != 0);
  });
}

PORTA_API porta_status porta_pad(porta_tensor* x, const int64_t* pad, int32_t n, porta_pad_mode mode, double value,
                                 porta_tensor** out) {
  return produce(out, [&] {
    if (n < 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "pad: n must be non-negative, got ", n);
    if (n > 0) require(pad, "pad");
    return nn::pad(arg(x, "x"), std::vector<int64_t>(pad, pad + n), mode, value);
  });
}

PORTA_API porta_status porta_adaptive_avg_pool2d(porta_tensor* x, int64_t out_h, int64_t out_w, porta_tensor** out) {
  return produce(out, [&] { return nn::adaptive_avg_pool2d(arg(x, "x"), out_h, out_w); });
}

PORTA_API porta_status porta_feature_dropout(porta_tensor* x, double p, int training, int32_t spatial_dims,
                                             porta_tensor** out) {
  return produce(out, [&] { return nn::feature_dropout(arg(x, "x"), p, training != 0, spatial_dims); });
}

PORTA_API porta_status porta_interpolate(porta_tensor* x, int64_t out_h, int64_t out_w, double scale_h, double scale_w,
                                         porta_interpolate_mode mode, int align_corners, porta_tensor** out) {
  return produce(out, [&] {
    return nn::interpolate(arg(x, "x"), out_h, out_w, scale_h, scale_w, mode, align_corners != 0);
  });
}

PORTA_API porta_status porta_rnn_cell(porta_rnn_mode mode, porta_tensor* x, porta_tensor* h, porta_tensor* c,
                                      porta_tensor* w_ih, porta_tensor* w_hh, porta_tensor* b_ih, porta_tensor* b_hh,
                                      porta_tensor** h_out, porta_tensor** c_out) {
  return guard([&] {
    require(h_out, "h_out");
    if (mode == PORTA_RNN_LSTM) require(c_out, "c_out");
    nn::RnnState s =
        nn::rnn_cell(mode, amp::lower(arg(x, "x")), amp::lower(optional_arg(h, "h")), amp::lower(optional_arg(c, "c")),
                     amp::lower(arg(w_ih, "w_ih")), amp::lower(arg(w_hh, "w_hh")),
                     amp::lower(optional_arg(b_ih, "b_ih")), amp::lower(optional_arg(b_hh, "b_hh")));
    *h_out = s.h.release();
    if (c_out) *c_out = s.c.release();
  });
}

PORTA_API porta_status porta_rnn(porta_tensor* input, porta_tensor* h0, porta_tensor* c0, porta_tensor* const* params,
                                 int32_t num_params, const porta_rnn_options* options, porta_tensor** output,
                                 porta_tensor** h_n, porta_tensor** c_n) {
  return guard([&] {
    require(output, "output");
    require(h_n, "h_n");
    const porta_rnn_options o =
        copy_in(options, porta_rnn_options{sizeof(porta_rnn_options), PORTA_RNN_TANH, 1, 0, 0, 1, 0, 0.0}, "options");
    if (o.mode == PORTA_RNN_LSTM) require(c_n, "c_n");
    if (num_params < 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "rnn: num_params must be non-negative, got ", num_params);
    if (num_params > 0) require(params, "params");
    std::vector<TensorPtr> weights;
    for (int32_t i = 0; i < num_params; ++i)
      weights.push_back(amp::lower(arg(params[i], ("params[" + std::to_string(i) + "]").c_str())));
    nn::RnnOutput r = nn::rnn(amp::lower(arg(input, "input")), amp::lower(optional_arg(h0, "h0")),
                              amp::lower(optional_arg(c0, "c0")), weights, o);
    *output = r.output.release();
    *h_n = r.h_n.release();
    if (c_n) *c_n = r.c_n.release();
  });
}
