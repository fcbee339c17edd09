// 100k DLPack round trips (export, import back, release) on cpu and mock:0:
// every deleter runs exactly once and device memory returns to where it
// started. Under ASan (scripts/test.sh) LeakSanitizer checks the rest.
#include "fault_hooks.hpp"

namespace porta_test {
namespace {

constexpr int kRoundTrips = 100000;

class DlpackRoundTrips : public ::testing::TestWithParam<const char*> {};

TEST_P(DlpackRoundTrips, HundredThousandRoundTripsLeaveNothingBehind) {
  const DLDevice dev = device(GetParam());
  Tensor t = from({1, 2, 3, 4, 5, 6}, {2, 3}, dev);
  const uint64_t before = memory_stats(dev).allocated_bytes;
  for (int i = 0; i < kRoundTrips; ++i) {
    DLManagedTensorVersioned* m = nullptr;
    ASSERT_EQ(porta_to_dlpack_versioned(t.get(), 0, &m), PORTA_OK) << error();
    porta_tensor* back = nullptr;
    ASSERT_EQ(porta_from_dlpack_versioned(m, &back), PORTA_OK) << error();  // Porta now owns m
    porta_tensor_release(back);  // runs m's deleter, which drops the export's reference
    if (i % 2 == 0) {  // the legacy struct too
      DLManagedTensor* legacy = nullptr;
      ASSERT_EQ(porta_to_dlpack(t.get(), &legacy), PORTA_OK) << error();
      ASSERT_EQ(porta_from_dlpack(legacy, &back), PORTA_OK) << error();
      porta_tensor_release(back);
    }
  }
  EXPECT_EQ(memory_stats(dev).allocated_bytes, before);
  EXPECT_EQ(values(t.get()), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

INSTANTIATE_TEST_SUITE_P(Devices, DlpackRoundTrips, ::testing::Values("cpu", "mock:0"),
                         [](const auto& info) { return std::string(info.param).substr(0, 3) == "cpu" ? "cpu" : "mock0"; });

}  // namespace
}  // namespace porta_test
