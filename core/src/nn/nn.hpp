// Neural-network ops of the core, differentiable (they record autograd
// nodes like porta::ag). Conv, pooling, softmax and the cross-entropy loss
// run plugin kernels forward and backward; the rest compose Porta ops.
#pragma once

#include <porta/porta.h>

#include "../autograd/ag.hpp"

namespace porta::nn {

TensorPtr linear(const TensorPtr& x, const TensorPtr& weight, const TensorPtr& bias);
TensorPtr conv2d(const TensorPtr& x, const TensorPtr& weight, const TensorPtr& bias, const porta_conv2d_options& o);
TensorPtr max_pool2d(const TensorPtr& x, const porta_pool2d_options& o);
TensorPtr avg_pool2d(const TensorPtr& x, const porta_pool2d_options& o);
TensorPtr softmax(const TensorPtr& x, int32_t dim, bool log);
TensorPtr cross_entropy(const TensorPtr& logits, const TensorPtr& target, porta_reduction reduction);
TensorPtr mse_loss(const TensorPtr& input, const TensorPtr& target, porta_reduction reduction);
TensorPtr dropout(const TensorPtr& x, double p, bool training);

// Initializers (in place, not recorded).
void init_uniform(const TensorPtr& t, double low, double high);
void init_normal(const TensorPtr& t, double mean, double std);
int64_t fan_in(const porta_tensor& t);
void init_kaiming_uniform(const TensorPtr& t, double a);

// Shared argument checks: float dtype, one device, and the op's name in the message.
void check_float(const char* op, const char* what, const porta_tensor& t);
TensorPtr apply_reduction(const TensorPtr& per_item, porta_reduction reduction, const char* op);

}  // namespace porta::nn
