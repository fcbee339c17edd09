// What io/ offers the C boundary: each file format's reader or writer as a
// C++ function. c_api/io.cpp holds the porta_* entry points; they check the
// caller's arguments and call these, which report failures by throwing.
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "io/tensor_list.hpp"
#include "runtime/tensor.hpp"

namespace porta::io {

// The IDX file at `path` (MNIST, Fashion-MNIST), as one CPU tensor.
TensorPtr read_idx(const char* path);

// A CIFAR-10 binary batch: images [N, 3, 32, 32] uint8 and labels [N] int64, on the CPU.
std::pair<TensorPtr, TensorPtr> read_cifar10(const char* path);

// Every tensor of the safetensors file at `path`, in file order, onto `dev`.
void safetensors_load(const char* path, DeviceState& dev, porta_tensor_list& list);

// The n tensor names, checked (non-NULL, non-empty, UTF-8, unique, not
// "__metadata__"), as safetensors_save takes them.
std::vector<std::string_view> safetensors_names(const char* const* names, int32_t n);
// Writes `tensors` under `names` (from safetensors_names) to `path`, replacing it atomically.
void safetensors_save(const char* path, const std::vector<std::string_view>& names,
                      const std::vector<TensorPtr>& tensors);

// The list `list` points at, or a failure: NULL, or not a live porta_tensor_list.
const porta_tensor_list& check_tensor_list(const porta_tensor_list* list);
// Frees a live list's names and tensors and retires the handle.
void release_tensor_list(porta_tensor_list& list);

}  // namespace porta::io
