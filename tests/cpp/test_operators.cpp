// C++ operators: every one, in tensor-tensor, tensor-scalar and scalar-tensor form.
#include "mock_device.hpp"

using porta::Tensor;
using F = std::vector<float>;
using B = std::vector<bool>;

namespace {

Tensor vec(F values) { return Tensor::from_vector(values); }

}  // namespace

TEST(Operators, Arithmetic) {
  const Tensor a = vec({1, 2, 4}), b = vec({4, 2, 1});
  EXPECT_EQ((a + b).to_vector<float>(), (F{5, 4, 5}));
  EXPECT_EQ((a + 1).to_vector<float>(), (F{2, 3, 5}));
  EXPECT_EQ((1 + a).to_vector<float>(), (F{2, 3, 5}));
  EXPECT_EQ((a - b).to_vector<float>(), (F{-3, 0, 3}));
  EXPECT_EQ((a - 1).to_vector<float>(), (F{0, 1, 3}));
  EXPECT_EQ((1 - a).to_vector<float>(), (F{0, -1, -3}));
  EXPECT_EQ((a * b).to_vector<float>(), (F{4, 4, 4}));
  EXPECT_EQ((a * 0.5).to_vector<float>(), (F{0.5, 1, 2}));
  EXPECT_EQ((0.5 * a).to_vector<float>(), (F{0.5, 1, 2}));
  EXPECT_EQ((a / b).to_vector<float>(), (F{0.25, 1, 4}));
  EXPECT_EQ((a / 2).to_vector<float>(), (F{0.5, 1, 2}));
  EXPECT_EQ((8 / a).to_vector<float>(), (F{8, 4, 2}));
  EXPECT_EQ((-a).to_vector<float>(), (F{-1, -2, -4}));
}

TEST(Operators, BoolPlusBoolIsLogicalOrAsPyTorch) {
  const Tensor a = vec({1, 0, 0}) != 0, b = vec({1, 1, 0}) != 0;
  const Tensor sum = a + b, product = a * b;
  EXPECT_EQ(sum.dtype(), porta::kBool);
  EXPECT_EQ(sum.to_vector<bool>(), (B{true, true, false}));
  EXPECT_EQ(product.to_vector<bool>(), (B{true, false, false}));
}

TEST(Operators, ComparisonsGiveBoolTensors) {
  const Tensor a = vec({1, 2, 3}), b = vec({3, 2, 1});
  for (const Tensor& t : {a == b, a != b, a < b, a <= b, a > b, a >= b, a == 2, 2 == a}) EXPECT_EQ(t.dtype(), porta::kBool);
  EXPECT_EQ((a == b).to_vector<bool>(), (B{false, true, false}));
  EXPECT_EQ((a != b).to_vector<bool>(), (B{true, false, true}));
  EXPECT_EQ((a < b).to_vector<bool>(), (B{true, false, false}));
  EXPECT_EQ((a <= b).to_vector<bool>(), (B{true, true, false}));
  EXPECT_EQ((a > b).to_vector<bool>(), (B{false, false, true}));
  EXPECT_EQ((a >= b).to_vector<bool>(), (B{false, true, true}));
  EXPECT_EQ((a == 2).to_vector<bool>(), (B{false, true, false}));
  EXPECT_EQ((2 == a).to_vector<bool>(), (B{false, true, false}));
  EXPECT_EQ((a != 2).to_vector<bool>(), (B{true, false, true}));
  EXPECT_EQ((2 != a).to_vector<bool>(), (B{true, false, true}));
  // Scalar first mirrors the comparison: 2 < a is a > 2.
  EXPECT_EQ((a < 2).to_vector<bool>(), (B{true, false, false}));
  EXPECT_EQ((2 < a).to_vector<bool>(), (B{false, false, true}));
  EXPECT_EQ((a <= 2).to_vector<bool>(), (B{true, true, false}));
  EXPECT_EQ((2 <= a).to_vector<bool>(), (B{false, true, true}));
  EXPECT_EQ((a > 2).to_vector<bool>(), (B{false, false, true}));
  EXPECT_EQ((2 > a).to_vector<bool>(), (B{true, false, false}));
  EXPECT_EQ((a >= 2).to_vector<bool>(), (B{false, true, true}));
  EXPECT_EQ((2 >= a).to_vector<bool>(), (B{true, true, false}));
}

TEST(Operators, BroadcastAndPromote) {
  const Tensor m = Tensor::ones({2, 3});
  const Tensor row = vec({1, 2, 3});
  EXPECT_EQ((m + row).shape(), (porta::Shape{2, 3}));
  EXPECT_EQ((m * row).to_vector<float>(), (F{1, 2, 3, 1, 2, 3}));
  const Tensor ints = Tensor::from_vector(std::vector<int64_t>{1, 2});
  EXPECT_EQ((ints + 1).dtype(), porta::kInt64);
  EXPECT_EQ((ints + 0.5).dtype(), porta::kFloat32);
  EXPECT_EQ((ints + vec({0.5, 0.5})).to_vector<float>(), (F{1.5, 2.5}));
  EXPECT_EQ((1 / ints).to_vector<float>(), (F{1, 0.5})) << "true division";
  EXPECT_EQ((3 - ints).to_vector<int64_t>(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ((2.5 - ints).to_vector<float>(), (F{1.5, 0.5}));
}

class OperatorsOnMock : public MockDeviceTest {};

TEST_F(OperatorsOnMock, ResultsStayOnTheOperandsDevice) {
  const Tensor a = Tensor::from_vector(std::vector<float>{1, 2}, "mock:1");
  for (const Tensor& t : {a + a, a + 1, 1 + a, 1 - a, 2 / a, -a, a < 1, 1 < a})
    EXPECT_EQ(t.device(), porta::Device("mock:1"));
  EXPECT_EQ((2 / a).to_vector<float>(), (F{2, 1}));
}

TEST(Operators, BoolSubtractionIsRefusedInEitherOrder) {
  const porta::Tensor b = porta::Tensor::from_vector(std::vector<bool>{true, false});
  EXPECT_THROW(b - 1, porta::Error);
  EXPECT_THROW(1 - b, porta::Error);
  EXPECT_EQ((b + 1).sum().item<int64_t>(), 3);
}

// Integer scalars stay integers (libtorch's Scalar keeps an int64): through a
// double, 2^53 + 1 became 2^53.
TEST(Operators, IntegerScalarsKeepEveryBit) {
  using I = std::vector<int64_t>;
  const int64_t big = (int64_t{1} << 53) + 1;
  const Tensor one = Tensor::from_vector(I{1}), bigs = Tensor::from_vector(I{big});
  EXPECT_EQ((one + big).to_vector<int64_t>(), (I{big + 1}));
  EXPECT_EQ((big + one).to_vector<int64_t>(), (I{big + 1}));
  EXPECT_EQ((one - big).to_vector<int64_t>(), (I{1 - big}));
  EXPECT_EQ((big - one).to_vector<int64_t>(), (I{big - 1}));
  EXPECT_EQ((one * big).to_vector<int64_t>(), (I{big}));
  EXPECT_EQ((bigs == big).to_vector<bool>(), (B{true}));
  EXPECT_EQ((big == bigs).to_vector<bool>(), (B{true}));
  EXPECT_EQ((bigs > big - 1).to_vector<bool>(), (B{true}));
  EXPECT_EQ(porta::add(one, big).to_vector<int64_t>(), (I{big + 1}));
  EXPECT_EQ(one.add(big).dtype(), porta::kInt64);
  Tensor acc = Tensor::from_vector(I{1});
  acc += big;
  acc -= int64_t{1};
  EXPECT_EQ(acc.to_vector<int64_t>(), (I{big}));
  EXPECT_EQ(Tensor::full({2}, big, {}, porta::kInt64).to_vector<int64_t>(), (I{big, big}));
  EXPECT_EQ(Tensor::arange(big, big + 3, int64_t{1}, {}, porta::kInt64).to_vector<int64_t>(),
            (I{big, big + 1, big + 2}));
  // Narrower integer dtypes wrap the scalar as PyTorch does; bool promotes to int64.
  const Tensor i32 = Tensor::from_vector(std::vector<int32_t>{1});
  EXPECT_EQ((i32 + int64_t{3000000000}).to_vector<int32_t>(), (std::vector<int32_t>{-1294967295}));
  EXPECT_EQ((i32 + ((int64_t{1} << 60) + 5)).to_vector<int32_t>(), (std::vector<int32_t>{6}));
  const Tensor u8 = Tensor::from_vector(std::vector<uint8_t>{1});
  EXPECT_EQ((u8 + 300).to_vector<uint8_t>(), (std::vector<uint8_t>{45}));
  const Tensor flag = Tensor::from_vector(B{true});
  EXPECT_EQ((flag + big).dtype(), porta::kInt64);
  EXPECT_EQ((flag + big).to_vector<int64_t>(), (I{big + 1}));
  EXPECT_THROW(one + (uint64_t{1} << 63), porta::Error) << "beyond int64";
}

// Bitwise operators as PyTorch's: integers and bool, shifts that saturate past
// the width, floating operands refused.
TEST(Operators, BitwiseOnIntegersAndBool) {
  using I = std::vector<int64_t>;
  const Tensor a = Tensor::from_vector(I{12, -3, 5}), b = Tensor::from_vector(I{10, 2, 1});
  EXPECT_EQ((a & b).to_vector<int64_t>(), (I{8, 0, 1}));
  EXPECT_EQ((a | b).to_vector<int64_t>(), (I{14, -1, 5}));
  EXPECT_EQ((a ^ b).to_vector<int64_t>(), (I{6, -1, 4}));
  EXPECT_EQ((~a).to_vector<int64_t>(), (I{-13, 2, -6}));
  EXPECT_EQ((a & 4).to_vector<int64_t>(), (I{4, 4, 4}));
  EXPECT_EQ((4 & a).to_vector<int64_t>(), (I{4, 4, 4}));
  EXPECT_EQ((a << 1).to_vector<int64_t>(), (I{24, -6, 10}));
  EXPECT_EQ((1 << b).to_vector<int64_t>(), (I{1024, 4, 2}));
  EXPECT_EQ((a >> 1).to_vector<int64_t>(), (I{6, -2, 2})) << "arithmetic shift";
  EXPECT_EQ((a >> 70).to_vector<int64_t>(), (I{0, -1, 0})) << "past the width: the sign";
  EXPECT_EQ((a << -1).to_vector<int64_t>(), (I{0, 0, 0})) << "a negative shift gives 0";
  const Tensor u8 = Tensor::from_vector(std::vector<uint8_t>{255, 1});
  EXPECT_EQ((u8 << 1).to_vector<uint8_t>(), (std::vector<uint8_t>{254, 2}));
  EXPECT_EQ((~u8).to_vector<uint8_t>(), (std::vector<uint8_t>{0, 254}));
  const Tensor p = Tensor::from_vector(B{true, false, true}), q = Tensor::from_vector(B{true, true, false});
  EXPECT_EQ((p & q).to_vector<bool>(), (B{true, false, false}));
  EXPECT_EQ((p | q).to_vector<bool>(), (B{true, true, true}));
  EXPECT_EQ((p ^ q).to_vector<bool>(), (B{false, true, true}));
  EXPECT_EQ((~p).to_vector<bool>(), (B{false, true, false}));
  EXPECT_EQ((p & q).dtype(), porta::kBool);
  Tensor acc = Tensor::from_vector(I{1, 2});
  acc |= 4;
  acc <<= 1;
  acc ^= Tensor::from_vector(I{1, 1});
  EXPECT_EQ(acc.to_vector<int64_t>(), (I{11, 13}));
  const Tensor f = vec({1, 2});
  EXPECT_THROW(f & f, porta::Error);
  EXPECT_THROW(~f, porta::Error);
  EXPECT_EQ((p << 1).to_vector<int64_t>(), (I{2, 0, 2})) << "bool and an integer scalar promote to int64";
  EXPECT_THROW(p << p, porta::Error) << "shifts take integers, not bool";
}
