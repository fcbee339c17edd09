// Custom autograd functions (torch.autograd.Function), function.cpp.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "runtime/tensor.hpp"

namespace porta::autograd {

// Given dL/doutput, one gradient per input (empty: none).
using CustomBackward = std::function<std::vector<TensorPtr>(const TensorPtr&)>;

// A new handle on `output`'s memory whose grad_fn calls `backward` (named
// `name` in errors), when grad mode is on and an input requires grad; else
// the handle has no history. Inputs may be empty (no gradient).
TensorPtr attach_function(const TensorPtr& output, const std::vector<TensorPtr>& inputs, CustomBackward backward,
                          const std::string& name);

}  // namespace porta::autograd
