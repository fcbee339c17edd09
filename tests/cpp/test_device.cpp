// porta::Device: parsing, naming, queries; try_gpu and friends.
#include <sstream>

#include "mock_device.hpp"

using porta::Device;

TEST(Device, DefaultIsTheCpu) {
  EXPECT_EQ(Device(), Device("cpu"));
  EXPECT_EQ(Device("cpu"), Device("cpu:0"));
  EXPECT_TRUE(Device().is_cpu());
  EXPECT_EQ(Device().str(), "cpu") << "a lone CPU is named as PyTorch names it";
  EXPECT_EQ(Device().type_name(), "cpu");
  EXPECT_EQ(Device().index(), 0);
}

TEST(Device, StreamsItsString) {
  std::ostringstream os;
  os << Device("cpu");
  EXPECT_EQ(os.str(), "cpu");
}

TEST(Device, InfoComesFromThePlugin) {
  const porta_device_info info = Device("cpu").info();
  EXPECT_EQ(info.kind, PORTA_DEVICE_KIND_CPU);
  EXPECT_GE(info.compute_units, 1);
  EXPECT_GT(std::string(info.name).size(), 0u);
}

TEST(Device, BadStringsThrowWithTheCoresMessage) {
  try {
    Device("xpu:0");
    FAIL() << "expected porta::Error";
  } catch (const porta::Error& e) {
    EXPECT_EQ(e.status(), PORTA_ERROR_NO_SUCH_DEVICE);
    EXPECT_STREQ(e.status_name(), "PORTA_ERROR_NO_SUCH_DEVICE");
    EXPECT_NE(std::string(e.what()).find("xpu"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cpu"), std::string::npos) << "should list what exists: " << e.what();
  }
  EXPECT_THROW(Device("cpu:01"), porta::Error);
  EXPECT_THROW(Device("cpu:7"), porta::Error);
}

TEST(Device, TryGpuFallsBackToTheCpu) {
  const int n = porta::accelerator_count();
  if (n == 0) {
    EXPECT_EQ(porta::try_gpu(), Device("cpu"));
    EXPECT_EQ(porta::try_all_gpus(), std::vector<Device>{Device("cpu")});
  } else {
    EXPECT_FALSE(porta::try_gpu().is_cpu());
    EXPECT_EQ(porta::try_all_gpus().size(), static_cast<size_t>(n));
  }
  EXPECT_EQ(porta::try_gpu(n), Device("cpu")) << "one past the last accelerator";
  EXPECT_EQ(porta::try_gpu(-1), Device("cpu"));
}

TEST(Device, SynchronizeReturns) { EXPECT_NO_THROW(porta::synchronize(Device())); }

class DeviceOnMock : public MockDeviceTest {};

TEST_F(DeviceOnMock, ParsesTypeAndIndex) {
  const Device d("mock:1");
  EXPECT_EQ(d.str(), "mock:1");
  EXPECT_EQ(d.type_name(), "mock");
  EXPECT_EQ(d.index(), 1);
  EXPECT_FALSE(d.is_cpu());
  EXPECT_FALSE(d == Device("mock:0"));
  EXPECT_EQ(Device(d.dl()), d);
  EXPECT_EQ(Device(std::string("mock")), Device("mock:0"));
  EXPECT_EQ(d.info().kind, PORTA_DEVICE_KIND_VIRTUAL);
  EXPECT_NO_THROW(porta::synchronize(d));
  EXPECT_NO_THROW(d.empty_cache());
}

TEST_F(DeviceOnMock, MockDevicesAreNotAccelerators) {
  for (const Device& d : porta::try_all_gpus()) EXPECT_NE(d.type_name(), "mock");
}
