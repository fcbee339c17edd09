// DLPACK_FLAG_BITMASK_READ_ONLY: the imported tensor (and every view of it)
// can be read and computed with, but in-place writes are refused; a
// versioned re-export says read-only, a legacy one is refused; a clone or a
// move to another device gives writable memory.
#include "dlpack_test_util.hpp"

namespace dlpack_test {
namespace {

using conformance::expect_failure;

class DlpackReadOnly : public conformance::DeviceTest {
 protected:
  // t's data imported read-only through a counting wrapper of Porta's export.
  Tensor read_only_import(porta_tensor* t, DeleterLog* log) {
    DLManagedTensorVersioned* m = nullptr;
    CHECK_OK(porta_to_dlpack_versioned(t, 0, &m));
    return import(counted(m, log, DLPACK_FLAG_BITMASK_READ_ONLY));
  }
};

void expect_writes_refused(porta_tensor* t, const DLDevice dev) {
  const std::vector<int64_t> shape = conformance::shape_of(t);
  Tensor src;
  CHECK_OK(porta_full(shape.data(), static_cast<int32_t>(shape.size()), 9.0, porta_float32, dev, src.out()));
  EXPECT_EQ(porta_copy_into(t, src), PORTA_ERROR_INVALID_ARGUMENT);
  std::string message = porta_last_error();
  EXPECT_NE(message.find("copy_into: the tensor is read-only (imported through DLPack with the read-only flag); "
                         "clone it first"),
            std::string::npos)
      << message;
  const std::vector<float> host(static_cast<size_t>(conformance::numel_of(t)), 9.0f);
  EXPECT_EQ(porta_tensor_from_host_into(t, host.data(), host.size() * sizeof(float)), PORTA_ERROR_INVALID_ARGUMENT);
  message = porta_last_error();
  EXPECT_NE(message.find("from_host_into: the tensor is read-only"), std::string::npos) << message;
}

TEST_P(DlpackReadOnly, RefusesWritesButAllowsReading) {
  Tensor t = arange_f32({2, 3}, dev());
  DeleterLog log;
  Tensor ro = read_only_import(t, &log);
  EXPECT_TRUE(is_read_only(ro));
  EXPECT_FALSE(is_read_only(t)) << "the exporter's own handle stays writable";
  expect_writes_refused(ro, dev());
  EXPECT_EQ(values_of<float>(ro), (std::vector<float>{0, 1, 2, 3, 4, 5})) << "a refused write changed the data";

  Tensor doubled;  // ops read it like any tensor
  CHECK_OK(porta_add(ro, ro, doubled.out()));
  EXPECT_EQ(values_of<float>(doubled), (std::vector<float>{0, 2, 4, 6, 8, 10}));
  EXPECT_FALSE(is_read_only(doubled));
  Tensor dst;  // and it may be the source of a write
  CHECK_OK(porta_zeros(std::vector<int64_t>{2, 3}.data(), 2, porta_float32, dev(), dst.out()));
  CHECK_OK(porta_copy_into(dst, ro));
  EXPECT_EQ(values_of<float>(dst), (std::vector<float>{0, 1, 2, 3, 4, 5}));
}

TEST_P(DlpackReadOnly, ViewsStayReadOnly) {
  Tensor t = arange_f32({2, 3}, dev());
  DeleterLog log;
  Tensor ro = read_only_import(t, &log);
  Tensor sliced, transposed, detached;
  CHECK_OK(porta_slice(ro, 1, 0, 3, 2, sliced.out()));
  CHECK_OK(porta_transpose(ro, 0, 1, transposed.out()));
  CHECK_OK(porta_detach(ro, detached.out()));
  for (porta_tensor* v : {sliced.get(), transposed.get(), detached.get()}) {
    EXPECT_TRUE(is_read_only(v));
    expect_writes_refused(v, dev());
  }
  EXPECT_EQ(values_of<float>(sliced), (std::vector<float>{0, 2, 3, 5}));
}

TEST_P(DlpackReadOnly, ReexportCarriesTheFlagAndLegacyExportIsRefused) {
  Tensor t = arange_f32({2, 3}, dev());
  DeleterLog log;
  Tensor ro = read_only_import(t, &log);
  Tensor view;
  CHECK_OK(porta_slice(ro, 0, 1, 2, 1, view.out()));
  for (porta_tensor* x : {ro.get(), view.get()}) {
    DLManagedTensorVersioned* m = nullptr;
    CHECK_OK(porta_to_dlpack_versioned(x, DLPACK_FLAG_BITMASK_IS_COPIED, &m));
    EXPECT_EQ(m->flags, static_cast<uint64_t>(DLPACK_FLAG_BITMASK_READ_ONLY | DLPACK_FLAG_BITMASK_IS_COPIED));
    Tensor again = import(m);
    EXPECT_TRUE(is_read_only(again));

    auto* const mark = reinterpret_cast<DLManagedTensor*>(uintptr_t{8});
    DLManagedTensor* legacy = mark;
    EXPECT_EQ(porta_to_dlpack(x, &legacy), PORTA_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(legacy, mark);
    const std::string message = porta_last_error();
    EXPECT_NE(message.find("read-only"), std::string::npos) << message;
    EXPECT_NE(message.find("porta_to_dlpack_versioned"), std::string::npos) << message;
  }
}

TEST_P(DlpackReadOnly, CloneAndMoveGiveWritableCopies) {
  Tensor t = arange_f32({2, 3}, dev());
  DeleterLog log;
  Tensor ro = read_only_import(t, &log);
  Tensor copy;
  CHECK_OK(porta_clone(ro, copy.out()));
  EXPECT_FALSE(is_read_only(copy));
  const std::vector<float> v = {5, 4, 3, 2, 1, 0};
  CHECK_OK(porta_tensor_from_host_into(copy, v.data(), v.size() * sizeof(float)));
  EXPECT_EQ(values_of<float>(ro), (std::vector<float>{0, 1, 2, 3, 4, 5}));

  for (const conformance::DeviceCase& other : other_devices()) {
    SCOPED_TRACE(other.name);
    DeleterLog moved_log;
    Tensor moved = read_only_import(t, &moved_log);
    CHECK_OK(porta_tensor_move_to(moved, other.device));  // a copy: allowed
    EXPECT_FALSE(is_read_only(moved));
    EXPECT_EQ(moved_log.calls, 1) << "the import's memory was the moved handle's only storage";
    CHECK_OK(porta_tensor_from_host_into(moved, v.data(), v.size() * sizeof(float)));
    EXPECT_EQ(values_of<float>(moved), v);
  }
  EXPECT_EQ(values_of<float>(t), (std::vector<float>{0, 1, 2, 3, 4, 5}));
}

PORTA_INSTANTIATE_FOR_EVERY_DEVICE(DlpackReadOnly);

TEST(DlpackReadOnlyForeign, ProducersBufferIsNeverWritten) {
  DeleterLog log;
  ForeignSpec spec;
  spec.bytes = as_bytes(std::vector<float>{1, 2, 3, 4});
  spec.shape = {2, 2};
  spec.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
  DLManagedTensorVersioned* m = make_foreign(spec, &log);
  const auto* f = static_cast<const float*>(m->dl_tensor.data);
  Tensor ro = import(m);
  EXPECT_TRUE(is_read_only(ro));
  EXPECT_EQ(data_ptr(ro), f);
  expect_writes_refused(ro, DLDevice{kDLCPU, 0});
  EXPECT_EQ(std::vector<float>(f, f + 4), (std::vector<float>{1, 2, 3, 4}));
  ro.reset(nullptr);
  EXPECT_EQ(log.calls, 1);
}

TEST(DlpackReadOnlyForeign, LegacyImportIsNeverReadOnly) {
  DeleterLog log;
  ForeignSpec spec;
  spec.bytes = as_bytes(std::vector<float>{1, 2});
  spec.shape = {2};
  Tensor t = import_legacy(make_foreign_legacy(spec, &log));
  EXPECT_FALSE(is_read_only(t));
}

}  // namespace
}  // namespace dlpack_test
