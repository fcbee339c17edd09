// C API: the composite ops of porta.h (core/src/ops/composite/).
#include <optional>

#include "c_api/c_api.hpp"
#include "ops/composite/composite.hpp"

using namespace porta;

namespace {

std::optional<double> maybe(const double* v) { return v ? std::optional<double>(*v) : std::nullopt; }

}  // namespace

PORTA_API porta_status porta_clamp(porta_tensor* a, const double* min, const double* max, porta_tensor** out) {
  return produce(out, [&] { return composite::clamp(arg(a, "a"), maybe(min), maybe(max)); });
}

PORTA_API porta_status porta_clamp_tensor(porta_tensor* a, porta_tensor* min, porta_tensor* max, porta_tensor** out) {
  return produce(out, [&] { return composite::clamp_tensor(arg(a, "a"), optional_arg(min, "min"), optional_arg(max, "max")); });
}

PORTA_API porta_status porta_lerp(porta_tensor* start, porta_tensor* end, porta_tensor* weight, porta_tensor** out) {
  return produce(out, [&] { return composite::lerp(arg(start, "start"), arg(end, "end"), arg(weight, "weight")); });
}

PORTA_API porta_status porta_logsumexp(porta_tensor* t, const int32_t* dims, int32_t num_dims, int keepdim,
                                       porta_tensor** out) {
  return produce(out, [&] { return composite::logsumexp(arg(t, "t"), dims, num_dims, keepdim != 0); });
}

PORTA_API porta_status porta_gelu(porta_tensor* a, int32_t approximate, porta_tensor** out) {
  return produce(out, [&] {
    TensorPtr x = arg(a, "a");
    if (approximate != PORTA_GELU_NONE && approximate != PORTA_GELU_TANH)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "gelu: approximate must be PORTA_GELU_NONE (0) or PORTA_GELU_TANH (1), got ",
           approximate);
    return composite::gelu(x, approximate == PORTA_GELU_TANH ? composite::GeluApproximation::Tanh
                                                             : composite::GeluApproximation::None);
  });
}

PORTA_API porta_status porta_silu(porta_tensor* a, porta_tensor** out) {
  return produce(out, [&] { return composite::silu(arg(a, "a")); });
}

PORTA_API porta_status porta_softplus(porta_tensor* a, double beta, double threshold, porta_tensor** out) {
  return produce(out, [&] { return composite::softplus(arg(a, "a"), beta, threshold); });
}

PORTA_API porta_status porta_leaky_relu(porta_tensor* a, double negative_slope, porta_tensor** out) {
  return produce(out, [&] { return composite::leaky_relu(arg(a, "a"), negative_slope); });
}

PORTA_API porta_status porta_elu(porta_tensor* a, double alpha, porta_tensor** out) {
  return produce(out, [&] { return composite::elu(arg(a, "a"), alpha); });
}

PORTA_API porta_status porta_hardtanh(porta_tensor* a, double min_val, double max_val, porta_tensor** out) {
  return produce(out, [&] { return composite::hardtanh(arg(a, "a"), min_val, max_val); });
}

PORTA_API porta_status porta_isnan(porta_tensor* a, porta_tensor** out) {
  return produce(out, [&] { return composite::isnan(arg(a, "a")); });
}

PORTA_API porta_status porta_isinf(porta_tensor* a, porta_tensor** out) {
  return produce(out, [&] { return composite::isinf(arg(a, "a")); });
}

PORTA_API porta_status porta_isfinite(porta_tensor* a, porta_tensor** out) {
  return produce(out, [&] { return composite::isfinite(arg(a, "a")); });
}

PORTA_API porta_status porta_nan_to_num(porta_tensor* a, const double* nan, const double* posinf, const double* neginf,
                                        porta_tensor** out) {
  return produce(out, [&] { return composite::nan_to_num(arg(a, "a"), maybe(nan), maybe(posinf), maybe(neginf)); });
}

PORTA_API porta_status porta_logical_not(porta_tensor* a, porta_tensor** out) {
  return produce(out, [&] { return composite::logical_not(arg(a, "a")); });
}

PORTA_API porta_status porta_logical_and(porta_tensor* a, porta_tensor* b, porta_tensor** out) {
  return produce(out, [&] { return composite::logical_and(arg(a, "a"), arg(b, "b")); });
}

PORTA_API porta_status porta_logical_or(porta_tensor* a, porta_tensor* b, porta_tensor** out) {
  return produce(out, [&] { return composite::logical_or(arg(a, "a"), arg(b, "b")); });
}

PORTA_API porta_status porta_logical_xor(porta_tensor* a, porta_tensor* b, porta_tensor** out) {
  return produce(out, [&] { return composite::logical_xor(arg(a, "a"), arg(b, "b")); });
}
