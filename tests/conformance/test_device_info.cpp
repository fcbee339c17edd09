// What every device reports about itself: info, synchronize, and the caching
// allocator's counters as tensors come and go.
#include <cstring>

#include "device_params.hpp"
#include "host_tensor.hpp"

namespace conformance {
namespace {

class DeviceInfo : public DeviceTest {
 protected:
  porta_memory_stats stats() {
    porta_memory_stats s{};
    s.struct_size = sizeof(s);
    CHECK_OK(porta_device_memory_stats(dev(), &s));
    return s;
  }
};
PORTA_INSTANTIATE_FOR_EVERY_DEVICE(DeviceInfo);

TEST_P(DeviceInfo, InfoAndSynchronize) {
  porta_device_info info{};
  info.struct_size = sizeof(info);
  CHECK_OK(porta_device_get_info(dev(), &info));
  EXPECT_GT(std::strlen(info.name), 0u);
  EXPECT_GE(info.kind, PORTA_DEVICE_KIND_CPU);
  EXPECT_LE(info.kind, PORTA_DEVICE_KIND_VIRTUAL);
  if (dev().device_type == kDLCPU) {
    EXPECT_EQ(info.kind, PORTA_DEVICE_KIND_CPU);
  }
  CHECK_OK(porta_synchronize(dev()));
}

TEST_P(DeviceInfo, AllocatorCountsLiveTensors) {
  const porta_memory_stats before = stats();
  const Shape s{1000};
  {
    Tensor t;
    CHECK_OK(porta_zeros(s.data(), 1, porta_float64, dev(), t.out()));
    const porta_memory_stats during = stats();
    EXPECT_GE(during.allocated_bytes, before.allocated_bytes + 8000);
    EXPECT_GE(during.reserved_bytes, during.allocated_bytes);
    EXPECT_GE(during.peak_allocated_bytes, during.allocated_bytes);
    EXPECT_GT(during.allocations, before.allocations);
  }
  const porta_memory_stats after = stats();
  EXPECT_EQ(after.allocated_bytes, before.allocated_bytes) << "the tensor's block was not given back";
  CHECK_OK(porta_device_empty_cache(dev()));
  EXPECT_EQ(stats().reserved_bytes, stats().allocated_bytes) << "empty_cache left cached blocks";
}

}  // namespace
}  // namespace conformance
