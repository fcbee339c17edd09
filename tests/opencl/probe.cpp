// porta_opencl_probe: what a fresh process sees of the opencl plugin, for
// the tests that need their own environment (PORTA_OPENCL_DEVICES,
// PORTA_OPENCL_CACHE). Prints key=value lines:
//   state=<porta_plugin_state of "opencl">  devices=<n>  reason=<why none>
//   device<i>=<name>
// and with --run, on opencl:0: result=<sum of (x + x) for x = 1..6> (42).
#include <porta/porta.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

int fail(const char* what) {
  std::printf("error=%s: %s\n", what, porta_last_error());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  int32_t attempts = 0;
  if (porta_plugin_count(&attempts) != PORTA_OK) return fail("porta_plugin_count");
  for (int32_t i = 0; i < attempts; ++i) {
    porta_plugin_info info{};
    info.struct_size = sizeof(info);
    if (porta_plugin_get_info(i, &info) != PORTA_OK) return fail("porta_plugin_get_info");
    if (std::strcmp(info.name, "opencl") != 0) continue;
    std::printf("state=%d\ndevices=%d\nreason=%s\n", info.state, info.device_count, info.reason);
  }
  int devices = 0;
  if (porta_device_count("opencl", &devices) != PORTA_OK) return fail("porta_device_count");
  for (int d = 0; d < devices; ++d) {
    porta_device_info info{};
    info.struct_size = sizeof(info);
    if (porta_device_get_info(DLDevice{kDLOpenCL, d}, &info) != PORTA_OK) return fail("porta_device_get_info");
    std::printf("device%d=%s\n", d, info.name);
  }
  if (argc > 1 && std::string(argv[1]) == "--run" && devices > 0) {
    const float x[6] = {1, 2, 3, 4, 5, 6};
    const int64_t shape[2] = {2, 3};
    porta_tensor *t = nullptr, *twice = nullptr, *sum = nullptr;
    if (porta_tensor_from_host(x, porta_float32, shape, 2, DLDevice{kDLOpenCL, 0}, &t) != PORTA_OK)
      return fail("porta_tensor_from_host");
    if (porta_add(t, t, &twice) != PORTA_OK) return fail("porta_add");
    if (porta_sum(twice, nullptr, 0, 0, &sum) != PORTA_OK) return fail("porta_sum");
    float result = 0;
    if (porta_tensor_to_host(sum, &result, sizeof(result)) != PORTA_OK) return fail("porta_tensor_to_host");
    std::printf("result=%g\n", result);
    porta_tensor_release(sum);
    porta_tensor_release(twice);
    porta_tensor_release(t);
  }
  return 0;
}
