#include "half_runs.hpp"

#include <cpuid.h>
#include <immintrin.h>
#include <porta/float16.h>

#include <cstring>

#include "cpu_isa.hpp"

namespace porta::host {
namespace {

// F16C (CPUID leaf 1, ECX; clang's __builtin_cpu_supports does not know it) and AVX2 (which also
// says the OS saves the ymm registers).
bool has_f16c_and_avx2() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_F16C)) return false;
  return cpu_runs(Isa::Avx2);
}

const bool kF16c = has_f16c_and_avx2();

__attribute__((target("avx2,f16c"))) int64_t float16_to_float32_f16c(const uint16_t* in, float* out, int64_t n) {
  const __m128i magnitude = _mm_set1_epi16(0x7fff), infinity = _mm_set1_epi16(0x7c00);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i));
    if (_mm_movemask_epi8(_mm_cmpgt_epi16(_mm_and_si128(h, magnitude), infinity))) {  // a NaN: keep its payload
      for (int64_t k = i; k < i + 8; ++k) out[k] = porta_float16_to_float32(in[k]);
      continue;
    }
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(h));
  }
  return i;
}

__attribute__((target("avx2,f16c"))) int64_t float32_to_float16_f16c(const float* in, uint16_t* out, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 v = _mm256_loadu_ps(in + i);
    if (_mm256_movemask_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q))) {  // a NaN: NumPy's payload, not the quiet one
      for (int64_t k = i; k < i + 8; ++k) out[k] = porta_float32_to_float16(in[k]);
      continue;
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
  }
  return i;
}

// Branch-free, so that the compiler vectorizes it (for AVX2 where present).
__attribute__((target("avx2"))) void float32_to_bfloat16_avx2(const float* in, uint16_t* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    uint32_t x;
    std::memcpy(&x, in + i, sizeof x);
    const uint32_t rounded = (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
    const uint32_t nan = ((x >> 16) & 0x8000u) | 0x7fc0u;
    out[i] = static_cast<uint16_t>((x & 0x7fffffffu) > 0x7f800000u ? nan : rounded);
  }
}

}  // namespace

void float16_to_float32_run(const uint16_t* in, float* out, int64_t n) {
  int64_t i = kF16c ? float16_to_float32_f16c(in, out, n) : 0;
  for (; i < n; ++i) out[i] = porta_float16_to_float32(in[i]);
}

void float32_to_float16_run(const float* in, uint16_t* out, int64_t n) {
  int64_t i = kF16c ? float32_to_float16_f16c(in, out, n) : 0;
  for (; i < n; ++i) out[i] = porta_float32_to_float16(in[i]);
}

void bfloat16_to_float32_run(const uint16_t* in, float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t bits = uint32_t{in[i]} << 16;
    std::memcpy(out + i, &bits, sizeof bits);
  }
}

void float32_to_bfloat16_run(const float* in, uint16_t* out, int64_t n) {
  if (kF16c) return float32_to_bfloat16_avx2(in, out, n);
  for (int64_t i = 0; i < n; ++i) out[i] = porta_float32_to_bfloat16(in[i]);
}

}  // namespace porta::host
