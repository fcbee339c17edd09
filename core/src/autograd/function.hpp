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

// `output` as a function of `inputs` (null entries skipped) whose derivative is zero: each floating input
// gets zeros of its shape, as PyTorch's zeros_like derivatives (in-place comparisons, sampling).
TensorPtr attach_zero_gradients(const TensorPtr& output, std::vector<TensorPtr> inputs, const std::string& name);

// Given dL/doutput_i for every output (zeros where an output got none), one
// gradient per input (empty: none).
using CustomBackwardOutputs = std::function<std::vector<TensorPtr>(const std::vector<TensorPtr>&)>;

// attach_function for several outputs (float, on one device): new tensors
// with the outputs' values whose history is one node calling `backward`.
// The node has one output, as every node: the outputs are packed (flattened,
// in their promoted dtype) into one tensor, the node attached to it, and
// each returned output is a slice of it cast back, so gradients reach the
// node through those views and `backward` gets them split again.
std::vector<TensorPtr> attach_function_outputs(const std::vector<TensorPtr>& outputs,
                                               const std::vector<TensorPtr>& inputs, CustomBackwardOutputs backward,
                                               const std::string& name);

}  // namespace porta::autograd
