#include "tensor_handle.hpp"

namespace conformance {

void fail_status(porta_status status, const char* expr, const char* file, int line) {
  throw_if_missing_kernel(status, file, line);
  throw PortaFailure(std::string(file) + ":" + std::to_string(line) + ": " + expr + " returned " +
                     porta_status_name(status) + ": " + porta_last_error());
}

DLDataType dtype_of(const porta_tensor* t) {
  DLDataType d{};
  CHECK_OK(porta_tensor_dtype(t, &d));
  return d;
}

std::vector<int64_t> shape_of(const porta_tensor* t) {
  int32_t nd = 0;
  CHECK_OK(porta_tensor_ndim(t, &nd));
  std::vector<int64_t> s(static_cast<size_t>(nd) + 1);  // +1: never a zero-length buffer
  CHECK_OK(porta_tensor_shape(t, s.data()));
  s.resize(static_cast<size_t>(nd));
  return s;
}

std::vector<int64_t> strides_of(const porta_tensor* t) {
  int32_t nd = 0;
  CHECK_OK(porta_tensor_ndim(t, &nd));
  std::vector<int64_t> s(static_cast<size_t>(nd) + 1);
  CHECK_OK(porta_tensor_strides(t, s.data()));
  s.resize(static_cast<size_t>(nd));
  return s;
}

DLDevice device_of(const porta_tensor* t) {
  DLDevice d{};
  CHECK_OK(porta_tensor_device(t, &d));
  return d;
}

int64_t numel_of(const porta_tensor* t) {
  int64_t n = 0;
  CHECK_OK(porta_tensor_numel(t, &n));
  return n;
}

uint64_t byte_offset_of(const porta_tensor* t) {
  uint64_t o = 0;
  CHECK_OK(porta_tensor_byte_offset(t, &o));
  return o;
}

bool is_contiguous(const porta_tensor* t) {
  int c = 0;
  CHECK_OK(porta_tensor_is_contiguous(t, &c));
  return c != 0;
}

std::string device_string(DLDevice d) {
  char buf[32];
  CHECK_OK(porta_device_to_string(d, buf, sizeof(buf)));
  return buf;
}

porta_tensor* sentinel() {
  static char marker;
  return reinterpret_cast<porta_tensor*>(&marker);
}

}  // namespace conformance
