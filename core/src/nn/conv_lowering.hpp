// The convolution lowering shared by conv2d and its adjoint conv_transpose2d:
// a geometry (input [N, C, H, W] windowed by [F, C, KH, KW] filters into
// [N, F, OH, OW]) and the plugins' IM2COL / COL2IM kernels over it. conv2d
// is IM2COL + GEMM; conv_transpose2d is GEMM + COL2IM of the same geometry
// with the roles of input and output swapped.
#pragma once

#include <functional>
#include <utility>

#include "nn/nn.hpp"

namespace porta::nn {

struct Geometry {
  int64_t N, C, H, W, F, KH, KW, OH, OW;
  porta_conv2d_params params;
};

// op's checks of o: stride and dilation >= 1, padding >= 0.
void check_window_options(const char* op, const porta_conv2d_options& o);
// op's checks of its operands (bias may be null): floating input and weight, one device, one dtype.
void check_operands(const char* op, const TensorPtr& x, const TensorPtr& weight, const TensorPtr& bias);
// groups > 1: x's channels split into `groups` equal parts, weight into parts of weight_rows along dim 0 and
// bias (may be null) into parts of bias_size; one(x_i, weight_i, bias_i) for each, joined along channels.
TensorPtr by_groups(const TensorPtr& x, const TensorPtr& weight, const TensorPtr& bias, int64_t groups,
                    int64_t weight_rows, int64_t bias_size,
                    const std::function<TensorPtr(const TensorPtr&, const TensorPtr&, const TensorPtr&)>& one);
// The geometry of a convolution of [N, C, H, W] by F filters of KH x KW, with
// o's stride, padding and dilation checked (op names the caller in errors).
Geometry lowering(const char* op, int64_t N, int64_t C, int64_t H, int64_t W, int64_t F, int64_t KH, int64_t KW,
                  const porta_conv2d_options& o);
// x [N, C, H, W] (contiguous) -> cols [C*KH*KW, N*OH*OW].
TensorPtr im2col(const TensorPtr& x, const Geometry& g);
// The adjoint: cols [C*KH*KW, N*OH*OW] -> [N, C, H, W], overlapping taps summed.
TensorPtr col2im(const TensorPtr& cols, const Geometry& g);
// col2im(a @ b, g): the GEMM and col2im's sums of a storage dtype (float16,
// bfloat16) run in its compute dtype and the result is rounded once, as a
// native kernel (cuDNN's, oneDNN's) rounds it; rounding the product first
// and each sum again would be up to a few units in the last place off.
TensorPtr col2im_of_product(const TensorPtr& a, const TensorPtr& b, const Geometry& g);
// Whether `dev` has all three direct convolution kernels (CONV2D and its two
// gradients, plugin ABI 1.7, optional) for dtype: conv2d and
// conv_transpose2d run on them, else lowered.
bool has_direct_conv_kernels(const DeviceState& dev, Dtype dtype);
// The lowered gradients of the convolution `full` with `groups` groups of x
// (contiguous [N, C, H, W]) by w: gy [N, F, OH, OW] -> {gx, gw}, each where
// asked; for a direct node whose backward kernel declined.
std::pair<TensorPtr, TensorPtr> lowered_grads(const TensorPtr& x, const TensorPtr& w, const TensorPtr& gy,
                                              const Geometry& full, int64_t groups, bool want_x, bool want_w);

}  // namespace porta::nn
