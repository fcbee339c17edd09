// The int64 extremes at the CPU's widest integer compare (AVX-512 or AVX2,
// chosen at run time): baseline x86-64 has no 64-bit vector compare, and the
// core's range check of every gather and scatter index is an int64 MIN and
// MAX. Integers: every width gives the same answer.
#pragma once

#include <cstdint>

namespace porta::host {

// The largest (want_max) or smallest of the contiguous x[0..n) in *out;
// false (nothing written) where this CPU has neither width.
bool int64_extreme_wide(const int64_t* x, int64_t n, bool want_max, int64_t* out);
// The same at a given width (512 or 256 bits), for tests.
bool int64_extreme_wide_at(int width, const int64_t* x, int64_t n, bool want_max, int64_t* out);

}  // namespace porta::host
