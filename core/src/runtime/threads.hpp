// The number of threads host kernels use, owned by the core and read by
// plugins through porta_host_api.num_threads.
#pragma once

#include <cstdint>

namespace porta {

// porta_set_num_threads, else PORTA_NUM_THREADS, else OMP_NUM_THREADS, else
// the CPUs this process may run on.
int32_t num_threads();
// Throws INVALID_ARGUMENT for n < 1.
void set_num_threads(int32_t n);

}  // namespace porta
