// How Porta's storage (an allocation handle plus a byte offset) maps onto
// DLTensor.data, shared by export, import and porta_tensor_data_ptr.
#pragma once

#include <dlpack/dlpack.h>

#include <cstdint>

namespace porta::dlpack {

// Device types whose handles are addresses (host or CUDA device pointers):
// DLTensor.data points at the first element and byte_offset is 0. Elsewhere
// (kDLOpenCL: the cl_mem; mock: an opaque handle) data is the allocation
// handle and the offset travels in byte_offset.
inline bool handle_is_address(int32_t device_type) { return device_type == kDLCPU || device_type == kDLCUDA; }

}  // namespace porta::dlpack
