// max_pool2d and avg_pool2d: plugin kernels forward and backward. ceil_mode
// pads the input's end so that the kernels' floor geometry covers the extra
// windows (with -inf for max, zeros for average, whose divisors are then
// corrected): the plugins see floor mode only.
#include <cmath>
#include <vector>

#include "autograd/node.hpp"
#include "nn/nn.hpp"
#include "runtime/error.hpp"

namespace porta::nn {
namespace {

struct Pool {
  int64_t N, C, H, W, OH, OW;
  porta_pool2d_params params;
};

Pool plan(const char* op, const porta_tensor& x, const porta_pool2d_options& o, bool allow_dilation) {
  check_float(op, "input", x);
  if (x.ndim() != 4) fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": input must be 4-D [N, C, H, W], got ", x.shape.str());
  Pool p{x.shape[0], x.shape[1], x.shape[2], x.shape[3], 0, 0, {}};
  int32_t k[2], s[2], d[2];
  for (int i = 0; i < 2; ++i) {
    k[i] = o.kernel[i];
    s[i] = o.stride[i] == 0 ? o.kernel[i] : o.stride[i];
    d[i] = o.dilation[i] == 0 ? 1 : o.dilation[i];
    if (k[i] < 1 || s[i] < 1 || d[i] < 1 || o.padding[i] < 0)
      fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": kernel, stride and dilation must be >= 1 and padding >= 0");
    if (o.padding[i] > k[i] / 2)
      fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": padding ", o.padding[i], " must be at most half the kernel size ", k[i]);
    if (!allow_dilation && d[i] != 1) fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": dilation is not supported");
  }
  p.OH = window_output_size(p.H, o.padding[0], d[0], k[0], s[0]);
  p.OW = window_output_size(p.W, o.padding[1], d[1], k[1], s[1]);
  if (p.OH <= 0 || p.OW <= 0)
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": the input ", p.H, "x", p.W, " is smaller than the ", k[0], "x", k[1],
         " window");
  p.params = porta_pool2d_params{sizeof(porta_pool2d_params), k[0], k[1], s[0], s[1], o.padding[0], o.padding[1],
                                 d[0], d[1], o.count_include_pad};
  return p;
}

struct MaxPoolNode final : autograd::Node {
  Pool p;
  autograd::SavedTensor indices;
  const char* name() const override { return "MaxPool2dBackward"; }
  void release_saved() override { indices.reset(); }
  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    TensorPtr gc = ops::contiguous(g);
    TensorPtr gx = empty(*g->device, g->dtype, Dims{p.N, p.C, p.H, p.W});
    KernelArg ins[2] = {KernelArg(*gc), KernelArg(*indices)};
    launch(*g->device, PORTA_OP_MAX_POOL2D_BACKWARD, g->dtype, ins, 2, KernelArg(*gx), &p.params);
    return {gx};
  }
};

struct AvgPoolNode final : autograd::Node {
  Pool p;
  const char* name() const override { return "AvgPool2dBackward"; }
  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    TensorPtr gc = ops::contiguous(g);
    TensorPtr gx = empty(*g->device, g->dtype, Dims{p.N, p.C, p.H, p.W});
    KernelArg in(*gc);
    launch(*g->device, PORTA_OP_AVG_POOL2D_BACKWARD, g->dtype, &in, 1, KernelArg(*gx), &p.params);
    return {gx};
  }
};

// PyTorch's ceil-mode output length: windows that start inside the input or
// its left padding, the last one allowed to run past the end.
int64_t ceil_output_size(int64_t in, int64_t pad, int64_t dilation, int64_t kernel, int64_t stride) {
  const int64_t span = in + 2 * pad - dilation * (kernel - 1) - 1;
  if (span < 0) return 0;
  int64_t out = (span + stride - 1) / stride + 1;
  if ((out - 1) * stride >= in + pad) --out;
  return out;
}

// The elements ceil_mode adds at the end of x's height and width, so that
// floor mode gives ceil mode's windows; {0, 0} when they are the same.
struct CeilExtra {
  int64_t h = 0, w = 0, OH = 0, OW = 0;
};
CeilExtra ceil_extra(const char* op, const porta_tensor& x, const porta_pool2d_options& o, bool allow_dilation) {
  const Pool p = plan(op, x, o, allow_dilation);  // every check of floor mode, on the original input
  CeilExtra e;
  const int64_t in[2] = {p.H, p.W}, k[2] = {p.params.kernel_h, p.params.kernel_w},
                s[2] = {p.params.stride_h, p.params.stride_w}, d[2] = {p.params.dilation_h, p.params.dilation_w};
  int64_t out[2], extra[2];
  for (int i = 0; i < 2; ++i) {
    out[i] = ceil_output_size(in[i], o.padding[i], d[i], k[i], s[i]);
    extra[i] = std::max<int64_t>(0, (out[i] - 1) * s[i] + d[i] * (k[i] - 1) + 1 - (in[i] + 2 * o.padding[i]));
  }
  e.h = extra[0], e.w = extra[1], e.OH = out[0], e.OW = out[1];
  return e;
}

porta_pool2d_options floor_options(porta_pool2d_options o) {
  o.ceil_mode = 0;
  return o;
}

// avg_pool2d's divisors in ceil mode, as multipliers of the kernel's 1 / (KH * KW):
// [OH, OW] of KH * KW / (the window's part inside the padded input, or inside the input).
TensorPtr ceil_divisor_scale(const porta_tensor& x, const porta_pool2d_options& o, const CeilExtra& e) {
  const int64_t H = x.shape[2], W = x.shape[3], kh = o.kernel[0], kw = o.kernel[1];
  const int64_t sh = o.stride[0] == 0 ? kh : o.stride[0], sw = o.stride[1] == 0 ? kw : o.stride[1];
  const int64_t ph = o.padding[0], pw = o.padding[1];
  auto part = [&](int64_t start, int64_t k, int64_t n, int64_t pad) {
    const int64_t end = std::min(start + k, n + pad);
    return o.count_include_pad ? end - start : std::min(end, n) - std::max<int64_t>(start, 0);
  };
  std::vector<double> scale(static_cast<size_t>(e.OH * e.OW));
  for (int64_t i = 0; i < e.OH; ++i)
    for (int64_t j = 0; j < e.OW; ++j)
      scale[static_cast<size_t>(i * e.OW + j)] =
          double(kh * kw) / double(part(i * sh - ph, kh, H, ph) * part(j * sw - pw, kw, W, pw));
  TensorPtr t = ops::from_host(scale.data(), Dtype::Float64, Dims{e.OH, e.OW}, *x.device);
  return x.dtype == Dtype::Float64 ? t : ops::cast(t, x.dtype);
}

}  // namespace

TensorPtr max_pool2d(const TensorPtr& x, const porta_pool2d_options& o) { return max_pool2d_with_indices(x, o).first; }

std::pair<TensorPtr, TensorPtr> max_pool2d_with_indices(const TensorPtr& x, const porta_pool2d_options& o) {
  if (o.ceil_mode) {
    const CeilExtra e = ceil_extra("max_pool2d", *x, o, true);
    if (e.h == 0 && e.w == 0) return max_pool2d_with_indices(x, floor_options(o));
    auto [out, at] = max_pool2d_with_indices(pad(x, {0, e.w, 0, e.h}, PORTA_PAD_CONSTANT, -INFINITY), floor_options(o));
    // positions in the padded plane (width W + e.w) as positions in x's: a window starts inside x, so its
    // maximum is an element of x (the padding's -inf never beats one)
    const int64_t W = x->shape[3], padded = W + e.w;
    const TensorPtr row = ops::binary_scalar(PORTA_OP_FLOOR_DIVIDE, at, double(padded));
    const TensorPtr col = ops::binary(PORTA_OP_SUB, at, ops::binary_scalar(PORTA_OP_MUL, row, double(padded)));
    return {out, ops::binary(PORTA_OP_ADD, ops::binary_scalar(PORTA_OP_MUL, row, double(W)), col)};
  }
  const Pool p = plan("max_pool2d", *x, o, true);
  TensorPtr xc = ops::contiguous(x);
  TensorPtr out = empty(*x->device, x->dtype, Dims{p.N, p.C, p.OH, p.OW});
  TensorPtr idx = empty(*x->device, Dtype::Int64, Dims{p.N, p.C, p.OH, p.OW});
  if (out->numel() > 0) {
    KernelArg in(*xc);
    KernelArg outs[2] = {KernelArg(*out), KernelArg(*idx)};
    launch(*x->device, PORTA_OP_MAX_POOL2D, x->dtype, &in, 1, outs, 2, &p.params);
  }
  if (autograd::needs_grad({&x})) {
    auto node = std::make_shared<MaxPoolNode>();
    node->p = p;
    node->indices = idx;
    autograd::record(out, node, {&x});
  }
  return {out, idx};
}

TensorPtr avg_pool2d(const TensorPtr& x, const porta_pool2d_options& o) {
  if (o.ceil_mode) {
    const CeilExtra e = ceil_extra("avg_pool2d", *x, o, false);
    if (e.h == 0 && e.w == 0) return avg_pool2d(x, floor_options(o));
    porta_pool2d_options sum = floor_options(o);
    sum.count_include_pad = 1;  // every window divided by KH * KW, then rescaled to its own divisor
    TensorPtr y = avg_pool2d(pad(x, {0, e.w, 0, e.h}, PORTA_PAD_CONSTANT, 0.0), sum);
    return ag::binary(PORTA_OP_MUL, y, ceil_divisor_scale(*x, o, e));
  }
  const Pool p = plan("avg_pool2d", *x, o, false);
  TensorPtr xc = ops::contiguous(x);
  TensorPtr out = empty(*x->device, x->dtype, Dims{p.N, p.C, p.OH, p.OW});
  if (out->numel() > 0) {
    KernelArg in(*xc);
    launch(*x->device, PORTA_OP_AVG_POOL2D, x->dtype, &in, 1, KernelArg(*out), &p.params);
  }
  if (autograd::needs_grad({&x})) {
    auto node = std::make_shared<AvgPoolNode>();
    node->p = p;
    autograd::record(out, node, {&x});
  }
  return out;
}

}  // namespace porta::nn
