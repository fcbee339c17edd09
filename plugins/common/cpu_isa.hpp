// The x86-64 vector extensions the host kernels' hand-dispatched loops use,
// and which of them this CPU runs: the one place that asks the CPU for them
// (the extra CPUID bits some kernels need beside them, FMA, F16C,
// AVX512_BF16, are asked where they are needed). A kernel
// compiles its loop once per extension (GCC's target attribute) and picks one
// at run time, so the package built on one machine runs at each machine's
// width (the baseline is x86-64's SSE2; other architectures have only it).
#pragma once

#include <vector>

namespace porta::host {

enum class Isa : int { Baseline, Avx2, Avx512 };  // Avx512: AVX-512F

const char* isa_name(Isa isa);

// Whether this CPU (and its OS, which must save the registers) runs `isa`.
bool cpu_runs(Isa isa);

// The widest extension this CPU runs.
Isa widest_isa();

// Every extension this CPU runs, the baseline first. For tests.
std::vector<Isa> runnable_isas();

}  // namespace porta::host
