// The cuda plugin on a GPU: device properties, no context until a device is
// used, pinned host memory, copies between GPUs, the TF32 switch. Each test
// skips with the reason where the machine has no (or one) CUDA device.
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <gmock/gmock.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cuda_test_util.hpp"

using ::testing::HasSubstr;
using namespace cuda_test;

namespace {

DLDevice cuda(int index) { return DLDevice{kDLCUDA, index}; }

std::vector<float> random_floats(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}

TEST(CudaDevices, PropertiesAreTheRuntimes) {
  CUDA_TEST_REQUIRE_GPU(1);
  for (int d = 0; d < runtime_view().devices; ++d) {
    cudaDeviceProp prop{};
    ASSERT_EQ(cudaGetDeviceProperties(&prop, d), cudaSuccess);
    porta_device_info info{};
    info.struct_size = sizeof(info);
    CUDA_TEST_OK(porta_device_get_info(cuda(d), &info));
    EXPECT_STREQ(info.name, prop.name);
    EXPECT_EQ(info.kind, PORTA_DEVICE_KIND_GPU);
    EXPECT_EQ(info.compute_units, prop.multiProcessorCount);
    EXPECT_EQ(info.capability_major, prop.major);
    EXPECT_EQ(info.capability_minor, prop.minor);
    EXPECT_EQ(info.memory_total, prop.totalGlobalMem);
  }
}

// The driver's view of device 0's primary context (libcuda, not the runtime).
struct DriverApi {
  int (*init)(unsigned) = nullptr;
  int (*device_get)(int*, int) = nullptr;
  int (*primary_state)(int, unsigned*, int*) = nullptr;
  bool load() {
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return false;
    init = reinterpret_cast<decltype(init)>(dlsym(lib, "cuInit"));
    device_get = reinterpret_cast<decltype(device_get)>(dlsym(lib, "cuDeviceGet"));
    primary_state = reinterpret_cast<decltype(primary_state)>(dlsym(lib, "cuDevicePrimaryCtxGetState"));
    return init && device_get && primary_state && init(0) == 0;
  }
  bool context_active(int ordinal) {
    int dev = 0, active = 0;
    unsigned flags = 0;
    return device_get(&dev, ordinal) == 0 && primary_state(dev, &flags, &active) == 0 && active != 0;
  }
};

TEST(CudaDevices, CountingAndPropertiesCreateNoContextFirstUseDoes) {
  CUDA_TEST_REQUIRE_GPU(1);
  DriverApi driver;
  ASSERT_TRUE(driver.load()) << "libcuda.so.1 is needed on a GPU machine";
  if (driver.context_active(0)) GTEST_SKIP() << "cuda:0 has a context already (run this test in its own process)";
  int count = 0;
  CUDA_TEST_OK(porta_device_count("cuda", &count));
  porta_device_info info{};
  info.struct_size = sizeof(info);
  CUDA_TEST_OK(porta_device_get_info(cuda(0), &info));
  EXPECT_FALSE(driver.context_active(0)) << "counting or describing cuda:0 created its context";
  EXPECT_EQ(info.memory_free, 0u) << "free memory is unknown until the device is used";
  Tensor t;
  const int64_t shape[] = {4};
  CUDA_TEST_OK(porta_zeros(shape, 1, porta_float32, cuda(0), t.out()));
  EXPECT_TRUE(driver.context_active(0));
  CUDA_TEST_OK(porta_device_get_info(cuda(0), &info));
  EXPECT_GT(info.memory_free, 0u);
}

TEST(CudaDevices, PinnedHostMemoryRoundTrips) {
  CUDA_TEST_REQUIRE_GPU(1);
  const int64_t n = int64_t{1} << 20;
  const std::vector<float> data = random_floats(n, 1);
  Tensor pinned, on_gpu, back;
  CUDA_TEST_OK(porta_tensor_empty_pinned(porta_float32, &n, 1, cuda(0), pinned.out()));
  int is_pinned = 0;
  CUDA_TEST_OK(porta_tensor_is_pinned(pinned, &is_pinned));
  EXPECT_EQ(is_pinned, 1);
  void* p = nullptr;
  CUDA_TEST_OK(porta_tensor_data_ptr(pinned, &p));
  cudaPointerAttributes attr{};
  ASSERT_EQ(cudaPointerGetAttributes(&attr, p), cudaSuccess);
  EXPECT_EQ(attr.type, cudaMemoryTypeHost) << "not page-locked memory from cudaHostAlloc";
  CUDA_TEST_OK(porta_tensor_from_host_into(pinned, data.data(), data.size() * sizeof(float)));
  CUDA_TEST_OK(porta_tensor_to(pinned, cuda(0), on_gpu.out()));
  std::vector<float> out(n);
  CUDA_TEST_OK(porta_tensor_to_host(on_gpu, out.data(), out.size() * sizeof(float)));
  EXPECT_EQ(out, data);
}

TEST(CudaDevices, CopiesBetweenTwoGpusBothWays) {
  CUDA_TEST_REQUIRE_GPU(2);
  const int64_t n = (int64_t{3} << 20) + 7;  // several staging chunks, an odd tail
  const std::vector<float> data = random_floats(n, 2);
  Tensor a, b, c;
  CUDA_TEST_OK(porta_tensor_from_host(data.data(), porta_float32, &n, 1, cuda(0), a.out()));
  CUDA_TEST_OK(porta_tensor_to(a, cuda(1), b.out()));
  CUDA_TEST_OK(porta_tensor_to(b, cuda(0), c.out()));
  std::vector<float> out(n);
  CUDA_TEST_OK(porta_tensor_to_host(b, out.data(), out.size() * sizeof(float)));
  EXPECT_EQ(out, data) << "cuda:0 -> cuda:1";
  CUDA_TEST_OK(porta_tensor_to_host(c, out.data(), out.size() * sizeof(float)));
  EXPECT_EQ(out, data) << "cuda:1 -> cuda:0";
}

// Largest |C - A B| / max |A B| of a 512^3 float32 product on cuda:0.
double matmul_relative_error() {
  const int64_t n = 512;
  const std::vector<float> a = random_floats(n * n, 3), b = random_floats(n * n, 4);
  const int64_t shape[] = {n, n};
  Tensor ta, tb, tc;
  EXPECT_EQ(porta_tensor_from_host(a.data(), porta_float32, shape, 2, cuda(0), ta.out()), PORTA_OK);
  EXPECT_EQ(porta_tensor_from_host(b.data(), porta_float32, shape, 2, cuda(0), tb.out()), PORTA_OK);
  EXPECT_EQ(porta_matmul(ta, tb, tc.out()), PORTA_OK) << porta_last_error();
  std::vector<float> c(n * n);
  EXPECT_EQ(porta_tensor_to_host(tc, c.data(), c.size() * sizeof(float)), PORTA_OK);
  double worst = 0, scale = 0;
  for (int64_t i = 0; i < n; i += 7)
    for (int64_t j = 0; j < n; ++j) {
      double ref = 0;
      for (int64_t k = 0; k < n; ++k) ref += double(a[i * n + k]) * double(b[k * n + j]);
      worst = std::max(worst, std::fabs(c[i * n + j] - ref));
      scale = std::max(scale, std::fabs(ref));
    }
  return worst / scale;
}

// Run by Tf32IsOffUnlessAllowed in a child process with the variable set.
TEST(CudaTf32, ChildReportsMatmulError) {
  if (!std::getenv("PORTA_CUDA_TEST_TF32_CHILD")) GTEST_SKIP() << "runs as the child of CudaTf32.OffUnlessAllowed";
  CUDA_TEST_REQUIRE_GPU(1);
  std::printf("matmul_relative_error=%.3e\n", matmul_relative_error());
}

TEST(CudaTf32, OffUnlessAllowed) {
  CUDA_TEST_REQUIRE_GPU(1);
  if (const char* v = std::getenv("PORTA_CUDA_ALLOW_TF32"); v && std::strcmp(v, "1") == 0)
    GTEST_SKIP() << "PORTA_CUDA_ALLOW_TF32=1 is set for this process";
  const double fp32 = matmul_relative_error();
  EXPECT_LT(fp32, 1e-5) << "float32 GEMM lost precision: is TF32 on by default?";
  const porta_test::CommandResult child = porta_test::run_command("PORTA_CUDA_ALLOW_TF32=1 PORTA_CUDA_TEST_TF32_CHILD=1 /proc/" + std::to_string(getpid()) +
                           "/exe --gtest_filter=CudaTf32.ChildReportsMatmulError");
  ASSERT_EQ(child.exit_status, 0) << child.output;
  const size_t at = child.output.find("matmul_relative_error=");
  ASSERT_NE(at, std::string::npos) << child.output;
  const double tf32 = std::stod(child.output.substr(at + std::strlen("matmul_relative_error=")));
  EXPECT_GT(tf32, 10 * fp32) << "PORTA_CUDA_ALLOW_TF32=1 did not switch cuBLAS to TF32";
  EXPECT_LT(tf32, 1e-2);
}

}  // namespace
