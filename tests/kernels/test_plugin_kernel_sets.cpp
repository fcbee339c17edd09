// Every plugin offers exactly the kernels the op table says (the `dtypes`
// column of PORTA_OP_DESCRIPTORS; an optional op may be left out, never
// offered for another dtype; a storage dtype's kernel beside the
// conversions is optional, where the op's class allows it): a row added without its kernels, or a
// plugin that answers for a dtype the core never sends, fails here naming
// the plugin, the op and the dtype. The plugins are dlopen-ed as the core
// would (PORTA_KERNEL_SET_PLUGINS: their paths, colon-separated).
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <porta/plugin.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "plugin_support.hpp"

namespace {

using porta::plugin::dtype_index;
using porta::plugin::op_name;
using porta::plugin::op_takes_dtype;

// Every dtype by its index: the compute dtypes, then the storage dtypes
// (which have FULL, COPY and CAST kernels, and optionally others).
constexpr DLDataType kDtypes[] = {{kDLBool, 8, 1},   {kDLUInt, 8, 1},   {kDLInt, 32, 1}, {kDLInt, 64, 1},
                                  {kDLFloat, 32, 1}, {kDLFloat, 64, 1}, {kDLInt, 8, 1},  {kDLInt, 16, 1},
                                  {kDLFloat, 16, 1}, {kDLBfloat, 16, 1}};
static_assert(sizeof kDtypes / sizeof kDtypes[0] == porta::plugin::kDtAllCount);
constexpr const char* kDtypeNames[] = {"bool",    "uint8", "int32", "int64",   "float32",
                                       "float64", "int8",  "int16", "float16", "bfloat16"};

std::vector<std::string> plugin_paths() {
  std::vector<std::string> out;
  const char* env = std::getenv("PORTA_KERNEL_SET_PLUGINS");
  std::stringstream list(env ? env : "");
  for (std::string p; std::getline(list, p, ':');)
    if (!p.empty()) out.push_back(p);
  return out;
}

const porta_host_api* quiet_host() {
  static const porta_host_api host = {sizeof(porta_host_api), PORTA_PLUGIN_ABI_MAJOR, PORTA_PLUGIN_ABI_MINOR,
                                      [](const char*) {}, [](porta_log_level, const char*) {}, [] { return int32_t{1}; }};
  return &host;
}

TEST(PluginKernelSets, EveryPluginOffersExactlyTheKernelsOfTheOpTable) {
  const std::vector<std::string> paths = plugin_paths();
  ASSERT_FALSE(paths.empty()) << "run through ctest, which sets PORTA_KERNEL_SET_PLUGINS";
  for (const std::string& path : paths) {
    SCOPED_TRACE(path);
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(lib, nullptr) << dlerror();
    auto get_api = reinterpret_cast<porta_plugin_get_api_fn>(dlsym(lib, "porta_plugin_get_api"));
    ASSERT_NE(get_api, nullptr);
    const porta_plugin_api* api = get_api();
    ASSERT_NE(api, nullptr);
    ASSERT_EQ(api->initialize(quiet_host()), PORTA_OK);  // a plugin without devices still answers find_kernel
    // float64 needs a device capability on OpenCL (cl_khr_fp64): when the
    // plugin has no float64 kernel at all, float64 is left out, not failed.
    bool any_float64 = false;
    for (uint32_t op = 0; op < PORTA_OP_COUNT; ++op) any_float64 = any_float64 || api->find_kernel(op, kDtypes[5]);
    for (uint32_t op = 0; op < PORTA_OP_COUNT; ++op) {
      for (int dt = 0; dt < porta::plugin::kDtAllCount; ++dt) {
        if (dt == porta::plugin::kDtFloat64 && !any_float64) continue;
        ASSERT_EQ(dtype_index(kDtypes[dt]), dt);
        const bool has = api->find_kernel(op, kDtypes[dt]) != nullptr;
        if (PORTA_OP_IS_OPTIONAL(op) && !has) continue;  // the core composes it
        if (porta::plugin::is_storage_dt(dt) && !porta::plugin::is_conversion_op(op)) {
          // optional: the core computes it in float32 / int32 where the plugin has none
          EXPECT_TRUE(!has || porta::plugin::op_may_take_storage_dtype(op, dt))
              << api->name << ": " << op_name(op) << " (" << kDtypeNames[dt]
              << ") has a kernel its dtypes class does not hold (porta/ops.h, porta_op_dtypes)";
          continue;
        }
        EXPECT_EQ(has, op_takes_dtype(op, dt))
            << api->name << ": " << op_name(op) << " (" << kDtypeNames[dt] << ") "
            << (has ? "has a kernel the op table does not list (its dtypes column)"
                    : "lacks the kernel the op table promises (its dtypes column)");
      }
    }
    EXPECT_EQ(api->find_kernel(PORTA_OP_COUNT, kDtypes[4]), nullptr) << "an op id beyond the table";
    // Plugins stay loaded: their static state may outlive this test (as in the core).
  }
}

}  // namespace
