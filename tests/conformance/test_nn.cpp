// The training ops of PORTA_OP_LIST through their C entry points, forward
// and backward (via porta_backward), against host double references:
// conv2d (IM2COL, COL2IM), max/avg pooling and their backward kernels,
// softmax / log_softmax and their backward, cross entropy and its backward,
// layer_norm (NORM) and its backward.
// Finite-difference checks of the same ops live in tests/gradcheck.
#include <algorithm>
#include <cmath>

#include "device_params.hpp"
#include "nn_reference.hpp"

namespace conformance {
namespace {

class NN : public DeviceTest {
 protected:
  // A fresh leaf on this device that requires grad.
  Tensor leaf(const HostTensor& h, Layout layout = Layout::Contiguous) {
    Tensor t = upload(h, dev(), layout);
    CHECK_OK(porta_tensor_set_requires_grad(t, 1));
    return t;
  }
  HostTensor grad_of(porta_tensor* t) {
    Tensor g;
    CHECK_OK(porta_tensor_grad(t, g.out()));
    if (g.get() == nullptr) {
      ADD_FAILURE() << "no gradient was accumulated";
      return {};
    }
    EXPECT_EQ(device_string(device_of(g)), GetParam().name);
    return download(g);
  }
  void backward(porta_tensor* y, const HostTensor& gy) {
    Tensor g = upload(gy, dev());
    CHECK_OK(porta_backward(y, g));
  }

  // layer_norm over x's last `k` dims, forward and every gradient.
  void check_layer_norm(const HostTensor& x, int32_t k, bool affine, Layout layout, double eps = 1e-5) {
    const DLDataType dt = x.dtype;
    Shape wshape(x.shape.end() - k, x.shape.end());
    int64_t n = 1;
    for (int64_t d : wshape) n *= d;
    const HostTensor w = sample_host(dt, wshape, 91), b = sample_host(dt, wshape, 92);
    const HostTensor gy = sample_host(dt, x.shape, 93);
    const LayerNormRef ref = ref_layer_norm(x, n, affine ? &w : nullptr, affine ? &b : nullptr, eps, gy);
    op_case("layer_norm", dt, [&] {
      SCOPED_TRACE(dtype_name(dt) + " " + shape_str(x.shape) + " over " + std::to_string(k) + " dims, " +
                   layout_name(layout) + (affine ? ", affine" : ""));
      Tensor tx = leaf(x, layout), tw = leaf(w), tb = leaf(b), y, g = upload(gy, dev());
      CHECK_OK(porta_layer_norm(tx, wshape.data(), k, affine ? tw.get() : nullptr, affine ? tb.get() : nullptr, eps,
                                y.out()));
      // Each value is a sum of n terms of O(1) (the mean, the variance).
      Tolerance tol = tolerance_for(dt, true);
      tol.atol *= std::max<double>(1, static_cast<double>(n) / 64);
      expect_close(download(y), ref.y, tol, "layer_norm");
      CHECK_OK(porta_backward(y, g));
      tol.atol *= 10;  // the gradients sum n (dx) or rows (dw, db) products
      expect_close(grad_of(tx), ref.dx, tol, "layer_norm dx");
      if (affine) {
        expect_close(grad_of(tw), ref.dw, tol, "layer_norm dweight");
        expect_close(grad_of(tb), ref.db, tol, "layer_norm dbias");
      }
      expect_close(download(tx), x, kExact, "layer_norm left its input alone");
    });
  }

  // batch_norm in training of x [N, C, *], forward, every gradient and the
  // running statistics (starting from 0.5 and 2, momentum 0.1).
  void check_batch_norm(const HostTensor& x, bool affine, Layout layout, double eps = 1e-5) {
    const DLDataType dt = x.dtype;
    const Shape channels{x.shape[1]};
    const HostTensor w = sample_host(dt, channels, 94), b = sample_host(dt, channels, 95);
    const HostTensor gy = sample_host(dt, x.shape, 96);
    const BatchNormRef ref = ref_batch_norm(x, affine ? &w : nullptr, affine ? &b : nullptr, eps, gy);
    const int64_t per_channel = numel(x.shape) / x.shape[1];
    op_case("batch_norm", dt, [&] {
      SCOPED_TRACE(dtype_name(dt) + " " + shape_str(x.shape) + ", " + layout_name(layout) + (affine ? ", affine" : ""));
      Tensor tx = leaf(x, layout), tw = leaf(w), tb = leaf(b), y, g = upload(gy, dev());
      Tensor rm = upload(make_host(dt, channels, std::vector<double>(channels[0], 0.5)), dev());
      Tensor rv = upload(make_host(dt, channels, std::vector<double>(channels[0], 2.0)), dev());
      CHECK_OK(porta_batch_norm(tx, rm, rv, affine ? tw.get() : nullptr, affine ? tb.get() : nullptr, 1, 0.1, eps,
                                y.out()));
      Tolerance tol = tolerance_for(dt, true);
      tol.atol *= std::max<double>(1, static_cast<double>(per_channel) / 64);
      expect_close(download(y), ref.y, tol, "batch_norm");
      HostTensor want_mean = ref.mean, want_var = ref.var;
      for (size_t c = 0; c < want_mean.v.size(); ++c) {
        want_mean.v[c] = 0.9 * 0.5 + 0.1 * ref.mean.v[c];
        want_var.v[c] = 0.9 * 2.0 + 0.1 * ref.var.v[c] * static_cast<double>(per_channel) / (per_channel - 1.0);
      }
      expect_close(download(rm), want_mean, tol, "batch_norm running_mean");
      expect_close(download(rv), want_var, tol, "batch_norm running_var");
      CHECK_OK(porta_backward(y, g));
      tol.atol *= 10;  // the gradients sum N * S products
      expect_close(grad_of(tx), ref.dx, tol, "batch_norm dx");
      if (affine) {
        expect_close(grad_of(tw), ref.dw, tol, "batch_norm dweight");
        expect_close(grad_of(tb), ref.db, tol, "batch_norm dbias");
      }
      expect_close(download(tx), x, kExact, "batch_norm left its input alone");
    });
  }
};
PORTA_INSTANTIATE_FOR_EVERY_DEVICE(NN);

// Float tolerance for results that sum `terms` products.
Tolerance sum_tolerance(DLDataType dt, int64_t terms) {
  Tolerance t = tolerance_for(dt);
  t.rtol *= std::max<double>(1.0, static_cast<double>(terms) / 64.0);
  return t;
}

struct ConvCase {
  Shape x, w;
  Window2d g;  // kh, kw are taken from w
  bool bias;
};

const ConvCase kConvCases[] = {
    {{2, 3, 7, 6}, {4, 3, 3, 3}, {0, 0, 1, 1, 0, 0, 1, 1}, true},
    {{1, 2, 8, 9}, {3, 2, 3, 3}, {0, 0, 2, 2, 1, 1, 1, 1}, true},
    {{2, 2, 9, 8}, {2, 2, 3, 2}, {0, 0, 1, 2, 2, 0, 2, 1}, false},
    {{3, 4, 5, 5}, {5, 4, 1, 1}, {0, 0, 1, 1, 0, 0, 1, 1}, true},
    {{1, 1, 4, 4}, {1, 1, 4, 4}, {0, 0, 1, 1, 1, 1, 1, 1}, false},
};

porta_conv2d_options conv_options(const Window2d& g) {
  porta_conv2d_options o{};
  o.struct_size = sizeof(o);
  o.stride[0] = static_cast<int32_t>(g.sh), o.stride[1] = static_cast<int32_t>(g.sw);
  o.padding[0] = static_cast<int32_t>(g.ph), o.padding[1] = static_cast<int32_t>(g.pw);
  o.dilation[0] = static_cast<int32_t>(g.dh), o.dilation[1] = static_cast<int32_t>(g.dw);
  return o;
}

TEST_P(NN, Conv2dForward) {
  uint32_t seed = 1;
  for (const ConvCase& c : kConvCases)
    for (DLDataType dt : {porta_float32, porta_float64})
      for (Layout layout : kAllLayouts) {
        Window2d g = c.g;
        g.kh = c.w[2], g.kw = c.w[3];
        const HostTensor x = sample_host(dt, c.x, next_seed(seed)), w = sample_host(dt, c.w, next_seed(seed));
        const HostTensor b = sample_host(dt, {c.w[0]}, next_seed(seed));
        op_case("conv2d", dt, [&] {
          SCOPED_TRACE("conv2d x " + shape_str(c.x) + " w " + shape_str(c.w) + " " + dtype_name(dt) + " " +
                       layout_name(layout));
          Tensor tx = upload(x, dev(), layout), tw = upload(w, dev(), layout), tb = upload(b, dev()), y;
          const porta_conv2d_options o = conv_options(g);
          CHECK_OK(porta_conv2d(tx, tw, c.bias ? tb.get() : nullptr, &o, y.out()));
          const ConvResult ref = ref_conv2d(x, w, c.bias ? &b : nullptr, g, nullptr);
          expect_close(download(y), ref.y.value, sum_tolerance(dt, c.w[1] * g.kh * g.kw), "conv2d", &ref.y.scale);
        });
      }
}

// Channels [from, from + count) of dim 1 ([N, C, ...]) or rows of dim 0.
HostTensor channels(const HostTensor& t, int32_t dim, int64_t from, int64_t count) {
  Shape shape = t.shape;
  const int64_t outer = dim == 1 ? t.shape[0] : 1, all = t.shape[dim];
  const int64_t inner = numel(t.shape) / (outer * all);
  shape[dim] = count;
  HostTensor out{t.dtype, shape, {}};
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t k = from; k < from + count; ++k)
      for (int64_t i = 0; i < inner; ++i) out.v.push_back(t.v[(o * all + k) * inner + i]);
  return out;
}
// The grouped result: each group's, joined along dim.
HostTensor join(const std::vector<HostTensor>& parts, int32_t dim) {
  Shape shape = parts[0].shape;
  shape[dim] = 0;
  for (const HostTensor& p : parts) shape[dim] += p.shape[dim];
  const int64_t outer = dim == 1 ? shape[0] : 1;
  HostTensor out{parts[0].dtype, shape, {}};
  for (int64_t o = 0; o < outer; ++o)
    for (const HostTensor& p : parts) {
      const int64_t block = numel(p.shape) / outer;
      out.v.insert(out.v.end(), p.v.begin() + o * block, p.v.begin() + (o + 1) * block);
    }
  return out;
}

// Grouped and depthwise convolution (one kernel call where a plugin has the
// direct CONV2D ops, a convolution per group where it lowers), forward and
// backward, against ref_conv2d of each group.
TEST_P(NN, Conv2dGroups) {
  struct Case {
    int64_t groups, filters;
    Window2d g;
  };
  const Case cases[] = {{2, 4, {3, 3, 2, 2, 1, 1, 1, 1}}, {4, 4, {3, 3, 1, 1, 1, 1, 1, 1}}, {4, 8, {3, 2, 1, 1, 0, 1, 2, 1}}};
  uint32_t seed = 300;
  for (const Case& c : cases)
    for (DLDataType dt : {porta_float32, porta_float64}) {
      const Shape xs{2, 4, 7, 6}, ws{c.filters, 4 / c.groups, c.g.kh, c.g.kw};
      const HostTensor x = sample_host(dt, xs, next_seed(seed)), w = sample_host(dt, ws, next_seed(seed));
      const HostTensor b = sample_host(dt, {c.filters}, next_seed(seed));
      const HostTensor gy = sample_host(dt, {2, c.filters, c.g.out_h(7), c.g.out_w(6)}, next_seed(seed));
      std::vector<HostTensor> y, dx, dw, db;
      const int64_t cg = 4 / c.groups, fg = c.filters / c.groups;
      for (int64_t k = 0; k < c.groups; ++k) {
        const HostTensor bk = channels(b, 0, k * fg, fg), gyk = channels(gy, 1, k * fg, fg);
        const ConvResult r = ref_conv2d(channels(x, 1, k * cg, cg), channels(w, 0, k * fg, fg), &bk, c.g, &gyk);
        y.push_back(r.y.value), dx.push_back(r.dx.value), dw.push_back(r.dw.value), db.push_back(r.db.value);
      }
      op_case("conv2d", dt, [&] {
        SCOPED_TRACE("conv2d groups " + std::to_string(c.groups) + " w " + shape_str(ws) + " " + dtype_name(dt));
        Tensor tx = leaf(x), tw = leaf(w), tb = leaf(b), out;
        porta_conv2d_options o = conv_options(c.g);
        o.groups = static_cast<int32_t>(c.groups);
        CHECK_OK(porta_conv2d(tx, tw, tb, &o, out.out()));
        const Tolerance tol = sum_tolerance(dt, cg * c.g.kh * c.g.kw * 8);
        expect_close(download(out), join(y, 1), tol, "grouped conv2d");
        backward(out, gy);
        expect_close(grad_of(tx), join(dx, 1), tol, "grouped conv2d dx");
        expect_close(grad_of(tw), join(dw, 0), tol, "grouped conv2d dw");
        expect_close(grad_of(tb), join(db, 0), tol, "grouped conv2d db");
      });
    }
}

// conv_transpose2d is conv2d's adjoint: its output is the input gradient of
// the conv2d from its output back to x (with x as that conv2d's output
// gradient), its input gradient that conv2d's value on the output gradient
// G, its weight gradient that conv2d's weight gradient with input G. On the
// cpu and mock plugins float32 runs on the direct convolution kernels.
TEST_P(NN, ConvTranspose2dIsConv2dsAdjoint) {
  struct Case {
    Shape x, w;
    Window2d g;
    int32_t output_padding;
  };
  const Case cases[] = {{{2, 4, 5, 6}, {4, 3, 3, 3}, {3, 3, 2, 2, 1, 1, 1, 1}, 1},
                        {{1, 3, 4, 4}, {3, 2, 4, 4}, {4, 4, 2, 2, 1, 1, 1, 1}, 0},
                        {{2, 2, 3, 5}, {2, 3, 2, 3}, {2, 3, 1, 1, 0, 1, 2, 1}, 0}};
  uint32_t seed = 700;
  for (const Case& c : cases)
    for (DLDataType dt : {porta_float32, porta_float64}) {
      const Window2d& g = c.g;
      const int64_t oh = (c.x[2] - 1) * g.sh - 2 * g.ph + g.dh * (g.kh - 1) + c.output_padding + 1;
      const int64_t ow = (c.x[3] - 1) * g.sw - 2 * g.pw + g.dw * (g.kw - 1) + c.output_padding + 1;
      const HostTensor x = sample_host(dt, c.x, next_seed(seed)), w = sample_host(dt, c.w, next_seed(seed));
      const HostTensor b = sample_host(dt, {c.w[1]}, next_seed(seed));
      const HostTensor gy = sample_host(dt, {c.x[0], c.w[1], oh, ow}, next_seed(seed));
      op_case("conv_transpose2d", dt, [&] {
        SCOPED_TRACE("conv_transpose2d x " + shape_str(c.x) + " w " + shape_str(c.w) + " " + dtype_name(dt));
        Tensor tx = leaf(x), tw = leaf(w), tb = leaf(b), y;
        const porta_conv2d_options o = conv_options(g);
        const int32_t output_padding[2] = {c.output_padding, c.output_padding};
        CHECK_OK(porta_conv_transpose2d(tx, tw, tb, &o, output_padding, y.out()));
        // The conv2d of gy [N, F, OH, OW] by w [C, F, KH, KW], with x as its output's gradient.
        const ConvResult ref = ref_conv2d(gy, w, nullptr, g, &x);
        HostTensor want = ref.dx.value;
        for (size_t k = 0; k < want.v.size(); ++k) want.v[k] += b.v[(k / static_cast<size_t>(oh * ow)) % b.v.size()];
        const Tolerance tol = sum_tolerance(dt, c.w[0] * g.kh * g.kw);
        expect_close(download(y), want, tol, "conv_transpose2d", &ref.dx.scale);
        backward(y, gy);
        expect_close(grad_of(tx), ref.y.value, tol, "conv_transpose2d dx", &ref.y.scale);
        expect_close(grad_of(tw), ref.dw.value, sum_tolerance(dt, x.numel() / c.x[1]), "conv_transpose2d dw",
                     &ref.dw.scale);
      });
    }
}

TEST_P(NN, Conv2dDefaultOptions) {
  const HostTensor x = sample_host(porta_float64, {1, 2, 5, 4}, 3), w = sample_host(porta_float64, {3, 2, 2, 3}, 4);
  op_case("conv2d", porta_float64, [&] {
    Tensor tx = upload(x, dev()), tw = upload(w, dev()), y;
    CHECK_OK(porta_conv2d(tx, tw, nullptr, nullptr, y.out()));
    const ConvResult ref = ref_conv2d(x, w, nullptr, {2, 3, 1, 1, 0, 0, 1, 1}, nullptr);
    expect_close(download(y), ref.y.value, tolerance_for(porta_float64), "conv2d", &ref.y.scale);
  });
}

TEST_P(NN, Conv2dBackward) {
  uint32_t seed = 100;
  for (const ConvCase& c : kConvCases)
    for (DLDataType dt : {porta_float32, porta_float64}) {
      Window2d g = c.g;
      g.kh = c.w[2], g.kw = c.w[3];
      const HostTensor x = sample_host(dt, c.x, next_seed(seed)), w = sample_host(dt, c.w, next_seed(seed));
      const HostTensor b = sample_host(dt, {c.w[0]}, next_seed(seed));
      const HostTensor gy = sample_host(dt, {c.x[0], c.w[0], g.out_h(c.x[2]), g.out_w(c.x[3])}, next_seed(seed));
      op_case("conv2d_backward", dt, [&] {
        SCOPED_TRACE("conv2d backward x " + shape_str(c.x) + " w " + shape_str(c.w) + " " + dtype_name(dt));
        Tensor tx = leaf(x), tw = leaf(w), tb = leaf(b), y;
        const porta_conv2d_options o = conv_options(g);
        CHECK_OK(porta_conv2d(tx, tw, c.bias ? tb.get() : nullptr, &o, y.out()));
        backward(y, gy);
        const ConvResult ref = ref_conv2d(x, w, c.bias ? &b : nullptr, g, &gy);
        const int64_t out_positions = gy.numel() / c.w[0];
        expect_close(grad_of(tx), ref.dx.value, sum_tolerance(dt, c.w[0] * g.kh * g.kw), "conv2d dx", &ref.dx.scale);
        expect_close(grad_of(tw), ref.dw.value, sum_tolerance(dt, out_positions), "conv2d dw", &ref.dw.scale);
        if (c.bias)
          expect_close(grad_of(tb), ref.db.value, sum_tolerance(dt, out_positions), "conv2d db", &ref.db.scale);
      });
    }
}

struct PoolCase {
  Shape x;
  int32_t kernel[2], stride[2], padding[2], dilation[2];
};

const PoolCase kPoolCases[] = {
    {{2, 3, 6, 8}, {2, 2}, {0, 0}, {0, 0}, {0, 0}},  // stride 0: = kernel
    {{1, 2, 7, 7}, {3, 3}, {2, 2}, {1, 1}, {1, 1}},
    {{2, 1, 9, 6}, {3, 2}, {1, 2}, {1, 0}, {1, 1}},
    {{1, 2, 5, 5}, {5, 5}, {1, 1}, {2, 2}, {1, 1}},
    {{1, 1, 9, 9}, {3, 3}, {2, 2}, {1, 0}, {2, 1}},  // dilated: max pooling only
};

porta_pool2d_options pool_options(const PoolCase& c, bool count_include_pad) {
  porta_pool2d_options o{};
  o.struct_size = sizeof(o);
  for (int i = 0; i < 2; ++i)
    o.kernel[i] = c.kernel[i], o.stride[i] = c.stride[i], o.padding[i] = c.padding[i], o.dilation[i] = c.dilation[i];
  o.count_include_pad = count_include_pad;
  return o;
}

Window2d pool_window(const PoolCase& c) {
  auto s = [&](int i) { return int64_t{c.stride[i] == 0 ? c.kernel[i] : c.stride[i]}; };
  auto d = [&](int i) { return int64_t{c.dilation[i] == 0 ? 1 : c.dilation[i]}; };
  return {c.kernel[0], c.kernel[1], s(0), s(1), c.padding[0], c.padding[1], d(0), d(1)};
}

TEST_P(NN, MaxPool2dForwardAndBackward) {
  uint32_t seed = 200;
  for (const PoolCase& c : kPoolCases)
    for (DLDataType dt : {porta_float32, porta_float64})
      for (Layout layout : kAllLayouts) {
        const Window2d g = pool_window(c);
        const HostTensor x = sample_host(dt, c.x, next_seed(seed));
        const HostTensor gy = sample_host(dt, {c.x[0], c.x[1], g.out_h(c.x[2]), g.out_w(c.x[3])}, next_seed(seed));
        const porta_pool2d_options o = pool_options(c, true);
        const PoolResult ref = ref_max_pool2d(x, g, &gy);
        SCOPED_TRACE("max_pool2d " + shape_str(c.x) + " kernel " + std::to_string(c.kernel[0]) + "x" +
                     std::to_string(c.kernel[1]) + " " + dtype_name(dt) + " " + layout_name(layout));
        op_case("max_pool2d", dt, [&] {
          Tensor tx = upload(x, dev(), layout), y;
          CHECK_OK(porta_max_pool2d(tx, &o, y.out()));
          expect_close(download(y), ref.y, kExact, "max_pool2d");
        });
        op_case("max_pool2d_backward", dt, [&] {
          Tensor lx = leaf(x), ly;
          CHECK_OK(porta_max_pool2d(lx, &o, ly.out()));
          backward(ly, gy);
          expect_close(grad_of(lx), ref.dx.value, tolerance_for(dt), "max_pool2d dx", &ref.dx.scale);
        });
      }
}

TEST_P(NN, AvgPool2dForwardAndBackward) {
  uint32_t seed = 300;
  for (const PoolCase& c : kPoolCases)
    for (bool include_pad : {true, false})
      for (DLDataType dt : {porta_float32, porta_float64}) {
        if (c.dilation[0] > 1 || c.dilation[1] > 1) continue;  // dilation is max pooling only: AvgPool2dErrors
        SCOPED_TRACE("avg_pool2d " + shape_str(c.x) + " kernel " + std::to_string(c.kernel[0]) + "x" +
                     std::to_string(c.kernel[1]) + " count_include_pad " + std::to_string(include_pad) + " " +
                     dtype_name(dt));
        const Window2d g = pool_window(c);
        const HostTensor x = sample_host(dt, c.x, next_seed(seed));
        const HostTensor gy = sample_host(dt, {c.x[0], c.x[1], g.out_h(c.x[2]), g.out_w(c.x[3])}, next_seed(seed));
        const porta_pool2d_options o = pool_options(c, include_pad);
        const PoolResult ref = ref_avg_pool2d(x, g, include_pad, &gy);
        op_case("avg_pool2d", dt, [&] {
          Tensor tx = upload(x, dev(), Layout::Transposed), y;
          CHECK_OK(porta_avg_pool2d(tx, &o, y.out()));
          expect_close(download(y), ref.y, tolerance_for(dt), "avg_pool2d");
        });
        op_case("avg_pool2d_backward", dt, [&] {
          Tensor lx = leaf(x), ly;
          CHECK_OK(porta_avg_pool2d(lx, &o, ly.out()));
          backward(ly, gy);
          expect_close(grad_of(lx), ref.dx.value, tolerance_for(dt), "avg_pool2d dx", &ref.dx.scale);
        });
      }
}

TEST_P(NN, PoolErrors) {
  Tensor x = upload(sample_host(porta_float32, {1, 1, 4, 4}, 1), dev()),
         x3 = upload(sample_host(porta_float32, {1, 4, 4}, 2), dev());
  porta_pool2d_options o{};
  o.struct_size = sizeof(o);
  o.kernel[0] = o.kernel[1] = 2;
  expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** out) { return porta_max_pool2d(x3, &o, out); });
  o.padding[0] = 2;  // more than half the kernel
  expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** out) { return porta_max_pool2d(x, &o, out); });
  expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** out) { return porta_avg_pool2d(x, &o, out); });
  o.padding[0] = 0, o.dilation[0] = o.dilation[1] = 2;
  expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** out) { return porta_avg_pool2d(x, &o, out); });
}

TEST_P(NN, SoftmaxForwardAndBackward) {
  struct Case {
    Shape shape;
    int32_t dim;
  };
  const Case cases[] = {{{4, 7}, 1}, {{4, 7}, 0}, {{2, 3, 5}, 1}, {{2, 3, 5}, -1}, {{6}, 0}, {{3, 1, 2}, 1}};
  uint32_t seed = 400;
  for (bool log : {false, true})
    for (const Case& c : cases)
      for (DLDataType dt : {porta_float32, porta_float64}) {
        SCOPED_TRACE(std::string(log ? "log_softmax " : "softmax ") + shape_str(c.shape) + " dim " +
                     std::to_string(c.dim) + " " + dtype_name(dt));
        auto fn = log ? porta_log_softmax : porta_softmax;
        HostTensor x = sample_host(dt, c.shape, next_seed(seed));
        if (seed % 3 == 0)
          for (double& v : x.v) v = store_as(dt, v * 200);  // needs the max subtracted
        const HostTensor gy = sample_host(dt, c.shape, next_seed(seed));
        const SoftmaxResult ref = ref_softmax(x, c.dim, log, &gy);
        const std::string name = log ? "log_softmax" : "softmax";
        op_case(name, dt, [&] {
          Tensor tx = upload(x, dev(), Layout::Transposed), y;
          CHECK_OK(fn(tx, c.dim, y.out()));
          expect_close(download(y), ref.y, tolerance_for(dt, true), name);
        });
        op_case(name + "_backward", dt, [&] {
          Tensor lx = leaf(x), ly;
          CHECK_OK(fn(lx, c.dim, ly.out()));
          backward(ly, gy);
          Tolerance tol = tolerance_for(dt, true);
          tol.atol *= 10;  // dx sums len products of O(1) terms
          expect_close(grad_of(lx), ref.dx, tol, name + " dx");
        });
      }
}

TEST_P(NN, CrossEntropyForwardAndBackward) {
  uint32_t seed = 500;
  for (int reduction : {PORTA_REDUCTION_NONE, PORTA_REDUCTION_MEAN, PORTA_REDUCTION_SUM})
    for (DLDataType dt : {porta_float32, porta_float64}) {
      SCOPED_TRACE("cross_entropy reduction " + std::to_string(reduction) + " " + dtype_name(dt));
      const int64_t N = 6, C = 5;
      const HostTensor logits = sample_host(dt, {N, C}, next_seed(seed));
      HostTensor target = sample_host(porta_int64, {N}, next_seed(seed), Values::Positive);
      for (double& t : target.v) t = std::fmod(t, static_cast<double>(C));
      const HostTensor gl = sample_host(dt, reduction == PORTA_REDUCTION_NONE ? Shape{N} : Shape{}, next_seed(seed));
      const CrossEntropyResult ref = ref_cross_entropy(logits, target, reduction, &gl);
      Tensor tt = upload(target, dev());
      op_case("cross_entropy", dt, [&] {
        Tensor tl = upload(logits, dev(), Layout::Transposed), loss;
        CHECK_OK(porta_cross_entropy(tl, tt, static_cast<porta_reduction>(reduction), loss.out()));
        expect_close(download(loss), ref.loss, tolerance_for(dt, true), "cross_entropy");
      });
      op_case("cross_entropy_backward", dt, [&] {
        Tensor ll = leaf(logits), lloss;
        CHECK_OK(porta_cross_entropy(ll, tt, static_cast<porta_reduction>(reduction), lloss.out()));
        backward(lloss, gl);
        expect_close(grad_of(ll), ref.dx, tolerance_for(dt, true), "cross_entropy dx");
      });
    }
}

TEST_P(NN, CrossEntropyTargetOutOfRange) {
  const HostTensor logits = sample_host(porta_float32, {2, 3}, 1);
  op_case("cross_entropy", porta_float32, [&] {
    Tensor tl = upload(logits, dev()), tt = upload(make_host(porta_int64, {2}, {1, 3}), dev());
    porta_tensor* out = sentinel();
    const porta_status st = porta_cross_entropy(tl, tt, PORTA_REDUCTION_NONE, &out);
    if (st == PORTA_OK) {  // allowed where the backend cannot detect it: the loss is NaN
      Tensor loss(out);
      const HostTensor l = download(loss);
      EXPECT_TRUE(std::isnan(l.v[1])) << "loss of the out-of-range sample: " << l.v[1];
    } else {
      throw_if_missing_kernel(st, __FILE__, __LINE__);
      EXPECT_EQ(st, PORTA_ERROR_INVALID_ARGUMENT) << porta_last_error();
      EXPECT_EQ(out, sentinel());
      EXPECT_NE(std::string(porta_last_error()).find('3'), std::string::npos) << porta_last_error();
    }
  });
}

TEST_P(NN, LinearAndMseLoss) {
  for (DLDataType dt : {porta_float32, porta_float64}) {
    SCOPED_TRACE(dtype_name(dt));
    const HostTensor x = sample_host(dt, {2, 3, 5}, 1), w = sample_host(dt, {4, 5}, 2), b = sample_host(dt, {4}, 3);
    HostTensor wt{dt, {5, 4}, std::vector<double>(20)};
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 5; ++j) wt.v[j * 4 + i] = w.v[i * 5 + j];
    Reduction ref = ref_matmul(x, wt);
    for (size_t i = 0; i < ref.value.v.size(); ++i) ref.value.v[i] += b.v[i % 4], ref.scale[i] += std::fabs(b.v[i % 4]);
    Tensor tx = upload(x, dev()), tw = upload(w, dev()), tb = upload(b, dev());
    op_case("linear", dt, [&] {
      Tensor y;
      CHECK_OK(porta_linear(tx, tw, tb, y.out()));
      expect_close(download(y), ref.value, tolerance_for(dt), "linear", &ref.scale);
    });

    const HostTensor t = sample_host(dt, {2, 3, 5}, 4);
    Tensor tt = upload(t, dev(), Layout::Strided);
    for (int reduction : {PORTA_REDUCTION_NONE, PORTA_REDUCTION_MEAN, PORTA_REDUCTION_SUM}) {
      HostTensor per{dt, x.shape, {}};
      double s = 0;
      for (int64_t i = 0; i < x.numel(); ++i) per.v.push_back((x.v[i] - t.v[i]) * (x.v[i] - t.v[i])), s += per.v.back();
      const HostTensor want = reduction == PORTA_REDUCTION_NONE
                                  ? per
                                  : HostTensor{dt, {}, {reduction == PORTA_REDUCTION_MEAN ? s / x.numel() : s}};
      op_case("mse_loss", dt, [&] {
        Tensor l;
        CHECK_OK(porta_mse_loss(tx, tt, static_cast<porta_reduction>(reduction), l.out()));
        expect_close(download(l), want, tolerance_for(dt), "mse_loss reduction " + std::to_string(reduction));
      });
    }
  }
}

// ---- NORM (LAYER_NORM, LAYER_NORM_BACKWARD): one or two normalized dims,
// with and without weight and bias, strided inputs, a large common offset
// (the variance must come from the deviations), rows of one value, NaN
// rows, and empty inputs.

TEST_P(NN, LayerNormShapesDtypesAndLayouts) {
  uint32_t seed = 700;
  for (DLDataType dt : {porta_float32, porta_float64})
    for (bool affine : {true, false})
      for (Layout layout : kAllLayouts) {
        check_layer_norm(sample_host(dt, {3, 4, 5}, next_seed(seed)), 1, affine, layout);
        check_layer_norm(sample_host(dt, {2, 3, 6}, next_seed(seed)), 2, affine, layout);
      }
  check_layer_norm(sample_host(porta_float32, {2, 1000}, next_seed(seed)), 1, true, Layout::Contiguous);  // many lanes
  check_layer_norm(sample_host(porta_float64, {7, 1}, next_seed(seed)), 1, true, Layout::Contiguous);     // y = bias
  check_layer_norm(sample_host(porta_float32, {5}, next_seed(seed)), 1, true, Layout::Contiguous, 0.5);
}

// x = 2^20 +- d, every value exact and every row's mean exactly 2^20, d
// up to 2: float32 d a multiple of 2^-3, float64 d of 2^-32 (so d^2 needs
// 64 bits). E[x^2] - mean^2 would leave the variance a few bits: in a
// float32 accumulator none, in double (x^2 ~ 2^40 rounded at 2^-13) four.
TEST_P(NN, LayerNormVarianceFromTheDeviations) {
  for (DLDataType dt : {porta_float32, porta_float64}) {
    const double step = dt.bits == 32 ? 0x1p-3 : 0x1p-32;
    HostTensor x = make_host(dt, {4, 64}, std::vector<double>(256, 0));
    uint64_t state = 12345;
    for (size_t i = 0; i < x.v.size(); i += 2) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      const double d = step * static_cast<double>(1 + (state >> 11) % static_cast<uint64_t>(2 / step));
      x.v[i] = 0x1p20 + d, x.v[i + 1] = 0x1p20 - d;
    }
    check_layer_norm(x, 1, true, Layout::Contiguous);
  }
}

// Rows whose first value is as far from the mean as a value can be
// ((x0 - mean)^2 close to n * var): the worst case of computing the
// variance from sums shifted by the first value (the host kernels' one pass
// for float rows up to 2^16). y within a few float roundings of the double
// reference, at n = 2^16 and just past it.
TEST_P(NN, LayerNormFirstValueFarFromTheMean) {
  for (int64_t n : {int64_t{1} << 16, (int64_t{1} << 16) + 1}) {
    std::vector<double> v(static_cast<size_t>(2 * n));
    for (int64_t i = 0; i < 2 * n; ++i) v[i] = (i % n == 0) ? 4096.0 * (i ? -1 : 1) : ((i * 37) % 17 - 8) / 8.0;
    const HostTensor x = make_host(porta_float32, {2, n}, v);
    const LayerNormRef ref = ref_layer_norm(x, n, nullptr, nullptr, 1e-5, x);
    op_case("layer_norm", porta_float32, [&] {
      SCOPED_TRACE("rows of " + std::to_string(n));
      Tensor tx = upload(x, dev()), y;
      CHECK_OK(porta_layer_norm(tx, &n, 1, nullptr, nullptr, 1e-5, y.out()));
      expect_close(download(y), ref.y, Tolerance{1e-6, 1e-6}, "layer_norm");
    });
  }
}

TEST_P(NN, LayerNormNaNStaysInItsRow) {
  HostTensor x = sample_host(porta_float32, {3, 8}, 6);
  x.v[9] = NAN;
  op_case("layer_norm", porta_float32, [&] {
    Tensor tx = upload(x, dev()), y;
    const int64_t n = 8;
    CHECK_OK(porta_layer_norm(tx, &n, 1, nullptr, nullptr, 1e-5, y.out()));
    const HostTensor got = download(y);
    for (size_t i = 0; i < got.v.size(); ++i)
      EXPECT_EQ(std::isnan(got.v[i]), i / 8 == 1) << "element " << i << " = " << got.v[i];
  });
}

TEST_P(NN, LayerNormEmptyInputs) {
  for (const Shape& shape : {Shape{0, 4}, Shape{3, 0}})
    op_case("layer_norm", porta_float32, [&] {
      Tensor tx = upload(sample_host(porta_float32, shape, 1), dev()), y;
      const int64_t n = shape.back();
      CHECK_OK(porta_layer_norm(tx, &n, 1, nullptr, nullptr, 1e-5, y.out()));
      EXPECT_EQ(shape_str(download(y).shape), shape_str(shape));
    });
}

// ---- NORM's BATCH_NORM and BATCH_NORM_BACKWARD (training mode; eval mode is
// elementwise): BatchNorm1d's [N, C] and [N, C, L], BatchNorm2d's
// [N, C, H, W], strided inputs, the variance from the deviations, NaN.

TEST_P(NN, BatchNormShapesDtypesAndLayouts) {
  uint32_t seed = 800;
  for (DLDataType dt : {porta_float32, porta_float64})
    for (bool affine : {true, false})
      for (Layout layout : kAllLayouts) {
        check_batch_norm(sample_host(dt, {6, 3}, next_seed(seed)), affine, layout);
        check_batch_norm(sample_host(dt, {2, 3, 5}, next_seed(seed)), affine, layout);
        check_batch_norm(sample_host(dt, {3, 2, 4, 5}, next_seed(seed)), affine, layout);
      }
  check_batch_norm(sample_host(porta_float32, {16, 2, 30, 30}, next_seed(seed)), true, Layout::Contiguous);  // long channels
  check_batch_norm(sample_host(porta_float64, {2, 1}, next_seed(seed)), true, Layout::Contiguous, 0.5);
}

// Channels of 2^20 +- d (LayerNormVarianceFromTheDeviations' values).
TEST_P(NN, BatchNormVarianceFromTheDeviations) {
  for (DLDataType dt : {porta_float32, porta_float64}) {
    const double step = dt.bits == 32 ? 0x1p-3 : 0x1p-32;
    HostTensor x = make_host(dt, {8, 2, 16}, std::vector<double>(256, 0));
    uint64_t state = 54321;
    for (size_t i = 0; i < x.v.size(); i += 2) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      const double d = step * static_cast<double>(1 + (state >> 11) % static_cast<uint64_t>(2 / step));
      x.v[i] = 0x1p20 + d, x.v[i + 1] = 0x1p20 - d;
    }
    check_batch_norm(x, true, Layout::Contiguous);
  }
}

TEST_P(NN, BatchNormNaNStaysInItsChannel) {
  HostTensor x = sample_host(porta_float32, {2, 3, 4}, 7);
  x.v[5] = NAN;  // channel 1
  op_case("batch_norm", porta_float32, [&] {
    Tensor tx = upload(x, dev()), y;
    CHECK_OK(porta_batch_norm(tx, nullptr, nullptr, nullptr, nullptr, 1, 0.1, 1e-5, y.out()));
    const HostTensor got = download(y);
    for (size_t i = 0; i < got.v.size(); ++i)
      EXPECT_EQ(std::isnan(got.v[i]), i / 4 % 3 == 1) << "element " << i << " = " << got.v[i];
  });
}

// ---- RNN's LSTM_CELL and LSTM_CELL_BACKWARD, through one LSTM step
// (porta_rnn_cell), forward and every gradient; the recurrence over several
// steps is tests/gradcheck's.
TEST_P(NN, LstmCell) {
  uint32_t seed = 900;
  for (DLDataType dt : {porta_float32, porta_float64})
    for (const Shape& nih : {Shape{3, 5, 4}, Shape{1, 2, 17}}) {
      const int64_t N = nih[0], I = nih[1], H = nih[2];
      const auto sample = [&](const Shape& s) { return sample_host(dt, s, next_seed(seed), Values::Unit); };
      const HostTensor x = sample({N, I}), h = sample({N, H}), c = sample({N, H}), w_ih = sample({4 * H, I}),
                       w_hh = sample({4 * H, H}), b_ih = sample({4 * H}), b_hh = sample({4 * H}), gh = sample({N, H}),
                       gc = sample({N, H});
      const LstmCellRef ref = ref_lstm_cell(x, h, c, w_ih, w_hh, b_ih, b_hh, gh, gc);
      op_case("lstm_cell", dt, [&] {
        SCOPED_TRACE(dtype_name(dt) + " N " + std::to_string(N) + " I " + std::to_string(I) + " H " + std::to_string(H));
        Tensor tx = leaf(x), th = leaf(h), tc = leaf(c), twi = leaf(w_ih), twh = leaf(w_hh), tbi = leaf(b_ih),
               tbh = leaf(b_hh), ho, co;
        CHECK_OK(porta_rnn_cell(PORTA_RNN_LSTM, tx, th, tc, twi, twh, tbi, tbh, ho.out(), co.out()));
        const Tolerance tol = sum_tolerance(dt, I + H);
        expect_close(download(ho), ref.h, tol, "lstm h");
        expect_close(download(co), ref.c, tol, "lstm c");
        // d(sum(h * gh + c * gc)): both outputs' gradients in one backward.
        Tensor gho = upload(gh, dev()), gco = upload(gc, dev()), a, b, s, l;
        CHECK_OK(porta_mul(ho, gho, a.out()));
        CHECK_OK(porta_mul(co, gco, b.out()));
        CHECK_OK(porta_add(a, b, s.out()));
        CHECK_OK(porta_sum(s, nullptr, 0, 0, l.out()));
        CHECK_OK(porta_backward(l, nullptr));
        const Tolerance gtol = sum_tolerance(dt, 4 * (I + H) + N);
        expect_close(grad_of(tx), ref.dx, gtol, "lstm dx");
        expect_close(grad_of(th), ref.dh, gtol, "lstm dh");
        expect_close(grad_of(tc), ref.dc, gtol, "lstm dc");
        expect_close(grad_of(twi), ref.dw_ih, gtol, "lstm dw_ih");
        expect_close(grad_of(twh), ref.dw_hh, gtol, "lstm dw_hh");
        expect_close(grad_of(tbi), ref.db, gtol, "lstm db_ih");
        expect_close(grad_of(tbh), ref.db, gtol, "lstm db_hh");
      });
    }
}

}  // namespace
}  // namespace conformance
