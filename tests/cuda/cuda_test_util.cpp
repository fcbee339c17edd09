#include "cuda_test_util.hpp"

#include <cuda_runtime.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
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

Output run(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return {"", -1};
  std::string out;
  std::array<char, 4096> buf;
  for (size_t n; (n = fread(buf.data(), 1, buf.size(), pipe)) > 0;) out.append(buf.data(), n);
  const int status = pclose(pipe);
  return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

}  // namespace cuda_test
