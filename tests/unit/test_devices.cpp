// Device registry: introspection, accelerators, the device-mismatch rule.
#include "unit_util.hpp"

using namespace porta_test;

TEST(Devices, InfoComesFromThePlugin) {
  porta_device_info info{};
  info.struct_size = sizeof(info);
  PORTA_ASSERT_OK(porta_device_get_info(device("cpu"), &info));
  EXPECT_GT(std::string(info.name).size(), 0u);
  EXPECT_GT(info.memory_total, 0u);
  EXPECT_GE(info.compute_units, 1);
  EXPECT_EQ(info.kind, PORTA_DEVICE_KIND_CPU);
  PORTA_ASSERT_OK(porta_device_get_info(device("mock:1"), &info));
  EXPECT_EQ(info.kind, PORTA_DEVICE_KIND_VIRTUAL);
}

TEST(Devices, OlderCallerStructsAreFilledOnlyAsFarAsTheirSize) {
  // A caller compiled when porta_device_info ended after `name`.
  struct { porta_device_info info; char guard[16]; } s;
  std::memset(&s, 0x7f, sizeof s);
  s.info.struct_size = offsetof(porta_device_info, memory_total);
  PORTA_ASSERT_OK(porta_device_get_info(device("cpu"), &s.info));
  EXPECT_EQ(s.info.struct_size, offsetof(porta_device_info, memory_total));
  EXPECT_EQ(s.info.memory_total, 0x7f7f7f7f7f7f7f7fu) << "fields past struct_size must not be written";
  EXPECT_EQ(porta_device_get_info(device("cpu"), nullptr), PORTA_ERROR_INVALID_ARGUMENT);
  porta_device_info zero{};
  EXPECT_EQ(porta_device_get_info(device("cpu"), &zero), PORTA_ERROR_INVALID_ARGUMENT) << "struct_size 0 is refused";
}

TEST(Devices, NoAcceleratorsHereMeansTryGpuFallsBackToCpu) {
  // cpu and mock are not accelerators; a CUDA or GPU OpenCL device would be.
  int32_t n = -1;
  PORTA_ASSERT_OK(porta_accelerator_count(&n));
  for (int32_t i = 0; i < n; ++i) {
    DLDevice d{};
    PORTA_ASSERT_OK(porta_accelerator_get(i, &d));
    porta_device_info info{};
    info.struct_size = sizeof(info);
    PORTA_ASSERT_OK(porta_device_get_info(d, &info));
    EXPECT_TRUE(info.kind == PORTA_DEVICE_KIND_GPU || info.kind == PORTA_DEVICE_KIND_ACCELERATOR);
  }
  DLDevice d{};
  EXPECT_EQ(porta_accelerator_get(n, &d), PORTA_ERROR_NO_SUCH_DEVICE);
}

TEST(Devices, MixingDevicesFailsNamingOpDevicesAndFix) {
  Tensor a = from({1, 2, 3}, {3}, device("mock:1"));
  Tensor b = from({1, 2, 3}, {3}, device("cpu"));
  porta_tensor* sentinel = reinterpret_cast<porta_tensor*>(0x1);
  porta_tensor* out = sentinel;
  EXPECT_EQ(porta_add(a.get(), b.get(), &out), PORTA_ERROR_DEVICE_MISMATCH);
  EXPECT_EQ(out, sentinel);
  const std::string m = error();
  EXPECT_NE(m.find("add"), std::string::npos) << m;
  EXPECT_NE(m.find("mock:1"), std::string::npos) << m;
  EXPECT_NE(m.find("cpu"), std::string::npos) << m;
  EXPECT_NE(m.find("porta_tensor_to"), std::string::npos) << m;
  EXPECT_EQ(porta_matmul(a.get(), b.get(), &out), PORTA_ERROR_DEVICE_MISMATCH);
  EXPECT_NE(error().find("matmul"), std::string::npos);
}

TEST(Devices, ToTheSameDeviceReturnsTheSameHandle) {
  Tensor a = from({1, 2, 3}, {3}, device("mock:0"));
  porta_tensor* same = nullptr;
  PORTA_ASSERT_OK(porta_tensor_to(a.get(), device("mock:0"), &same));
  EXPECT_EQ(same, a.get());
  porta_tensor_release(same);  // it was a new reference
  porta_tensor* moved = nullptr;
  PORTA_ASSERT_OK(porta_tensor_to(a.get(), device("mock:1"), &moved));
  Tensor m(moved);
  EXPECT_NE(moved, a.get());
  EXPECT_EQ(values(moved), (std::vector<float>{1, 2, 3}));
}

TEST(Devices, TransfersAreCountedPerDevice) {
  porta_memory_stats before{}, after{};
  before.struct_size = after.struct_size = sizeof(porta_memory_stats);
  PORTA_ASSERT_OK(porta_device_memory_stats(device("mock:1"), &before));
  Tensor a = from(std::vector<float>(256, 1.0f), {256}, device("mock:1"));
  values(a.get());
  PORTA_ASSERT_OK(porta_device_memory_stats(device("mock:1"), &after));
  EXPECT_EQ(after.bytes_to_device - before.bytes_to_device, 1024u);
  EXPECT_EQ(after.bytes_from_device - before.bytes_from_device, 1024u);
}

TEST(Devices, SynchronizeWorksAndValidates) {
  PORTA_EXPECT_OK(porta_synchronize(device("cpu")));
  PORTA_EXPECT_OK(porta_synchronize(device("mock:1")));
  EXPECT_EQ(porta_synchronize(DLDevice{kDLCPU, 5}), PORTA_ERROR_NO_SUCH_DEVICE);
}
