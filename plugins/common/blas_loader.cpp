#include "blas_loader.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <string>

#include "blas_functions.hpp"
#include "host_kernels.hpp"

namespace porta::host {

BlasFunctions g_blas;

void load_blas(int threads) {
#ifdef PORTA_HAVE_CBLAS
  static std::once_flag once;
  std::call_once(once, [threads] {
    setenv("OPENBLAS_THREAD_TIMEOUT", "4", /*overwrite=*/0);  // 2^4 cycles of spinning, then sleep
    void* lib = nullptr;
    std::string tried;
    for (const char* name : {PORTA_OPENBLAS_PATH, "libopenblas.so.0"}) {
      if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
      const char* e = dlerror();
      tried += std::string(tried.empty() ? "" : "; ") + (e ? e : name);
    }
    if (!lib) {
      log_warning(("OpenBLAS could not be loaded (" + tried + "); GEMM falls back to a slow built-in loop").c_str());
      return;
    }
    g_blas.sgemm = reinterpret_cast<decltype(g_blas.sgemm)>(dlsym(lib, "cblas_sgemm"));
    g_blas.dgemm = reinterpret_cast<decltype(g_blas.dgemm)>(dlsym(lib, "cblas_dgemm"));
    if (auto set = reinterpret_cast<void (*)(int)>(dlsym(lib, "openblas_set_num_threads"))) set(threads);
  });
#else
  (void)threads;
#endif
}

}  // namespace porta::host
