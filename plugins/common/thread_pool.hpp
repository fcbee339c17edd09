// A small fork-join pool for host kernels. Its size follows the core's
// setting (porta_set_num_threads, PORTA_NUM_THREADS, OMP_NUM_THREADS: read
// through the host table before each parallel kernel; a core older than
// plugin ABI 1.2 leaves it to PORTA_NUM_THREADS, default all cores). Nested
// or concurrent parallel_for calls run inline on the calling thread rather
// than queue, so kernels never deadlock. Idle workers poll for the next job
// for about 50 microseconds before they sleep, as OpenMP's do (longer), so a
// training step's train of small kernels does not pay a wake-up per kernel.
#pragma once

#include <cstdint>
#include <functional>

namespace porta::host {

// The size the pool has now, or will have at the next parallel_for.
int num_threads();

// Calls fn(begin, end) on disjoint chunks covering [0, n), each chunk at
// least `grain` long, on up to num_threads() threads; returns when all are done.
void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn);

}  // namespace porta::host
