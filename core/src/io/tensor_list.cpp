// porta_tensor_list's checks and release; its porta_* entry points are in
// c_api/io.cpp.
#include "io/tensor_list.hpp"

#include "io/io.hpp"
#include "runtime/error.hpp"
#include "runtime/handle_kinds.hpp"

namespace porta::io {

const porta_tensor_list& check_tensor_list(const porta_tensor_list* list) {
  if (list == nullptr) fail(PORTA_ERROR_INVALID_ARGUMENT, "list must not be NULL");
  if (list->magic != kPortaTensorListMagic)
    fail(PORTA_ERROR_INVALID_HANDLE, "list is not a live porta_tensor_list (already released, or not a list)");
  return *list;
}

void release_tensor_list(porta_tensor_list& list) {
  // Free the names and tensors, then tag it dead; the shell waits in its
  // kind's quarantine so later uses of the handle fail cleanly.
  std::vector<std::string>().swap(list.names);
  std::vector<TensorPtr>().swap(list.tensors);
  retire_handle(&list);
}

}  // namespace porta::io
