// Philox float32 uniform samples for a contiguous run, 16 (AVX-512) or 8
// (AVX2) counters at a time: the same integer rounds and the same two float
// operations as porta_uniform_f32 (philox.h), so every sample has the bits
// the scalar code gives it, on every CPU (tests/kernels/test_philox_vector.cpp).
#pragma once

#include <cstdint>

namespace porta::host {

// out[i] = a + porta_uniform_f32(seed, offset + i) * scale, in float, for i < n.
void philox_uniform_f32(uint64_t seed, uint64_t offset, float* out, int64_t n, float a, float scale);

// The same at a given width (16, 8, or 1 for the scalar loop); false where this
// CPU lacks it. For tests.
bool philox_uniform_f32_at(int lanes, uint64_t seed, uint64_t offset, float* out, int64_t n, float a, float scale);

}  // namespace porta::host
