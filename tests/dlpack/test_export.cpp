// porta_to_dlpack_versioned / porta_to_dlpack on every loaded device: the
// exported DLTensor describes the tensor exactly (dtype, shape, strides in
// elements, device, where the first element is) and imports back equal.
#include <functional>

#include "dlpack_test_util.hpp"

namespace dlpack_test {
namespace {

using conformance::byte_offset_of;
using conformance::shape_of;
using conformance::strides_of;

class DlpackExport : public conformance::DeviceTest {};

// Owns an export until the test ends (the consumer's side of the contract).
struct Exported {
  DLManagedTensorVersioned* m = nullptr;
  explicit Exported(porta_tensor* t, uint64_t flags = 0) { CHECK_OK(porta_to_dlpack_versioned(t, flags, &m)); }
  Exported(const Exported&) = delete;
  Exported& operator=(const Exported&) = delete;
  ~Exported() { dispose(m); }
  const DLTensor& dl() const { return m->dl_tensor; }
};

// Where `t`'s first element is, as the export must say: the address itself
// where data pointers exist (cpu, cuda), else the storage handle (that of
// `base`, which shares the storage and has offset 0) plus byte_offset.
void expect_points_at(const DLTensor& dl, const porta_tensor* t, const DLTensor& base) {
  void* p = nullptr;
  if (porta_tensor_data_ptr(t, &p) == PORTA_OK) {
    EXPECT_EQ(dl.data, p);
    EXPECT_EQ(dl.byte_offset, 0u);
  } else {
    EXPECT_EQ(dl.data, base.data);
    EXPECT_EQ(dl.byte_offset, byte_offset_of(t));
  }
}

void expect_describes(const DLTensor& dl, const porta_tensor* t) {
  const DLDataType dt = conformance::dtype_of(t);
  EXPECT_TRUE(same_device(dl.device, conformance::device_of(t)));
  EXPECT_EQ(dl.dtype.code, dt.code);
  EXPECT_EQ(dl.dtype.bits, dt.bits);
  EXPECT_EQ(dl.dtype.lanes, 1);
  EXPECT_EQ(dl_shape(dl), shape_of(t));
  if (dl.ndim > 0) {
    ASSERT_NE(dl.strides, nullptr) << "strides must always be filled";
  }
  EXPECT_EQ(dl_strides(dl), strides_of(t));
}

TEST_P(DlpackExport, DescribesAContiguousTensor) {
  Tensor t = arange_f32({3, 4}, dev());
  Exported e(t);
  EXPECT_EQ(e.m->version.major, static_cast<uint32_t>(DLPACK_MAJOR_VERSION));
  EXPECT_EQ(e.m->version.minor, static_cast<uint32_t>(DLPACK_MINOR_VERSION));
  EXPECT_EQ(e.m->flags, 0u);
  EXPECT_NE(e.m->deleter, nullptr);
  EXPECT_EQ(e.dl().ndim, 2);
  expect_describes(e.dl(), t);
  EXPECT_EQ(dl_strides(e.dl()), (std::vector<int64_t>{4, 1}));
  EXPECT_NE(e.dl().data, nullptr);
  expect_points_at(e.dl(), t, e.dl());
}

TEST_P(DlpackExport, AddsTheCallersFlags) {
  Tensor t = arange_f32(4, dev());
  Exported e(t, DLPACK_FLAG_BITMASK_IS_COPIED);
  EXPECT_EQ(e.m->flags, static_cast<uint64_t>(DLPACK_FLAG_BITMASK_IS_COPIED));
}

struct ViewCase {
  const char* name;
  std::function<Tensor(porta_tensor*)> make;
};

std::vector<ViewCase> view_cases() {
  return {
      {"transpose",
       [](porta_tensor* t) {
         Tensor o;
         CHECK_OK(porta_transpose(t, 0, 2, o.out()));
         return o;
       }},
      {"slice_with_step",
       [](porta_tensor* t) {
         Tensor o;
         CHECK_OK(porta_slice(t, 2, 1, 4, 2, o.out()));
         return o;
       }},
      {"select_then_slice",
       [](porta_tensor* t) {
         Tensor s, o;
         CHECK_OK(porta_select(t, 0, 1, s.out()));
         CHECK_OK(porta_slice(s, 0, 1, 3, 1, o.out()));
         return o;
       }},
      {"permute",
       [](porta_tensor* t) {
         const int32_t dims[] = {1, 2, 0};
         Tensor o;
         CHECK_OK(porta_permute(t, dims, 3, o.out()));
         return o;
       }},
      {"expand",  // stride 0 on the expanded dimension
       [](porta_tensor* t) {
         Tensor row, o;
         CHECK_OK(porta_select(t, 0, 1, row.out()));  // [3, 4]
         Tensor one;
         CHECK_OK(porta_slice(row, 0, 2, 3, 1, one.out()));  // [1, 4], offset 2 rows
         const int64_t shape[] = {5, 4};
         CHECK_OK(porta_expand(one, shape, 2, o.out()));
         return o;
       }},
  };
}

TEST_P(DlpackExport, ExportsViewsWithExactStridesAndOffsets) {
  Tensor base = arange_f32({2, 3, 4}, dev());
  Exported base_export(base);
  for (const ViewCase& c : view_cases()) {
    SCOPED_TRACE(c.name);
    Tensor v = c.make(base);
    Exported e(v);
    expect_describes(e.dl(), v);
    expect_points_at(e.dl(), v, base_export.dl());

    // Back into Porta: the same geometry over the same memory, the same values.
    DLManagedTensorVersioned* m = nullptr;
    CHECK_OK(porta_to_dlpack_versioned(v, 0, &m));
    Tensor back = import(m);
    EXPECT_EQ(shape_of(back), shape_of(v));
    EXPECT_EQ(strides_of(back), strides_of(v));
    void* p = nullptr;
    if (porta_tensor_data_ptr(v, &p) == PORTA_OK) {
      EXPECT_EQ(data_ptr(back), p);  // the offset now lives in the pointer
    } else {
      EXPECT_EQ(byte_offset_of(back), byte_offset_of(v));
    }
    EXPECT_EQ(values_of<float>(back), values_of<float>(v));
  }
}

TEST_P(DlpackExport, ZeroDimTensor) {
  Tensor t;
  CHECK_OK(porta_full(nullptr, 0, 3.5, porta_float64, dev(), t.out()));
  Exported e(t);
  EXPECT_EQ(e.dl().ndim, 0);
  expect_describes(e.dl(), t);
  DLManagedTensorVersioned* m = nullptr;
  CHECK_OK(porta_to_dlpack_versioned(t, 0, &m));
  Tensor back = import(m);
  EXPECT_EQ(shape_of(back), std::vector<int64_t>{});
  EXPECT_EQ(values_of<double>(back), std::vector<double>{3.5});
}

TEST_P(DlpackExport, SizeZeroTensors) {
  const int64_t shape[] = {0, 3};
  Tensor empty;
  CHECK_OK(porta_tensor_empty(porta_int32, shape, 2, dev(), empty.out()));
  Tensor base = arange_f32({4, 3}, dev());
  Tensor tail;  // a size-0 view at a nonzero offset
  CHECK_OK(porta_slice(base, 0, 4, 4, 1, tail.out()));
  for (porta_tensor* t : {empty.get(), tail.get()}) {
    Exported e(t);
    expect_describes(e.dl(), t);
    DLManagedTensorVersioned* m = nullptr;
    CHECK_OK(porta_to_dlpack_versioned(t, 0, &m));
    Tensor back = import(m);
    EXPECT_EQ(shape_of(back), shape_of(t));
    EXPECT_EQ(conformance::numel_of(back), 0);
    EXPECT_TRUE(same_device(conformance::device_of(back), dev()));
  }
}

TEST_P(DlpackExport, EveryDtypeKeepsItsCodeAndBits) {
  const std::vector<float> src = {0, 1, 2, 0, 5, 1};
  Tensor f = from_host_f32(src, {2, 3}, dev());
  for (DLDataType dt : {porta_float32, porta_float64, porta_int32, porta_int64, porta_uint8, porta_bool}) {
    SCOPED_TRACE(conformance::device_string(dev()) + " dtype code " + std::to_string(dt.code) + " bits " +
                 std::to_string(dt.bits));
    Tensor t;
    CHECK_OK(porta_cast(f, dt, t.out()));
    Exported e(t);
    EXPECT_EQ(e.dl().dtype.code, dt.code);
    EXPECT_EQ(e.dl().dtype.bits, dt.bits);
    EXPECT_EQ(e.dl().dtype.lanes, 1);
    DLManagedTensorVersioned* m = nullptr;
    CHECK_OK(porta_to_dlpack_versioned(t, 0, &m));
    Tensor back = import(m);
    Tensor back_f, t_f;
    CHECK_OK(porta_cast(back, porta_float32, back_f.out()));
    CHECK_OK(porta_cast(t, porta_float32, t_f.out()));
    EXPECT_EQ(values_of<float>(back_f), values_of<float>(t_f));
  }
}

TEST_P(DlpackExport, BoolValuesSurviveARoundTrip) {
  const std::vector<uint8_t> bits = {1, 0, 1, 1, 0};
  const int64_t shape[] = {5};
  Tensor t;
  CHECK_OK(porta_tensor_from_host(bits.data(), porta_bool, shape, 1, dev(), t.out()));
  DLManagedTensorVersioned* m = nullptr;
  CHECK_OK(porta_to_dlpack_versioned(t, 0, &m));
  EXPECT_EQ(m->dl_tensor.dtype.code, kDLBool);
  EXPECT_EQ(m->dl_tensor.dtype.bits, 8);
  Tensor back = import(m);
  EXPECT_EQ(values_of<uint8_t>(back), bits);
}

TEST_P(DlpackExport, LegacyExportDescribesTheSameTensor) {
  Tensor base = arange_f32({3, 4}, dev());
  Exported base_export(base);
  Tensor v;
  CHECK_OK(porta_transpose(base, 0, 1, v.out()));
  Tensor s;
  CHECK_OK(porta_slice(v, 0, 1, 4, 2, s.out()));
  DLManagedTensor* m = nullptr;
  CHECK_OK(porta_to_dlpack(s, &m));
  ASSERT_NE(m, nullptr);
  EXPECT_NE(m->deleter, nullptr);
  expect_describes(m->dl_tensor, s);
  expect_points_at(m->dl_tensor, s, base_export.dl());
  Tensor back = import_legacy(m);
  EXPECT_FALSE(is_read_only(back));
  EXPECT_EQ(values_of<float>(back), values_of<float>(s));
}

TEST_P(DlpackExport, DataPointerExistsOnlyWhereHandlesAreAddresses) {
  Tensor t = arange_f32({2, 5}, dev());
  Tensor row;
  CHECK_OK(porta_select(t, 0, 1, row.out()));
  const int32_t type = dev().device_type;
  void* p = reinterpret_cast<void*>(uintptr_t{1});
  const porta_status st = porta_tensor_data_ptr(row, &p);
  if (type == kDLCPU || type == kDLCUDA) {
    ASSERT_EQ(st, PORTA_OK) << porta_last_error();
    Exported e(row);
    EXPECT_EQ(p, e.dl().data);
    if (type == kDLCPU) {
      EXPECT_EQ(*static_cast<float*>(p), 5.0f);
    }
  } else {
    EXPECT_EQ(st, PORTA_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(p, reinterpret_cast<void*>(uintptr_t{1})) << "out written on error";
    EXPECT_NE(std::string(porta_last_error()).find("opaque"), std::string::npos) << porta_last_error();
  }
}

PORTA_INSTANTIATE_FOR_EVERY_DEVICE(DlpackExport);

TEST(DlpackExportArguments, NullArgumentsAreRefusedAndOutputsUntouched) {
  Tensor t = arange_f32(3, DLDevice{kDLCPU, 0});
  auto* const mark_v = reinterpret_cast<DLManagedTensorVersioned*>(uintptr_t{8});
  auto* const mark_l = reinterpret_cast<DLManagedTensor*>(uintptr_t{8});
  DLManagedTensorVersioned* v = mark_v;
  DLManagedTensor* l = mark_l;
  EXPECT_EQ(porta_to_dlpack_versioned(nullptr, 0, &v), PORTA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(v, mark_v);
  EXPECT_EQ(porta_to_dlpack_versioned(t, 0, nullptr), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(porta_last_error()).find("out"), std::string::npos);
  EXPECT_EQ(porta_to_dlpack(nullptr, &l), PORTA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(l, mark_l);
  EXPECT_EQ(porta_to_dlpack(t, nullptr), PORTA_ERROR_INVALID_ARGUMENT);

  void* p = nullptr;
  int r = 7;
  EXPECT_EQ(porta_tensor_data_ptr(nullptr, &p), PORTA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(porta_tensor_data_ptr(t, nullptr), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(porta_tensor_is_read_only(nullptr, &r), PORTA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(r, 7);
  EXPECT_EQ(porta_tensor_is_read_only(t, nullptr), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_FALSE(is_read_only(t));
}

}  // namespace
}  // namespace dlpack_test

namespace dlpack_test {
namespace {

// A consumer that breaks the contract and calls the deleter twice (as
// PyTorch does, in effect, when it refuses a device and leaves the capsule
// unrenamed): the second call finds NULL and does nothing; the storage went
// with the first. Under ASan a second free would be reported here.
TEST_P(DlpackExport, ACarelessConsumerDeletingTwiceIsHarmless) {
  Tensor t = arange_f32({64}, dev());
  DLManagedTensorVersioned* v = nullptr;
  CHECK_OK(porta_to_dlpack_versioned(t, 0, &v));
  auto* deleter = v->deleter;
  deleter(v);
  EXPECT_EQ(v->deleter, nullptr) << "a capsule destructor reading the field must see that it ran";
  EXPECT_EQ(v->manager_ctx, nullptr);
  deleter(v);
  DLManagedTensor* l = nullptr;
  CHECK_OK(porta_to_dlpack(t, &l));
  auto* legacy = l->deleter;
  legacy(l);
  legacy(l);
  EXPECT_EQ(l->deleter, nullptr);
}

}  // namespace
}  // namespace dlpack_test
