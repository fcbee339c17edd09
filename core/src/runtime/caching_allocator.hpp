// Per-device caching allocator over a plugin's raw alloc/free.
//
// Freed blocks are kept in a size-ordered cache and reused for requests of
// the same rounded size (up to 25% larger), so steady-state training never
// reaches the plugin's allocator. Stream-ordered by construction: Porta uses
// one stream per device, so a block freed after work was enqueued can be
// reused by later work on that stream.
//
// The cache is bounded: it never holds more than the most that tensors have
// held at once (the peak of allocated bytes, at least kCacheFloor). A steady
// state, whose working set repeats, stays within that and never reaches the
// plugin; a growing pattern (requests of 1, 2, ... 64 MiB) gives back its
// smallest blocks instead of keeping every size it ever saw, so reserved
// memory stays within about twice the peak. On a failed allocation the
// whole cache is returned to the plugin and the allocation retried once
// before OUT_OF_MEMORY is reported.
#pragma once

#include <porta/porta.h>
#include <porta/plugin.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace porta {

struct Block {
  void* handle = nullptr;
  size_t size = 0;  // bytes actually reserved (>= the request)
};

class CachingAllocator {
 public:
  // `lost_to_fork`: the backend's flag (registry.hpp); when set, allocations
  // fail saying why and cached blocks are never given back to the plugin.
  CachingAllocator(const porta_plugin_api* api, int32_t device, std::string device_name,
                   const std::atomic<bool>* lost_to_fork)
      : api_(api), device_(device), device_name_(std::move(device_name)), lost_to_fork_(lost_to_fork) {}
  ~CachingAllocator() = default;
  CachingAllocator(const CachingAllocator&) = delete;
  CachingAllocator& operator=(const CachingAllocator&) = delete;

  // Never returns an empty block: bytes must be > 0. Throws OUT_OF_MEMORY.
  Block allocate(size_t bytes);
  void deallocate(Block block) noexcept;
  void empty_cache() noexcept;
  void fill_stats(porta_memory_stats* out);

  static size_t round_size(size_t bytes);
  // What the cache may hold even below a peak that small.
  static constexpr uint64_t kCacheFloor = uint64_t{64} << 20;

  // Held across fork() by the forking thread (fork_safety.cpp).
  void lock_for_fork() { mu_.lock(); }
  void unlock_after_fork() { mu_.unlock(); }

 private:
  void release_cache_locked() noexcept;
  // Gives the smallest cached blocks back until the cache is within its bound.
  void trim_cache_locked() noexcept;
  void free_block_locked(std::multimap<size_t, void*>::iterator it) noexcept;

  const porta_plugin_api* api_;
  int32_t device_;
  std::string device_name_;
  const std::atomic<bool>* lost_to_fork_;
  std::mutex mu_;
  std::multimap<size_t, void*> cache_;
  uint64_t allocated_ = 0, cached_ = 0, peak_ = 0, peak_reserved_ = 0;
  uint64_t allocations_ = 0, cache_hits_ = 0, device_allocations_ = 0, device_frees_ = 0;
};

}  // namespace porta
