// The error contract on every device: mixing devices is DEVICE_MISMATCH (the
// message names both), bad handles and NULL outputs are refused, and a failed
// call leaves its out-parameter untouched.
#include "device_params.hpp"
#include "host_tensor.hpp"
#include "op_tables.hpp"

namespace conformance {
namespace {

class Errors : public DeviceTest {};
PORTA_INSTANTIATE_FOR_EVERY_DEVICE(Errors);

void expect_names_both(const std::string& msg, const std::string& a, const std::string& b) {
  EXPECT_NE(msg.find(a), std::string::npos) << "message does not name " << a << ": " << msg;
  EXPECT_NE(msg.find(b), std::string::npos) << "message does not name " << b << ": " << msg;
}

TEST_P(Errors, MixingDevicesIsDeviceMismatch) {
  const auto others = other_devices();
  if (others.empty()) GTEST_SKIP() << "only one device is loaded; nothing to mix with";
  for (const DeviceCase& other : others) {
    SCOPED_TRACE(GetParam().name + " with " + other.name);
    const std::string here = GetParam().name, there = other.name;
    Tensor a = upload(sample_host(porta_float32, {2, 3}, 1), dev());
    Tensor b = upload(sample_host(porta_float32, {2, 3}, 2), other.device);
    Tensor m = upload(sample_host(porta_float32, {3, 2}, 3), other.device);
    Tensor c_here = upload(sample_host(porta_bool, {2, 3}, 4), dev()),
           c_there = upload(sample_host(porta_bool, {2, 3}, 5), other.device);
    for (const BinaryOp& op : kBinaryOps) {
      SCOPED_TRACE(op.name);
      expect_names_both(expect_failure(PORTA_ERROR_DEVICE_MISMATCH, [&](porta_tensor** o) { return op.fn(a, b, o); }),
                        here, there);
      expect_names_both(expect_failure(PORTA_ERROR_DEVICE_MISMATCH, [&](porta_tensor** o) { return op.fn(b, a, o); }),
                        here, there);
    }
    expect_names_both(
        expect_failure(PORTA_ERROR_DEVICE_MISMATCH, [&](porta_tensor** o) { return porta_matmul(a, m, o); }), here,
        there);
    expect_names_both(
        expect_failure(PORTA_ERROR_DEVICE_MISMATCH, [&](porta_tensor** o) { return porta_where(c_there, a, a, o); }),
        here, there);
    expect_names_both(
        expect_failure(PORTA_ERROR_DEVICE_MISMATCH, [&](porta_tensor** o) { return porta_where(c_here, a, b, o); }),
        here, there);
    expect_names_both(
        expect_failure(PORTA_ERROR_DEVICE_MISMATCH, [&](porta_tensor** o) { return porta_where(c_here, b, a, o); }),
        here, there);
  }
}

TEST_P(Errors, DeviceMismatchBeatsOtherErrors) {
  // The bad broadcast is not reported before the device mix-up that makes the call meaningless.
  const auto others = other_devices();
  if (others.empty()) GTEST_SKIP() << "only one device is loaded; nothing to mix with";
  Tensor a = upload(sample_host(porta_float32, {3}, 1), dev());
  Tensor b = upload(sample_host(porta_float32, {4}, 2), others.front().device);
  expect_failure(PORTA_ERROR_DEVICE_MISMATCH, [&](porta_tensor** o) { return porta_add(a, b, o); });
}

TEST_P(Errors, NullHandlesAndOutputs) {
  Tensor a = upload(sample_host(porta_float32, {3}, 1), dev());
  for (const UnaryOp& op : kUnaryOps) {
    SCOPED_TRACE(op.name);
    expect_failure(PORTA_ERROR_INVALID_HANDLE, [&](porta_tensor** o) { return op.fn(nullptr, o); });
    EXPECT_EQ(op.fn(a, nullptr), PORTA_ERROR_INVALID_ARGUMENT) << "NULL out: " << porta_last_error();
  }
  for (const BinaryOp& op : kBinaryOps) {
    SCOPED_TRACE(op.name);
    expect_failure(PORTA_ERROR_INVALID_HANDLE, [&](porta_tensor** o) { return op.fn(a, nullptr, o); });
    expect_failure(PORTA_ERROR_INVALID_HANDLE, [&](porta_tensor** o) { return op.scalar(nullptr, 1.0, o); });
  }
  expect_failure(PORTA_ERROR_INVALID_HANDLE, [&](porta_tensor** o) { return porta_tensor_to(nullptr, dev(), o); });
  EXPECT_EQ(porta_copy_into(a, nullptr), PORTA_ERROR_INVALID_HANDLE) << porta_last_error();
  DLDataType dt{};
  EXPECT_EQ(porta_tensor_dtype(nullptr, &dt), PORTA_ERROR_INVALID_HANDLE) << porta_last_error();
}

TEST_P(Errors, UnknownDeviceIsNoSuchDevice) {
  DLDevice bad = dev();
  bad.device_id = 1000;
  const Shape s{2};
  expect_failure(PORTA_ERROR_NO_SUCH_DEVICE,
                 [&](porta_tensor** o) { return porta_zeros(s.data(), 1, porta_float32, bad, o); });
  Tensor a = upload(sample_host(porta_float32, {2}, 1), dev());
  expect_failure(PORTA_ERROR_NO_SUCH_DEVICE, [&](porta_tensor** o) { return porta_tensor_to(a, bad, o); });
}

TEST_P(Errors, ShapeMismatchMessageNamesTheShapes) {
  Tensor a = upload(sample_host(porta_float32, {3}, 1), dev()), b = upload(sample_host(porta_float32, {4}, 2), dev());
  const std::string msg =
      expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return porta_add(a, b, o); });
  EXPECT_NE(msg.find("[3]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("[4]"), std::string::npos) << msg;
}

}  // namespace
}  // namespace conformance
