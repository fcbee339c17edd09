// conv2d on the plugin's direct convolution kernels (plugin ABI 1.7's
// CONV2D ops: oneDNN's on the cpu plugin), or where it has none, lowered to
// IM2COL + one GEMM over the whole batch, backward through two more GEMMs
// and the COL2IM kernel (groups one after another). With cols laid out
// [C*KH*KW, N*L] (L = OH*OW) every GEMM is large, which is what BLAS
// libraries are fast at.
#include "autograd/node.hpp"
#include "nn/conv_lowering.hpp"
#include "runtime/error.hpp"

namespace porta::nn {

void check_window_options(const char* op, const porta_conv2d_options& o) {
  for (int i = 0; i < 2; ++i)
    if (o.stride[i] < 1 || o.dilation[i] < 1 || o.padding[i] < 0)
      fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": stride and dilation must be >= 1 and padding >= 0 (got stride ",
           o.stride[i], ", padding ", o.padding[i], ", dilation ", o.dilation[i], ")");
}

void check_operands(const char* op, const TensorPtr& x, const TensorPtr& weight, const TensorPtr& bias) {
  check_float(op, "input", *x);
  check_float(op, "weight", *weight);
  if (bias)
    check_same_device(op, {x.get(), weight.get(), bias.get()});
  else
    check_same_device(op, {x.get(), weight.get()});
  if (x->dtype != weight->dtype || (bias && bias->dtype != x->dtype))
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op, ": input, weight and bias must share a dtype (got ", dtype_name(x->dtype),
         " and ", dtype_name(weight->dtype), ")");
}

TensorPtr by_groups(const TensorPtr& x, const TensorPtr& weight, const TensorPtr& bias, int64_t groups,
                    int64_t weight_rows, int64_t bias_size,
                    const std::function<TensorPtr(const TensorPtr&, const TensorPtr&, const TensorPtr&)>& one) {
  const auto parts = [&](int64_t size) { return std::vector<int64_t>(static_cast<size_t>(groups), size); };
  const auto xs = ag::split(x, parts(x->shape[1] / groups), 1);
  const auto ws = ag::split(weight, parts(weight_rows), 0);
  std::vector<TensorPtr> bs(static_cast<size_t>(groups));
  if (bias) bs = ag::split(bias, parts(bias_size), 0);
  std::vector<TensorPtr> outs;
  for (size_t i = 0; i < xs.size(); ++i) outs.push_back(one(xs[i], ws[i], bs[i]));
  return ag::cat(outs, 1);
}

Geometry lowering(const char* op, int64_t N, int64_t C, int64_t H, int64_t W, int64_t F, int64_t KH, int64_t KW,
                  const porta_conv2d_options& o) {
  check_window_options(op, o);
  Geometry g{N, C, H, W, F, KH, KW, 0, 0, {}};
  g.OH = window_output_size(g.H, o.padding[0], o.dilation[0], g.KH, o.stride[0]);
  g.OW = window_output_size(g.W, o.padding[1], o.dilation[1], g.KW, o.stride[1]);
  if (g.OH <= 0 || g.OW <= 0)
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": the input ", g.H, "x", g.W, " (padding ", o.padding[0], ",", o.padding[1],
         ") is smaller than the ", g.KH, "x", g.KW, " kernel (dilation ", o.dilation[0], ",", o.dilation[1], ")");
  // The im2col matrix [C*KH*KW, N*OH*OW] and the output [N, F, OH, OW] in
  // bytes (at most 8 an element) must be countable.
  int64_t rows = 0, cols = 0, elements = 0, bytes = 0;
  if (__builtin_mul_overflow(g.C, g.KH, &rows) || __builtin_mul_overflow(rows, g.KW, &rows) ||
      __builtin_mul_overflow(g.N, g.OH, &cols) || __builtin_mul_overflow(cols, g.OW, &cols) ||
      __builtin_mul_overflow(rows, cols, &elements) || __builtin_mul_overflow(cols, g.F, &bytes) ||
      __builtin_mul_overflow(bytes, int64_t{8}, &bytes) || g.KH > INT32_MAX || g.KW > INT32_MAX)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": input [", N, ", ", C, ", ", H, ", ", W, "], a ", KH, "x", KW,
         " kernel and padding (", o.padding[0], ", ", o.padding[1],
         ") give an output with more elements than int64 can count");
  g.params = porta_conv2d_params{sizeof(porta_conv2d_params), int32_t(g.KH), int32_t(g.KW), o.stride[0], o.stride[1],
                                 o.padding[0], o.padding[1], o.dilation[0], o.dilation[1], 1};
  return g;
}

TensorPtr im2col(const TensorPtr& x, const Geometry& g) {
  TensorPtr cols = empty(*x->device, x->dtype, Dims{g.C * g.KH * g.KW, g.N * g.OH * g.OW});
  if (cols->numel() == 0) return cols;
  KernelArg in(*x), out(*cols);
  launch(*x->device, PORTA_OP_IM2COL, x->dtype, &in, 1, out, &g.params);
  return cols;
}

TensorPtr col2im(const TensorPtr& cols, const Geometry& g) {
  TensorPtr x = empty(*cols->device, cols->dtype, Dims{g.N, g.C, g.H, g.W});
  if (x->numel() == 0) return x;
  KernelArg in(*cols), out(*x);
  launch(*cols->device, PORTA_OP_COL2IM, cols->dtype, &in, 1, out, &g.params);
  return x;
}

TensorPtr col2im_of_product(const TensorPtr& a, const TensorPtr& b, const Geometry& g) {
  const Dtype dt = a->dtype;
  if (!is_storage(dt)) return col2im(ops::matmul(a, b), g);
  const Dtype c = compute_dtype(dt);
  return ops::cast(col2im(ops::matmul(ops::cast(a, c), ops::cast(b, c)), g), dt);
}

namespace {

Geometry geometry(const porta_tensor& x, const porta_tensor& w, const porta_conv2d_options& o) {
  if (x.ndim() != 4)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "conv2d: input must be 4-D [N, C, H, W], got shape ", x.shape.str());
  if (w.ndim() != 4)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "conv2d: weight must be 4-D [out_channels, in_channels, KH, KW], got ",
         w.shape.str());
  if (w.shape[1] != x.shape[1])
    fail(PORTA_ERROR_SHAPE_MISMATCH, "conv2d: input has ", x.shape[1], " channels but the weight ", w.shape.str(),
         " expects ", w.shape[1]);
  return lowering("conv2d", x.shape[0], x.shape[1], x.shape[2], x.shape[3], w.shape[0], w.shape[2], w.shape[3], o);
}

struct Conv2dNode final : autograd::Node {
  Geometry g;
  autograd::SavedTensor cols, weight2d;  // [C*KH*KW, N*L] and [F, C*KH*KW]
  Dims weight_shape;
  const char* name() const override { return "Conv2dBackward"; }
  void release_saved() override { cols.reset(), weight2d.reset(); }
  std::vector<TensorPtr> apply(const TensorPtr& grad) override {
    // [N, F, OH, OW] -> [F, N*L]: the GEMMs' layout (the one copy backward makes).
    const int32_t to_fnl[3] = {1, 0, 2};
    TensorPtr g2 = ops::reshape(ops::clone(ops::permute(ops::reshape(grad, Dims{g.N, g.F, g.OH * g.OW}), to_fnl, 3)),
                                Dims{g.F, g.N * g.OH * g.OW});
    TensorPtr gx, gw, gb;
    if (next[0]) gx = col2im_of_product(ops::transpose(weight2d, 0, 1), g2, g);
    if (next[1]) gw = ops::reshape(ops::matmul(g2, ops::transpose(cols, 0, 1)), weight_shape);
    if (next.size() > 2 && next[2]) {
      const int32_t columns = 1;
      gb = ops::reduce(PORTA_OP_SUM, g2, &columns, 1, false);
    }
    return {gx, gw, gb};
  }
};

}  // namespace

bool has_direct_conv_kernels(const DeviceState& dev, Dtype dtype) {
  for (porta_op op : {PORTA_OP_CONV2D, PORTA_OP_CONV2D_BACKWARD_INPUT, PORTA_OP_CONV2D_BACKWARD_WEIGHT})
    if (!has_kernel(dev, op, dtype)) return false;
  return true;
}

std::pair<TensorPtr, TensorPtr> lowered_grads(const TensorPtr& x, const TensorPtr& w, const TensorPtr& gy,
                                              const Geometry& full, int64_t groups, bool want_x, bool want_w) {
  const int64_t cg = full.C / groups, fg = full.F / groups, l = full.OH * full.OW;
  Geometry g = full;
  g.C = cg, g.F = fg;
  std::vector<TensorPtr> gxs, gws;
  const int32_t to_fnl[3] = {1, 0, 2};
  for (int64_t k = 0; k < groups; ++k) {
    TensorPtr gyk = ops::slice(gy, 1, k * fg, (k + 1) * fg, 1);
    TensorPtr g2 = ops::reshape(ops::clone(ops::permute(ops::reshape(gyk, Dims{g.N, fg, l}), to_fnl, 3)),
                                Dims{fg, g.N * l});
    TensorPtr w2 = ops::reshape(ops::contiguous(ops::slice(w, 0, k * fg, (k + 1) * fg, 1)), Dims{fg, cg * g.KH * g.KW});
    if (want_x) gxs.push_back(col2im_of_product(ops::transpose(w2, 0, 1), g2, g));
    if (want_w) {
      TensorPtr cols = im2col(ops::contiguous(ops::slice(x, 1, k * cg, (k + 1) * cg, 1)), g);
      gws.push_back(ops::reshape(ops::matmul(g2, ops::transpose(cols, 0, 1)), Dims{fg, cg, g.KH, g.KW}));
    }
  }
  const auto join = [](const std::vector<TensorPtr>& parts, int32_t dim) {
    return parts.empty() ? TensorPtr() : parts.size() == 1 ? parts[0] : ag::cat(parts, dim);
  };
  return {join(gxs, 1), join(gws, 0)};
}

namespace {

struct DirectConv2dNode final : autograd::Node {
  Geometry g;  // params.groups set
  autograd::SavedTensor x, weight;  // contiguous
  const char* name() const override { return "Conv2dBackward"; }
  void release_saved() override { x.reset(), weight.reset(); }
  std::vector<TensorPtr> apply(const TensorPtr& grad) override {
    const TensorPtr xs = x, ws = weight, gy = ops::contiguous(ops::cast(grad, xs->dtype));
    DeviceState& dev = *xs->device;
    const bool want_x = next[0] != nullptr, want_w = next.size() > 1 && next[1];
    TensorPtr gx, gw, gb;
    bool lower_x = false, lower_w = false;
    if (want_x) {
      gx = empty(dev, xs->dtype, xs->shape);
      const KernelArg ins[2] = {KernelArg(*gy), KernelArg(*ws)}, out(*gx);
      lower_x = !try_launch(dev, PORTA_OP_CONV2D_BACKWARD_INPUT, xs->dtype, ins, 2, &out, 1, &g.params);
    }
    if (want_w) {
      gw = empty(dev, ws->dtype, ws->shape);
      const KernelArg ins[2] = {KernelArg(*gy), KernelArg(*xs)}, out(*gw);
      lower_w = !try_launch(dev, PORTA_OP_CONV2D_BACKWARD_WEIGHT, ws->dtype, ins, 2, &out, 1, &g.params);
    }
    if (lower_x || lower_w) {
      auto [lx, lw] = lowered_grads(xs, ws, gy, g, g.params.groups, lower_x, lower_w);
      if (lower_x) gx = lx;
      if (lower_w) gw = lw;
    }
    if (next.size() > 2 && next[2]) {
      const int32_t dims[3] = {0, 2, 3};
      gb = ops::reduce(PORTA_OP_SUM, gy, dims, 3, false);
    }
    return {gx, gw, gb};
  }
};

// conv2d on the plugin's CONV2D kernels, every group in one call; null when
// the plugin has none or declines the call (the caller lowers it). The
// operands are checked.
TensorPtr direct_conv2d(const TensorPtr& x, const TensorPtr& weight, const TensorPtr& bias,
                        const porta_conv2d_options& o, int64_t groups) {
  DeviceState& dev = *x->device;
  if (!has_direct_conv_kernels(dev, x->dtype)) return TensorPtr();
  Geometry g = lowering("conv2d", x->shape[0], x->shape[1], x->shape[2], x->shape[3], weight->shape[0],
                        weight->shape[2], weight->shape[3], o);
  g.params.groups = static_cast<int32_t>(groups);
  if (x->numel() == 0 || weight->numel() == 0) return TensorPtr();  // no kernel sees an empty operand
  const TensorPtr xs = ops::contiguous(x), ws = ops::contiguous(weight);
  TensorPtr y = empty(dev, x->dtype, Dims{g.N, g.F, g.OH, g.OW});
  const KernelArg ins[2] = {KernelArg(*xs), KernelArg(*ws)}, out(*y);
  if (!try_launch(dev, PORTA_OP_CONV2D, x->dtype, ins, 2, &out, 1, &g.params)) return TensorPtr();
  if (bias) y = ops::binary(PORTA_OP_ADD, y, ops::reshape(bias, Dims{1, g.F, 1, 1}));
  if (autograd::needs_grad({&x, &weight, &bias})) {
    auto node = std::make_shared<DirectConv2dNode>();
    node->g = g;
    node->x = xs;
    node->weight = ws;
    autograd::record(y, node, {&x, &weight, bias ? &bias : nullptr});
  }
  return y;
}

// groups > 1: each group of C / groups input channels convolved with its F / groups filters, joined.
TensorPtr grouped_conv2d(const TensorPtr& x, const TensorPtr& weight, const TensorPtr& bias,
                         const porta_conv2d_options& o) {
  if (x->ndim() != 4 || weight->ndim() != 4)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "conv2d: expected input [N, C, H, W] and weight [F, C / groups, KH, KW], got ",
         x->shape.str(), " and ", weight->shape.str());
  const int64_t groups = o.groups, c = x->shape[1], f = weight->shape[0];
  if (c % groups != 0 || f % groups != 0)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "conv2d: in_channels (", c, ") and out_channels (", f,
         ") must both be divisible by groups (", groups, ")");
  if (weight->shape[1] != c / groups)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "conv2d: with groups ", groups, " the weight must be [", f, ", ", c / groups,
         ", KH, KW] for ", c, " input channels, got ", weight->shape.str());
  porta_conv2d_options one = o;
  one.groups = 1;
  if (bias && (bias->ndim() != 1 || bias->shape[0] != f))
    fail(PORTA_ERROR_SHAPE_MISMATCH, "conv2d: bias of shape ", bias->shape.str(), " does not match ", f,
         " output channels");
  check_operands("conv2d", x, weight, bias);
  if (TensorPtr y = direct_conv2d(x, weight, bias, o, groups)) return y;
  return by_groups(
      x, weight, bias, groups, f / groups, f / groups,
      [&](const TensorPtr& xi, const TensorPtr& wi, const TensorPtr& bi) { return conv2d(xi, wi, bi, one); });
}

}  // namespace

TensorPtr conv2d(const TensorPtr& x, const TensorPtr& weight, const TensorPtr& bias, const porta_conv2d_options& o) {
  if (o.groups < 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "conv2d: groups must be >= 1 (0 means 1), got ", o.groups);
  if (x->ndim() == 3) return ag::squeeze(conv2d(ag::unsqueeze(x, 0), weight, bias, o), 0);  // unbatched, as PyTorch
  if (o.groups > 1) return grouped_conv2d(x, weight, bias, o);
  check_operands("conv2d", x, weight, bias);
  const Geometry g = geometry(*x, *weight, o);
  if (bias && (bias->ndim() != 1 || bias->shape[0] != g.F))
    fail(PORTA_ERROR_SHAPE_MISMATCH, "conv2d: bias of shape ", bias->shape.str(), " does not match ", g.F,
         " output channels");
  if (TensorPtr y = direct_conv2d(x, weight, bias, o, 1)) return y;
  TensorPtr cols = im2col(ops::contiguous(x), g);
  TensorPtr w2 = ops::reshape(weight, Dims{g.F, g.C * g.KH * g.KW});
  // [F, N*L] viewed as [N, F, L]; adding the bias writes it out contiguous.
  const int32_t to_nfl[3] = {1, 0, 2};
  TensorPtr out = ops::permute(ops::reshape(ops::matmul(w2, cols), Dims{g.F, g.N, g.OH * g.OW}), to_nfl, 3);
  out = bias ? ops::binary(PORTA_OP_ADD, out, ops::reshape(bias, Dims{1, g.F, 1})) : ops::clone(out);
  out = ops::reshape(out, Dims{g.N, g.F, g.OH, g.OW});
  if (autograd::needs_grad({&x, &weight, &bias})) {
    auto node = std::make_shared<Conv2dNode>();
    node->g = g;
    node->cols = cols;
    node->weight2d = w2;
    node->weight_shape = weight->shape;
    autograd::record(out, node, {&x, &weight, bias ? &bias : nullptr});
  }
  return out;
}

TensorPtr conv1d(const TensorPtr& x, const TensorPtr& weight, const TensorPtr& bias, int32_t stride, int32_t padding,
                 int32_t dilation, int32_t groups) {
  if (x->ndim() != 2 && x->ndim() != 3)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "conv1d: expected input [N, C, L] or [C, L], got ", x->shape.str());
  if (weight->ndim() != 3)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "conv1d: weight must be 3-D [out_channels, in_channels / groups, K], got ",
         weight->shape.str());
  if (groups < 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "conv1d: groups must be >= 1 (0 means 1), got ", groups);
  const porta_conv2d_options o{sizeof(o), {1, stride}, {0, padding}, {1, dilation}, groups};
  // A 1-D signal is a 2-D one of height 1: [N, C, 1, L] with weight [F, C / groups, 1, K].
  TensorPtr y = conv2d(ag::unsqueeze(x, x->ndim() - 1), ag::unsqueeze(weight, 2), bias, o);
  return ag::squeeze(y, y->ndim() - 2);
}

}  // namespace porta::nn
