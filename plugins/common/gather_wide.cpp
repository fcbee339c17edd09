#include "gather_wide.hpp"

#if defined(__x86_64__)
// GCC 12's AVX-512 intrinsics pass _mm512_undefined_epi32() as the masked-off
// source of their unmasked forms, which -Wmaybe-uninitialized reports once
// inlined; nothing here reads an uninitialized value.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#endif

namespace porta::host {
namespace {

#if defined(__x86_64__)
// The element positions t * a + index[t] * b of 8 consecutive t from `t`.
__attribute__((target("avx512f,avx512dq"), always_inline)) inline __m512i positions(const int64_t* index, int64_t t,
                                                                                     __m512i a, __m512i b) {
  const __m512i ts = _mm512_add_epi64(_mm512_set1_epi64(t), _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0));
  return _mm512_add_epi64(_mm512_mullo_epi64(ts, a), _mm512_mullo_epi64(_mm512_loadu_si512(index + t), b));
}

__attribute__((target("avx512f,avx512dq"))) void gather4(uint32_t* out, const uint32_t* base, const int64_t* index,
                                                          int64_t a, int64_t b, int64_t count) {
  const __m512i va = _mm512_set1_epi64(a), vb = _mm512_set1_epi64(b);
  int64_t t = 0;
  for (; t + 8 <= count; t += 8)
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + t), _mm512_i64gather_epi32(positions(index, t, va, vb), base, 4));
  for (; t < count; ++t) out[t] = base[t * a + index[t] * b];
}

__attribute__((target("avx512f,avx512dq"))) void gather8(uint64_t* out, const uint64_t* base, const int64_t* index,
                                                          int64_t a, int64_t b, int64_t count) {
  const __m512i va = _mm512_set1_epi64(a), vb = _mm512_set1_epi64(b);
  int64_t t = 0;
  for (; t + 8 <= count; t += 8)
    _mm512_storeu_si512(out + t, _mm512_i64gather_epi64(positions(index, t, va, vb), base, 8));
  for (; t < count; ++t) out[t] = base[t * a + index[t] * b];
}
#endif

}  // namespace

bool gather_wide(void* out, const void* base, const int64_t* index, int64_t a, int64_t b, int64_t count, int bytes) {
#if defined(__x86_64__)
  static const bool wide = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
  if (!wide) return false;
  if (bytes == 4) return gather4(static_cast<uint32_t*>(out), static_cast<const uint32_t*>(base), index, a, b, count), true;
  if (bytes == 8) return gather8(static_cast<uint64_t*>(out), static_cast<const uint64_t*>(base), index, a, b, count), true;
#endif
  (void)out, (void)base, (void)index, (void)a, (void)b, (void)count, (void)bytes;
  return false;
}

}  // namespace porta::host
