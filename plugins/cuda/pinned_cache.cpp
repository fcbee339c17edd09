#include "pinned_cache.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "devices.hpp"
#include "errors.hpp"

namespace porta::cuda {
namespace {

constexpr size_t kMinIdleBound = size_t{64} << 20;
constexpr size_t kSmallestClass = 512;

// The next power of two (at least 512); a request too large to round is its own class.
size_t size_class(size_t bytes) {
  if (bytes > (~size_t{0} >> 1)) return bytes;
  size_t c = kSmallestClass;
  while (c < bytes) c <<= 1;
  return c;
}

// A released block whose copies may still be queued.
struct Pending {
  void* ptr;
  std::vector<cudaEvent_t> events;
};

struct Cache {
  std::mutex mutex;
  std::unordered_map<void*, size_t> class_of;  // every block it holds, in use or not
  std::multimap<size_t, void*> idle;           // ready for reuse, by size class
  std::vector<Pending> pending;
  size_t idle_bytes = 0, in_use_bytes = 0, peak_in_use_bytes = 0;
};

// Never destroyed: blocks held at exit stay with the driver, which reclaims
// them (and static destructors must not call into CUDA).
Cache& cache() {
  static Cache* c = new Cache;
  return *c;
}

// Moves the pending blocks whose copies are done to the idle list (all of
// them, waiting for their copies, when `wait`). Holds c.mutex.
void collect(Cache& c, bool wait) {
  auto done = [&](Pending& p) {
    for (cudaEvent_t e : p.events) {
      const cudaError_t err = wait ? cudaEventSynchronize(e) : cudaEventQuery(e);
      if (err == cudaErrorNotReady) return false;
      if (err != cudaSuccess) (void)cudaGetLastError();  // a failed device: its copies will not run
    }
    for (cudaEvent_t e : p.events) cudaEventDestroy(e);
    const size_t bytes = c.class_of[p.ptr];
    c.idle.emplace(bytes, p.ptr);
    c.idle_bytes += bytes;
    return true;
  };
  c.pending.erase(std::remove_if(c.pending.begin(), c.pending.end(), done), c.pending.end());
}

// Frees idle blocks, smallest first, until at most `bound` bytes are idle. Holds c.mutex.
void trim(Cache& c, size_t bound) {
  while (c.idle_bytes > bound && !c.idle.empty()) {
    auto it = c.idle.begin();
    if (cudaFreeHost(it->second) != cudaSuccess) (void)cudaGetLastError();
    c.idle_bytes -= it->first;
    c.class_of.erase(it->second);
    c.idle.erase(it);
  }
}

}  // namespace

porta_status alloc_pinned_host(size_t bytes, void** out) {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  collect(c, false);
  const size_t cls = size_class(bytes);
  void* p = nullptr;
  if (auto it = c.idle.find(cls); it != c.idle.end()) {
    p = it->second;
    c.idle.erase(it);
    c.idle_bytes -= cls;
  } else {
    // Portable: usable for fast copies to every device, not only the current one.
    cudaError_t err = cudaHostAlloc(&p, cls, cudaHostAllocPortable);
    for (bool wait : {false, true}) {  // the cache's blocks may be enough: idle ones first, then pending ones
      if (err != cudaErrorMemoryAllocation) break;
      (void)cudaGetLastError();
      collect(c, wait);
      trim(c, 0);
      err = cudaHostAlloc(&p, cls, cudaHostAllocPortable);
    }
    if (porta_status st = check(err, "cudaHostAlloc"); st != PORTA_OK) return st;
    c.class_of[p] = cls;
  }
  c.in_use_bytes += cls;
  c.peak_in_use_bytes = std::max(c.peak_in_use_bytes, c.in_use_bytes);
  *out = p;
  return PORTA_OK;
}

void free_pinned_host(void* ptr) {
  if (!ptr) return;
  Pending p{ptr, {}};
  for (int32_t d = 0; d < device_count(); ++d) {
    if (!device_was_used(d)) continue;
    cudaEvent_t e = nullptr;
    if (record_event(d, &e) != PORTA_OK) {  // cannot tell when its copies end: wait for them now
      if (e) cudaEventDestroy(e);
      if (use_device(d) == PORTA_OK && cudaStreamSynchronize(default_stream()) != cudaSuccess)
        (void)cudaGetLastError();
      continue;
    }
    p.events.push_back(e);
  }
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  auto it = c.class_of.find(ptr);
  if (it == c.class_of.end()) {  // not this cache's: the core only gives back what it was given
    log(PORTA_LOG_WARN, "cuda: free_pinned_host of a block it did not allocate; ignored");
    for (cudaEvent_t e : p.events) cudaEventDestroy(e);
    return;
  }
  c.in_use_bytes -= it->second;
  c.pending.push_back(std::move(p));
  collect(c, false);
  trim(c, std::max(c.peak_in_use_bytes, kMinIdleBound));
}

}  // namespace porta::cuda
