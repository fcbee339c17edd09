// Pinned host memory, cached as PyTorch's CachingHostAllocator caches it.
//
// cudaFreeHost synchronizes the device, so freeing a DataLoader batch's
// pinned block would stall the non-blocking copies and kernels queued behind
// it. Instead a released block waits (an event recorded at the release on
// every used device) until the copies queued from it have completed, then
// goes back to the cache, and a later request of its size class (the next
// power of two) reuses it without calling CUDA at all.
//
// The cache is bounded as the core's device cache is: the bytes it holds
// idle stay within the peak of bytes in use (at least 64 MiB); beyond that
// its smallest blocks are freed. When cudaHostAlloc fails, the idle blocks
// are freed and, if that is not enough, the pending ones waited for.
#pragma once

#include <porta/plugin.h>

#include <cstddef>

namespace porta::cuda {

porta_status alloc_pinned_host(size_t bytes, void** out);
void free_pinned_host(void* ptr);

}  // namespace porta::cuda
