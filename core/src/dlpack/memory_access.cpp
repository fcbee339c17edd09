// Direct access to a tensor's memory for bindings that wrap it in place:
// the address of the first element (porta_tensor_data_ptr, c_api/dlpack.cpp).
#include "dlpack/data_pointer.hpp"
#include "dlpack/exchange.hpp"
#include "runtime/error.hpp"

namespace porta::dlpack {

void* data_address(const porta_tensor& x) {
  if (!handle_is_address(x.device->dl.device_type))
    fail(PORTA_ERROR_INVALID_ARGUMENT, "data_ptr: the tensor is on ", x.device->name, ", whose memory is opaque (",
         x.device->backend->name, " handles are not addresses); only cpu and cuda tensors have a data pointer. ",
         "Use porta_to_dlpack_versioned (handle plus byte_offset) or porta_tensor_to_host");
  void* handle = x.storage->block.handle;
  return handle ? static_cast<char*>(handle) + x.byte_offset : nullptr;
}

}  // namespace porta::dlpack
