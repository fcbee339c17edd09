// layer_norm on the plugins' NORM kernels (layer_norm_kernel.cpp); the
// composite in normalization.cpp serves devices whose plugin predates them.
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

}  // namespace porta::nn
