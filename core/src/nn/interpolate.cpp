// torch.nn.functional.interpolate of [N, C, H, W]: nearest, nearest-exact
// and bilinear, one dimension at a time (W, then H) with index_select, so a
// NaN or an infinity reaches only the outputs that read it, and the
// gradient flows through the gathers.
//
// The source positions follow PyTorch's CPU kernels
// (aten/src/ATen/native/UpSample.h): the scale is 1 / scale_factor when
// the caller gave one, else in / out, computed in float for the nearest
// modes and in the input's precision for bilinear, so that floor() lands
// where PyTorch's does.
#include <cmath>
#include <vector>

#include "runtime/error.hpp"
#include "nn/nn.hpp"
#include "ops/composite/composite.hpp"

namespace porta::nn {
namespace {

// PyTorch's compute_scales_value: the input step per output step.
template <typename T>
T scale_of(double scale_factor, int64_t in, int64_t out) {
  return !std::isnan(scale_factor) && scale_factor > 0.0 ? static_cast<T>(1.0 / scale_factor)
                                                          : static_cast<T>(in) / static_cast<T>(out);
}

template <typename T>
std::vector<int64_t> nearest_sources(int64_t in, int64_t out, double scale_factor, bool exact) {
  std::vector<int64_t> src(static_cast<size_t>(out));
  const T scale = scale_of<T>(scale_factor, in, out);
  for (int64_t d = 0; d < out; ++d) {
    int64_t s;
    if (!exact && out == in) s = d;
    else if (!exact && out == 2 * in) s = d >> 1;
    else s = static_cast<int64_t>(std::floor((static_cast<T>(d) + (exact ? T(0.5) : T(0))) * scale));
    src[static_cast<size_t>(d)] = std::min(s, in - 1);
  }
  return src;
}

// Bilinear: for each output position, the two inputs and their weights.
struct Linear1d {
  std::vector<int64_t> lo, hi;
  std::vector<double> w_lo, w_hi;
};

template <typename T>
Linear1d linear_sources(int64_t in, int64_t out, double scale_factor, bool align_corners) {
  const T scale = align_corners ? (out > 1 ? static_cast<T>(in - 1) / static_cast<T>(out - 1) : T(0))
                                : scale_of<T>(scale_factor, in, out);
  Linear1d l;
  for (int64_t d = 0; d < out; ++d) {
    T src = align_corners ? scale * static_cast<T>(d) : scale * (static_cast<T>(d) + T(0.5)) - T(0.5);
    if (!align_corners && src < T(0)) src = T(0);
    const int64_t i0 = static_cast<int64_t>(src);
    const T lambda1 = std::min(std::max(src - static_cast<T>(i0), T(0)), T(1));
    l.lo.push_back(i0);
    l.hi.push_back(i0 + (i0 < in - 1 ? 1 : 0));
    l.w_lo.push_back(static_cast<double>(T(1) - lambda1));
    l.w_hi.push_back(static_cast<double>(lambda1));
  }
  return l;
}

TensorPtr index_tensor(const std::vector<int64_t>& v, DeviceState& dev) {
  return ops::from_host(v.data(), Dtype::Int64, Dims{static_cast<int64_t>(v.size())}, dev);
}

// Weights [out] shaped to broadcast along dim `dim` of a 4-D tensor, in `dtype`.
TensorPtr weights_along(const std::vector<double>& w, int32_t dim, Dtype dtype, DeviceState& dev) {
  Dims shape{1, 1, 1, 1};
  shape[dim] = static_cast<int64_t>(w.size());
  return ops::cast(ops::from_host(w.data(), Dtype::Float64, shape, dev), dtype);
}

TensorPtr resize_dim(const TensorPtr& x, int32_t dim, int64_t out, double scale_factor, porta_interpolate_mode mode,
                     bool align_corners) {
  const int64_t in = x->shape[dim];
  const bool f32 = x->dtype == Dtype::Float32;
  DeviceState& dev = *x->device;
  if (mode != PORTA_INTERPOLATE_BILINEAR) {
    const bool exact = mode == PORTA_INTERPOLATE_NEAREST_EXACT;
    const auto src = nearest_sources<float>(in, out, scale_factor, exact);  // float for every dtype, as PyTorch
    return composite::index_select(x, dim, index_tensor(src, dev));
  }
  const Linear1d l = f32 ? linear_sources<float>(in, out, scale_factor, align_corners)
                         : linear_sources<double>(in, out, scale_factor, align_corners);
  TensorPtr lo = ag::binary(PORTA_OP_MUL, composite::index_select(x, dim, index_tensor(l.lo, dev)),
                            weights_along(l.w_lo, dim, x->dtype, dev));
  TensorPtr hi = ag::binary(PORTA_OP_MUL, composite::index_select(x, dim, index_tensor(l.hi, dev)),
                            weights_along(l.w_hi, dim, x->dtype, dev));
  return ag::binary(PORTA_OP_ADD, lo, hi);
}

}  // namespace

TensorPtr interpolate(const TensorPtr& x, int64_t out_h, int64_t out_w, double scale_h, double scale_w,
                      porta_interpolate_mode mode, bool align_corners) {
  const char* op = "interpolate";
  if (mode != PORTA_INTERPOLATE_NEAREST && mode != PORTA_INTERPOLATE_NEAREST_EXACT &&
      mode != PORTA_INTERPOLATE_BILINEAR)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": unknown mode ", int64_t(mode),
         " (use PORTA_INTERPOLATE_NEAREST, NEAREST_EXACT or BILINEAR)");
  check_float(op, "input", *x);
  if (x->ndim() != 4) fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": expected input [N, C, H, W], got ", x->shape.str());
  if (align_corners && mode != PORTA_INTERPOLATE_BILINEAR)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": align_corners is for the bilinear mode only (as PyTorch)");
  if (out_h < 1 || out_w < 1)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": output size must be at least 1x1, got ", out_h, "x", out_w);
  if (x->shape[2] < 1 || x->shape[3] < 1)
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": the input's spatial size ", x->shape[2], "x", x->shape[3], " is empty");
  for (double s : {scale_h, scale_w})
    if (!std::isnan(s) && !(s > 0.0 && std::isfinite(s)))
      fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": a scale factor must be positive and finite (or NaN: none), got ", s);
  if (is_low_precision(x->dtype))  // one rounding (ag::in_opmath)
    return ag::cast(interpolate(ag::opmath(x), out_h, out_w, scale_h, scale_w, mode, align_corners), x->dtype);
  return resize_dim(resize_dim(x, 3, out_w, scale_w, mode, align_corners), 2, out_h, scale_h, mode, align_corners);
}

}  // namespace porta::nn
