#include "cuda_test_util.hpp"

#include <cuda_runtime.h>

#include <cstring>

namespace cuda_test {

const RuntimeView& runtime_view() {
  static const RuntimeView view = [] {
    RuntimeView v;
    int n = 0;
    const cudaError_t err = cudaGetDeviceCount(&n);
    if (err == cudaSuccess)
      v.devices = n;
    else
      v.error = cudaGetErrorString(err);
    return v;
  }();
  return view;
}

porta_plugin_info cuda_plugin_info() {
  int32_t attempts = 0;
  EXPECT_EQ(porta_plugin_count(&attempts), PORTA_OK) << porta_last_error();
  for (int32_t i = 0; i < attempts; ++i) {
    porta_plugin_info info{};
    info.struct_size = sizeof(info);
    if (porta_plugin_get_info(i, &info) == PORTA_OK && std::strcmp(info.name, "cuda") == 0) return info;
  }
  ADD_FAILURE() << "no load attempt of the cuda plugin was recorded";
  return porta_plugin_info{};
}

}  // namespace cuda_test
