#include "onednn.hpp"

#include <dlfcn.h>

#include <mutex>
#include <string>

#include "host_kernels.hpp"

namespace porta::host::onednn {

void* library() {
  static void* lib = nullptr;
  static std::once_flag once;
  std::call_once(once, [] {
    lib = dlopen("libdnnl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char* e = dlerror();
      log_warning((std::string("oneDNN could not be loaded (") + (e ? e : "libdnnl.so.2") +
                   "); float32 GEMM falls back to OpenBLAS and convolution to im2col + GEMM (install libdnnl2)")
                      .c_str());
    }
  });
  return lib;
}

}  // namespace porta::host::onednn
