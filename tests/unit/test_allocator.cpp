// The per-device caching allocator: reuse, statistics, empty_cache, OOM.
#include "unit_util.hpp"

using namespace porta_test;

namespace {
porta_memory_stats stats(const char* dev) {
  porta_memory_stats s{};
  s.struct_size = sizeof(s);
  EXPECT_EQ(porta_device_memory_stats(device(dev), &s), PORTA_OK) << porta_last_error();
  return s;
}
Tensor zeros(std::vector<int64_t> shape, const char* dev) {
  porta_tensor* t = nullptr;
  EXPECT_EQ(porta_zeros(shape.data(), static_cast<int32_t>(shape.size()), porta_float32, device(dev), &t), PORTA_OK)
      << porta_last_error();
  return Tensor(t);
}
}  // namespace

TEST(CachingAllocator, FreedBlocksAreReusedWithoutCallingThePlugin) {
  const porta_memory_stats s0 = stats("mock:0");
  { Tensor t = zeros({1000, 37}, "mock:0"); }
  const porta_memory_stats s1 = stats("mock:0");
  EXPECT_EQ(s1.allocated_bytes, s0.allocated_bytes) << "the tensor is gone";
  EXPECT_GE(s1.reserved_bytes, s0.reserved_bytes + 1000 * 37 * 4) << "its block stays cached";
  for (int i = 0; i < 10; ++i) Tensor t = zeros({1000, 37}, "mock:0");
  const porta_memory_stats s2 = stats("mock:0");
  EXPECT_EQ(s2.device_allocations, s1.device_allocations) << "steady state never reaches the plugin";
  EXPECT_EQ(s2.cache_hits - s1.cache_hits, 10u);
  EXPECT_GE(s2.peak_allocated_bytes, 1000u * 37 * 4);
}

TEST(CachingAllocator, LiveTensorsAreCountedAndEmptyCacheReturnsTheRest) {
  const porta_memory_stats s0 = stats("mock:1");
  Tensor keep = zeros({4096}, "mock:1");
  { Tensor drop = zeros({8192}, "mock:1"); }
  const porta_memory_stats s1 = stats("mock:1");
  EXPECT_EQ(s1.allocated_bytes - s0.allocated_bytes, 4096u * 4);
  PORTA_ASSERT_OK(porta_device_empty_cache(device("mock:1")));
  const porta_memory_stats s2 = stats("mock:1");
  EXPECT_EQ(s2.reserved_bytes, s2.allocated_bytes) << "nothing cached after empty_cache";
  EXPECT_GT(s2.device_frees, s1.device_frees);
  EXPECT_EQ(values(keep.get())[0], 0.0f) << "live tensors survive empty_cache";
}

TEST(CachingAllocator, SizeZeroTensorsAllocateNothing) {
  const porta_memory_stats s0 = stats("mock:0");
  Tensor t = zeros({0, 5}, "mock:0");
  EXPECT_EQ(stats("mock:0").allocations, s0.allocations);
  int64_t n = -1;
  PORTA_ASSERT_OK(porta_tensor_numel(t.get(), &n));
  EXPECT_EQ(n, 0);
}

TEST(CachingAllocator, OutOfMemoryNamesBytesAndDeviceAndLeavesThingsWorking) {
  // The mock device holds 4 GiB unless PORTA_MOCK_MEMORY says otherwise.
  const int64_t huge[1] = {int64_t{3} << 30};  // 12 GiB of float32
  porta_tensor* out = nullptr;
  EXPECT_EQ(porta_zeros(huge, 1, porta_float32, device("mock:0"), &out), PORTA_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(out, nullptr);
  EXPECT_NE(error().find("out of memory on mock:0"), std::string::npos) << error();
  EXPECT_NE(error().find("12884901888 bytes"), std::string::npos) << error();
  Tensor after = zeros({16}, "mock:0");
  EXPECT_EQ(values(after.get()).size(), 16u);
}

TEST(CachingAllocator, ShapesWhoseByteCountOverflowAreRefused) {
  const int64_t shape[2] = {int64_t{1} << 62, 4};
  porta_tensor* out = nullptr;
  EXPECT_EQ(porta_tensor_empty(porta_float32, shape, 2, device("cpu"), &out), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(error().find("int64"), std::string::npos) << error();
  const int64_t big[1] = {int64_t{1} << 62};
  EXPECT_EQ(porta_tensor_empty(porta_float64, big, 1, device("cpu"), &out), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(error().find("size_t"), std::string::npos) << error();
  EXPECT_EQ(out, nullptr);
}

// Requests growing from 1 to 64 MiB, each freed before the next: without a
// bound the cache kept every size (2 GiB reserved for a 64 MiB peak).
TEST(CachingAllocator, TheCacheIsBoundedByThePeakOnAGrowingPattern) {
  PORTA_ASSERT_OK(porta_device_empty_cache(device("mock:1")));
  const porta_memory_stats s0 = stats("mock:1");
  uint64_t peak_allocated = 0, peak_reserved = 0;
  for (int64_t mib = 1; mib <= 64; ++mib) {
    Tensor t = zeros({mib << 18}, "mock:1");  // float32: mib MiB
    const porta_memory_stats s = stats("mock:1");
    peak_allocated = std::max(peak_allocated, s.allocated_bytes - s0.allocated_bytes);
    peak_reserved = std::max(peak_reserved, s.reserved_bytes - s0.allocated_bytes);
  }
  EXPECT_EQ(peak_allocated, uint64_t{64} << 20);
  EXPECT_LE(peak_reserved, 2 * peak_allocated) << "reserved " << (peak_reserved >> 20) << " MiB for a "
                                               << (peak_allocated >> 20) << " MiB peak";
  EXPECT_GE(stats("mock:1").peak_reserved_bytes, peak_reserved);
  // A repeating working set still never reaches the plugin.
  const uint64_t allocations = stats("mock:1").device_allocations;
  for (int step = 0; step < 5; ++step) {
    Tensor a = zeros({16 << 18}, "mock:1"), b = zeros({32 << 18}, "mock:1"), c = zeros({64 << 18}, "mock:1");
  }
  EXPECT_LE(stats("mock:1").device_allocations - allocations, 3u) << "the steady state reallocates";
}
