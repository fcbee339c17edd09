/*
 * Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2,
 * 3", SC11) and the mapping from its output to Porta's uniform and normal
 * samples, exactly as specified for porta_random_params in porta/ops.h.
 * Plain C so every backend (C++, CUDA via PORTA_PHILOX_QUALIFIER) can share it.
 */
#ifndef PORTA_PLUGINS_COMMON_PHILOX_H_
#define PORTA_PLUGINS_COMMON_PHILOX_H_

#include <math.h>
#include <stdint.h>

#ifndef PORTA_PHILOX_QUALIFIER
#define PORTA_PHILOX_QUALIFIER static inline
#endif

/* Four 32-bit outputs for counter n under key `seed`. */
PORTA_PHILOX_QUALIFIER void porta_philox4x32_10(uint64_t seed, uint64_t n, uint32_t out[4]) {
  uint32_t c0 = (uint32_t)n, c1 = (uint32_t)(n >> 32), c2 = 0, c3 = 0;
  uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = (uint64_t)0xD2511F53u * c0;
    const uint64_t p1 = (uint64_t)0xCD9E8D57u * c2;
    const uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0;
    const uint32_t n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
    c1 = (uint32_t)p1;
    c3 = (uint32_t)p0;
    c0 = n0;
    c2 = n2;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
}

/* Uniform float32 in [0, 1) for counter n. */
PORTA_PHILOX_QUALIFIER float porta_uniform_f32(uint64_t seed, uint64_t n) {
  uint32_t r[4];
  porta_philox4x32_10(seed, n, r);
  return (float)(r[0] >> 8) * (1.0f / 16777216.0f);
}

/* Uniform float64 in [0, 1) for counter n. */
PORTA_PHILOX_QUALIFIER double porta_uniform_f64(uint64_t seed, uint64_t n) {
  uint32_t r[4];
  porta_philox4x32_10(seed, n, r);
  const uint64_t bits = ((uint64_t)r[0] << 21) ^ ((uint64_t)r[1] >> 11);
  return (double)bits * (1.0 / 9007199254740992.0);
}

/* Standard normal (Box-Muller, in double) for counter n. */
PORTA_PHILOX_QUALIFIER double porta_normal(uint64_t seed, uint64_t n) {
  uint32_t r[4];
  porta_philox4x32_10(seed, n, r);
  const double u1 = ((double)r[0] + 1.0) * (1.0 / 4294967296.0);
  const double u2 = (double)r[1] * (1.0 / 4294967296.0);
  return sqrt(-2.0 * log(u1)) * cos(6.283185307179586476925286766559 * u2);
}

#endif /* PORTA_PLUGINS_COMMON_PHILOX_H_ */
