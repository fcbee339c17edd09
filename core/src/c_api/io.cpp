// The C API of io/: safetensors, the IDX and CIFAR-10 dataset readers and
// porta_tensor_list. Each entry point checks its arguments and calls the
// format's C++ code in io/ (io/io.hpp).
#include <memory>

#include "c_api/c_api.hpp"
#include "io/io.hpp"
#include "io/tensor_list.hpp"
#include "runtime/log.hpp"

using namespace porta;

PORTA_API porta_status porta_read_idx(const char* path, porta_tensor** out) {
  return produce(out, [&] { return io::read_idx(require(path, "path")); });
}

PORTA_API porta_status porta_read_cifar10(const char* path, porta_tensor** images, porta_tensor** labels) {
  return guard([&] {
    require(path, "path");
    require(images, "images");
    require(labels, "labels");
    auto [im, lb] = io::read_cifar10(path);
    *images = im.release();
    *labels = lb.release();
  });
}

PORTA_API porta_status porta_safetensors_load(const char* path, DLDevice device, porta_tensor_list** out) {
  return guard([&] {
    require(path, "path");
    require(out, "out");
    DeviceState& dev = device_of(device);
    auto list = std::make_unique<porta_tensor_list>();
    io::safetensors_load(path, dev, *list);
    *out = list.release();
  });
}

PORTA_API porta_status porta_safetensors_save(const char* path, const char* const* names,
                                              porta_tensor* const* tensors, int32_t n) {
  constexpr const char* op = "safetensors_save";
  return guard([&] {
    require(path, "path");
    if (*path == '\0') fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": path is empty");
    if (n < 0) fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": n is ", n, "; it must be >= 0");
    if (n > 0) {
      require(names, "names");
      require(tensors, "tensors");
    }
    const std::vector<std::string_view> checked = io::safetensors_names(names, n);
    std::vector<TensorPtr> ts;
    for (int32_t i = 0; i < n; ++i) ts.push_back(arg(tensors[i], cat("tensors[", i, "]").c_str()));
    io::safetensors_save(path, checked, ts);
  });
}

PORTA_API porta_status porta_tensor_list_size(const porta_tensor_list* list, int32_t* out) {
  return guard([&] {
    const porta_tensor_list& l = io::check_tensor_list(list);
    require(out, "out");
    *out = static_cast<int32_t>(l.tensors.size());
  });
}

PORTA_API porta_status porta_tensor_list_get(const porta_tensor_list* list, int32_t index, const char** name,
                                             porta_tensor** tensor) {
  return guard([&] {
    const porta_tensor_list& l = io::check_tensor_list(list);
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
    guard([&] { io::check_tensor_list(list); });
    log_line(PORTA_LOG_WARN, cat("porta_tensor_list_release ignored a dead handle: ", last_error()));
    return;
  }
  io::release_tensor_list(*list);
}
