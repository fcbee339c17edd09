// Helpers for the DLPack tests: a foreign producer (a DLManagedTensor over
// a malloc'ed buffer, with a deleter that counts), a counting wrapper around
// any producer's tensor, and small readers over the C API.
#pragma once

#include <porta/porta.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "../conformance/device_params.hpp"
#include "../conformance/tensor_handle.hpp"

namespace dlpack_test {

using conformance::Tensor;

// Deleter calls seen for one producer's tensor; outlives the tensor.
struct DeleterLog {
  int calls = 0;
};

// Deleter contexts (foreign buffers and counting wrappers) not yet deleted.
extern std::atomic<int64_t> g_live_contexts;

// What a foreign producer exports: `bytes` copied into a fresh malloc'ed
// buffer at `byte_offset`, described by dtype/shape/strides (nullopt: the
// strides pointer is NULL). The device defaults to cpu.
struct ForeignSpec {
  std::vector<uint8_t> bytes;
  uint64_t byte_offset = 0;
  DLDataType dtype = porta_float32;
  std::vector<int64_t> shape;
  std::optional<std::vector<int64_t>> strides;
  DLDevice device{kDLCPU, 0};
  uint64_t flags = 0;
  DLPackVersion version{DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
  std::optional<int32_t> ndim;  // overrides shape.size()
  bool null_shape = false;      // shape pointer NULL whatever `shape` holds
  bool null_data = false;       // data pointer NULL
  bool null_deleter = false;
};

// A new producer tensor per spec; its deleter frees the buffer and counts into `log`.
DLManagedTensorVersioned* make_foreign(const ForeignSpec& spec, DeleterLog* log);
DLManagedTensor* make_foreign_legacy(const ForeignSpec& spec, DeleterLog* log);
// Gives a tensor made with null_deleter its deleter back (so the test can free it).
void restore_deleter(DLManagedTensorVersioned* m);
void restore_deleter(DLManagedTensor* m);

// Wraps `inner` (ownership passes to the wrapper) in a tensor with the same
// DLTensor whose deleter counts into `log`, then calls inner's deleter.
DLManagedTensorVersioned* counted(DLManagedTensorVersioned* inner, DeleterLog* log, uint64_t extra_flags = 0);
DLManagedTensor* counted_legacy(DLManagedTensor* inner, DeleterLog* log);

// Calls a still-owned managed tensor's deleter (after a rejected import).
template <typename Managed>
void dispose(Managed* m) {
  if (m && m->deleter) m->deleter(m);
}

template <typename T>
std::vector<uint8_t> as_bytes(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

template <typename T>
std::vector<T> values_of(const porta_tensor* t) {
  std::vector<T> v(static_cast<size_t>(conformance::numel_of(t)) + 1);
  CHECK_OK(porta_tensor_to_host(t, v.data(), (v.size() - 1) * sizeof(T)));
  v.pop_back();
  return v;
}

// Test-side tensor makers (CHECK_OK on every call).
Tensor arange_f32(int64_t n, DLDevice dev);                          // 0, 1, ..., n-1
Tensor arange_f32(const std::vector<int64_t>& shape, DLDevice dev);  // viewed as `shape`
Tensor from_host_f32(const std::vector<float>& v, const std::vector<int64_t>& shape, DLDevice dev);

void* data_ptr(const porta_tensor* t);
bool is_read_only(const porta_tensor* t);
std::vector<int64_t> dl_shape(const DLTensor& dl);
std::vector<int64_t> dl_strides(const DLTensor& dl);
bool same_device(DLDevice a, DLDevice b);

// Imports `m`, CHECK_OK'ing the call.
Tensor import(DLManagedTensorVersioned* m);
Tensor import_legacy(DLManagedTensor* m);

}  // namespace dlpack_test
