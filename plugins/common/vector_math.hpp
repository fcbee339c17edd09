// The elementwise transcendental functions of the host kernels over arrays
// of float or double, at the width of the CPU's vectors: SLEEF's
// deterministic vector functions, loaded at run time as OpenBLAS is (a
// machine without libsleef3 keeps the C library's scalar functions, with a
// warning). Every element of an array goes through the same vector function,
// the last block padded, so an element's result never depends on where it
// sits, how long the array is, its strides or the thread count; and it does
// not depend on the vector width either, because SLEEF's deterministic sets
// give the same bits at every width: its "finz" set (with FMA) on CPUs with
// FMA, its "cinz" set (without) on the others; NaN results are all the one
// quiet NaN, as SLEEF's widths disagree on NaN's sign and payload
// (docs/architecture.md, "Host math").
#pragma once

#include <porta/ops.h>

#include <cstdint>
#include <vector>

namespace porta::host::vecmath {

// Which ops have a vector function: the rows of porta/ops.h whose vector
// column is SLEEF(stem, ulp), each SLEEF's function of that stem and
// accuracy (tanh 3.5 ULP, as SLEEF's 1-ULP tanh costs three times as much;
// the rest 1.0 ULP); sigmoid is 1 / (1 + exp(-x)) with SLEEF's exp. A row
// marked SCALAR runs one element at a time.
inline constexpr bool kVectorized[PORTA_OP_COUNT] = {
#define PORTA_OP_VECTOR_SLEEF(stem, ulp) true
#define PORTA_OP_VECTOR_SCALAR false
#define PORTA_X_VECTORIZED(NAME, id, since, domain, autocast, vector) PORTA_OP_VECTOR_##vector,
    PORTA_OP_TRAITS(PORTA_X_VECTORIZED)
#undef PORTA_X_VECTORIZED
#undef PORTA_OP_VECTOR_SCALAR
#undef PORTA_OP_VECTOR_SLEEF
};
constexpr bool vectorized(porta_op op) { return op >= 0 && op < PORTA_OP_COUNT && kVectorized[op]; }

// The vector widths, in what they need: SSE2 (every x86-64 CPU, no FMA:
// cinz), AVX2 + FMA and AVX-512F + FMA (finz). None: no SLEEF (or not x86-64).
enum class Level : int { None, Sse2, Avx2, Avx512 };
const char* level_name(Level level);

// The level apply() uses (None without SLEEF). The first call loads SLEEF
// and picks the widest level this CPU runs (a warning through the host table
// when SLEEF is missing).
Level level();

// y[i] = op(x[i]) for i < n (y may be x); false, writing nothing, at level
// None or for an op that is not vectorized.
bool apply(porta_op op, const float* x, float* y, int64_t n);
bool apply(porta_op op, const double* x, double* y, int64_t n);

// For tests: every level this CPU and SLEEF offer, and apply at one of them.
std::vector<Level> available_levels();
bool apply_at(Level level, porta_op op, const float* x, float* y, int64_t n);
bool apply_at(Level level, porta_op op, const double* x, double* y, int64_t n);

}  // namespace porta::host::vecmath
