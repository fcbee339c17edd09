// What dlpack/ offers the C boundary: export, import and direct memory
// access as C++ functions. c_api/dlpack.cpp holds the porta_* entry points;
// they check the caller's arguments and call these, which report failures
// by throwing.
#pragma once

#include <dlpack/dlpack.h>

#include <cstdint>

#include "runtime/tensor.hpp"

namespace porta::dlpack {

// A DLPack view of `t` that keeps its storage alive until the consumer calls
// the deleter; the read-only flag is added when t's storage is read-only.
DLManagedTensorVersioned* export_versioned(const TensorPtr& t, uint64_t flags);
// The same, unversioned; fails for a read-only tensor (the legacy struct cannot say so).
DLManagedTensor* export_legacy(const TensorPtr& t);

// A tensor over `managed`'s memory; ownership passes to it only on success
// (a foreign major version is released through its deleter and fails).
TensorPtr import_versioned(DLManagedTensorVersioned* managed);
TensorPtr import_legacy(DLManagedTensor* managed);

// The address of x's first element (NULL when it has no memory); fails for
// devices whose handles are not addresses.
void* data_address(const porta_tensor& x);

}  // namespace porta::dlpack
