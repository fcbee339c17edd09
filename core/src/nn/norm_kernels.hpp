// layer_norm and batch_norm (training) on the plugins' NORM kernels
// (norm_kernels.cpp); the composites in normalization.cpp serve the rest
// (batch_norm in eval mode) and devices whose plugin has no NORM kernels.
#pragma once

#include "ops/ag.hpp"

namespace porta::nn {

// Whether x's device runs layer_norm on its NORM kernels (x's dtype, both
// directions; never for an empty x).
bool layer_norm_has_kernel(const porta_tensor& x);
// layer_norm over x's last dims (normalized_shape, checked by the caller),
// weight and bias of normalized_shape or null.
TensorPtr layer_norm_fused(const TensorPtr& x, const Dims& normalized_shape, const TensorPtr& weight,
                           const TensorPtr& bias, double eps);

// The same for batch_norm's training mode.
bool batch_norm_has_kernel(const porta_tensor& x);
// y: x [N, C, *] normalized by the batch's statistics per channel, scaled by
// weight and shifted by bias ([C] or null; checked by the caller); mean and
// var: the batch's mean and population variance per channel [C], not
// recorded (for the running statistics).
struct BatchNormResult {
  TensorPtr y, mean, var;
};
BatchNormResult batch_norm_fused(const TensorPtr& x, const TensorPtr& weight, const TensorPtr& bias, double eps);

}  // namespace porta::nn
