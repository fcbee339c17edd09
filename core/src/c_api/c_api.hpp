// Helpers shared by the C API translation units.
#pragma once

#include <porta/porta.h>

#include <algorithm>
#include <cstring>

#include "runtime/error.hpp"
#include "ops/ops.hpp"

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
