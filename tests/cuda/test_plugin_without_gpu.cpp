// The cuda plugin where no GPU can be used (CI machines: the toolkit, no
// driver): it loads, reports zero devices with CUDA's own error text as the
// reason, "cuda" parses to an error that names it, porta-smi lists it, and
// its kernel table covers every (op, dtype) the cpu plugin does. On a GPU
// machine the same tests check the loaded state instead.
#include <dlfcn.h>
#include <gmock/gmock.h>
#include <porta/plugin.h>

#include <string>

#include "cuda_test_util.hpp"

using ::testing::HasSubstr;
using namespace cuda_test;

namespace {

TEST(CudaPlugin, IsRecordedWithItsDevicesOrTheReasonItHasNone) {
  const porta_plugin_info info = cuda_plugin_info();
  EXPECT_EQ(info.device_type, kDLCUDA);
  EXPECT_EQ(info.abi_major, uint32_t{PORTA_PLUGIN_ABI_MAJOR});
  if (runtime_view().devices > 0) {
    EXPECT_EQ(info.state, PORTA_PLUGIN_LOADED) << info.reason;
    EXPECT_EQ(info.device_count, runtime_view().devices);
    return;
  }
  EXPECT_EQ(info.state, PORTA_PLUGIN_NO_DEVICES) << "a missing driver must not fail the plugin: " << info.reason;
  EXPECT_EQ(info.device_count, 0);
  ASSERT_FALSE(runtime_view().error.empty());
  EXPECT_THAT(info.reason, HasSubstr(runtime_view().error));
}

TEST(CudaPlugin, CountIsTheRuntimesAndZeroIsNotAnError) {
  int count = -1;
  CUDA_TEST_OK(porta_device_count("cuda", &count));
  EXPECT_EQ(count, runtime_view().devices);
}

TEST(CudaPlugin, WithoutDevicesCudaFailsToParseNamingTheReason) {
  if (runtime_view().devices > 0) GTEST_SKIP() << "this machine has CUDA devices";
  for (const char* spec : {"cuda", "cuda:0"}) {
    SCOPED_TRACE(spec);
    DLDevice dev{kDLCPU, 77};
    EXPECT_EQ(porta_device_parse(spec, &dev), PORTA_ERROR_NO_SUCH_DEVICE);
    EXPECT_EQ(dev.device_id, 77) << "out-parameter written on error";
    EXPECT_THAT(porta_last_error(), HasSubstr(runtime_view().error));
  }
}

TEST(CudaPlugin, PortaSmiListsItWithTheReason) {
  const porta_test::CommandResult smi = porta_test::run_command("'" PORTA_SMI_PATH "' --json");
  ASSERT_EQ(smi.exit_status, 0) << smi.output;
  EXPECT_THAT(smi.output, HasSubstr("\"name\": \"cuda\""));
  if (runtime_view().devices > 0) {
    EXPECT_THAT(smi.output, HasSubstr("\"device\": \"cuda:0\""));
  } else {
    EXPECT_THAT(smi.output, HasSubstr("\"status\": \"no_devices\""));
    EXPECT_THAT(smi.output, HasSubstr(runtime_view().error));
  }
}

// The plugin's table, read the way the core reads it (dlopen, one symbol).
const porta_plugin_api* plugin_api(const char* path) {
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) return nullptr;
  auto get = reinterpret_cast<porta_plugin_get_api_fn>(dlsym(lib, PORTA_PLUGIN_ENTRY_SYMBOL));
  return get ? get() : nullptr;
}

TEST(CudaPluginTable, DeclaresTheCudaDeviceTypeAndEveryOptionalSlot) {
  const porta_plugin_api* api = plugin_api(PORTA_CUDA_PLUGIN_PATH);
  ASSERT_NE(api, nullptr) << dlerror();
  EXPECT_EQ(api->struct_size, sizeof(porta_plugin_api));
  EXPECT_STREQ(api->name, "cuda");
  EXPECT_EQ(api->device_type, kDLCUDA);
  EXPECT_NE(api->unavailable_reason, nullptr);
  EXPECT_NE(api->copy_between_devices, nullptr);
  EXPECT_NE(api->alloc_pinned_host, nullptr);
  EXPECT_NE(api->free_pinned_host, nullptr);
}

TEST(CudaPluginTable, HasAKernelForEveryOpAndDtypeTheCpuPluginHas) {
  const porta_plugin_api* cuda = plugin_api(PORTA_CUDA_PLUGIN_PATH);
  const porta_plugin_api* cpu = plugin_api(PORTA_CPU_PLUGIN_PATH);
  ASSERT_NE(cuda, nullptr);
  ASSERT_NE(cpu, nullptr);
  const DLDataType dtypes[] = {porta_bool, porta_uint8, porta_int32, porta_int64, porta_float32, porta_float64};
  const char* names[] = {"bool", "uint8", "int32", "int64", "float32", "float64"};
  static const char* const ops[] = {
#define PORTA_X_NAME(NAME, name, id, kind, inputs) #name,
      PORTA_OP_LIST(PORTA_X_NAME)
#undef PORTA_X_NAME
  };
  int kernels = 0;
  for (uint32_t op = 0; op < PORTA_OP_COUNT; ++op)
    for (int d = 0; d < 6; ++d) {
      const bool on_cpu = cpu->find_kernel(op, dtypes[d]) != nullptr;
      const bool on_cuda = cuda->find_kernel(op, dtypes[d]) != nullptr;
      // Optional ops: cuda leaves direct convolution to the core's lowering (cuDNN is not used yet).
      if (op >= PORTA_OP_CONV2D && op <= PORTA_OP_CONV2D_BACKWARD_WEIGHT) {
        EXPECT_FALSE(on_cuda) << ops[op] << " (" << names[d] << ")";
        continue;
      }
      EXPECT_EQ(on_cuda, on_cpu) << ops[op] << " (" << names[d] << ")";
      kernels += on_cuda;
    }
  EXPECT_EQ(cuda->find_kernel(PORTA_OP_COUNT, porta_float32), nullptr) << "an op id newer than the plugin";
  EXPECT_GT(kernels, 150);
}

}  // namespace
