// Export -> import on every loaded device: zero-copy (same memory, writes
// visible both ways), lifetimes (the exporter may die first; the deleter
// runs exactly once, with the last Porta view) and no leaks over many trips.
#include "dlpack_test_util.hpp"

namespace dlpack_test {
namespace {

using conformance::byte_offset_of;

class DlpackRoundTrip : public conformance::DeviceTest {};

DLManagedTensorVersioned* export_versioned(porta_tensor* t) {
  DLManagedTensorVersioned* m = nullptr;
  CHECK_OK(porta_to_dlpack_versioned(t, 0, &m));
  return m;
}

TEST_P(DlpackRoundTrip, SharesMemoryWithoutCopying) {
  Tensor base = arange_f32({4, 5}, dev());
  Tensor t;
  CHECK_OK(porta_slice(base, 0, 1, 3, 1, t.out()));  // rows 1..2: nonzero byte offset
  DLManagedTensorVersioned* m = export_versioned(t);
  const DLTensor dl = m->dl_tensor;  // a copy: the import owns m from here
  Tensor back = import(m);

  void* p = nullptr;
  if (porta_tensor_data_ptr(t, &p) == PORTA_OK) {
    EXPECT_EQ(data_ptr(back), p);
  }
  // Re-exporting the import points at exactly the original handle and offset.
  DLManagedTensorVersioned* again = export_versioned(back);
  EXPECT_EQ(again->dl_tensor.data, dl.data);
  EXPECT_EQ(again->dl_tensor.byte_offset, dl.byte_offset);
  EXPECT_TRUE(same_device(again->dl_tensor.device, dev()));
  dispose(again);
  EXPECT_EQ(byte_offset_of(back), dl.byte_offset);

  // Writes through either side are seen by the other.
  Tensor sevens;
  const int64_t shape[] = {2, 5};
  CHECK_OK(porta_full(shape, 2, 7.0, porta_float32, dev(), sevens.out()));
  CHECK_OK(porta_copy_into(back, sevens));
  EXPECT_EQ(values_of<float>(t), std::vector<float>(10, 7.0f));
  const std::vector<float> fresh = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
  CHECK_OK(porta_tensor_from_host_into(t, fresh.data(), fresh.size() * sizeof(float)));
  EXPECT_EQ(values_of<float>(back), fresh);
}

TEST_P(DlpackRoundTrip, ConsumerOutlivesTheExporter) {
  Tensor t = arange_f32({2, 3}, dev());
  DLManagedTensorVersioned* m = export_versioned(t);
  DLManagedTensor* legacy = nullptr;
  CHECK_OK(porta_to_dlpack(t, &legacy));
  t.reset(nullptr);                   // the exporter's last handle
  if (dev().device_type == kDLCPU) {  // the consumer reads the memory directly
    const auto* f = static_cast<const float*>(m->dl_tensor.data);
    EXPECT_EQ(std::vector<float>(f, f + 6), (std::vector<float>{0, 1, 2, 3, 4, 5}));
  }
  Tensor back = import(m);
  EXPECT_EQ(values_of<float>(back), (std::vector<float>{0, 1, 2, 3, 4, 5}));
  Tensor back_legacy = import_legacy(legacy);
  back.reset(nullptr);
  EXPECT_EQ(values_of<float>(back_legacy), (std::vector<float>{0, 1, 2, 3, 4, 5}));
}

TEST_P(DlpackRoundTrip, ExportSurvivesMovingTheExporter) {
  // porta_tensor_move_to swaps the handle's storage; the export keeps the old one.
  for (const conformance::DeviceCase& other : other_devices()) {
    SCOPED_TRACE(other.name);
    Tensor t = arange_f32(6, dev());
    DLManagedTensorVersioned* m = export_versioned(t);
    CHECK_OK(porta_tensor_move_to(t, other.device));
    t.reset(nullptr);
    EXPECT_TRUE(same_device(m->dl_tensor.device, dev()));
    Tensor back = import(m);
    EXPECT_EQ(values_of<float>(back), (std::vector<float>{0, 1, 2, 3, 4, 5}));
  }
}

TEST_P(DlpackRoundTrip, DeleterRunsOnceWithTheLastView) {
  Tensor t = arange_f32({3, 4}, dev());
  DeleterLog log;
  Tensor imported = import(counted(export_versioned(t), &log));
  t.reset(nullptr);

  std::vector<Tensor> views;
  views.emplace_back();
  CHECK_OK(porta_transpose(imported, 0, 1, views.back().out()));
  views.emplace_back();
  CHECK_OK(porta_slice(imported, 1, 1, 4, 2, views.back().out()));
  views.emplace_back();
  CHECK_OK(porta_detach(imported, views.back().out()));
  views.emplace_back();
  const int64_t flat[] = {12};
  CHECK_OK(porta_view(imported, flat, 1, views.back().out()));
  views.emplace_back();
  CHECK_OK(porta_tensor_to(imported, dev(), views.back().out()));  // the same handle, retained
  porta_tensor_retain(imported);
  Tensor extra_ref(imported.get());

  imported.reset(nullptr);
  extra_ref.reset(nullptr);
  EXPECT_EQ(log.calls, 0);
  EXPECT_EQ(values_of<float>(views[3]), (std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
  for (size_t i = 0; i + 1 < views.size(); ++i) {
    views[i].reset(nullptr);
    EXPECT_EQ(log.calls, 0) << "deleter ran with " << views.size() - 1 - i << " views alive";
  }
  views.back().reset(nullptr);
  EXPECT_EQ(log.calls, 1);
}

TEST_P(DlpackRoundTrip, LegacyRoundTrip) {
  Tensor base = arange_f32({3, 4}, dev());
  Tensor t;
  CHECK_OK(porta_transpose(base, 0, 1, t.out()));
  DLManagedTensor* m = nullptr;
  CHECK_OK(porta_to_dlpack(t, &m));
  DeleterLog log;
  Tensor back = import_legacy(counted_legacy(m, &log));
  EXPECT_EQ(conformance::strides_of(back), conformance::strides_of(t));
  EXPECT_EQ(values_of<float>(back), values_of<float>(t));
  void* p = nullptr;
  if (porta_tensor_data_ptr(t, &p) == PORTA_OK) {
    EXPECT_EQ(data_ptr(back), p);
  }
  back.reset(nullptr);
  EXPECT_EQ(log.calls, 1);
}

uint64_t allocated_bytes(DLDevice d) {
  porta_memory_stats s{};
  s.struct_size = sizeof(s);
  CHECK_OK(porta_device_memory_stats(d, &s));
  return s.allocated_bytes;
}

TEST_P(DlpackRoundTrip, ManyRoundTripsLeakNothing) {
  constexpr int kTrips = 100000;
  const uint64_t bytes_before = allocated_bytes(dev());
  const int64_t shape[] = {3, 5};
  DeleterLog log;
  for (int i = 0; i < kTrips; ++i) {
    porta_tensor* t = nullptr;
    CHECK_OK(porta_full(shape, 2, static_cast<double>(i % 7), porta_float32, dev(), &t));
    porta_tensor* back = nullptr;
    if (i % 2 == 0) {
      DLManagedTensorVersioned* m = nullptr;
      CHECK_OK(porta_to_dlpack_versioned(t, 0, &m));
      CHECK_OK(porta_from_dlpack_versioned(counted(m, &log), &back));
    } else {
      DLManagedTensor* m = nullptr;
      CHECK_OK(porta_to_dlpack(t, &m));
      CHECK_OK(porta_from_dlpack(counted_legacy(m, &log), &back));
    }
    porta_tensor* view = nullptr;
    CHECK_OK(porta_slice(back, 1, 1, 5, 2, &view));
    if (i % 3 == 0) {  // vary who dies first
      porta_tensor_release(t);
      porta_tensor_release(back);
      porta_tensor_release(view);
    } else {
      porta_tensor_release(view);
      porta_tensor_release(back);
      porta_tensor_release(t);
    }
  }
  EXPECT_EQ(log.calls, kTrips);
  EXPECT_EQ(g_live_contexts.load(), 0) << "deleter contexts still alive";
  EXPECT_EQ(allocated_bytes(dev()), bytes_before);
}

PORTA_INSTANTIATE_FOR_EVERY_DEVICE(DlpackRoundTrip);

}  // namespace
}  // namespace dlpack_test
