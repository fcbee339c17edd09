// Moving data: porta_tensor_to between every pair of loaded devices,
// porta_copy_into across devices, and host I/O through strided views.
#include "device_params.hpp"
#include "host_tensor.hpp"

namespace conformance {
namespace {

class Transfer : public DeviceTest {};
PORTA_INSTANTIATE_FOR_EVERY_DEVICE(Transfer);

TEST_P(Transfer, ToEveryDevice) {
  uint32_t seed = 1;
  for (const DeviceCase& target : loaded_devices())
    for (DLDataType dt : kAllDtypes)
      for (Layout layout : kAllLayouts) {
        const HostTensor h = sample_host(dt, {5, 3}, seed++);
        op_case("tensor_to", dt, [&] {
          SCOPED_TRACE(GetParam().name + " -> " + target.name + " " + dtype_name(dt) + " " + layout_name(layout));
          Tensor t = upload(h, dev(), layout), moved, back;
          CHECK_OK(porta_tensor_to(t, target.device, moved.out()));
          if (target.name == GetParam().name) {
            EXPECT_EQ(moved.get(), t.get()) << "already there: the same handle";
            return;
          }
          EXPECT_EQ(device_string(device_of(moved)), target.name);
          EXPECT_TRUE(is_contiguous(moved));
          expect_close(download(moved), h, kExact, "to");
          CHECK_OK(porta_tensor_to(moved, dev(), back.out()));
          EXPECT_EQ(device_string(device_of(back)), GetParam().name);
          expect_close(download(back), h, kExact, "to and back");
        });
      }
}

TEST_P(Transfer, ToKeepsZeroDimAndEmptyShapes) {
  for (const DeviceCase& target : loaded_devices())
    for (const Shape& s : {Shape{}, Shape{0}, Shape{3, 0, 2}}) {
      SCOPED_TRACE(target.name + " " + shape_str(s));
      const HostTensor h = sample_host(porta_float64, s, 3);
      Tensor t = upload(h, dev()), moved;
      CHECK_OK(porta_tensor_to(t, target.device, moved.out()));
      expect_close(download(moved), h, kExact, "to");
    }
}

TEST_P(Transfer, TheSameHandleHoldsItsOwnReference) {
  const HostTensor h = sample_host(porta_int32, {4}, 5);
  Tensor t = upload(h, dev());
  porta_tensor* same = nullptr;
  CHECK_OK(porta_tensor_to(t, dev(), &same));
  ASSERT_EQ(same, t.get());
  t.reset(nullptr);  // drop the original reference; `same` keeps the tensor alive
  expect_close(download(same), h, kExact, "after releasing the first reference");
  porta_tensor_release(same);
}

TEST_P(Transfer, CopyIntoAcrossDevices) {
  uint32_t seed = 100;
  for (const DeviceCase& other : loaded_devices())
    for (bool outgoing : {true, false}) {
      SCOPED_TRACE(outgoing ? GetParam().name + " -> " + other.name : other.name + " -> " + GetParam().name);
      const DLDevice src_dev = outgoing ? dev() : other.device, dst_dev = outgoing ? other.device : dev();
      const HostTensor src = sample_host(porta_float64, {4}, seed++, Values::Grid);
      Tensor s = upload(src, src_dev, Layout::Strided);
      Tensor d = upload(sample_host(porta_int32, {3, 4}, seed++), dst_dev, Layout::Transposed);
      CHECK_OK(porta_copy_into(d, s));  // broadcast [4] -> [3, 4] and cast float64 -> int32
      EXPECT_EQ(device_string(device_of(d)), outgoing ? other.name : GetParam().name);
      expect_close(download(d), broadcast_host(cast_host(src, porta_int32), {3, 4}), kExact, "copy_into");
    }
}

TEST_P(Transfer, FromHostIntoStridedViews) {
  HostTensor base_ref = make_host(porta_float32, {4, 6}, std::vector<double>(24, -1.0));
  Tensor base = upload(base_ref, dev()), cols, tr;
  CHECK_OK(porta_slice(base, 1, 1, 6, 2, cols.out()));  // [4, 3]: columns 1, 3, 5
  const HostTensor a = sample_host(porta_float32, {4, 3}, 7);
  const auto a_bytes = to_bytes(a);
  CHECK_OK(porta_tensor_from_host_into(cols, a_bytes.data(), a_bytes.size() - 1));
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) base_ref.v[i * 6 + 1 + 2 * j] = a.v[i * 3 + j];
  expect_close(download(base), base_ref, kExact, "base after from_host_into a column slice");
  expect_close(download(cols), a, kExact, "to_host of the column slice");

  CHECK_OK(porta_transpose(base, 0, 1, tr.out()));  // [6, 4]
  const HostTensor b = sample_host(porta_float32, {6, 4}, 8);
  const auto b_bytes = to_bytes(b);
  CHECK_OK(porta_tensor_from_host_into(tr, b_bytes.data(), b_bytes.size() - 1));
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 4; ++j) base_ref.v[j * 6 + i] = b.v[i * 4 + j];
  expect_close(download(base), base_ref, kExact, "base after from_host_into its transpose");
}

TEST_P(Transfer, HostBufferSizesAreChecked) {
  const HostTensor h = sample_host(porta_float64, {2, 3}, 9);
  Tensor t = upload(h, dev());
  std::vector<unsigned char> buf(6 * 8 + 8);
  EXPECT_EQ(porta_tensor_to_host(t, buf.data(), 6 * 8 - 1), PORTA_ERROR_INVALID_ARGUMENT) << porta_last_error();
  CHECK_OK(porta_tensor_to_host(t, buf.data(), buf.size()));  // larger is fine
  EXPECT_EQ(porta_tensor_from_host_into(t, buf.data(), 6 * 8 + 8), PORTA_ERROR_INVALID_ARGUMENT) << porta_last_error();
  EXPECT_EQ(porta_tensor_from_host_into(t, buf.data(), 6 * 8 - 8), PORTA_ERROR_INVALID_ARGUMENT) << porta_last_error();
  expect_close(download(t), h, kExact, "after the failed writes");
  const Shape empty{0, 3};
  Tensor e;
  CHECK_OK(porta_tensor_from_host(nullptr, porta_float32, empty.data(), 2, dev(), e.out()));
  EXPECT_EQ(shape_of(e), empty);
  CHECK_OK(porta_tensor_to_host(e, nullptr, 0));
}

TEST_P(Transfer, TransfersAreCounted) {
  for (const DeviceCase& target : other_devices()) {
    SCOPED_TRACE(GetParam().name + " -> " + target.name);
    porta_memory_stats before{}, after{}, src_before{}, src_after{};
    before.struct_size = after.struct_size = src_before.struct_size = src_after.struct_size =
        sizeof(porta_memory_stats);
    Tensor t = upload(sample_host(porta_float64, {100}, 1), dev()), moved;
    CHECK_OK(porta_device_memory_stats(target.device, &before));
    CHECK_OK(porta_device_memory_stats(dev(), &src_before));
    CHECK_OK(porta_tensor_to(t, target.device, moved.out()));
    CHECK_OK(porta_device_memory_stats(target.device, &after));
    CHECK_OK(porta_device_memory_stats(dev(), &src_after));
    EXPECT_GE(after.bytes_to_device - before.bytes_to_device, 800u);
    EXPECT_GE(src_after.bytes_from_device - src_before.bytes_from_device, 800u);
  }
}

}  // namespace
}  // namespace conformance
