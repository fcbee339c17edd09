// conv_transpose2d, the adjoint of conv2d: on a plugin with the direct
// convolution kernels (plugin ABI 1.7's optional CONV2D ops), conv2d's
// kernels with the roles of input and output swapped, every group in one
// call; elsewhere one GEMM (weight^T x input columns) and COL2IM forward,
// IM2COL and two GEMMs backward: conv2d's lowering with input and output
// swapped. Either way the plugins need no kernel of their own, and a
// stride-2 upsampling costs what the matching conv2d costs.
#include <array>

#include "autograd/node.hpp"
#include "nn/conv_lowering.hpp"
#include "runtime/error.hpp"

namespace porta::nn {
namespace {

// [N, C, H, W] -> [C, N*H*W] and back: the GEMMs' layout.
TensorPtr to_columns(const TensorPtr& x) {
  const int32_t swap[3] = {1, 0, 2};
  const Dims& s = x->shape;
  return ops::reshape(ops::clone(ops::permute(ops::reshape(x, Dims{s[0], s[1], s[2] * s[3]}), swap, 3)),
                      Dims{s[1], s[0] * s[2] * s[3]});
}
TensorPtr from_columns(const TensorPtr& m, const Dims& shape) {
  const int32_t swap[3] = {1, 0, 2};
  return ops::reshape(ops::clone(ops::permute(ops::reshape(m, Dims{shape[1], shape[0], shape[2] * shape[3]}), swap, 3)),
                      shape);
}

struct ConvTranspose2dNode final : autograd::Node {
  Geometry g;  // the conv2d from the output [N, F, OH, OW] back to the input [N, C, H, W]
  autograd::SavedTensor x_columns, weight2d;  // [C, N*H*W] and [C, F*KH*KW]
  Dims x_shape, weight_shape;
  const char* name() const override { return "ConvTranspose2dBackward"; }
  void release_saved() override { x_columns.reset(), weight2d.reset(); }
  std::vector<TensorPtr> apply(const TensorPtr& grad) override {
    TensorPtr cols = im2col(ops::contiguous(grad), g);  // [F*KH*KW, N*H*W]
    TensorPtr gx, gw, gb;
    if (next[0]) gx = from_columns(ops::matmul(weight2d, cols), x_shape);
    if (next[1]) gw = ops::reshape(ops::matmul(x_columns, ops::transpose(cols, 0, 1)), weight_shape);
    if (next.size() > 2 && next[2]) {
      const int32_t dims[3] = {0, 2, 3};
      gb = ops::reduce(PORTA_OP_SUM, grad, dims, 3, false);
    }
    return {gx, gw, gb};
  }
};

// The output size of conv_transpose2d of x [N, C, H, W] by KH x KW windows
// with o and output_padding, checked.
std::array<int64_t, 2> output_size(const porta_tensor& x, int64_t KH, int64_t KW, const porta_conv2d_options& o,
                                   const int32_t output_padding[2]) {
  const int64_t H = x.shape[2], W = x.shape[3];
  const int64_t in[2] = {H, W}, k[2] = {KH, KW};
  std::array<int64_t, 2> out{};
  check_window_options("conv_transpose2d", o);  // before the output size is computed from them
  for (int i = 0; i < 2; ++i) {
    if (output_padding[i] < 0 || (output_padding[i] >= o.stride[i] && output_padding[i] >= o.dilation[i]))
      fail(PORTA_ERROR_INVALID_ARGUMENT, "conv_transpose2d: output padding must be smaller than either stride or ",
           "dilation, but got output_padding ", output_padding[i], ", stride ", o.stride[i], ", dilation ",
           o.dilation[i]);
    if (output_padding[i] >= o.stride[i])
      fail(PORTA_ERROR_INVALID_ARGUMENT, "conv_transpose2d: output_padding ", output_padding[i], " >= stride ",
           o.stride[i], " (allowed by PyTorch below the dilation) is not supported by Porta");
    out[i] = (in[i] - 1) * o.stride[i] - 2 * int64_t{o.padding[i]} + int64_t{o.dilation[i]} * (k[i] - 1) +
             output_padding[i] + 1;
    if (out[i] <= 0)
      fail(PORTA_ERROR_SHAPE_MISMATCH, "conv_transpose2d: the input ", H, "x", W, " with padding (", o.padding[0], ", ",
           o.padding[1], ") gives a non-positive output size ", out[i]);
  }
  return out;
}

// The conv2d that maps the output [N, F, OH, OW] back onto x's H x W (C
// channels, KH x KW windows).
Geometry backward_geometry(const porta_tensor& x, int64_t F, int64_t KH, int64_t KW, const porta_conv2d_options& o,
                           const std::array<int64_t, 2>& out) {
  Geometry g = lowering("conv_transpose2d", x.shape[0], F, out[0], out[1], x.shape[1], KH, KW, o);
  if (g.OH != x.shape[2] || g.OW != x.shape[3])
    fail(PORTA_ERROR_INTERNAL, "conv_transpose2d: geometry gives ", g.OH, "x", g.OW, ", not the input's ", x.shape[2],
         "x", x.shape[3]);
  return g;
}

// On the plugin's direct convolution kernels, conv_transpose2d is conv2d
// run backward: its output is CONV2D_BACKWARD_INPUT of the conv2d from the
// output back to x (grad_y := x), its input's gradient that conv2d's CONV2D
// of the output's gradient, its weight's CONV2D_BACKWARD_WEIGHT with x as
// grad_y and the output's gradient as the input. A kernel that declines in
// backward gets the lowered conv2d (nn::conv2d, lowered_grads).
struct DirectConvTranspose2dNode final : autograd::Node {
  Geometry g;               // the conv2d from the output back to x, params.groups set
  porta_conv2d_options o;   // its options, groups set
  autograd::SavedTensor x, weight;  // contiguous
  const char* name() const override { return "ConvTranspose2dBackward"; }
  void release_saved() override { x.reset(), weight.reset(); }
  std::vector<TensorPtr> apply(const TensorPtr& grad) override {
    const TensorPtr xs = x, ws = weight, gy = ops::contiguous(ops::cast(grad, xs->dtype));
    DeviceState& dev = *xs->device;
    TensorPtr gx, gw, gb;
    if (next[0]) {
      gx = empty(dev, xs->dtype, xs->shape);
      const KernelArg ins[2] = {KernelArg(*gy), KernelArg(*ws)}, out(*gx);
      if (!try_launch(dev, PORTA_OP_CONV2D, xs->dtype, ins, 2, &out, 1, &g.params)) gx = conv2d(gy, ws, TensorPtr(), o);
    }
    if (next.size() > 1 && next[1]) {
      gw = empty(dev, ws->dtype, ws->shape);
      const KernelArg ins[2] = {KernelArg(*xs), KernelArg(*gy)}, out(*gw);
      if (!try_launch(dev, PORTA_OP_CONV2D_BACKWARD_WEIGHT, ws->dtype, ins, 2, &out, 1, &g.params))
        gw = lowered_grads(gy, ws, xs, g, g.params.groups, false, true).second;
    }
    if (next.size() > 2 && next[2]) {
      const int32_t dims[3] = {0, 2, 3};
      gb = ops::reduce(PORTA_OP_SUM, gy, dims, 3, false);
    }
    return {gx, gw, gb};
  }
};

// conv_transpose2d on the direct kernels, every group in one call; null when
// the plugin has none or declines (the caller lowers it). Operands checked.
TensorPtr direct(const TensorPtr& x, const TensorPtr& weight, const TensorPtr& bias, const porta_conv2d_options& o,
                 int64_t groups, const int32_t output_padding[2]) {
  DeviceState& dev = *x->device;
  if (!has_direct_conv_kernels(dev, x->dtype)) return TensorPtr();
  const int64_t KH = weight->shape[2], KW = weight->shape[3], F = weight->shape[1] * groups;
  Geometry g = backward_geometry(*x, F, KH, KW, o, output_size(*x, KH, KW, o, output_padding));
  g.params.groups = static_cast<int32_t>(groups);
  if (x->numel() == 0 || weight->numel() == 0) return TensorPtr();  // no kernel sees an empty operand
  const TensorPtr xs = ops::contiguous(x), ws = ops::contiguous(weight);
  TensorPtr y = empty(dev, x->dtype, Dims{g.N, g.C, g.H, g.W});
  const KernelArg ins[2] = {KernelArg(*xs), KernelArg(*ws)}, out(*y);
  if (!try_launch(dev, PORTA_OP_CONV2D_BACKWARD_INPUT, x->dtype, ins, 2, &out, 1, &g.params)) return TensorPtr();
  if (bias) y = ops::binary(PORTA_OP_ADD, y, ops::reshape(bias, Dims{1, F, 1, 1}));
  if (autograd::needs_grad({&x, &weight, &bias})) {
    auto node = std::make_shared<DirectConvTranspose2dNode>();
    node->g = g;
    node->o = o;
    node->o.groups = static_cast<int32_t>(groups);
    node->x = xs;
    node->weight = ws;
    autograd::record(y, node, {&x, &weight, bias ? &bias : nullptr});
  }
  return y;
}

TensorPtr ungrouped(const TensorPtr& x, const TensorPtr& weight, const TensorPtr& bias, const porta_conv2d_options& o,
                    const int32_t output_padding[2]) {
  const int64_t C = x->shape[1], F = weight->shape[1], KH = weight->shape[2], KW = weight->shape[3];
  const Geometry g = backward_geometry(*x, F, KH, KW, o, output_size(*x, KH, KW, o, output_padding));
  TensorPtr xc = to_columns(x);  // [C, N*H*W]
  TensorPtr w2 = ops::reshape(ops::contiguous(weight), Dims{C, F * KH * KW});
  TensorPtr y = col2im_of_product(ops::transpose(w2, 0, 1), xc, g);  // [N, F, OH, OW]
  if (bias) y = ops::binary(PORTA_OP_ADD, y, ops::reshape(bias, Dims{1, F, 1, 1}));
  if (autograd::needs_grad({&x, &weight, &bias})) {
    auto node = std::make_shared<ConvTranspose2dNode>();
    node->g = g;
    node->x_columns = xc;
    node->weight2d = w2;
    node->x_shape = x->shape;
    node->weight_shape = weight->shape;
    autograd::record(y, node, {&x, &weight, bias ? &bias : nullptr});
  }
  return y;
}

}  // namespace

TensorPtr conv_transpose2d(const TensorPtr& x, const TensorPtr& weight, const TensorPtr& bias,
                           const porta_conv2d_options& o, const int32_t output_padding[2]) {
  if (o.groups < 0)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "conv_transpose2d: groups must be >= 1 (0 means 1), got ", o.groups);
  if (x->ndim() == 3) return ag::squeeze(conv_transpose2d(ag::unsqueeze(x, 0), weight, bias, o, output_padding), 0);
  if (x->ndim() != 4)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "conv_transpose2d: input must be [N, C, H, W] or [C, H, W], got ", x->shape.str());
  if (weight->ndim() != 4)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "conv_transpose2d: weight must be 4-D [in_channels, out_channels / groups, KH, ",
         "KW], got ", weight->shape.str());
  check_operands("conv_transpose2d", x, weight, bias);
  const int64_t groups = o.groups == 0 ? 1 : o.groups, c = x->shape[1], f = weight->shape[1] * groups;
  if (weight->shape[0] != c)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "conv_transpose2d: input has ", c, " channels but the weight ",
         weight->shape.str(), " expects ", weight->shape[0],
         " (weight is [in_channels, out_channels / groups, KH, KW])");
  if (c % groups != 0)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "conv_transpose2d: in_channels (", c, ") must be divisible by groups (", groups,
         ")");
  if (bias && (bias->ndim() != 1 || bias->shape[0] != f))
    fail(PORTA_ERROR_SHAPE_MISMATCH, "conv_transpose2d: bias of shape ", bias->shape.str(), " does not match ", f,
         " output channels");
  if (TensorPtr y = direct(x, weight, bias, o, groups, output_padding)) return y;
  if (groups == 1) return ungrouped(x, weight, bias, o, output_padding);
  // Each group of C / groups input channels through its own C / groups rows of the weight.
  return by_groups(x, weight, bias, groups, c / groups, f / groups,
                   [&](const TensorPtr& xi, const TensorPtr& wi, const TensorPtr& bi) {
                     return ungrouped(xi, wi, bi, o, output_padding);
                   });
}

TensorPtr conv_transpose1d(const TensorPtr& x, const TensorPtr& weight, const TensorPtr& bias, int32_t stride,
                           int32_t padding, int32_t output_padding, int32_t dilation, int32_t groups) {
  if (x->ndim() != 2 && x->ndim() != 3)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "conv_transpose1d: expected input [N, C, L] or [C, L], got ", x->shape.str());
  if (weight->ndim() != 3)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "conv_transpose1d: weight must be 3-D [in_channels, out_channels / groups, K], ",
         "got ", weight->shape.str());
  // A 1-D signal is a 2-D one of height 1 (stride 1, no padding, dilation 1 along it).
  const porta_conv2d_options o{sizeof(o), {1, stride}, {0, padding}, {1, dilation}, groups};
  const int32_t op[2] = {0, output_padding};
  TensorPtr y = conv_transpose2d(ag::unsqueeze(x, x->ndim() - 1), ag::unsqueeze(weight, 2), bias, o, op);
  return ag::squeeze(y, y->ndim() - 2);
}

}  // namespace porta::nn
