#include "onednn.hpp"

#include <cpuid.h>
#include <dlfcn.h>

#include <cstring>
#include <mutex>
#include <string>

#include "cpu_isa.hpp"
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

namespace {

// libgomp's (oneDNN's OpenMP), through the library's handle: dlsym searches
// what it loaded too. Null where oneDNN is not loaded.
struct OmpThreads {
  int (*get)() = nullptr;
  void (*set)(int) = nullptr;
};

const OmpThreads& omp_threads() {
  static const OmpThreads t = [] {
    OmpThreads o;
    if (void* lib = library()) {
      o.get = reinterpret_cast<int (*)()>(dlsym(lib, "omp_get_max_threads"));
      o.set = reinterpret_cast<void (*)(int)>(dlsym(lib, "omp_set_num_threads"));
      if (!o.get || !o.set) o = OmpThreads();
    }
    return o;
  }();
  return t;
}

}  // namespace

bool OneOmpThread::available() { return omp_threads().set != nullptr; }

OneOmpThread::OneOmpThread() {
  const OmpThreads& t = omp_threads();
  if (!t.set) return;
  previous_ = t.get();
  if (previous_ != 1) t.set(1);
}

OneOmpThread::~OneOmpThread() {
  const OmpThreads& t = omp_threads();
  if (t.set && previous_ != 1 && previous_ > 0) t.set(previous_);
}

#ifdef PORTA_HAVE_DNNL
const Functions* functions() {
  static Functions d;
  static bool ok = false;
  static std::once_flag once;
  std::call_once(once, [] {
    void* lib = library();
    if (!lib) return;
    bool all = true;
#define PORTA_DNNL_LOAD(f) all = all && (d.f = reinterpret_cast<decltype(d.f)>(dlsym(lib, #f))) != nullptr;
    PORTA_DNNL_FUNCTIONS(PORTA_DNNL_LOAD)
#undef PORTA_DNNL_LOAD
    ok = all && d.dnnl_engine_create(&d.engine, dnnl_cpu, 0) == dnnl_success;
  });
  return ok ? &d : nullptr;
}

// AVX512_BF16: CPUID leaf 7, subleaf 1, EAX bit 5; the OS must save the zmm
// registers too (which cpu_runs(Isa::Avx512) says).
bool native_bf16() {
  static const bool has = [] {
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid_count(7, 1, &a, &b, &c, &d) || !(a & (1u << 5))) return false;
    return host::cpu_runs(Isa::Avx512);
  }();
  return has;
}

bool is_reference(const Functions& d, const_dnnl_primitive_desc_t pd) {
  const char* impl = nullptr;
  d.dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl);
  return impl && std::strncmp(impl, "ref", 3) == 0;
}

bool execute(const Functions& d, dnnl_primitive_t prim, std::initializer_list<dnnl_exec_arg_t> args) {
  if (!prim) return true;
  dnnl_stream_t stream = nullptr;
  if (d.dnnl_stream_create(&stream, d.engine, dnnl_stream_default_flags) != dnnl_success) return false;
  const bool ok = d.dnnl_primitive_execute(prim, stream, static_cast<int>(args.size()), args.begin()) == dnnl_success;
  d.dnnl_stream_destroy(stream);  // waits for the work (a cpu stream runs it in execute)
  return ok;
}
#endif

}  // namespace porta::host::onednn
