// Failed C calls become porta::Error with the status and the core's message.
#include <gmock/gmock.h>

#include <porta/nn.hpp>

#include "mock_device.hpp"

using porta::Tensor;
using ::testing::HasSubstr;

class ErrorsOnMock : public MockDeviceTest {};

TEST_F(ErrorsOnMock, DeviceMismatchNamesTheOpAndBothDevices) {
  const Tensor on_cpu = Tensor::ones({2}, "cpu");
  const Tensor on_mock = Tensor::ones({2}, "mock:1");
  try {
    Tensor sum = on_cpu + on_mock;
    FAIL() << "expected porta::Error, got " << sum;
  } catch (const porta::Error& e) {
    EXPECT_EQ(e.status(), PORTA_ERROR_DEVICE_MISMATCH);
    EXPECT_THAT(e.what(), HasSubstr("add"));
    EXPECT_THAT(e.what(), HasSubstr("cpu"));
    EXPECT_THAT(e.what(), HasSubstr("mock:1"));
  }
  // Every operand position and form is checked, not just the first.
  EXPECT_THROW(on_mock * on_cpu, porta::Error);
  EXPECT_THROW(porta::where(on_cpu > 0, on_cpu, on_mock), porta::Error);
  EXPECT_THROW(on_cpu.matmul(on_mock), porta::Error);
  // The fix the message suggests works.
  EXPECT_EQ((on_cpu + on_mock.to("cpu")).to_vector<float>(), (std::vector<float>{2, 2}));
}

TEST(Errors, BindingChecksCarryAnOpTag) {
  const Tensor t = Tensor::ones({2, 3});
  try {
    (void)t.to_vector<int64_t>();
    FAIL();
  } catch (const porta::Error& e) {
    EXPECT_EQ(e.status(), PORTA_ERROR_INVALID_ARGUMENT);
    EXPECT_THAT(e.what(), HasSubstr("[to_vector]"));
    EXPECT_THAT(e.what(), HasSubstr("float32"));
  }
  EXPECT_THROW((void)t.size(2), porta::Error);
  EXPECT_THROW((void)t.item<float>(), porta::Error);
  EXPECT_THROW(Tensor::from_vector(std::vector<float>{1, 2, 3}, {2, 2}), porta::Error);
}

TEST(Errors, CoreShapeErrorsPropagate) {
  try {
    Tensor::ones({2, 3}) + Tensor::ones({4});
    FAIL();
  } catch (const porta::Error& e) {
    EXPECT_EQ(e.status(), PORTA_ERROR_SHAPE_MISMATCH);
    EXPECT_GT(std::string(e.what()).size(), 0u);
  }
  EXPECT_THROW(Tensor::ones({2, 3}).view({4}), porta::Error);
  EXPECT_THROW(Tensor().neg(), porta::Error) << "an undefined tensor is an invalid handle";
}

// An undefined or moved-from Tensor: the error names the C++ call and the
// Tensor's state, not the C ABI's parameter ("a is NULL").
TEST(Errors, AnUndefinedOrMovedFromTensorIsNamedWithTheCall) {
  auto message = [](auto&& f) -> std::string {
    try {
      f();
    } catch (const porta::Error& e) {
      EXPECT_EQ(e.status(), PORTA_ERROR_INVALID_HANDLE);
      return e.what();
    }
    ADD_FAILURE() << "no error";
    return "";
  };
  const Tensor undefined;
  EXPECT_THAT(message([&] { undefined.neg(); }), testing::AllOf(testing::HasSubstr("neg"),
                                                                 testing::HasSubstr("undefined porta::Tensor")));
  Tensor a = Tensor::ones({2});
  const Tensor b = std::move(a);
  EXPECT_THAT(message([&] { (void)(b + a); }),
              testing::AllOf(testing::HasSubstr("add"), testing::HasSubstr("moved from")));
  EXPECT_THAT(message([&] { (void)a.shape(); }), testing::HasSubstr("moved from"));
  EXPECT_THAT(message([&] { porta::nn::functional::linear(undefined, b, Tensor()); }),
              testing::AllOf(testing::HasSubstr("linear"), testing::HasSubstr("undefined porta::Tensor")));
  Tensor c = Tensor::ones({1});
  porta_tensor_release(c.release());
  EXPECT_THAT(message([&] { c.relu_(); }), testing::AllOf(testing::HasSubstr("relu_"), testing::HasSubstr("released")));
}
