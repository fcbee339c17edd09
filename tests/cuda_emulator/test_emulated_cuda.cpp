// The cuda plugin on the emulator, for what the device-parameterized suites
// cannot see: when CUDA contexts are created, the reason given when there is
// no device, running out of device memory. Each suite runs in its own
// process, started by ctest with the emulator's environment for it
// (CMakeLists.txt): the first test to touch a device decides its context.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <porta/porta.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

#define PORTA_OK_OR_FAIL(expr) ASSERT_EQ((expr), PORTA_OK) << #expr << ": " << porta_last_error()

constexpr DLDataType kFloat32{kDLFloat, 32, 1};

DLDevice cuda(int index) { return DLDevice{kDLCUDA, index}; }

// The emulated plugin's load record (the real cuda plugin, if built, is rejected after it).
porta_plugin_info emulated_plugin() {
  int32_t n = 0;
  EXPECT_EQ(porta_plugin_count(&n), PORTA_OK);
  for (int32_t i = 0; i < n; ++i) {
    porta_plugin_info info{};
    info.struct_size = sizeof(info);
    if (porta_plugin_get_info(i, &info) == PORTA_OK && std::strcmp(info.path, PORTA_EMULATED_CUDA_PLUGIN) == 0)
      return info;
  }
  ADD_FAILURE() << PORTA_EMULATED_CUDA_PLUGIN << " was not tried: is it on PORTA_PLUGIN_PATH?";
  return porta_plugin_info{};
}

// One of the emulator's test hooks, int hook(int device), called; -1 when missing.
int call_hook(const char* name, int device) {
  void* lib = dlopen(PORTA_EMULATED_CUDA_PLUGIN, RTLD_NOW | RTLD_NOLOAD);
  if (!lib) {
    ADD_FAILURE() << "the emulated cuda plugin is not loaded";
    return -1;
  }
  auto hook = reinterpret_cast<int (*)(int)>(dlsym(lib, name));
  EXPECT_NE(hook, nullptr) << name;
  const int result = hook ? hook(device) : -1;
  dlclose(lib);
  return result;
}

// Whether the emulator has created `device`'s context.
bool context_created(int device) { return call_hook("porta_cuda_emulator_context_created", device) == 1; }

// Work queued on `device`'s stream and not yet executed (the emulator runs it lazily).
int pending_work(int device) { return call_hook("porta_cuda_emulator_pending_work", device); }

void expect_environment(const char* name, const char* value) {
  const char* v = std::getenv(name);
  ASSERT_TRUE(v && std::strcmp(v, value) == 0)
      << "run this test through ctest (tests/cuda_emulator/CMakeLists.txt), which sets " << name << "=" << value;
}

TEST(EmulatedCuda, ContextsAreCreatedOnFirstUseOnly) {
  expect_environment("PORTA_CUDA_EMULATOR_DEVICES", "2");
  EXPECT_EQ(emulated_plugin().state, PORTA_PLUGIN_LOADED);
  int count = 0;
  PORTA_OK_OR_FAIL(porta_device_count("cuda", &count));
  ASSERT_EQ(count, 2);
  for (int d = 0; d < 2; ++d) {
    porta_device_info info{};
    info.struct_size = sizeof(info);
    PORTA_OK_OR_FAIL(porta_device_get_info(cuda(d), &info));
    EXPECT_STREQ(info.name, "Porta CUDA emulator (CPU)");
    EXPECT_EQ(info.capability_major, 9);
    EXPECT_EQ(info.memory_free, 0u) << "free memory is unknown until the device has a context";
  }
  EXPECT_FALSE(context_created(0)) << "listing devices and reading their properties must not create a context";
  EXPECT_FALSE(context_created(1));

  const std::vector<float> v = {1, 2, 3, 4};
  const int64_t shape[] = {4};
  porta_tensor* t = nullptr;
  PORTA_OK_OR_FAIL(porta_tensor_from_host(v.data(), kFloat32, shape, 1, cuda(1), &t));
  EXPECT_TRUE(context_created(1));
  EXPECT_FALSE(context_created(0)) << "using cuda:1 must leave cuda:0 alone";
  porta_device_info info{};
  info.struct_size = sizeof(info);
  PORTA_OK_OR_FAIL(porta_device_get_info(cuda(1), &info));
  EXPECT_GT(info.memory_free, 0u) << "a used device reports its free memory";
  EXPECT_LT(info.memory_free, info.memory_total);
  porta_tensor_release(t);
}

// A cpu tensor of 0, 1, 2, ... in memory pinned for cuda:0 (pinned) or not.
porta_tensor* ramp(int64_t n, bool pinned) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<float>(i);
  porta_tensor* t = nullptr;
  const int64_t shape[] = {n};
  if (pinned) {
    EXPECT_EQ(porta_tensor_empty_pinned(kFloat32, shape, 1, cuda(0), &t), PORTA_OK) << porta_last_error();
    EXPECT_EQ(porta_tensor_from_host_into(t, v.data(), v.size() * sizeof(float)), PORTA_OK) << porta_last_error();
  } else {
    EXPECT_EQ(porta_tensor_from_host(v.data(), kFloat32, shape, 1, DLDevice{kDLCPU, 0}, &t), PORTA_OK);
  }
  return t;
}

TEST(EmulatedCuda, NonBlockingCopyFromPinnedMemoryIsOnlyEnqueued) {
  constexpr int64_t n = 4096;
  porta_tensor* src = ramp(n, /*pinned=*/true);
  int pinned = 0;
  PORTA_OK_OR_FAIL(porta_tensor_is_pinned(src, &pinned));
  ASSERT_EQ(pinned, 1);
  porta_tensor* on_gpu = nullptr;
  PORTA_OK_OR_FAIL(porta_tensor_to_non_blocking(src, cuda(0), &on_gpu));
  EXPECT_GT(pending_work(0), 0) << "the copy should be queued, not done";
  // Released at once, as a DataLoader batch is: the emulator aborts if the
  // plugin frees pinned memory that a queued copy still reads.
  porta_tensor_release(src);

  porta_tensor* doubled = nullptr;
  PORTA_OK_OR_FAIL(porta_mul_scalar(on_gpu, 2.0, &doubled));
  std::vector<float> back(static_cast<size_t>(n));
  PORTA_OK_OR_FAIL(porta_tensor_to_host(doubled, back.data(), back.size() * sizeof(float)));
  EXPECT_EQ(pending_work(0), 0) << "reading on the host waits for everything before it";
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(back[static_cast<size_t>(i)], 2.0f * static_cast<float>(i)) << i;
  porta_tensor_release(doubled);
  porta_tensor_release(on_gpu);

  // The blocking copy, and a non-blocking request from pageable memory, wait.
  for (bool pinned_source : {true, false}) {
    porta_tensor* s = ramp(n, pinned_source);
    porta_tensor* d = nullptr;
    PORTA_OK_OR_FAIL(pinned_source ? porta_tensor_to(s, cuda(0), &d) : porta_tensor_to_non_blocking(s, cuda(0), &d));
    EXPECT_EQ(pending_work(0), 0) << (pinned_source ? "porta_tensor_to" : "non-blocking from pageable memory");
    porta_tensor_release(s);
    porta_tensor_release(d);
  }
}

TEST(EmulatedCuda, OnlyReadingOnTheHostSynchronizes) {
  porta_tensor* x = ramp(1000, /*pinned=*/false);
  porta_tensor* on_gpu = nullptr;
  PORTA_OK_OR_FAIL(porta_tensor_to(x, cuda(0), &on_gpu));
  ASSERT_EQ(pending_work(0), 0);
  // A forward-and-backward-like chain, temporaries released as it goes: all queued.
  porta_tensor *a = nullptr, *b = nullptr, *s = nullptr;
  PORTA_OK_OR_FAIL(porta_mul_scalar(on_gpu, 2.0, &a));
  PORTA_OK_OR_FAIL(porta_add_scalar(a, 1.0, &b));
  porta_tensor_release(a);
  PORTA_OK_OR_FAIL(porta_sum(b, nullptr, 0, 0, &s));
  EXPECT_GE(pending_work(0), 3) << "ops must not wait for the device";
  float total = 0;
  PORTA_OK_OR_FAIL(porta_tensor_to_host(s, &total, sizeof total));
  EXPECT_EQ(pending_work(0), 0);
  EXPECT_EQ(total, 1000.0f * 999.0f + 1000.0f);  // sum of 2i + 1
  for (porta_tensor* t : {x, on_gpu, b, s}) porta_tensor_release(t);
}

// Calls of every kind on cuda:0: allocation, copies both ways, a kernel,
// device properties, pinned memory and a non-blocking copy from it.
void use_cuda0_in_every_way() {
  porta_tensor* x = ramp(256, /*pinned=*/false);
  porta_tensor *on_gpu = nullptr, *doubled = nullptr, *moved = nullptr;
  EXPECT_EQ(porta_tensor_to(x, cuda(0), &on_gpu), PORTA_OK) << porta_last_error();
  EXPECT_EQ(porta_mul_scalar(on_gpu, 2.0, &doubled), PORTA_OK) << porta_last_error();
  std::vector<float> back(256);
  EXPECT_EQ(porta_tensor_to_host(doubled, back.data(), back.size() * sizeof(float)), PORTA_OK) << porta_last_error();
  EXPECT_EQ(back[255], 510.0f);
  porta_device_info info{};
  info.struct_size = sizeof(info);
  EXPECT_EQ(porta_device_get_info(cuda(0), &info), PORTA_OK) << porta_last_error();
  porta_tensor* pinned = ramp(256, /*pinned=*/true);
  EXPECT_EQ(porta_tensor_to_non_blocking(pinned, cuda(0), &moved), PORTA_OK) << porta_last_error();
  porta_tensor_release(pinned);
  EXPECT_EQ(porta_synchronize(cuda(0)), PORTA_OK) << porta_last_error();
  for (porta_tensor* t : {x, on_gpu, doubled, moved}) porta_tensor_release(t);
}

// The caller's own CUDA code on this thread (cudaSetDevice(1), PyTorch on
// cuda:1) must find its device current after Porta worked on cuda:0.
TEST(EmulatedCuda, TheCallersCurrentContextIsKept) {
  int count = 0;
  PORTA_OK_OR_FAIL(porta_device_count("cuda", &count));  // loads the plugin
  ASSERT_EQ(count, 2);
  const int current_context = call_hook("porta_cuda_emulator_current_context", 0);
  ASSERT_EQ(current_context, -1) << "a fresh thread has no context";
  ASSERT_EQ(call_hook("porta_cuda_emulator_make_current", 1), 0);
  use_cuda0_in_every_way();
  EXPECT_EQ(call_hook("porta_cuda_emulator_current_context", 0), 1) << "Porta left cuda:0 current on the caller's thread";

  const char* driver = std::getenv("PORTA_CUDA_EMULATOR_DRIVER");
  if (driver && std::strcmp(driver, "0") == 0) return;  // the fallback cannot restore "no context"
  ASSERT_EQ(call_hook("porta_cuda_emulator_make_current", -1), 0);
  use_cuda0_in_every_way();
  EXPECT_EQ(call_hook("porta_cuda_emulator_current_context", 0), -1)
      << "a caller with no current context must have none after a Porta call";
}

// A training loop's pinned batches: released right after their non-blocking
// copy, the step read back on the host. cudaFreeHost, which synchronizes the
// device, must not run per batch: the block is cached and reused.
// The cache asks cudaEventQuery whether a block's copy is done, and the
// emulator's query runs the queued work (a host polling it must see progress,
// as from a GPU): here the device is made "busy" (queries run nothing, as a
// GPU still copying) so that a released block's copy is still pending.
TEST(EmulatedCuda, PinnedBlocksAreCachedNotFreed) {
  struct Busy {
    Busy() { EXPECT_EQ(call_hook("porta_cuda_emulator_busy", 1), 0); }
    ~Busy() { call_hook("porta_cuda_emulator_busy", 0); }
  } busy;
  auto step = [] {
    porta_tensor* batch = ramp(4096, /*pinned=*/true);
    porta_tensor *on_gpu = nullptr, *loss = nullptr;
    EXPECT_EQ(porta_tensor_to_non_blocking(batch, cuda(0), &on_gpu), PORTA_OK) << porta_last_error();
    porta_tensor_release(batch);
    EXPECT_GT(pending_work(0), 0) << "the copy should still be queued";
    EXPECT_EQ(porta_sum(on_gpu, nullptr, 0, 0, &loss), PORTA_OK) << porta_last_error();
    float total = 0;
    EXPECT_EQ(porta_tensor_to_host(loss, &total, sizeof total), PORTA_OK) << porta_last_error();
    EXPECT_EQ(total, 4096.0f * 4095.0f / 2.0f);
    porta_tensor_release(on_gpu);
    porta_tensor_release(loss);
  };
  step();
  const int allocs = call_hook("porta_cuda_emulator_host_calls", 0);
  const int frees = call_hook("porta_cuda_emulator_host_calls", 1);
  for (int i = 0; i < 5; ++i) step();
  EXPECT_EQ(call_hook("porta_cuda_emulator_host_calls", 0), allocs) << "later batches reuse the cached block";
  EXPECT_EQ(call_hook("porta_cuda_emulator_host_calls", 1), frees) << "no cudaFreeHost in a training loop";

  // A block whose copy is still queued is not reused: a second batch gets its own.
  porta_tensor* first = ramp(4096, /*pinned=*/true);
  porta_tensor* moved = nullptr;
  PORTA_OK_OR_FAIL(porta_tensor_to_non_blocking(first, cuda(0), &moved));
  porta_tensor_release(first);
  porta_tensor* second = ramp(4096, /*pinned=*/true);
  EXPECT_GT(pending_work(0), 0) << "allocating pinned memory must not wait for the device";
  const std::vector<float> other(4096, -1.0f);
  PORTA_OK_OR_FAIL(porta_tensor_from_host_into(second, other.data(), other.size() * sizeof(float)));
  std::vector<float> back(4096);
  PORTA_OK_OR_FAIL(porta_tensor_to_host(moved, back.data(), back.size() * sizeof(float)));
  EXPECT_EQ(back[4095], 4095.0f) << "the first batch's copy read the first batch's values";
  porta_tensor_release(second);
  porta_tensor_release(moved);
}

TEST(EmulatedCudaWithoutDevices, PluginLoadsAndSaysWhy) {
  expect_environment("PORTA_CUDA_EMULATOR_DEVICES", "0");
  const porta_plugin_info info = emulated_plugin();
  EXPECT_EQ(info.state, PORTA_PLUGIN_NO_DEVICES);
  EXPECT_STREQ(info.reason, "no CUDA-capable device is detected (cudaErrorNoDevice from cudaGetDeviceCount)");
  int count = -1;
  PORTA_OK_OR_FAIL(porta_device_count("cuda", &count));
  EXPECT_EQ(count, 0);
  DLDevice d{};
  EXPECT_EQ(porta_device_parse("cuda:0", &d), PORTA_ERROR_NO_SUCH_DEVICE);
  EXPECT_NE(std::string(porta_last_error()).find("no CUDA-capable device is detected"), std::string::npos)
      << porta_last_error();
}

TEST(EmulatedCudaSmallMemory, OutOfMemoryIsReportedAndRecoverable) {
  expect_environment("PORTA_CUDA_EMULATOR_MEMORY", "268435456");  // 256 MiB
  const int64_t big[] = {int64_t{96} << 20};                      // 384 MiB of float32
  porta_tensor* t = nullptr;
  ASSERT_EQ(porta_tensor_empty(kFloat32, big, 1, cuda(0), &t), PORTA_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(t, nullptr);
  const std::string why = porta_last_error();
  EXPECT_NE(why.find("cuda:0"), std::string::npos) << why;
  EXPECT_NE(why.find("cudaErrorMemoryAllocation"), std::string::npos) << why;

  // What fits still works, and the failed request left nothing behind.
  const int64_t fits[] = {int64_t{48} << 20};  // 192 MiB
  PORTA_OK_OR_FAIL(porta_tensor_empty(kFloat32, fits, 1, cuda(0), &t));
  porta_tensor_release(t);
  PORTA_OK_OR_FAIL(porta_tensor_empty(kFloat32, fits, 1, cuda(0), &t));
  porta_tensor_release(t);
}

}  // namespace
