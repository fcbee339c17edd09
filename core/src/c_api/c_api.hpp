// Helpers shared by the C API translation units.
#pragma once

#include <porta/porta.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "ops/ops.hpp"
#include "runtime/error.hpp"

#define PORTA_API extern "C" PORTA_EXPORT

namespace porta {

// Validates and borrows an input handle; `name` is the parameter's name.
inline TensorPtr arg(porta_tensor* t, const char* name) {
  check_handle(t, name);
  return TensorPtr::borrow(t);
}

// Runs `make` and hands the tensor it returns to *out (untouched on error).
template <typename Make>
porta_status produce(porta_tensor** out, Make&& make) {
  return guard([&] {
    require(out, "out");
    TensorPtr r = make();
    *out = r.release();
  });
}

// The n tensors of a caller's array, each validated ("tensors[2]").
inline std::vector<TensorPtr> tensor_array(const char* op, porta_tensor* const* tensors, int32_t n) {
  if (n < 1) fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": expected a non-empty list of tensors (n >= 1), got n = ", n);
  require(tensors, "tensors");
  std::vector<TensorPtr> out;
  for (int32_t i = 0; i < n; ++i) out.push_back(arg(tensors[i], ("tensors[" + std::to_string(i) + "]").c_str()));
  return out;
}

// Hands both tensors of a pair (a std::pair or an ops::Sorted) to the caller, or neither on error.
template <typename Make>
porta_status produce_pair(porta_tensor** first, const char* first_name, porta_tensor** second, const char* second_name,
                          Make&& make) {
  return guard([&] {
    require(first, first_name);
    require(second, second_name);
    auto [a, b] = make();
    *first = a.release();
    *second = b.release();
  });
}

// Hands every part to outs, or none of them on error.
template <typename Make>
porta_status produce_all(porta_tensor** outs, Make&& make) {
  return guard([&] {
    require(outs, "outs");
    std::vector<TensorPtr> parts = make();
    for (size_t i = 0; i < parts.size(); ++i) outs[i] = parts[i].release();
  });
}

// Copies a versioned struct to the caller, honouring its struct_size.
template <typename T>
void copy_out(T* out, const T& value, const char* what) {
  require(out, what);
  if (out->struct_size < sizeof(size_t))
    fail(PORTA_ERROR_INVALID_ARGUMENT, what, "->struct_size must be set to sizeof(", what, ")");
  const size_t keep = out->struct_size;
  std::memcpy(static_cast<void*>(out), &value, std::min(keep, sizeof(T)));
  out->struct_size = keep;
}

// Reads a versioned options struct from the caller: fields beyond its
// struct_size keep the values in `defaults`.
template <typename T>
T copy_in(const T* in, T defaults, const char* what) {
  if (in == nullptr) return defaults;
  if (in->struct_size < sizeof(size_t))
    fail(PORTA_ERROR_INVALID_ARGUMENT, what, "->struct_size must be set to sizeof(", what, ")");
  std::memcpy(static_cast<void*>(&defaults), in, std::min(in->struct_size, sizeof(T)));
  defaults.struct_size = sizeof(T);
  return defaults;
}

// An optional tensor argument: NULL stays empty.
inline TensorPtr optional_arg(porta_tensor* t, const char* name) { return t ? arg(t, name) : TensorPtr(); }

inline DeviceState& device_of(DLDevice d) { return Registry::get().device(d); }

}  // namespace porta
