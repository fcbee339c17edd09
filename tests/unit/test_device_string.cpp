// The device-string grammar: type[:index], and its error messages.
#include "unit_util.hpp"

using namespace porta_test;

TEST(DeviceString, ParsesTypeAndIndex) {
  DLDevice d{};
  PORTA_ASSERT_OK(porta_device_parse("cpu", &d));
  EXPECT_EQ(d.device_type, kDLCPU);
  EXPECT_EQ(d.device_id, 0);
  PORTA_ASSERT_OK(porta_device_parse("cpu:0", &d));
  EXPECT_EQ(d.device_id, 0);
  PORTA_ASSERT_OK(porta_device_parse("mock:1", &d));
  EXPECT_EQ(d.device_type, kDLExtDev);
  EXPECT_EQ(d.device_id, 1);
  PORTA_ASSERT_OK(porta_device_parse("mock", &d));  // bare type means index 0
  EXPECT_EQ(d.device_id, 0);
}

TEST(DeviceString, RejectsMalformedStringsAndSaysWhy) {
  const struct { const char* text; const char* why; } cases[] = {
      {"", "empty"},          {":1", "type is missing"},      {"CPU", "lowercase"},
      {"cpu:", "missing"},    {"cpu:01", "leading zero"},     {"cpu:-1", "non-negative"},
      {"cpu:+1", "non-negative"}, {"cpu:1x", "non-negative"}, {"cu da", "lowercase letters"},
      {"cpu:99999999999", "too large"}, {"1cpu", "start with a lowercase letter"},
  };
  for (const auto& c : cases) {
    DLDevice d{kDLCUDA, 42};
    EXPECT_EQ(porta_device_parse(c.text, &d), PORTA_ERROR_INVALID_ARGUMENT) << c.text;
    EXPECT_NE(error().find(c.why), std::string::npos) << c.text << ": " << error();
    EXPECT_NE(error().find("expected type[:index]"), std::string::npos) << error();
    EXPECT_EQ(d.device_type, kDLCUDA) << "out-parameter must be untouched";
    EXPECT_EQ(d.device_id, 42);
  }
}

TEST(DeviceString, UnknownTypeListsWhatExists) {
  DLDevice d{};
  EXPECT_EQ(porta_device_parse("xpu", &d), PORTA_ERROR_NO_SUCH_DEVICE);
  EXPECT_NE(error().find("unknown device type 'xpu'"), std::string::npos) << error();
  EXPECT_NE(error().find("cpu"), std::string::npos) << error();
  EXPECT_NE(error().find("mock"), std::string::npos) << error();
}

TEST(DeviceString, MissingDeviceSaysHowManyExist) {
  DLDevice d{};
  EXPECT_EQ(porta_device_parse("mock:7", &d), PORTA_ERROR_NO_SUCH_DEVICE);
  EXPECT_NE(error().find("device mock:7 does not exist"), std::string::npos) << error();
  EXPECT_NE(error().find("2 mock devices: mock:0, mock:1"), std::string::npos) << error();
  EXPECT_EQ(porta_device_parse("cpu:1", &d), PORTA_ERROR_NO_SUCH_DEVICE);
}

TEST(DeviceString, NullArgumentsAreErrors) {
  DLDevice d{};
  EXPECT_EQ(porta_device_parse(nullptr, &d), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(porta_device_parse("cpu", nullptr), PORTA_ERROR_INVALID_ARGUMENT);
}

TEST(DeviceString, FormatsBack) {
  char buf[32];
  PORTA_ASSERT_OK(porta_device_to_string(device("mock:1"), buf, sizeof buf));
  EXPECT_STREQ(buf, "mock:1");
  PORTA_ASSERT_OK(porta_device_to_string(device("cpu"), buf, sizeof buf));
  EXPECT_STREQ(buf, "cpu");
  EXPECT_EQ(porta_device_to_string(device("mock:1"), buf, 3), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(porta_device_to_string(DLDevice{kDLCUDA, 3}, buf, sizeof buf), PORTA_ERROR_NO_SUCH_DEVICE);
}

TEST(DeviceCount, KnownTypesCountAndUnknownTypesFail) {
  int n = -1;
  PORTA_ASSERT_OK(porta_device_count("cpu", &n));
  EXPECT_EQ(n, 1);
  PORTA_ASSERT_OK(porta_device_count("mock", &n));
  EXPECT_EQ(n, 2);
  n = -1;
  EXPECT_EQ(porta_device_count("xpu", &n), PORTA_ERROR_NO_SUCH_DEVICE);
  EXPECT_EQ(n, -1);
  EXPECT_NE(error().find("available:"), std::string::npos) << error();
}
