// Tensor printing (format.cpp): PyTorch's repr, for porta_tensor_format.
#pragma once

#include <string>

#include "runtime/tensor.hpp"

namespace porta {

std::string format_tensor(const TensorPtr& t);

}  // namespace porta
