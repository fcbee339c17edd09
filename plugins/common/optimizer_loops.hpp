// The fused Adam step's loop over contiguous arrays, compiled at each vector
// width (cpu_isa.hpp). Square root and division are IEEE operations at every
// width, and nothing is contracted into FMA (-ffp-contract=off), so each width
// gives the baseline's bits: the width is chosen for speed only (two divisions
// and a square root an element: a step of 12.9M float32 parameters on one
// thread took 18.9 ms at SSE2's width and 15.6 ms at AVX-512's, docs/benchmarks.md).
#pragma once

#include <cstdint>

#include "cpu_isa.hpp"
#include "optimizer_math.hpp"

namespace porta::host {

// param[i], m[i], v[i] = step(param[i], grad[i], m[i], v[i]) for i < n, at
// `isa` (which this CPU must run). T: float or double.
template <class T>
void adam_loop(Isa isa, const math::AdamStep<T>& step, T* param, const T* grad, T* m, T* v, int64_t n);

}  // namespace porta::host
