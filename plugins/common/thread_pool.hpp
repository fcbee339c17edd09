// A small fork-join pool for host kernels. PORTA_NUM_THREADS sets its size
// (default: all cores). Nested or concurrent parallel_for calls run inline
// on the calling thread rather than queue, so kernels never deadlock.
#pragma once

#include <cstdint>
#include <functional>

namespace porta::host {

int num_threads();

// Calls fn(begin, end) on disjoint chunks covering [0, n), each chunk at
// least `grain` long, on up to num_threads() threads; returns when all are done.
void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn);

}  // namespace porta::host
