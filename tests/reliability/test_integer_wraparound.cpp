// Integer arithmetic on user data wraps around (two's complement), as in
// PyTorch and NumPy, on every host-kernel device. Under UBSan (scripts/test.sh)
// this also proves the kernels never reach signed overflow.
#include <cstdint>
#include <limits>

#include "fault_hooks.hpp"

namespace porta_test {
namespace {

template <class T>
Tensor integers(const std::vector<T>& v, DLDataType dtype, DLDevice dev) {
  const int64_t n = static_cast<int64_t>(v.size());
  porta_tensor* t = nullptr;
  EXPECT_EQ(porta_tensor_from_host(v.data(), dtype, &n, 1, dev, &t), PORTA_OK) << porta_last_error();
  return Tensor(t);
}

template <class T>
std::vector<T> read(porta_tensor* t, size_t n) {
  std::vector<T> v(n);
  EXPECT_EQ(porta_tensor_to_host(t, v.data(), n * sizeof(T)), PORTA_OK) << porta_last_error();
  return v;
}

class IntegerWraparound : public ::testing::TestWithParam<const char*> {};

TEST_P(IntegerWraparound, Int64AddSubMulNegAbsAndSumWrap) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max(), kMin = std::numeric_limits<int64_t>::min();
  const DLDevice dev = device(GetParam());
  Tensor a = integers<int64_t>({kMax, kMin, kMax}, porta_int64, dev);
  Tensor one = integers<int64_t>({1, 1, 2}, porta_int64, dev);
  porta_tensor* out = nullptr;
  PORTA_ASSERT_OK(porta_add(a.get(), one.get(), &out));
  Tensor sum(out);
  EXPECT_EQ(read<int64_t>(sum.get(), 3), (std::vector<int64_t>{kMin, kMin + 1, kMin + 1}));
  PORTA_ASSERT_OK(porta_sub(one.get(), a.get(), &out));
  Tensor diff(out);
  EXPECT_EQ(read<int64_t>(diff.get(), 3), (std::vector<int64_t>{kMin + 2, kMin + 1, kMin + 3}));
  PORTA_ASSERT_OK(porta_mul(a.get(), one.get(), &out));
  Tensor prod(out);
  EXPECT_EQ(read<int64_t>(prod.get(), 3), (std::vector<int64_t>{kMax, kMin, -2}));
  PORTA_ASSERT_OK(porta_neg(a.get(), &out));
  Tensor neg(out);
  EXPECT_EQ(read<int64_t>(neg.get(), 3), (std::vector<int64_t>{kMin + 1, kMin, kMin + 1}));
  PORTA_ASSERT_OK(porta_abs(a.get(), &out));
  Tensor abs(out);
  EXPECT_EQ(read<int64_t>(abs.get(), 3), (std::vector<int64_t>{kMax, kMin, kMax}));
  PORTA_ASSERT_OK(porta_sum(a.get(), nullptr, 0, 0, &out));
  Tensor total(out);
  EXPECT_EQ(read<int64_t>(total.get(), 1), (std::vector<int64_t>{kMax - 1}));  // kMax + kMin + kMax, wrapped
}

TEST_P(IntegerWraparound, Int32AddWraps) {
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max(), kMin = std::numeric_limits<int32_t>::min();
  const DLDevice dev = device(GetParam());
  Tensor a = integers<int32_t>({kMax, kMin}, porta_int32, dev);
  porta_tensor* out = nullptr;
  PORTA_ASSERT_OK(porta_add(a.get(), a.get(), &out));
  Tensor twice(out);
  EXPECT_EQ(read<int32_t>(twice.get(), 2), (std::vector<int32_t>{-2, 0}));
}

INSTANTIATE_TEST_SUITE_P(Devices, IntegerWraparound, ::testing::Values("cpu", "mock:0"),
                         [](const auto& info) { return std::string(info.param) == "cpu" ? "cpu" : "mock0"; });

}  // namespace
}  // namespace porta_test
