// max_pool2d and avg_pool2d: plugin kernels forward and backward.
#include "autograd/node.hpp"
#include "runtime/error.hpp"
#include "nn/nn.hpp"

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

}  // namespace

TensorPtr max_pool2d(const TensorPtr& x, const porta_pool2d_options& o) {
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
  return out;
}

TensorPtr avg_pool2d(const TensorPtr& x, const porta_pool2d_options& o) {
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
