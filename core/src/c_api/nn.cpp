// C API: neural-network ops and initializers.
#include "c_api/c_api.hpp"
#include "nn/nn.hpp"

using namespace porta;

namespace {
porta_pool2d_options pool_options(const porta_pool2d_options* o, const char* op) {
  if (o == nullptr) fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": options (the kernel size at least) must not be NULL");
  return copy_in(o, porta_pool2d_options{sizeof(porta_pool2d_options), {0, 0}, {0, 0}, {0, 0}, {1, 1}, 1},
                 "porta_pool2d_options");
}
}  // namespace

PORTA_API porta_status porta_linear(porta_tensor* x, porta_tensor* weight, porta_tensor* bias, porta_tensor** out) {
  return produce(out, [&] { return nn::linear(arg(x, "x"), arg(weight, "weight"), optional_arg(bias, "bias")); });
}

PORTA_API porta_status porta_conv2d(porta_tensor* x, porta_tensor* weight, porta_tensor* bias,
                                    const porta_conv2d_options* options, porta_tensor** out) {
  return produce(out, [&] {
    const porta_conv2d_options o =
        copy_in(options, porta_conv2d_options{sizeof(porta_conv2d_options), {1, 1}, {0, 0}, {1, 1}}, "porta_conv2d_options");
    return nn::conv2d(arg(x, "x"), arg(weight, "weight"), optional_arg(bias, "bias"), o);
  });
}

PORTA_API porta_status porta_max_pool2d(porta_tensor* x, const porta_pool2d_options* options, porta_tensor** out) {
  return produce(out, [&] { return nn::max_pool2d(arg(x, "x"), pool_options(options, "max_pool2d")); });
}

PORTA_API porta_status porta_avg_pool2d(porta_tensor* x, const porta_pool2d_options* options, porta_tensor** out) {
  return produce(out, [&] { return nn::avg_pool2d(arg(x, "x"), pool_options(options, "avg_pool2d")); });
}

PORTA_API porta_status porta_softmax(porta_tensor* x, int32_t dim, porta_tensor** out) {
  return produce(out, [&] { return nn::softmax(arg(x, "x"), dim, false); });
}

PORTA_API porta_status porta_log_softmax(porta_tensor* x, int32_t dim, porta_tensor** out) {
  return produce(out, [&] { return nn::softmax(arg(x, "x"), dim, true); });
}

PORTA_API porta_status porta_cross_entropy(porta_tensor* logits, porta_tensor* target, porta_reduction reduction,
                                           porta_tensor** out) {
  return produce(out, [&] { return nn::cross_entropy(arg(logits, "logits"), arg(target, "target"), reduction); });
}

PORTA_API porta_status porta_cross_entropy_ignore(porta_tensor* logits, porta_tensor* target, porta_reduction reduction,
                                                  int64_t ignore_index, porta_tensor** out) {
  return produce(out, [&] {
    return nn::cross_entropy(arg(logits, "logits"), arg(target, "target"), reduction, ignore_index);
  });
}

PORTA_API porta_status porta_mse_loss(porta_tensor* input, porta_tensor* target, porta_reduction reduction,
                                      porta_tensor** out) {
  return produce(out, [&] { return nn::mse_loss(arg(input, "input"), arg(target, "target"), reduction); });
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
