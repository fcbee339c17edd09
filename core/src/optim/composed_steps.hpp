// The optimizer updates without a fused kernel (RMSprop, Adagrad, Adam and
// AdamW with amsgrad): PyTorch's single-tensor formulas in its order of
// operations, composed from elementwise ops so they run on every device.
// Each returns the parameter's new values and state as new tensors; the
// caller writes them only when all were computed (a failed step changes
// nothing).
#pragma once

#include <vector>

#include <porta/porta.h>

#include "runtime/tensor.hpp"

namespace porta::optim {

struct Update {
  TensorPtr param;               // the new values
  std::vector<TensorPtr> state;  // in the optimizer's slot order
};

// state: square_avg[, momentum_buffer (momentum > 0)][, grad_avg (centered)], each empty before the first step.
Update rmsprop_update(const porta_rmsprop_options& o, const TensorPtr& p, const TensorPtr& g,
                      const std::vector<TensorPtr>& state);
// state: sum (initial_accumulator_value before the first step); step counts from 1.
Update adagrad_update(const porta_adagrad_options& o, const TensorPtr& p, const TensorPtr& g,
                      const std::vector<TensorPtr>& state, int64_t step);
// state: exp_avg, exp_avg_sq, max_exp_avg_sq; step counts from 1.
Update amsgrad_update(const porta_adam_options& o, bool decoupled, const TensorPtr& p, const TensorPtr& g,
                      const std::vector<TensorPtr>& state, int64_t step);

}  // namespace porta::optim
