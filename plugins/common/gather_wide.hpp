// Gathers of 4- and 8-byte elements by AVX-512 vector gathers, chosen at run
// time: GCC's cost model keeps `out[t] = base[t * a + index[t] * b]` scalar.
// Copies of bits: every path gives the same values.
#pragma once

#include <cstdint>

namespace porta::host {

// out[t] = base[t * a + index[t] * b] for t in [0, count), elements of
// `bytes` (4 or 8) bytes, the positions in elements; every index already
// checked. False (nothing written) where this CPU has no AVX-512 F and DQ or
// the size is another.
bool gather_wide(void* out, const void* base, const int64_t* index, int64_t a, int64_t b, int64_t count, int bytes);

}  // namespace porta::host
