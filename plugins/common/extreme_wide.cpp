#include "extreme_wide.hpp"

#include <algorithm>

#include "cpu_isa.hpp"

#if defined(__x86_64__)
// GCC 12's AVX-512 intrinsics pass _mm512_undefined_epi32() as the masked-off
// source of their unmasked forms, which -Wmaybe-uninitialized reports once
// inlined; nothing here reads an uninitialized value.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#endif

namespace porta::host {
namespace {

int64_t pick(int64_t a, int64_t b, bool want_max) { return want_max ? std::max(a, b) : std::min(a, b); }

#if defined(__x86_64__)
__attribute__((target("avx512f"))) int64_t avx512(const int64_t* x, int64_t n, bool want_max) {
  __m512i best[2] = {_mm512_loadu_si512(x), _mm512_loadu_si512(x + 8)};
  int64_t i = 16;
  for (; i + 16 <= n; i += 16)
    for (int h = 0; h < 2; ++h) {
      const __m512i v = _mm512_loadu_si512(x + i + 8 * h);
      best[h] = want_max ? _mm512_max_epi64(best[h], v) : _mm512_min_epi64(best[h], v);
    }
  const __m512i both = want_max ? _mm512_max_epi64(best[0], best[1]) : _mm512_min_epi64(best[0], best[1]);
  int64_t r = want_max ? _mm512_reduce_max_epi64(both) : _mm512_reduce_min_epi64(both);
  for (; i < n; ++i) r = pick(r, x[i], want_max);
  return r;
}

__attribute__((target("avx2"))) int64_t avx2(const int64_t* x, int64_t n, bool want_max) {
  __m256i best[2] = {_mm256_loadu_si256(reinterpret_cast<const __m256i*>(x)),
                     _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + 4))};
  int64_t i = 8;
  for (; i + 8 <= n; i += 8)
    for (int h = 0; h < 2; ++h) {
      const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i + 4 * h));
      const __m256i v_wins = want_max ? _mm256_cmpgt_epi64(v, best[h]) : _mm256_cmpgt_epi64(best[h], v);
      best[h] = _mm256_blendv_epi8(best[h], v, v_wins);
    }
  alignas(32) int64_t lanes[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), best[0]);
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes + 4), best[1]);
  int64_t r = lanes[0];
  for (int l = 1; l < 8; ++l) r = pick(r, lanes[l], want_max);
  for (; i < n; ++i) r = pick(r, x[i], want_max);
  return r;
}
#endif

}  // namespace

bool int64_extreme_wide_at(int width, const int64_t* x, int64_t n, bool want_max, int64_t* out) {
#if defined(__x86_64__)
  if (width == 512 && n >= 16 && cpu_runs(Isa::Avx512)) return *out = avx512(x, n, want_max), true;
  if (width == 256 && n >= 8 && cpu_runs(Isa::Avx2)) return *out = avx2(x, n, want_max), true;
#endif
  (void)width, (void)x, (void)n, (void)want_max, (void)out;
  return false;
}

bool int64_extreme_wide(const int64_t* x, int64_t n, bool want_max, int64_t* out) {
#if defined(__x86_64__)
  static const int width = widest_isa() == Isa::Avx512 ? 512 : widest_isa() == Isa::Avx2 ? 256 : 0;
#else
  const int width = 0;
#endif
  return int64_extreme_wide_at(width, x, n, want_max, out);
}

}  // namespace porta::host
