// Direct access to a tensor's memory for bindings that wrap it in place:
// the address of the first element, and whether writing it is allowed.
#include "c_api/c_api.hpp"
#include "dlpack/data_pointer.hpp"

using namespace porta;

PORTA_API porta_status porta_tensor_data_ptr(const porta_tensor* t, void** out) {
  return guard([&] {
    const porta_tensor& x = check_handle(t, "t");
    require(out, "out");
    if (!dlpack::handle_is_address(x.device->dl.device_type))
      fail(PORTA_ERROR_INVALID_ARGUMENT, "data_ptr: the tensor is on ", x.device->name, ", whose memory is opaque (",
           x.device->backend->name, " handles are not addresses); only cpu and cuda tensors have a data pointer. ",
           "Use porta_to_dlpack_versioned (handle plus byte_offset) or porta_tensor_to_host");
    void* handle = x.storage->block.handle;
    *out = handle ? static_cast<char*>(handle) + x.byte_offset : nullptr;
  });
}

PORTA_API porta_status porta_tensor_is_read_only(const porta_tensor* t, int* out) {
  return guard([&] {
    const porta_tensor& x = check_handle(t, "t");
    require(out, "out");
    *out = x.storage->read_only ? 1 : 0;
  });
}
