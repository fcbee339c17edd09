// Scalar operands as PyTorch's wrapped numbers, and the result type that ranks them.
#include <cmath>
#include <optional>

#include "ops/ops.hpp"

namespace porta {

Scalar Scalar::from_double(double s) {
  // [-2^63, 2^63) holds every integral double an int64 can take
  if (std::isfinite(s) && std::trunc(s) == s && s >= -9223372036854775808.0 && s < 9223372036854775808.0)
    return of_int(static_cast<int64_t>(s));
  return of_float(s);
}

}  // namespace porta

namespace porta::ops {

TensorPtr wrapped_number(DeviceState& dev, const Scalar& s) {
  TensorPtr t = s.kind == Scalar::Kind::Float ? full(dev, Dims{}, s.f, Dtype::Float64)
                                              : full_int(dev, Dims{}, s.i,
                                                         s.kind == Scalar::Kind::Bool ? Dtype::Bool : Dtype::Int64);
  t->wrapped = s;
  return t;
}

Scalar value_of(const TensorPtr& t) {
  if (t->wrapped) return *t->wrapped;
  if (is_floating(t->dtype)) {
    double v = 0;
    to_host(*cast(t, Dtype::Float64), &v, sizeof v);
    return Scalar::of_float(v);
  }
  int64_t v = 0;
  to_host(*cast(t, Dtype::Int64), &v, sizeof v);
  return t->dtype == Dtype::Bool ? Scalar::of_bool(v != 0) : Scalar::of_int(v);
}

namespace {

std::optional<Dtype> combine(std::optional<Dtype> higher, std::optional<Dtype> lower) {
  if (!higher) return lower;
  if (!lower) return higher;
  return combine_categories(*higher, *lower);
}

}  // namespace

Dtype result_type(std::span<const porta_tensor* const> operands) {
  std::optional<Dtype> dimensioned, zero_dim, wrapped;
  for (const porta_tensor* t : operands) {
    Dtype d = t->dtype;
    std::optional<Dtype>& tier = t->wrapped ? wrapped : t->ndim() == 0 ? zero_dim : dimensioned;
    if (t->wrapped && is_floating(d)) d = Dtype::Float32;  // the default dtype
    tier = tier ? promote(*tier, d) : d;
  }
  return *combine(dimensioned, combine(zero_dim, wrapped));
}

}  // namespace porta::ops
