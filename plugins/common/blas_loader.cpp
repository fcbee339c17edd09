#include "blas_loader.hpp"

#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string>

#include "blas_functions.hpp"
#include "host_kernels.hpp"
#include "onednn.hpp"
#include "thread_pool.hpp"

namespace porta::host {

BlasFunctions g_blas;

namespace {
std::atomic<int> blas_threads{0};  // what OpenBLAS was last told, and OpenMP is to be
}  // namespace

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
    g_blas.set_num_threads = reinterpret_cast<void (*)(int)>(dlsym(lib, "openblas_set_num_threads"));
    if (g_blas.set_num_threads) g_blas.set_num_threads(threads);
    blas_threads.store(threads);
  });
#else
  (void)threads;
#endif
}

bool dnnl_loaded() {
  static std::once_flag once;
  std::call_once(once, [] {
    void* lib = onednn::library();
    if (!lib) return;
    // Only where its OpenMP's thread count can be held at 1 (OneOmpThread).
    if (onednn::OneOmpThread::available())
      g_blas.dnnl_sgemm = reinterpret_cast<decltype(g_blas.dnnl_sgemm)>(dlsym(lib, "dnnl_sgemm"));
  });
  return g_blas.dnnl_sgemm != nullptr;
}

void sync_blas_threads() { set_blas_threads(num_threads()); }

void set_blas_threads(int n) {
  if (g_blas.set_num_threads && blas_threads.exchange(n) != n) g_blas.set_num_threads(n);
}

}  // namespace porta::host
