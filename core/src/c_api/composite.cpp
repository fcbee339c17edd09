// C API: the composite ops of porta.h (core/src/ops/composite/).
#include "ops/composite/composite.hpp"

#include <cmath>
#include <optional>
#include <utility>

#include "amp/autocast.hpp"
#include "c_api/c_api.hpp"

using namespace porta;

namespace {

std::optional<double> maybe(const double* v) { return v ? std::optional<double>(*v) : std::nullopt; }

// Each operand as autocast's lower-precision ops take it (amp/autocast.hpp).
std::vector<TensorPtr> lowered(std::vector<TensorPtr> v) {
  for (TensorPtr& t : v) t = amp::lower(t);
  return v;
}

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

PORTA_API porta_status porta_add_alpha(int32_t op, porta_tensor* a, porta_tensor* b, porta_tensor* alpha,
                                       porta_tensor** out) {
  return produce(out, [&] {
    if (op != PORTA_OP_ADD && op != PORTA_OP_SUB)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_add_alpha: op must be PORTA_OP_ADD or PORTA_OP_SUB, got ", op);
    return composite::add_alpha(static_cast<porta_op>(op), amp::operand(PORTA_OP_ADD, arg(a, "a")),
                                amp::operand(PORTA_OP_ADD, arg(b, "b")), arg(alpha, "alpha"));
  });
}

PORTA_API porta_status porta_addcmul(int32_t op, porta_tensor* input, porta_tensor* t1, porta_tensor* t2,
                                     porta_tensor* value, porta_tensor** out) {
  return produce(out, [&] {
    if (op != PORTA_OP_MUL && op != PORTA_OP_DIV)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_addcmul: op must be PORTA_OP_MUL or PORTA_OP_DIV, got ", op);
    return composite::addcmul(static_cast<porta_op>(op), arg(input, "input"), arg(t1, "t1"), arg(t2, "t2"),
                              arg(value, "value"));
  });
}

PORTA_API porta_status porta_logsumexp(porta_tensor* t, const int32_t* dims, int32_t num_dims, int keepdim,
                                       porta_tensor** out) {
  return produce(out, [&] {
    return composite::logsumexp(amp::to_float32(arg(t, "t"), amp::Float32List::AcceleratorsOnly), dims, num_dims,
                                keepdim != 0);
  });
}

PORTA_API porta_status porta_nansum(porta_tensor* t, const int32_t* dims, int32_t num_dims, int keepdim,
                                    porta_tensor** out) {
  return produce(out, [&] { return composite::nansum(arg(t, "t"), dims, num_dims, keepdim != 0); });
}

PORTA_API porta_status porta_nanmean(porta_tensor* t, const int32_t* dims, int32_t num_dims, int keepdim,
                                     porta_tensor** out) {
  return produce(out, [&] { return composite::nanmean(arg(t, "t"), dims, num_dims, keepdim != 0); });
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
  return produce(out, [&] {
    return composite::softplus(amp::to_float32(arg(a, "a"), amp::Float32List::AcceleratorsOnly), beta, threshold);
  });
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

// ---- statistics, shapes and products (ops/composite/statistics.cpp, shape.cpp)

PORTA_API porta_status porta_var(porta_tensor* t, const int32_t* dims, int32_t num_dims, double correction,
                                 int keepdim, porta_tensor** out) {
  return produce(out, [&] { return composite::var(arg(t, "t"), dims, num_dims, correction, keepdim != 0); });
}

PORTA_API porta_status porta_std(porta_tensor* t, const int32_t* dims, int32_t num_dims, double correction,
                                 int keepdim, porta_tensor** out) {
  return produce(out, [&] { return composite::std_dev(arg(t, "t"), dims, num_dims, correction, keepdim != 0); });
}

PORTA_API porta_status porta_prod(porta_tensor* t, int32_t dim, int keepdim, porta_tensor** out) {
  return produce(out, [&] { return composite::prod(amp::to_float32(arg(t, "t")), dim, keepdim != 0); });
}

PORTA_API porta_status porta_any(porta_tensor* t, const int32_t* dims, int32_t num_dims, int keepdim,
                                 porta_tensor** out) {
  return produce(out, [&] { return composite::any(arg(t, "t"), dims, num_dims, keepdim != 0); });
}

PORTA_API porta_status porta_all(porta_tensor* t, const int32_t* dims, int32_t num_dims, int keepdim,
                                 porta_tensor** out) {
  return produce(out, [&] { return composite::all(arg(t, "t"), dims, num_dims, keepdim != 0); });
}

PORTA_API porta_status porta_count_nonzero(porta_tensor* t, const int32_t* dims, int32_t num_dims, porta_tensor** out) {
  return produce(out, [&] { return composite::count_nonzero(arg(t, "t"), dims, num_dims); });
}

PORTA_API porta_status porta_vector_norm(porta_tensor* t, double ord, const int32_t* dims, int32_t num_dims,
                                         int keepdim, porta_tensor** out) {
  return produce(out, [&] {
    return composite::vector_norm(amp::to_float32(arg(t, "t"), amp::Float32List::AcceleratorsOnly), ord, dims, num_dims,
                                  keepdim != 0);
  });
}

PORTA_API porta_status porta_normalize(porta_tensor* t, double p, int32_t dim, double eps, porta_tensor** out) {
  return produce(out, [&] {
    return composite::normalize(amp::to_float32(arg(t, "t"), amp::Float32List::AcceleratorsOnly), p, dim, eps);
  });
}

PORTA_API porta_status porta_cosine_similarity(porta_tensor* x1, porta_tensor* x2, int32_t dim, double eps,
                                               porta_tensor** out) {
  return produce(out, [&] {
    return composite::cosine_similarity(amp::to_float32(arg(x1, "x1"), amp::Float32List::AcceleratorsOnly),
                                        amp::to_float32(arg(x2, "x2"), amp::Float32List::AcceleratorsOnly), dim, eps);
  });
}

PORTA_API porta_status porta_flip(porta_tensor* t, const int32_t* dims, int32_t num_dims, porta_tensor** out) {
  return produce(out, [&] { return composite::flip(arg(t, "t"), dims, num_dims); });
}

PORTA_API porta_status porta_roll(porta_tensor* t, const int64_t* shifts, int32_t num_shifts, const int32_t* dims,
                                  int32_t num_dims, porta_tensor** out) {
  return produce(out, [&] { return composite::roll(arg(t, "t"), shifts, num_shifts, dims, num_dims); });
}

PORTA_API porta_status porta_repeat(porta_tensor* t, const int64_t* repeats, int32_t n, porta_tensor** out) {
  return produce(out, [&] { return composite::repeat(arg(t, "t"), repeats, n); });
}

PORTA_API porta_status porta_tril(porta_tensor* t, int64_t diagonal, porta_tensor** out) {
  return produce(out, [&] { return composite::triangle(arg(t, "t"), diagonal, true); });
}

PORTA_API porta_status porta_triu(porta_tensor* t, int64_t diagonal, porta_tensor** out) {
  return produce(out, [&] { return composite::triangle(arg(t, "t"), diagonal, false); });
}

PORTA_API porta_status porta_outer(porta_tensor* a, porta_tensor* b, porta_tensor** out) {
  return produce(out, [&] { return composite::outer(arg(a, "a"), arg(b, "b")); });
}

PORTA_API porta_status porta_mm(porta_tensor* a, porta_tensor* b, porta_tensor** out) {
  return produce(out, [&] { return composite::mm(amp::lower(arg(a, "a")), amp::lower(arg(b, "b"))); });
}

PORTA_API porta_status porta_mv(porta_tensor* a, porta_tensor* v, porta_tensor** out) {
  return produce(out, [&] { return composite::mv(arg(a, "a"), arg(v, "v")); });
}

PORTA_API porta_status porta_dot(porta_tensor* a, porta_tensor* b, porta_tensor** out) {
  return produce(out, [&] { return composite::dot(arg(a, "a"), arg(b, "b")); });
}

PORTA_API porta_status porta_bmm(porta_tensor* a, porta_tensor* b, porta_tensor** out) {
  return produce(out, [&] { return composite::bmm(amp::lower(arg(a, "a")), amp::lower(arg(b, "b"))); });
}

PORTA_API porta_status porta_addmm(porta_tensor* c, porta_tensor* a, porta_tensor* b, double beta, double alpha,
                                   porta_tensor** out) {
  return produce(out, [&] {
    return composite::addmm(amp::lower(arg(c, "c")), amp::lower(arg(a, "a")), amp::lower(arg(b, "b")), beta, alpha);
  });
}

PORTA_API porta_status porta_baddbmm(porta_tensor* c, porta_tensor* a, porta_tensor* b, double beta, double alpha,
                                     porta_tensor** out) {
  return produce(out, [&] {
    return composite::baddbmm(amp::lower(arg(c, "c")), amp::lower(arg(a, "a")), amp::lower(arg(b, "b")), beta, alpha);
  });
}

// ---- since 1.7

namespace {

std::pair<TensorPtr, TensorPtr> median_of(porta_tensor* t, int32_t dim, int keepdim, bool ignore_nan) {
  TensorPtr x = arg(t, "t");
  if (dim != PORTA_ALL_DIMS) {
    ops::Sorted s = composite::median(x, dim, keepdim != 0, ignore_nan);
    return {s.values, s.indices};
  }
  if (x->numel() == 0 && is_floating(x->dtype))  // PyTorch: NaN; no element to point at
    return {ops::full(*x->device, Dims{}, NAN, x->dtype), ops::full_int(*x->device, Dims{}, -1, Dtype::Int64)};
  ops::Sorted s = composite::median(ops::reshape(x, Dims{x->numel()}), 0, false, ignore_nan);
  TensorPtr value = ag::shared_among_equals(x, s.values);  // the gradient of every equal element, as PyTorch's
  if (!keepdim) return {value, s.indices};
  Dims ones;
  for (int32_t i = 0; i < x->ndim(); ++i) ones.push_back(1);
  return {ag::reshape(value, ones), ops::reshape(s.indices, ones)};
}

}  // namespace

PORTA_API porta_status porta_movedim(porta_tensor* t, const int32_t* source, const int32_t* destination, int32_t n,
                                     porta_tensor** out) {
  return produce(out, [&] { return composite::movedim(arg(t, "t"), source, destination, n); });
}

PORTA_API porta_status porta_diagonal(porta_tensor* t, int64_t offset, int32_t dim1, int32_t dim2, porta_tensor** out) {
  return produce(out, [&] { return ag::diagonal(arg(t, "t"), offset, dim1, dim2); });
}

PORTA_API porta_status porta_diag(porta_tensor* t, int64_t diagonal, porta_tensor** out) {
  return produce(out, [&] { return composite::diag(arg(t, "t"), diagonal); });
}

PORTA_API porta_status porta_meshgrid(porta_tensor* const* tensors, int32_t n, porta_meshgrid_indexing indexing,
                                      porta_tensor** outs) {
  return produce_all(outs, [&] {
    if (indexing != PORTA_MESHGRID_IJ && indexing != PORTA_MESHGRID_XY)
      fail(PORTA_ERROR_INVALID_ARGUMENT,
           "meshgrid: indexing must be PORTA_MESHGRID_IJ (0) or PORTA_MESHGRID_XY (1), got ",
           static_cast<int32_t>(indexing));
    return composite::meshgrid(tensor_array("meshgrid", tensors, n), indexing == PORTA_MESHGRID_XY);
  });
}

PORTA_API porta_status porta_repeat_interleave(porta_tensor* t, porta_tensor* repeats, int32_t dim, int64_t output_size,
                                               porta_tensor** out) {
  return produce(out, [&] {
    if (output_size < -1)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "repeat_interleave: output_size must be >= 0 or -1 (not given), got ",
           output_size);
    return composite::repeat_interleave(arg(t, "t"), arg(repeats, "repeats"), dim, output_size);
  });
}

PORTA_API porta_status porta_repeat_interleave_int(porta_tensor* t, int64_t repeats, int32_t dim, porta_tensor** out) {
  return produce(out, [&] { return composite::repeat_interleave(arg(t, "t"), repeats, dim); });
}

PORTA_API porta_status porta_unfold(porta_tensor* t, int32_t dim, int64_t size, int64_t step, porta_tensor** out) {
  return produce(out, [&] { return composite::unfold(arg(t, "t"), dim, size, step); });
}

PORTA_API porta_status porta_einsum(const char* equation, porta_tensor* const* operands, int32_t n,
                                    porta_tensor** out) {
  return produce(out, [&] { return composite::einsum(equation, lowered(tensor_array("einsum", operands, n))); });
}

PORTA_API porta_status porta_var_mean(porta_tensor* t, const int32_t* dims, int32_t num_dims, double correction,
                                      int keepdim, porta_tensor** var, porta_tensor** mean) {
  return produce_pair(var, "var", mean, "mean", [&] {
    return composite::var_mean(arg(t, "t"), dims, num_dims, correction, keepdim != 0, false);
  });
}

PORTA_API porta_status porta_std_mean(porta_tensor* t, const int32_t* dims, int32_t num_dims, double correction,
                                      int keepdim, porta_tensor** std, porta_tensor** mean) {
  return produce_pair(std, "std", mean, "mean",
                      [&] { return composite::var_mean(arg(t, "t"), dims, num_dims, correction, keepdim != 0, true); });
}

PORTA_API porta_status porta_median(porta_tensor* t, int32_t dim, int keepdim, porta_tensor** values,
                                    porta_tensor** indices) {
  return produce_pair(values, "values", indices, "indices", [&] { return median_of(t, dim, keepdim, false); });
}

PORTA_API porta_status porta_nanmedian(porta_tensor* t, int32_t dim, int keepdim, porta_tensor** values,
                                       porta_tensor** indices) {
  return produce_pair(values, "values", indices, "indices", [&] { return median_of(t, dim, keepdim, true); });
}

PORTA_API porta_status porta_histc(porta_tensor* t, int64_t bins, double min, double max, porta_tensor** out) {
  return produce(out, [&] { return composite::histc(arg(t, "t"), bins, min, max); });
}
