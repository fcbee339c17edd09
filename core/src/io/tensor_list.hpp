// porta_tensor_list: an ordered list of named tensors (a state dict), as
// porta_safetensors_load returns it.
#pragma once

#include <porta/porta.h>

#include <string>
#include <vector>

#include "runtime/tensor.hpp"

inline constexpr uint32_t kPortaTensorListMagic = porta::HandleKind<porta_tensor_list>::live;

struct porta_tensor_list {
  uint32_t magic = kPortaTensorListMagic;
  std::vector<std::string> names;
  std::vector<porta::TensorPtr> tensors;
};
