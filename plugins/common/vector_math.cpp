#include "vector_math.hpp"

#include <dlfcn.h>

#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <mutex>
#include <string>
#include <type_traits>

#include "cpu_isa.hpp"
#include "host_kernels.hpp"

namespace porta::host::vecmath {
namespace {

constexpr int kLevels = 4;

// SLEEF's function stem and accuracy of each op, from porta/ops.h's vector
// column (null for SCALAR rows).
struct Spec {
  const char* stem;
  const char* ulp;
};
constexpr Spec kSpecs[PORTA_OP_COUNT] = {
#define PORTA_OP_VECTOR_SLEEF(stem, ulp) Spec{#stem, #ulp}
#define PORTA_OP_VECTOR_SCALAR Spec{nullptr, nullptr}
#define PORTA_X_SPEC(NAME, id, since, domain, autocast, vector) PORTA_OP_VECTOR_##vector,
    PORTA_OP_TRAITS(PORTA_X_SPEC)
#undef PORTA_X_SPEC
#undef PORTA_OP_VECTOR_SCALAR
#undef PORTA_OP_VECTOR_SLEEF
};

// SLEEF's name of `s` at `level` for float or double: its deterministic
// sets, finz (FMA) where the level has FMA, cinz otherwise.
std::string sleef_name(const Spec& s, Level level, bool is_double) {
  const std::string stem = s.stem, ulp = s.ulp;
  switch (level) {
    case Level::Avx512: return "Sleef_finz_" + stem + (is_double ? "d8_" : "f16_") + ulp + "avx512f";
    case Level::Avx2: return "Sleef_finz_" + stem + (is_double ? "d4_" : "f8_") + ulp + "avx2";
    case Level::Sse2: return "Sleef_cinz_" + stem + (is_double ? "d2_" : "f4_") + ulp + "sse2";
    case Level::None: break;
  }
  return {};
}

bool cpu_runs(Level level) {
#if defined(__x86_64__)
  switch (level) {
    case Level::Sse2: return true;
    case Level::Avx2:
      return host::cpu_runs(Isa::Avx2) && __builtin_cpu_supports("fma");
    case Level::Avx512:
      return host::cpu_runs(Isa::Avx512) && __builtin_cpu_supports("fma");
    case Level::None: break;
  }
#endif
  (void)level;
  return false;
}

// Each level's SLEEF functions, by op id (complete: every vectorized op's was found).
struct LevelFns {
  void* f32[PORTA_OP_COUNT] = {};
  void* f64[PORTA_OP_COUNT] = {};
  bool complete = false;
};
LevelFns g_fns[kLevels];
Level g_level = Level::None;  // written once, under level()'s call_once

#if defined(__x86_64__)
// x in blocks of one vector of Bytes through SLEEF's f (V f(V)), the last
// block padded with zeros; sigmoid: 1 / (1 + f(-x)) with f SLEEF's exp.
// Inlined into each level's function below, so that it is compiled for that
// level's registers (a vector passed by value needs them: SLEEF's ABI);
// always_inline makes a failure to inline an error, and GCC's warning that
// such a vector changes the ABI outside those functions does not apply.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
template <class T, int Bytes>
__attribute__((always_inline)) inline void run_blocks(void* fn, bool sigmoid, const T* x, T* y, int64_t n) {
  typedef T V __attribute__((vector_size(Bytes)));
  constexpr int64_t kLanes = Bytes / static_cast<int64_t>(sizeof(T));
  V (*const f)(V) = reinterpret_cast<V (*)(V)>(fn);
  V one, nan;
  for (int64_t l = 0; l < kLanes; ++l) one[l] = T(1), nan[l] = std::numeric_limits<T>::quiet_NaN();
  int64_t i = 0;
  // SLEEF's widths agree on every number but not on NaN's sign and payload
  // (log(-1) is -NaN at AVX-512): every NaN comes out as the one quiet NaN.
  for (; i + kLanes <= n; i += kLanes) {
    V v;
    std::memcpy(&v, x + i, sizeof v);
    v = sigmoid ? one / (one + f(-v)) : f(v);
    v = v != v ? nan : v;
    std::memcpy(y + i, &v, sizeof v);
  }
  if (i < n) {
    const size_t rest = static_cast<size_t>(n - i) * sizeof(T);
    V v = {};
    std::memcpy(&v, x + i, rest);
    v = sigmoid ? one / (one + f(-v)) : f(v);
    v = v != v ? nan : v;
    std::memcpy(y + i, &v, rest);
  }
}

#pragma GCC diagnostic pop

__attribute__((target("avx512f"))) void run_avx512(void* f, bool s, const float* x, float* y, int64_t n) {
  run_blocks<float, 64>(f, s, x, y, n);
}
__attribute__((target("avx512f"))) void run_avx512(void* f, bool s, const double* x, double* y, int64_t n) {
  run_blocks<double, 64>(f, s, x, y, n);
}
__attribute__((target("avx2"))) void run_avx2(void* f, bool s, const float* x, float* y, int64_t n) {
  run_blocks<float, 32>(f, s, x, y, n);
}
__attribute__((target("avx2"))) void run_avx2(void* f, bool s, const double* x, double* y, int64_t n) {
  run_blocks<double, 32>(f, s, x, y, n);
}
void run_sse2(void* f, bool s, const float* x, float* y, int64_t n) { run_blocks<float, 16>(f, s, x, y, n); }
void run_sse2(void* f, bool s, const double* x, double* y, int64_t n) { run_blocks<double, 16>(f, s, x, y, n); }
#endif

template <class T>
bool run_at(Level level, porta_op op, const T* x, T* y, int64_t n) {
  const int l = static_cast<int>(level);  // g_fns is filled: every caller asked level() first
  if (level == Level::None || !g_fns[l].complete || !vectorized(op)) return false;
  if (n <= 0) return true;
#if defined(__x86_64__)
  void* f = std::is_same_v<T, float> ? g_fns[l].f32[op] : g_fns[l].f64[op];
  const bool sigmoid = op == PORTA_OP_SIGMOID;
  switch (level) {
    case Level::Avx512: run_avx512(f, sigmoid, x, y, n); return true;
    case Level::Avx2: run_avx2(f, sigmoid, x, y, n); return true;
    case Level::Sse2: run_sse2(f, sigmoid, x, y, n); return true;
    case Level::None: break;
  }
#endif
  (void)op, (void)x, (void)y;
  return false;
}

}  // namespace

const char* level_name(Level level) {
  switch (level) {
    case Level::Sse2: return "SSE2";
    case Level::Avx2: return "AVX2+FMA";
    case Level::Avx512: return "AVX-512F+FMA";
    case Level::None: break;
  }
  return "none";
}

Level level() {
  static std::once_flag once;
  std::call_once(once, [] {
#if defined(__x86_64__)
    void* lib = dlopen("libsleef.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char* e = dlerror();
      log_warning((std::string("SLEEF could not be loaded (") + (e ? e : "libsleef.so.3") +
                   "); exp, log, tanh and the other transcendental functions run one element at a time "
                   "(install libsleef3)")
                      .c_str());
      return;
    }
    for (Level l : {Level::Sse2, Level::Avx2, Level::Avx512}) {
      LevelFns& fns = g_fns[static_cast<int>(l)];
      bool complete = cpu_runs(l);
      for (int i = 0; complete && i < PORTA_OP_COUNT; ++i) {
        if (!kSpecs[i].stem) continue;
        fns.f32[i] = dlsym(lib, sleef_name(kSpecs[i], l, false).c_str());
        fns.f64[i] = dlsym(lib, sleef_name(kSpecs[i], l, true).c_str());
        complete = fns.f32[i] && fns.f64[i];
      }
      fns.complete = complete;
      if (complete) g_level = l;
    }
#endif
  });
  return g_level;
}

namespace {

// SLEEF's log1p and asinh overflow to inf for the largest finite inputs (log1p(FLT_MAX), asinh(1e20f)), whose
// results are finite: those elements are computed again one at a time.
template <class T>
bool finite_where_sleef_overflows(porta_op op, const T* x, T* y, int64_t n, bool done) {
  if (!done || (op != PORTA_OP_LOG1P && op != PORTA_OP_ASINH)) return done;
  for (int64_t i = 0; i < n; ++i)
    if (std::isinf(y[i]) && std::isfinite(x[i])) y[i] = op == PORTA_OP_LOG1P ? std::log1p(x[i]) : std::asinh(x[i]);
  return true;
}

}  // namespace

bool apply(porta_op op, const float* x, float* y, int64_t n) {
  return finite_where_sleef_overflows(op, x, y, n, run_at(level(), op, x, y, n));
}
bool apply(porta_op op, const double* x, double* y, int64_t n) {
  return finite_where_sleef_overflows(op, x, y, n, run_at(level(), op, x, y, n));
}

std::vector<Level> available_levels() {
  level();  // loads SLEEF
  std::vector<Level> levels;
  for (Level level : {Level::Sse2, Level::Avx2, Level::Avx512})
    if (g_fns[static_cast<int>(level)].complete) levels.push_back(level);
  return levels;
}

bool apply_at(Level at, porta_op op, const float* x, float* y, int64_t n) { return level(), run_at(at, op, x, y, n); }
bool apply_at(Level at, porta_op op, const double* x, double* y, int64_t n) {
  return level(), run_at(at, op, x, y, n);
}

}  // namespace porta::host::vecmath
