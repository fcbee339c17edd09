// Factories, host I/O and metadata.
#include "mock_device.hpp"

using porta::Shape;
using porta::Tensor;

namespace {

// from_vector -> to_vector round trip for one element type.
template <class T>
void expect_round_trip(std::vector<T> values, DLDataType dtype) {
  const Tensor t = Tensor::from_vector(values);
  EXPECT_EQ(t.dtype(), dtype);
  EXPECT_EQ(t.shape(), Shape{static_cast<int64_t>(values.size())});
  EXPECT_EQ(t.to_vector<T>(), values);
}

}  // namespace

TEST(Factories, FromVectorDeducesTheDtype) {
  expect_round_trip<float>({1.5f, -2.f}, porta::kFloat32);
  expect_round_trip<double>({0.25, 1e300}, porta::kFloat64);
  expect_round_trip<int32_t>({-7, 1 << 30}, porta::kInt32);
  expect_round_trip<int64_t>({int64_t{1} << 40, -1}, porta::kInt64);
  expect_round_trip<uint8_t>({0, 255}, porta::kUInt8);
  expect_round_trip<bool>({true, false, true}, porta::kBool);
}

TEST(Factories, FromVectorTakesAShape) {
  const Tensor t = Tensor::from_vector(std::vector<int64_t>{1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_EQ(t.shape(), (Shape{2, 3}));
  EXPECT_EQ(t.strides(), (Shape{3, 1}));
  EXPECT_EQ(t.ndim(), 2);
  EXPECT_EQ(t.numel(), 6);
  EXPECT_EQ(t.size(0), 2);
  EXPECT_EQ(t.size(-1), 3);
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_EQ(t.device(), porta::Device());
  const Tensor scalar = Tensor::from_vector(std::vector<double>{4.5}, Shape{});
  EXPECT_EQ(scalar.ndim(), 0);
  EXPECT_EQ(scalar.item<double>(), 4.5);
}

TEST(Factories, FullZerosOnesEmpty) {
  EXPECT_EQ(Tensor::full({2}, 2.5).to_vector<float>(), (std::vector<float>{2.5, 2.5}));
  EXPECT_EQ(Tensor::full({3}, 9, {}, porta::kInt32).to_vector<int32_t>(), (std::vector<int32_t>{9, 9, 9}));
  EXPECT_EQ(Tensor::zeros({2, 2}).to_vector<float>(), (std::vector<float>(4, 0.f)));
  EXPECT_EQ(Tensor::ones({3}, "cpu", porta::kInt64).to_vector<int64_t>(), (std::vector<int64_t>{1, 1, 1}));
  const Tensor e = Tensor::empty({4, 5}, {}, porta::kFloat64);
  EXPECT_EQ(e.shape(), (Shape{4, 5}));
  EXPECT_EQ(e.dtype(), porta::kFloat64);
}

TEST(Factories, Arange) {
  EXPECT_EQ(Tensor::arange(0, 5).to_vector<float>(), (std::vector<float>{0, 1, 2, 3, 4}));
  EXPECT_EQ(Tensor::arange(1, 2, 0.25, {}, porta::kFloat64).to_vector<double>(),
            (std::vector<double>{1, 1.25, 1.5, 1.75}));
  EXPECT_EQ(Tensor::arange(10, 0, -3, {}, porta::kInt64).to_vector<int64_t>(), (std::vector<int64_t>{10, 7, 4, 1}));
}

TEST(Factories, RandomNumbersRepeatWithTheSeed) {
  porta::manual_seed(42);
  const std::vector<float> u1 = Tensor::rand({100}).to_vector<float>();
  const std::vector<double> n1 = Tensor::randn({10}, {}, porta::kFloat64).to_vector<double>();
  porta::manual_seed(42);
  EXPECT_EQ(Tensor::rand({100}).to_vector<float>(), u1);
  EXPECT_EQ(Tensor::randn({10}, {}, porta::kFloat64).to_vector<double>(), n1);
  for (float u : u1) {
    EXPECT_GE(u, 0.f);
    EXPECT_LT(u, 1.f);
  }
  EXPECT_NE(Tensor::rand({100}).to_vector<float>(), u1) << "the generator advances";
}

TEST(Factories, ItemConverts) {
  const Tensor t = Tensor::full({1, 1}, 3, {}, porta::kInt32);
  EXPECT_EQ(t.item<int32_t>(), 3);
  EXPECT_EQ(t.item<double>(), 3.0);
  EXPECT_TRUE(t.item<bool>());
}

class FactoriesOnMock : public MockDeviceTest {};

TEST_F(FactoriesOnMock, EveryFactoryTakesADevice) {
  const porta::Device mock("mock:0");
  EXPECT_EQ(Tensor::from_vector(std::vector<int32_t>{1, 2}, mock).device(), mock);
  EXPECT_EQ(Tensor::zeros({2}, mock).device(), mock);
  EXPECT_EQ(Tensor::ones({2}, mock).device(), mock);
  EXPECT_EQ(Tensor::full({2}, 1, mock).device(), mock);
  EXPECT_EQ(Tensor::empty({2}, mock).device(), mock);
  EXPECT_EQ(Tensor::arange(0, 3, 1, mock).to_vector<float>(), (std::vector<float>{0, 1, 2}));
  porta::manual_seed(7);
  const Tensor on_mock = Tensor::rand({16}, mock);
  porta::manual_seed(7);
  EXPECT_EQ(on_mock.to_vector<float>(), Tensor::rand({16}).to_vector<float>()) << "same seed, same numbers anywhere";
}

TEST(Item, RefusesValuesTheTypeCannotHoldAndKeepsEveryIntegerBit) {
  using porta::Tensor;
  EXPECT_THROW(Tensor::full({}, 1e10).item<int32_t>(), porta::Error);
  EXPECT_THROW(Tensor::full({}, 300, {}, porta::kInt64).item<uint8_t>(), porta::Error);
  EXPECT_THROW(Tensor::full({}, std::nan(""), {}, porta::kFloat64).item<int64_t>(), porta::Error);
  EXPECT_THROW(Tensor::full({}, 1e300, {}, porta::kFloat64).item<float>(), porta::Error);
  EXPECT_THROW(Tensor::full({}, -1, {}, porta::kInt32).item<uint8_t>(), porta::Error);
  try {
    Tensor::full({}, 1e10).item<int32_t>();
  } catch (const porta::Error& e) {
    EXPECT_NE(std::string(e.what()).find("[item] the value 1e+10 cannot be converted to int32 without overflow"),
              std::string::npos)
        << e.what();
  }
  const int64_t big = (int64_t{1} << 53) + 1;
  EXPECT_EQ(Tensor::from_vector(std::vector<int64_t>{big}).item<int64_t>(), big);
  EXPECT_EQ(Tensor::full({}, -3.7).item<int32_t>(), -3);
  EXPECT_EQ(Tensor::full({}, 255, {}, porta::kInt64).item<uint8_t>(), 255);
  EXPECT_TRUE(std::isinf(Tensor::full({}, INFINITY).item<double>()));
  EXPECT_EQ(Tensor::full({}, 2, {}, porta::kInt32).item<bool>(), true);
}

// The shape's element count is checked before it can overflow (a signed overflow UBSan reported in the
// header), and a negative size is named.
TEST(Factories, FromVectorRefusesShapesItCannotCount) {
  const std::vector<float> two{1, 2};
  const int64_t big = int64_t{1} << 40;
  EXPECT_THROW(porta::Tensor::from_vector(two, porta::Shape{big, big, 2}), porta::Error);
  EXPECT_THROW(porta::Tensor::from_vector(two, porta::Shape{-1, -2}), porta::Error);
  EXPECT_EQ(porta::Tensor::from_vector(std::vector<float>{}, porta::Shape{3, 0}).numel(), 0);
  EXPECT_THROW(porta::Tensor::from_vector(std::vector<float>{}, porta::Shape{big, big, 0}), porta::Error);  // the core's stride rule
}
