// The C API of dlpack/: DLPack export and import, and direct access to a
// tensor's memory. Each entry point checks its arguments and calls dlpack/
// (dlpack/exchange.hpp).
#include "c_api/c_api.hpp"
#include "dlpack/exchange.hpp"

using namespace porta;

PORTA_API porta_status porta_to_dlpack_versioned(porta_tensor* t, uint64_t flags, DLManagedTensorVersioned** out) {
  return guard([&] {
    TensorPtr x = arg(t, "t");
    require(out, "out");
    *out = dlpack::export_versioned(x, flags);
  });
}

PORTA_API porta_status porta_to_dlpack(porta_tensor* t, DLManagedTensor** out) {
  return guard([&] {
    TensorPtr x = arg(t, "t");
    require(out, "out");
    *out = dlpack::export_legacy(x);
  });
}

PORTA_API porta_status porta_from_dlpack_versioned(DLManagedTensorVersioned* managed, porta_tensor** out) {
  return produce(out, [&] { return dlpack::import_versioned(require(managed, "managed")); });
}

PORTA_API porta_status porta_from_dlpack(DLManagedTensor* managed, porta_tensor** out) {
  return produce(out, [&] { return dlpack::import_legacy(require(managed, "managed")); });
}

PORTA_API porta_status porta_tensor_data_ptr(const porta_tensor* t, void** out) {
  return guard([&] {
    const porta_tensor& x = check_handle(t, "t");
    require(out, "out");
    *out = dlpack::data_address(x);
  });
}

PORTA_API porta_status porta_tensor_is_read_only(const porta_tensor* t, int* out) {
  return guard([&] {
    const porta_tensor& x = check_handle(t, "t");
    require(out, "out");
    *out = x.storage->read_only ? 1 : 0;
  });
}
