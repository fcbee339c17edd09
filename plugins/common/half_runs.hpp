// Contiguous runs of float32 <-> float16 / bfloat16 conversions for the host
// kernels (CAST, and so every op the core computes through float32): the
// same bits as porta/float16.h, eight at a time where the CPU has F16C and
// AVX2 (checked at run time), a block holding a NaN redone one by one (the
// hardware quietens NaNs; NumPy's float16 keeps their payload).
#pragma once

#include <cstdint>

namespace porta::host {

void float16_to_float32_run(const uint16_t* in, float* out, int64_t n);
void float32_to_float16_run(const float* in, uint16_t* out, int64_t n);
void bfloat16_to_float32_run(const uint16_t* in, float* out, int64_t n);
void float32_to_bfloat16_run(const float* in, uint16_t* out, int64_t n);

}  // namespace porta::host
