// C API of porta_tensor_list.
#include "io/tensor_list.hpp"

#include "c_api/c_api.hpp"
#include "runtime/handle_kinds.hpp"
#include "runtime/log.hpp"

using namespace porta;

namespace {

const porta_tensor_list& check_list(const porta_tensor_list* list) {
  if (list == nullptr) fail(PORTA_ERROR_INVALID_ARGUMENT, "list must not be NULL");
  if (list->magic != kPortaTensorListMagic)
    fail(PORTA_ERROR_INVALID_HANDLE, "list is not a live porta_tensor_list (already released, or not a list)");
  return *list;
}

}  // namespace

PORTA_API porta_status porta_tensor_list_size(const porta_tensor_list* list, int32_t* out) {
  return guard([&] {
    const porta_tensor_list& l = check_list(list);
    require(out, "out");
    *out = static_cast<int32_t>(l.tensors.size());
  });
}

PORTA_API porta_status porta_tensor_list_get(const porta_tensor_list* list, int32_t index, const char** name,
                                             porta_tensor** tensor) {
  return guard([&] {
    const porta_tensor_list& l = check_list(list);
    require(name, "name");
    require(tensor, "tensor");
    const auto size = static_cast<int32_t>(l.tensors.size());
    if (index < 0 || index >= size)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "tensor_list_get: index ", index, " is out of range [0, ", size,
           ") (porta_tensor_list_size gives the count)");
    TensorPtr t = l.tensors[static_cast<size_t>(index)];
    *name = l.names[static_cast<size_t>(index)].c_str();
    *tensor = t.release();
  });
}

PORTA_API void porta_tensor_list_release(porta_tensor_list* list) {
  if (list == nullptr) return;
  if (list->magic != kPortaTensorListMagic) {
    guard([&] { check_list(list); });
    log_line(PORTA_LOG_WARN, cat("porta_tensor_list_release ignored a dead handle: ", last_error()));
    return;
  }
  // Free the names and tensors, then tag it dead; the shell waits in its
  // kind's quarantine so later uses of `list` fail cleanly.
  std::vector<std::string>().swap(list->names);
  std::vector<TensorPtr>().swap(list->tensors);
  retire_handle(list);
}
