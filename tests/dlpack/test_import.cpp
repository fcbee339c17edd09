// porta_from_dlpack_versioned / porta_from_dlpack over tensors a foreign
// producer built by hand (malloc'ed host buffers): byte_offset and strides
// are honoured, NULL strides mean row-major, the memory is shared, and every
// malformed field is refused with a message naming it while ownership stays
// with the caller (except for a foreign major version, which is consumed).
#include <functional>

#include "dlpack_test_util.hpp"

namespace dlpack_test {
namespace {

using conformance::expect_failure;
using conformance::shape_of;
using conformance::strides_of;

const DLDevice kCpu{kDLCPU, 0};

std::vector<float> iota(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i);
  return v;
}

TEST(DlpackImport, ReadsABufferWithByteOffsetAndNullStrides) {
  DeleterLog log;
  ForeignSpec spec;
  spec.bytes = as_bytes(iota(12));
  spec.byte_offset = 16;
  spec.shape = {3, 4};
  DLManagedTensorVersioned* m = make_foreign(spec, &log);
  char* const buffer = static_cast<char*>(m->dl_tensor.data);
  Tensor t = import(m);
  EXPECT_EQ(shape_of(t), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(strides_of(t), (std::vector<int64_t>{4, 1}));
  EXPECT_EQ(conformance::byte_offset_of(t), 16u);
  EXPECT_TRUE(same_device(conformance::device_of(t), kCpu));
  EXPECT_EQ(data_ptr(t), buffer + 16);
  EXPECT_FALSE(is_read_only(t));
  EXPECT_EQ(values_of<float>(t), iota(12));
  Tensor sum;  // usable in ops like any tensor
  CHECK_OK(porta_add(t, t, sum.out()));
  EXPECT_EQ(values_of<float>(sum)[5], 10.0f);
  EXPECT_EQ(log.calls, 0);
  t.reset(nullptr);
  EXPECT_EQ(log.calls, 1);
}

TEST(DlpackImport, HonoursExplicitStrides) {
  DeleterLog log;
  ForeignSpec col;  // column-major 3 x 4: element (i, j) at i + 3 j
  col.bytes = as_bytes(std::vector<float>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11});
  col.shape = {3, 4};
  col.strides = std::vector<int64_t>{1, 3};
  Tensor t = import(make_foreign(col, &log));
  EXPECT_EQ(strides_of(t), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(values_of<float>(t), iota(12));

  ForeignSpec broadcast;  // stride 0: one row seen twice
  broadcast.bytes = as_bytes(std::vector<float>{1, 2, 3});
  broadcast.shape = {2, 3};
  broadcast.strides = std::vector<int64_t>{0, 1};
  Tensor b = import(make_foreign(broadcast, &log));
  EXPECT_EQ(values_of<float>(b), (std::vector<float>{1, 2, 3, 1, 2, 3}));

  ForeignSpec stepped;  // every other element, starting at element 1 through byte_offset
  stepped.bytes = as_bytes(iota(8));
  stepped.byte_offset = 4;
  stepped.shape = {2, 2};
  stepped.strides = std::vector<int64_t>{4, 2};
  Tensor s = import(make_foreign(stepped, &log));
  // iota(8) starts at byte 4 = byte_offset, so element (i, j) is iota value 4i + 2j
  EXPECT_EQ(values_of<float>(s), (std::vector<float>{0, 2, 4, 6}));
}

TEST(DlpackImport, WritesLandInTheProducersBuffer) {
  DeleterLog log;
  ForeignSpec spec;
  spec.bytes = as_bytes(iota(6));
  spec.byte_offset = 8;
  spec.shape = {2, 3};
  DLManagedTensorVersioned* m = make_foreign(spec, &log);
  const float* f = reinterpret_cast<const float*>(static_cast<char*>(m->dl_tensor.data) + 8);
  Tensor t = import(m);
  Tensor fives;
  const int64_t shape[] = {2, 3};
  CHECK_OK(porta_full(shape, 2, 5.0, porta_float32, kCpu, fives.out()));
  CHECK_OK(porta_copy_into(t, fives));
  EXPECT_EQ(std::vector<float>(f, f + 6), std::vector<float>(6, 5.0f));
  const std::vector<float> v = {6, 5, 4, 3, 2, 1};
  CHECK_OK(porta_tensor_from_host_into(t, v.data(), v.size() * sizeof(float)));
  EXPECT_EQ(std::vector<float>(f, f + 6), v);
}

TEST(DlpackImport, ZeroDimWithNullShapeAndStrides) {
  DeleterLog log;
  ForeignSpec spec;
  spec.bytes = as_bytes(std::vector<double>{2.5});
  spec.dtype = porta_float64;
  spec.null_shape = true;
  Tensor t = import(make_foreign(spec, &log));
  EXPECT_EQ(shape_of(t), std::vector<int64_t>{});
  EXPECT_EQ(values_of<double>(t), std::vector<double>{2.5});
  t.reset(nullptr);
  EXPECT_EQ(log.calls, 1);
}

TEST(DlpackImport, SizeZeroWithNullData) {
  DeleterLog log;
  ForeignSpec spec;
  spec.shape = {2, 0, 3};
  spec.null_data = true;
  Tensor t = import(make_foreign(spec, &log));
  EXPECT_EQ(shape_of(t), (std::vector<int64_t>{2, 0, 3}));
  EXPECT_EQ(conformance::numel_of(t), 0);
  EXPECT_EQ(values_of<float>(t), std::vector<float>{});
  t.reset(nullptr);
  EXPECT_EQ(log.calls, 1);
}

TEST(DlpackImport, BoolBuffer) {
  DeleterLog log;
  ForeignSpec spec;
  spec.bytes = {1, 0, 0, 1};
  spec.dtype = porta_bool;
  spec.shape = {4};
  Tensor t = import(make_foreign(spec, &log));
  EXPECT_EQ(conformance::dtype_of(t).code, kDLBool);
  EXPECT_EQ(values_of<uint8_t>(t), (std::vector<uint8_t>{1, 0, 0, 1}));
}

TEST(DlpackImport, NewerMinorVersionIsAccepted) {
  DeleterLog log;
  ForeignSpec spec;
  spec.bytes = as_bytes(iota(2));
  spec.shape = {2};
  spec.version = {DLPACK_MAJOR_VERSION, 99};
  Tensor t = import(make_foreign(spec, &log));
  EXPECT_EQ(values_of<float>(t), iota(2));
}

TEST(DlpackImport, LegacyImportReadsTheSameWay) {
  DeleterLog log;
  ForeignSpec spec;
  spec.bytes = as_bytes(iota(6));
  spec.byte_offset = 4;
  spec.shape = {3, 2};
  spec.strides = std::vector<int64_t>{1, 3};
  DLManagedTensor* m = make_foreign_legacy(spec, &log);
  char* const buffer = static_cast<char*>(m->dl_tensor.data);
  Tensor t = import_legacy(m);
  EXPECT_EQ(data_ptr(t), buffer + 4);
  EXPECT_FALSE(is_read_only(t));
  EXPECT_EQ(values_of<float>(t), (std::vector<float>{0, 3, 1, 4, 2, 5}));
  t.reset(nullptr);
  EXPECT_EQ(log.calls, 1);
}

TEST(DlpackImport, LegacyTensorWithoutDeleterIsBorrowed) {
  DeleterLog log;
  ForeignSpec spec;
  spec.bytes = as_bytes(iota(3));
  spec.shape = {3};
  spec.null_deleter = true;
  DLManagedTensor* m = make_foreign_legacy(spec, &log);
  Tensor t = import_legacy(m);
  EXPECT_EQ(values_of<float>(t), iota(3));
  t.reset(nullptr);
  restore_deleter(m);  // Porta had nothing to call; the test frees its buffer
  dispose(m);
  EXPECT_EQ(log.calls, 1);
}

// ---- rejections

struct Rejection {
  const char* name;
  std::function<void(ForeignSpec&)> mutate;
  porta_status status;
  std::string message;  // a part of the expected message
};

std::vector<Rejection> rejections() {
  const auto dtype = [](uint8_t code, uint8_t bits, uint16_t lanes) {
    return [=](ForeignSpec& s) { s.dtype = DLDataType{code, bits, lanes}; };
  };
  const auto device = [](int32_t type, int32_t id) {
    return [=](ForeignSpec& s) { s.device = DLDevice{static_cast<DLDeviceType>(type), id}; };
  };
  return {
      {"float8", dtype(kDLFloat, 8, 1), PORTA_ERROR_UNSUPPORTED_DTYPE, "dl_tensor.dtype float8 is not supported"},
      {"bfloat32", dtype(kDLBfloat, 32, 1), PORTA_ERROR_UNSUPPORTED_DTYPE, "dtype bfloat32"},
      {"uint16", dtype(kDLUInt, 16, 1), PORTA_ERROR_UNSUPPORTED_DTYPE, "dtype uint16"},
      {"complex64", dtype(kDLComplex, 64, 1), PORTA_ERROR_UNSUPPORTED_DTYPE, "dtype complex64"},
      {"float32x4", dtype(kDLFloat, 32, 4), PORTA_ERROR_UNSUPPORTED_DTYPE, "float32 x 4 lanes"},
      {"float32x0", dtype(kDLFloat, 32, 0), PORTA_ERROR_UNSUPPORTED_DTYPE, "float32 x 0 lanes"},
      {"bool1", dtype(kDLBool, 1, 1), PORTA_ERROR_UNSUPPORTED_DTYPE, "dtype bool1"},
      {"opaque", dtype(kDLOpaqueHandle, 64, 1), PORTA_ERROR_UNSUPPORTED_DTYPE, "code 3 with 64 bits"},
      {"ndim_negative", [](ForeignSpec& s) { s.ndim = -1; }, PORTA_ERROR_INVALID_ARGUMENT,
       "dl_tensor.ndim -1 is outside [0, 16]"},
      {"ndim_too_large",
       [](ForeignSpec& s) {
         s.shape.assign(PORTA_DLPACK_MAX_NDIM + 1, 1);
         s.bytes = as_bytes(iota(1));
       },
       PORTA_ERROR_INVALID_ARGUMENT, "dl_tensor.ndim 17 is outside [0, 16]"},
      {"shape_null", [](ForeignSpec& s) { s.null_shape = true; }, PORTA_ERROR_INVALID_ARGUMENT,
       "dl_tensor.shape is NULL"},
      {"shape_negative",
       [](ForeignSpec& s) {
         s.shape = {2, -3};
       },
       PORTA_ERROR_INVALID_ARGUMENT, "dl_tensor.shape[1] is -3"},
      {"strides_negative",
       [](ForeignSpec& s) {
         s.strides = std::vector<int64_t>{-3, 1};
       },
       PORTA_ERROR_INVALID_ARGUMENT,
       "dl_tensor.strides[0] is -3: negative strides are not supported; make a contiguous copy first"},
      {"unknown_device_type", device(kDLVulkan, 0), PORTA_ERROR_NO_SUCH_DEVICE,
       "dl_tensor.device: unknown device type 7"},
      {"cuda_host_memory", device(kDLCUDAHost, 0), PORTA_ERROR_NO_SUCH_DEVICE, "dl_tensor.device"},
      {"cpu_index", device(kDLCPU, 3), PORTA_ERROR_NO_SUCH_DEVICE, "cpu:3 does not exist"},
      {"mock_index", device(kDLExtDev, 9), PORTA_ERROR_NO_SUCH_DEVICE, "mock:9 does not exist"},
      {"element_count_overflow",
       [](ForeignSpec& s) {
         s.shape = {int64_t{1} << 40, int64_t{1} << 40};
       },
       PORTA_ERROR_INVALID_ARGUMENT, "more elements than int64 can count"},
      {"extent_overflow",
       [](ForeignSpec& s) {
         s.strides = std::vector<int64_t>{INT64_MAX / 2, 1};
       },
       PORTA_ERROR_INVALID_ARGUMENT, "reaches beyond 2^63 bytes"},
      {"null_data", [](ForeignSpec& s) { s.null_data = true; }, PORTA_ERROR_INVALID_ARGUMENT,
       "dl_tensor.data is NULL but the tensor has 6 elements"},
      {"misaligned", [](ForeignSpec& s) { s.byte_offset = 2; }, PORTA_ERROR_INVALID_ARGUMENT,
       "is not aligned to the 4-byte float32 elements"},
  };
}

ForeignSpec valid_spec() {
  ForeignSpec s;
  s.bytes = as_bytes(iota(6));
  s.shape = {2, 3};
  return s;
}

TEST(DlpackImportRejects, MalformedFieldsWithoutTakingOwnership) {
  for (const Rejection& r : rejections()) {
    SCOPED_TRACE(r.name);
    ForeignSpec spec = valid_spec();
    r.mutate(spec);
    DeleterLog log;
    DLManagedTensorVersioned* m = make_foreign(spec, &log);
    const std::string message =
        expect_failure(r.status, [&](porta_tensor** out) { return porta_from_dlpack_versioned(m, out); });
    EXPECT_NE(message.find(r.message), std::string::npos) << message;
    EXPECT_EQ(message.rfind("from_dlpack_versioned: ", 0), 0u) << message;
    EXPECT_EQ(log.calls, 0) << "the deleter ran although the import was refused";
    dispose(m);  // the caller still owns it
    EXPECT_EQ(log.calls, 1);

    DeleterLog legacy_log;
    DLManagedTensor* l = make_foreign_legacy(spec, &legacy_log);
    const std::string legacy_message =
        expect_failure(r.status, [&](porta_tensor** out) { return porta_from_dlpack(l, out); });
    EXPECT_NE(legacy_message.find(r.message), std::string::npos) << legacy_message;
    EXPECT_EQ(legacy_message.rfind("from_dlpack: ", 0), 0u) << legacy_message;
    EXPECT_EQ(legacy_log.calls, 0);
    dispose(l);
  }
}

TEST(DlpackImportRejects, ForeignMajorVersionIsConsumed) {
  for (uint32_t major : {0u, 2u, 7u}) {
    SCOPED_TRACE(major);
    ForeignSpec spec = valid_spec();
    spec.version = {major, 5};
    spec.ndim = -42;  // nothing but the deleter may be read: these fields are not checked
    spec.dtype = DLDataType{200, 3, 9};
    DeleterLog log;
    DLManagedTensorVersioned* m = make_foreign(spec, &log);
    const std::string message = expect_failure(PORTA_ERROR_INVALID_ARGUMENT,
                                               [&](porta_tensor** out) { return porta_from_dlpack_versioned(m, out); });
    EXPECT_NE(message.find("DLPack version " + std::to_string(major) + ".5"), std::string::npos) << message;
    EXPECT_NE(message.find("major"), std::string::npos) << message;
    EXPECT_EQ(log.calls, 1) << "a foreign major must be released through its deleter, exactly once";
  }
}

TEST(DlpackImportRejects, ForeignMajorWithoutDeleter) {
  ForeignSpec spec = valid_spec();
  spec.version = {2, 0};
  spec.null_deleter = true;
  DeleterLog log;
  DLManagedTensorVersioned* m = make_foreign(spec, &log);
  expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** out) { return porta_from_dlpack_versioned(m, out); });
  EXPECT_EQ(log.calls, 0);
  restore_deleter(m);
  dispose(m);
}

TEST(DlpackImportRejects, NullArguments) {
  expect_failure(PORTA_ERROR_INVALID_ARGUMENT,
                 [](porta_tensor** out) { return porta_from_dlpack_versioned(nullptr, out); });
  EXPECT_NE(std::string(porta_last_error()).find("managed"), std::string::npos);
  expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [](porta_tensor** out) { return porta_from_dlpack(nullptr, out); });

  // A NULL out refuses the call before anything is read or consumed, even a foreign major.
  for (uint32_t major : {uint32_t{DLPACK_MAJOR_VERSION}, 2u}) {
    ForeignSpec spec = valid_spec();
    spec.version = {major, 0};
    DeleterLog log;
    DLManagedTensorVersioned* m = make_foreign(spec, &log);
    EXPECT_EQ(porta_from_dlpack_versioned(m, nullptr), PORTA_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(porta_last_error()).find("out"), std::string::npos);
    EXPECT_EQ(log.calls, 0);
    dispose(m);
  }
  DeleterLog log;
  DLManagedTensor* l = make_foreign_legacy(valid_spec(), &log);
  EXPECT_EQ(porta_from_dlpack(l, nullptr), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(log.calls, 0);
  dispose(l);
}

}  // namespace
}  // namespace dlpack_test
