// Fuzzes DLPack import (porta_from_dlpack_versioned and porta_from_dlpack)
// with every DLTensor field drawn from the input. The importer trusts the
// producer's data pointer over the extent the shape, strides and byte_offset
// describe, so this harness backs that extent with a real buffer whenever it
// is small; larger extents are still imported (import reads no data) but
// never read back. Invariants: the deleter runs exactly once, after the
// tensor is released, or, on a failed import, only for a foreign major
// version; a successful import reads back exactly the described elements.
#include <porta/porta.h>

#include <cstring>
#include <vector>

#include "fuzz_input.hpp"

namespace {

constexpr uint64_t kMaxBackedBytes = uint64_t{1} << 20;
constexpr int32_t kMaxShapeEntries = 64;

int deleter_calls = 0;
void count_versioned(DLManagedTensorVersioned*) { ++deleter_calls; }
void count_legacy(DLManagedTensor*) { ++deleter_calls; }

// The fields of one producer's tensor, and the memory behind it.
struct Producer {
  std::vector<int64_t> shape, strides;
  std::vector<uint8_t> buffer;  // byte_offset + extent bytes when `backed`
  bool backed = false;
  DLTensor tensor{};
};

DLDataType take_dtype(FuzzInput& in) {
  static constexpr DLDataType kValid[] = {{kDLFloat, 32, 1}, {kDLFloat, 64, 1}, {kDLInt, 32, 1},
                                          {kDLInt, 64, 1},   {kDLUInt, 8, 1},   {kDLBool, 8, 1}};
  const auto pick = in.take<uint8_t>();
  if (pick < 0xF0) return kValid[pick % 6];
  return DLDataType{in.take<uint8_t>(), in.take<uint8_t>(), in.take<uint16_t>()};
}

// Bytes from data to one past the last element, or 0 when there are no
// elements; false when the arithmetic overflows or a value is negative.
bool extent_of(const Producer& p, uint64_t element_bytes, uint64_t* extent) {
  uint64_t last = 0;
  *extent = 0;
  for (size_t i = 0; i < p.shape.size(); ++i) {
    if (p.shape[i] < 0 || (!p.strides.empty() && p.strides[i] < 0)) return false;
    if (p.shape[i] == 0) return true;
  }
  for (size_t i = 0; i < p.shape.size(); ++i) {
    const uint64_t stride = p.strides.empty() ? 0 : static_cast<uint64_t>(p.strides[i]);
    uint64_t step = 0;
    if (__builtin_mul_overflow(static_cast<uint64_t>(p.shape[i] - 1), stride, &step) ||
        __builtin_add_overflow(last, step, &last))
      return false;
  }
  return !__builtin_add_overflow(last, 1, &last) && !__builtin_mul_overflow(last, element_bytes, extent) &&
         !__builtin_add_overflow(*extent, p.tensor.byte_offset, extent);
}

// Row-major strides of the shape, as the importer assumes for NULL strides
// (size-0 dimensions count as 1); empty when they overflow int64.
std::vector<int64_t> row_major(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;)
    if (__builtin_mul_overflow(s[i], shape[i] > 0 ? shape[i] : 1, &s[i - 1])) return {};
  return s;
}

Producer make_producer(FuzzInput& in) {
  Producer p;
  DLTensor& t = p.tensor;
  t.ndim = in.take<int8_t>();
  const auto layout = in.take<uint8_t>();
  const int32_t entries = t.ndim < 0 ? 0 : t.ndim > kMaxShapeEntries ? kMaxShapeEntries : t.ndim;
  for (int32_t i = 0; i < entries; ++i) p.shape.push_back(in.take_mostly_small());
  if (layout & 1)
    for (int32_t i = 0; i < entries; ++i) p.strides.push_back(in.take_mostly_small());
  t.dtype = take_dtype(in);
  t.byte_offset = static_cast<uint64_t>(in.take_mostly_small());
  t.device = (layout & 2) ? DLDevice{static_cast<DLDeviceType>(in.take<int32_t>()), in.take<int32_t>()}
                          : DLDevice{kDLCPU, 0};
  t.shape = (layout & 4) || entries == 0 ? nullptr : p.shape.data();
  t.strides = p.strides.empty() ? nullptr : p.strides.data();

  // Back the extent when it is small and the shape is readable (only then can the importer accept it).
  const uint64_t element_bytes = (uint64_t{t.dtype.bits} * t.dtype.lanes + 7) / 8;
  uint64_t extent = 0;
  Producer row_major_view = p;
  if (row_major_view.strides.empty()) row_major_view.strides = row_major(p.shape);
  if (t.ndim == entries && row_major_view.strides.size() == p.shape.size() &&
      extent_of(row_major_view, element_bytes, &extent) && extent <= kMaxBackedBytes) {
    p.buffer.resize(extent);
    for (size_t i = 0; i < p.buffer.size(); ++i) p.buffer[i] = static_cast<uint8_t>(i * 7 % 2);  // 0/1: valid bools
    p.backed = true;
  }
  alignas(16) static uint64_t unbacked = 0;  // a valid pointer for extents too large to back
  if (!(layout & 8)) t.data = p.buffer.empty() ? static_cast<void*>(&unbacked) : p.buffer.data();
  return p;
}

// Reads the imported tensor back and compares every element with the producer's bytes.
void check_read_back(porta_tensor* imported, const Producer& p) {
  int64_t numel = 0;
  FUZZ_CHECK(porta_tensor_numel(imported, &numel) == PORTA_OK, "numel of an imported tensor failed");
  const auto element_bytes = static_cast<size_t>(p.tensor.dtype.bits / 8);
  if (numel > static_cast<int64_t>(kMaxBackedBytes)) return;  // a broadcast (stride 0) view too large to copy
  std::vector<uint8_t> out(static_cast<size_t>(numel) * element_bytes);
  FUZZ_CHECK(porta_tensor_to_host(imported, out.data(), out.size()) == PORTA_OK, "to_host of an import failed");
  const std::vector<int64_t> strides = p.strides.empty() ? row_major(p.shape) : p.strides;
  std::vector<int64_t> index(p.shape.size(), 0);
  for (int64_t i = 0; i < numel; ++i) {
    uint64_t offset = p.tensor.byte_offset;
    for (size_t d = 0; d < index.size(); ++d) offset += static_cast<uint64_t>(index[d] * strides[d]) * element_bytes;
    FUZZ_CHECK(std::memcmp(&out[static_cast<size_t>(i) * element_bytes], &p.buffer[offset], element_bytes) == 0,
               "an imported element reads back wrong");
    for (size_t d = index.size(); d-- > 0;) {
      if (++index[d] < p.shape[d]) break;
      index[d] = 0;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  const auto mode = in.take<uint8_t>();
  const bool versioned = !(mode & 1);
  DLManagedTensorVersioned v{};
  v.version.major = (mode & 2) ? in.take<uint32_t>() : DLPACK_MAJOR_VERSION;
  v.version.minor = (mode & 4) ? in.take<uint32_t>() : DLPACK_MINOR_VERSION;
  v.flags = (mode & 8) ? in.take<uint64_t>() : 0;
  Producer p = make_producer(in);
  v.dl_tensor = p.tensor;
  v.deleter = count_versioned;
  DLManagedTensor legacy{};
  legacy.dl_tensor = p.tensor;
  legacy.deleter = count_legacy;

  deleter_calls = 0;
  porta_tensor* imported = nullptr;
  const porta_status status =
      versioned ? porta_from_dlpack_versioned(&v, &imported) : porta_from_dlpack(&legacy, &imported);
  if (status != PORTA_OK) {
    const bool consumed = versioned && v.version.major != DLPACK_MAJOR_VERSION;
    FUZZ_CHECK(deleter_calls == (consumed ? 1 : 0), "a failed import called the deleter wrongly");
    FUZZ_CHECK(imported == nullptr, "a failed import wrote its out-parameter");
    FUZZ_CHECK(*porta_last_error() != '\0', "a failed import left no message");
    return 0;
  }
  FUZZ_CHECK(deleter_calls == 0, "a successful import called the deleter before release");
  int read_only = -1;
  FUZZ_CHECK(porta_tensor_is_read_only(imported, &read_only) == PORTA_OK, "is_read_only failed");
  FUZZ_CHECK(read_only == (versioned && (v.flags & DLPACK_FLAG_BITMASK_READ_ONLY) ? 1 : 0),
             "the read-only flag was not honoured");
  if (p.backed) check_read_back(imported, p);
  porta_tensor_release(imported);
  FUZZ_CHECK(deleter_calls == 1, "releasing an imported tensor did not call the deleter exactly once");
  return 0;
}
