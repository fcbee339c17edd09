// A host Philox4x32-10 (Salmon et al., SC'11; Random123) and the sample
// mapping of porta/ops.h's porta_random_params spec, written independently
// of the plugins so every device's rand/randn can be checked against it.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

namespace conformance {

inline std::array<uint32_t, 4> philox4x32_10(std::array<uint32_t, 4> ctr, std::array<uint32_t, 2> key) {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) key = {key[0] + 0x9E3779B9u, key[1] + 0xBB67AE85u};
    const uint64_t p0 = uint64_t{0xD2511F53u} * ctr[0];
    const uint64_t p1 = uint64_t{0xCD9E8D57u} * ctr[2];
    ctr = {static_cast<uint32_t>(p1 >> 32) ^ ctr[1] ^ key[0], static_cast<uint32_t>(p1),
           static_cast<uint32_t>(p0 >> 32) ^ ctr[3] ^ key[1], static_cast<uint32_t>(p0)};
  }
  return ctr;
}

// The Philox output for counter n of the generator seeded with `seed`.
inline std::array<uint32_t, 4> philox_at(uint64_t seed, uint64_t n) {
  return philox4x32_10({static_cast<uint32_t>(n), static_cast<uint32_t>(n >> 32), 0, 0},
                       {static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)});
}

// porta_rand's element for counter n: uniform on [0, 1) with 24 (float32) or 53 (float64) bits.
inline float uniform_f32(uint64_t seed, uint64_t n) {
  return static_cast<float>(std::ldexp(static_cast<double>(philox_at(seed, n)[0] >> 8), -24));
}
inline double uniform_f64(uint64_t seed, uint64_t n) {
  const auto r = philox_at(seed, n);
  const uint64_t bits = (uint64_t{r[0]} << 21) ^ (r[1] >> 11);
  return std::ldexp(static_cast<double>(bits), -53);
}

// porta_randn's element for counter n, in double (Box-Muller; float32 rounds this).
inline double normal_f64(uint64_t seed, uint64_t n) {
  const auto r = philox_at(seed, n);
  const double u1 = (static_cast<double>(r[0]) + 1.0) * 0x1p-32;
  const double u2 = static_cast<double>(r[1]) * 0x1p-32;
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

}  // namespace conformance
