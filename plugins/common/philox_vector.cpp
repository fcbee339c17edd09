#include "philox_vector.hpp"

#if defined(__x86_64__)
// GCC 12's AVX-512 intrinsics pass _mm512_undefined_epi32() as the masked-off
// source of their unmasked forms, which -Wmaybe-uninitialized reports once
// inlined; nothing here reads an uninitialized value.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#endif

#include <climits>

#include "cpu_isa.hpp"
#include "philox.h"

namespace porta::host {
namespace {

constexpr uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u, kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;

void scalar(uint64_t seed, uint64_t offset, float* out, int64_t n, float a, float scale) {
  for (int64_t i = 0; i < n; ++i) out[i] = a + porta_uniform_f32(seed, offset + static_cast<uint64_t>(i)) * scale;
}

#if defined(__x86_64__)
// x * m of 32-bit lanes, the 64-bit products' high and low halves: the even
// lanes' products as they are, the odd lanes' from x shifted down, each half
// put back in its lane.
__attribute__((target("avx512f"), always_inline)) inline void mul_halves(__m512i x, __m512i m, __m512i* hi,
                                                                          __m512i* lo) {
  const __m512i even = _mm512_mul_epu32(x, m), odd = _mm512_mul_epu32(_mm512_srli_epi64(x, 32), m);
  *hi = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(even, 32), odd);
  *lo = _mm512_mask_blend_epi32(0xAAAA, even, _mm512_slli_epi64(odd, 32));
}
__attribute__((target("avx2"), always_inline)) inline void mul_halves(__m256i x, __m256i m, __m256i* hi, __m256i* lo) {
  const __m256i even = _mm256_mul_epu32(x, m), odd = _mm256_mul_epu32(_mm256_srli_epi64(x, 32), m);
  *hi = _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xAA);
  *lo = _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
}

// 16 counters offset + [0, 16): Philox4x32-10's first output word, then the
// sample, in 32-bit lanes.
__attribute__((target("avx512f"))) void avx512(uint64_t seed, uint64_t offset, float* out, int64_t n, float a,
                                               float scale) {
  const __m512i m0 = _mm512_set1_epi32(static_cast<int>(kM0)), m1 = _mm512_set1_epi32(static_cast<int>(kM1));
  const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m512 av = _mm512_set1_ps(a), sv = _mm512_set1_ps(scale), unit = _mm512_set1_ps(1.0f / 16777216.0f);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const uint64_t base = offset + static_cast<uint64_t>(i);
    const __m512i lo_base = _mm512_set1_epi32(static_cast<int>(static_cast<uint32_t>(base)));
    __m512i c0 = _mm512_add_epi32(lo_base, iota);
    const __mmask16 carry = _mm512_cmplt_epu32_mask(c0, lo_base);
    const __m512i hi_base = _mm512_set1_epi32(static_cast<int>(static_cast<uint32_t>(base >> 32)));
    __m512i c1 = _mm512_mask_add_epi32(hi_base, carry, hi_base, _mm512_set1_epi32(1));
    __m512i c2 = _mm512_setzero_si512(), c3 = _mm512_setzero_si512();
    uint32_t k0 = static_cast<uint32_t>(seed), k1 = static_cast<uint32_t>(seed >> 32);
    for (int r = 0; r < 10; ++r) {
      __m512i hi0, lo0, hi1, lo1;
      mul_halves(c0, m0, &hi0, &lo0);
      mul_halves(c2, m1, &hi1, &lo1);
      const __m512i n0 = _mm512_xor_si512(_mm512_xor_si512(hi1, c1), _mm512_set1_epi32(static_cast<int>(k0)));
      const __m512i n2 = _mm512_xor_si512(_mm512_xor_si512(hi0, c3), _mm512_set1_epi32(static_cast<int>(k1)));
      c1 = lo1, c3 = lo0, c0 = n0, c2 = n2;
      k0 += kW0, k1 += kW1;
    }
    const __m512 u = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_srli_epi32(c0, 8)), unit);  // exact
    _mm512_storeu_ps(out + i, _mm512_add_ps(av, _mm512_mul_ps(u, sv)));
  }
  scalar(seed, offset + static_cast<uint64_t>(i), out + i, n - i, a, scale);
}

// The same 8 counters at a time; AVX2 has no unsigned compare: the carry is
// a signed compare with the sign bits flipped.
__attribute__((target("avx2"))) void avx2(uint64_t seed, uint64_t offset, float* out, int64_t n, float a,
                                          float scale) {
  const __m256i m0 = _mm256_set1_epi32(static_cast<int>(kM0)), m1 = _mm256_set1_epi32(static_cast<int>(kM1));
  const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), sign = _mm256_set1_epi32(INT32_MIN);
  const __m256 av = _mm256_set1_ps(a), sv = _mm256_set1_ps(scale), unit = _mm256_set1_ps(1.0f / 16777216.0f);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const uint64_t base = offset + static_cast<uint64_t>(i);
    const __m256i lo_base = _mm256_set1_epi32(static_cast<int>(static_cast<uint32_t>(base)));
    __m256i c0 = _mm256_add_epi32(lo_base, iota);
    const __m256i carry = _mm256_cmpgt_epi32(_mm256_xor_si256(lo_base, sign), _mm256_xor_si256(c0, sign));  // -1 or 0
    __m256i c1 = _mm256_sub_epi32(_mm256_set1_epi32(static_cast<int>(static_cast<uint32_t>(base >> 32))), carry);
    __m256i c2 = _mm256_setzero_si256(), c3 = _mm256_setzero_si256();
    uint32_t k0 = static_cast<uint32_t>(seed), k1 = static_cast<uint32_t>(seed >> 32);
    for (int r = 0; r < 10; ++r) {
      __m256i hi0, lo0, hi1, lo1;
      mul_halves(c0, m0, &hi0, &lo0);
      mul_halves(c2, m1, &hi1, &lo1);
      const __m256i n0 = _mm256_xor_si256(_mm256_xor_si256(hi1, c1), _mm256_set1_epi32(static_cast<int>(k0)));
      const __m256i n2 = _mm256_xor_si256(_mm256_xor_si256(hi0, c3), _mm256_set1_epi32(static_cast<int>(k1)));
      c1 = lo1, c3 = lo0, c0 = n0, c2 = n2;
      k0 += kW0, k1 += kW1;
    }
    const __m256 u = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_srli_epi32(c0, 8)), unit);
    _mm256_storeu_ps(out + i, _mm256_add_ps(av, _mm256_mul_ps(u, sv)));
  }
  scalar(seed, offset + static_cast<uint64_t>(i), out + i, n - i, a, scale);
}
#endif

// The widest width this CPU runs.
int best_lanes() {
#if defined(__x86_64__)
  static const int lanes = widest_isa() == Isa::Avx512 ? 16 : widest_isa() == Isa::Avx2 ? 8 : 1;
  return lanes;
#else
  return 1;
#endif
}

}  // namespace

bool philox_uniform_f32_at(int lanes, uint64_t seed, uint64_t offset, float* out, int64_t n, float a, float scale) {
#if defined(__x86_64__)
  if (lanes == 16 && cpu_runs(Isa::Avx512)) return avx512(seed, offset, out, n, a, scale), true;
  if (lanes == 8 && cpu_runs(Isa::Avx2)) return avx2(seed, offset, out, n, a, scale), true;
#endif
  if (lanes == 1) return scalar(seed, offset, out, n, a, scale), true;
  return false;
}

void philox_uniform_f32(uint64_t seed, uint64_t offset, float* out, int64_t n, float a, float scale) {
  philox_uniform_f32_at(best_lanes(), seed, offset, out, n, a, scale);
}

}  // namespace porta::host
