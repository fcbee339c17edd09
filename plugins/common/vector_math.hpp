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

#include <cstdint>
#include <vector>

namespace porta::host::vecmath {

// The functions, each SLEEF's function of that name (1.0 ULP; tanh 3.5 ULP,
// as SLEEF's 1-ULP tanh costs three times as much); sigmoid is 1 / (1 +
// exp(-x)) with SLEEF's exp.
enum class Fn : int {
  Exp, Log, Tanh, Sigmoid, Erf, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Log1p, Expm1, Log2, Log10, Exp2, Asinh,
  Count
};

// The vector widths, in what they need: SSE2 (every x86-64 CPU, no FMA:
// cinz), AVX2 + FMA and AVX-512F + FMA (finz). None: no SLEEF (or not x86-64).
enum class Level : int { None, Sse2, Avx2, Avx512 };
const char* level_name(Level level);

// The level apply() uses (None without SLEEF). The first call loads SLEEF
// and picks the widest level this CPU runs (a warning through the host table
// when SLEEF is missing).
Level level();

// y[i] = fn(x[i]) for i < n (y may be x); false, writing nothing, at level None.
bool apply(Fn fn, const float* x, float* y, int64_t n);
bool apply(Fn fn, const double* x, double* y, int64_t n);

// For tests: every level this CPU and SLEEF offer, and apply at one of them.
std::vector<Level> available_levels();
bool apply_at(Level level, Fn fn, const float* x, float* y, int64_t n);
bool apply_at(Level level, Fn fn, const double* x, double* y, int64_t n);

}  // namespace porta::host::vecmath
