// GATHER, SCATTER, CUMSUM and CUMPROD on every plugin built here, through
// the plugin's own table (its memory, copies and kernels, device 0), before
// the core's entry points exist: the host kernels' cases
// (index_scan_cases.hpp), so every plugin must give the cpu's answers bit
// for bit. The plugins are dlopen-ed as the core would
// (PORTA_KERNEL_SET_PLUGINS: their paths, colon-separated); one without
// devices is skipped. A plugin without float64 kernels (OpenCL without
// cl_khr_fp64) skips float64, and float32 scans, which it accumulates in
// float.
#include <dlfcn.h>

#include <cstdlib>
#include <sstream>

#include "index_scan_cases.hpp"

namespace porta_test::index_scan {
namespace {

std::string& plugin_error() {
  static std::string message;
  return message;
}

const porta_host_api* host() {
  static const porta_host_api h = {sizeof(porta_host_api),
                                   PORTA_PLUGIN_ABI_MAJOR,
                                   PORTA_PLUGIN_ABI_MINOR,
                                   [](const char* m) { plugin_error() = m; },
                                   [](porta_log_level, const char*) {},
                                   [] { return int32_t{2}; }};
  return &h;
}

struct Plugin {
  std::string path;
  const porta_plugin_api* api = nullptr;
  int32_t devices = 0;
};

// The plugins of PORTA_KERNEL_SET_PLUGINS, loaded and initialized once.
const std::vector<Plugin>& plugins() {
  static const std::vector<Plugin> loaded = [] {
    std::vector<Plugin> out;
    const char* env = std::getenv("PORTA_KERNEL_SET_PLUGINS");
    std::stringstream list(env ? env : "");
    for (std::string path; std::getline(list, path, ':');) {
      if (path.empty()) continue;
      Plugin p{path};
      void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);  // stays loaded, as in the core
      EXPECT_NE(lib, nullptr) << dlerror();
      auto get_api = lib ? reinterpret_cast<porta_plugin_get_api_fn>(dlsym(lib, "porta_plugin_get_api")) : nullptr;
      p.api = get_api ? get_api() : nullptr;
      EXPECT_NE(p.api, nullptr) << path;
      if (p.api && (p.api->initialize(host()) != PORTA_OK || p.api->device_count(&p.devices) != PORTA_OK))
        ADD_FAILURE() << path << ": " << plugin_error();
      out.push_back(p);
    }
    return out;
  }();
  return loaded;
}

// Runs kernels on the plugin's device 0: every operand copied there, the
// outputs copied back.
Runner runner_for(const Plugin& p) {
  const porta_plugin_api* api = p.api;
  Runner r;
  r.name = api->name;
  r.has = [api](uint32_t op, DLDataType dtype) { return api->find_kernel(op, dtype) != nullptr; };
  r.run = [api](uint32_t op, DLDataType dtype, std::vector<Operand> ins, std::vector<Operand> outs,
                const void* params) {
    plugin_error().clear();
    const porta_kernel_fn fn = api->find_kernel(op, dtype);
    if (!fn) return PORTA_ERROR_NOT_IMPLEMENTED;
    std::vector<void*> handles;
    porta_status st = PORTA_OK;
    auto upload = [&](std::vector<Operand>& ops, std::vector<DLTensor>& ts) {
      for (const Operand& o : ops) {
        void* h = nullptr;
        if (st == PORTA_OK) st = api->alloc(0, o.bytes > 0 ? o.bytes : 1, &h);
        if (st == PORTA_OK) handles.push_back(h);
        if (st == PORTA_OK && o.bytes > 0) st = api->copy_to_device(0, h, 0, o.t.data, o.bytes, 0);
        DLTensor t = o.t;
        t.data = h;
        t.device = {static_cast<DLDeviceType>(api->device_type), 0};
        ts.push_back(t);
      }
    };
    std::vector<DLTensor> in, out;
    upload(ins, in);
    upload(outs, out);
    if (st == PORTA_OK) {
      porta_kernel_call c{};
      c.struct_size = sizeof c;
      c.inputs = in.data();
      c.num_inputs = static_cast<int32_t>(in.size());
      c.outputs = out.data();
      c.num_outputs = static_cast<int32_t>(out.size());
      c.params = params;
      st = fn(&c);
    }
    for (size_t i = 0; i < outs.size() && st == PORTA_OK; ++i)
      if (outs[i].bytes > 0) st = api->copy_to_host(0, outs[i].t.data, out[i].data, 0, outs[i].bytes, 0);
    for (void* h : handles) api->free(0, h);
    return st;
  };
  r.last_error = [] { return plugin_error(); };
  return r;
}

// Calls cases(runner, whether the plugin has float64) for every plugin with
// a device and op's kernel for D.
template <class D, class Cases>
void on_every_plugin(uint32_t op, Cases&& cases) {
  ASSERT_FALSE(plugins().empty()) << "run through ctest, which sets PORTA_KERNEL_SET_PLUGINS";
  for (const Plugin& p : plugins()) {
    if (!p.api || p.devices == 0) continue;
    SCOPED_TRACE(p.path);
    Runner r = runner_for(p);
    const bool fp64 = p.api->find_kernel(PORTA_OP_ADD, Float64::dl()) != nullptr;
    if (!r.has(op, D::dl())) {
      EXPECT_TRUE((std::is_same_v<D, Float64> && !fp64)) << r.name << " lacks the kernel";
      continue;
    }
    cases(r, fp64);
  }
}

template <class D>
class PluginIndexKernels : public ::testing::Test {};
TYPED_TEST_SUITE(PluginIndexKernels, AnyDtypes);

TYPED_TEST(PluginIndexKernels, GatherGivesTheHostKernelsAnswers) {
  on_every_plugin<TypeParam>(PORTA_OP_GATHER, [](Runner& r, bool) { gather_cases<TypeParam>(r); });
}

TYPED_TEST(PluginIndexKernels, ScatterGivesTheHostKernelsAnswers) {
  on_every_plugin<TypeParam>(PORTA_OP_SCATTER, [](Runner& r, bool) {
    scatter_cases<TypeParam>(r);
    scatter_repeat_cases<TypeParam>(r);
    if constexpr (std::is_floating_point_v<typename TypeParam::type>) scatter_nan_cases<TypeParam>(r);
  });
}

template <class D>
class PluginScanKernels : public ::testing::Test {};
TYPED_TEST_SUITE(PluginScanKernels, WideDtypes);

TYPED_TEST(PluginScanKernels, ScansGiveTheHostKernelsAnswers) {
  on_every_plugin<TypeParam>(PORTA_OP_CUMSUM, [](Runner& r, bool fp64) {
    if (fp64 || !std::is_same_v<TypeParam, Float32>) scan_cases<TypeParam>(r);
  });
}

}  // namespace
}  // namespace porta_test::index_scan
