/*
 * porta/float16.h — the exact conversions between float32 and Porta's 16-bit
 * float dtypes (float16, bfloat16; porta/types.h, since 1.10), header-only,
 * as bit patterns in uint16_t. Every device converts with these rules
 * (porta/ops.h, PORTA_OP_KIND_COPY); a plugin may call these functions or
 * must give the same bits.
 *
 *  - float16 and bfloat16 widen to float32 exactly; a NaN keeps its sign and
 *    payload.
 *  - float32 narrows by rounding to nearest, ties to even; subnormals are
 *    kept; beyond the largest finite value is an infinity of the sign.
 *  - A float32 NaN becomes, for float16, sign | 0x7c00 + (payload >> 13), or
 *    sign | 0x7c01 where that would be an infinity (NumPy's float16, which
 *    ml_dtypes uses); for bfloat16, sign | 0x7fc0 (ml_dtypes.bfloat16).
 *
 * C99 and C++; under CUDA the functions are also __device__.
 */
#ifndef PORTA_FLOAT16_H_
#define PORTA_FLOAT16_H_

#include <stdint.h>
#include <string.h>

#if defined(__CUDACC__)
#define PORTA_FLOAT16_FN static inline __host__ __device__
#else
#define PORTA_FLOAT16_FN static inline
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** The bits of a float32. */
PORTA_FLOAT16_FN uint32_t porta_float32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

/** The float32 of these bits. */
PORTA_FLOAT16_FN float porta_float32_from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/** q rounded after dropping its low `shift` bits (1..31) from `m`: to
 *  nearest, ties to even. */
PORTA_FLOAT16_FN uint32_t porta_round_shift_(uint32_t m, int shift) {
  const uint32_t q = m >> shift, rest = m & ((1u << shift) - 1u), half = 1u << (shift - 1);
  return q + (rest > half || (rest == half && (q & 1u)));
}

/** float16 bits -> float32, exactly. */
PORTA_FLOAT16_FN float porta_float16_to_float32(uint16_t h) {
  const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
  if (exp == 0x1fu) return porta_float32_from_bits(sign | 0x7f800000u | (man << 13));  // inf, NaN
  if (exp != 0) return porta_float32_from_bits(sign | ((exp + 112u) << 23) | (man << 13));
  if (man == 0) return porta_float32_from_bits(sign);  // +-0
  /* subnormal: man * 2^-24, normalized */
  int e = 113;
  uint32_t m = man;
  while ((m & 0x400u) == 0) {
    m <<= 1;
    --e;
  }
  return porta_float32_from_bits(sign | ((uint32_t)e << 23) | ((m & 0x3ffu) << 13));
}

/** float32 -> float16 bits: to nearest, ties to even. */
PORTA_FLOAT16_FN uint16_t porta_float32_to_float16(float f) {
  const uint32_t x = porta_float32_bits(f);
  const uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
  const uint32_t ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u) {
    if (ax == 0x7f800000u) return (uint16_t)(sign | 0x7c00u);
    const uint32_t nan = 0x7c00u + ((ax & 0x7fffffu) >> 13);
    return (uint16_t)(sign | (nan == 0x7c00u ? 0x7c01u : nan));
  }
  if (ax < 0x38800000u) {                         /* below 2^-14: a subnormal or zero */
    if (ax < 0x33000000u) return sign;            /* below 2^-25 (2^-25 itself ties to 0) */
    const uint32_t e = ax >> 23;                  /* 102 .. 112 */
    const uint32_t m = (ax & 0x7fffffu) | 0x800000u;
    return (uint16_t)(sign | porta_round_shift_(m, (int)(126u - e)));  /* in units of 2^-24 */
  }
  const uint32_t q = porta_round_shift_(ax - 0x38000000u, 13); /* exponent rebiased 127 -> 15 */
  return (uint16_t)(sign | (q >= 0x7c00u ? 0x7c00u : q));
}

/** bfloat16 bits -> float32, exactly. */
PORTA_FLOAT16_FN float porta_bfloat16_to_float32(uint16_t b) { return porta_float32_from_bits((uint32_t)b << 16); }

/** float32 -> bfloat16 bits: to nearest, ties to even; NaN to 0x7fc0 with its sign. */
PORTA_FLOAT16_FN uint16_t porta_float32_to_bfloat16(float f) {
  const uint32_t x = porta_float32_bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) & 0x8000u) | 0x7fc0u;
  return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PORTA_FLOAT16_H_ */
