#include "runtime/caching_allocator.hpp"

#include <algorithm>

#include "runtime/error.hpp"
#include "runtime/plugin_errors.hpp"
#include "runtime/registry.hpp"

namespace porta {

size_t CachingAllocator::round_size(size_t bytes) {
  constexpr size_t kSmall = 512, kLarge = size_t{1} << 20;
  if (bytes <= kLarge) return (bytes + kSmall - 1) / kSmall * kSmall;
  return (bytes + kLarge - 1) / kLarge * kLarge;
}

Block CachingAllocator::allocate(size_t bytes) {
  const size_t size = round_size(bytes);
  if (size < bytes) fail(PORTA_ERROR_OUT_OF_MEMORY, "allocation of ", bytes, " bytes overflows");
  if (lost_to_fork_->load(std::memory_order_relaxed)) fail_lost_to_fork(device_name_);
  std::lock_guard<std::mutex> lock(mu_);
  ++allocations_;
  auto it = cache_.lower_bound(size);
  if (it != cache_.end() && it->first <= size + size / 4) {
    Block b{it->second, it->first};
    cache_.erase(it);
    cached_ -= b.size;
    allocated_ += b.size;
    peak_ = std::max(peak_, allocated_);
    ++cache_hits_;
    return b;
  }
  void* handle = nullptr;
  porta_status st = api_->alloc(device_, size, &handle);
  if (st == PORTA_ERROR_OUT_OF_MEMORY && !cache_.empty()) {
    take_plugin_error();
    release_cache_locked();
    st = api_->alloc(device_, size, &handle);
  }
  if (st == PORTA_OK && handle == nullptr)
    fail(PORTA_ERROR_BACKEND, "allocating ", bytes, " bytes on ", device_name_,
         ": the plugin's alloc returned PORTA_OK but no handle (a bug in the plugin)");
  if (st != PORTA_OK) {
    std::string why = take_plugin_error();
    if (st != PORTA_ERROR_OUT_OF_MEMORY)
      fail(st, "allocating ", bytes, " bytes on ", device_name_, " failed: ", why.empty() ? porta_status_name(st) : why);
    fail(st, "out of memory on ", device_name_, ": tried to allocate ", bytes, " bytes (", allocated_,
         " bytes in use by tensors, ", cached_, " cached and already returned)", why.empty() ? "" : ": ", why);
  }
  ++device_allocations_;
  allocated_ += size;
  peak_ = std::max(peak_, allocated_);
  peak_reserved_ = std::max(peak_reserved_, allocated_ + cached_);
  return Block{handle, size};
}

void CachingAllocator::deallocate(Block block) noexcept {
  if (block.handle == nullptr) return;
  std::lock_guard<std::mutex> lock(mu_);
  allocated_ -= block.size;
  cached_ += block.size;
  cache_.emplace(block.size, block.handle);
  trim_cache_locked();
}

void CachingAllocator::free_block_locked(std::multimap<size_t, void*>::iterator it) noexcept {
  api_->free(device_, it->second);
  ++device_frees_;
  cached_ -= it->first;
  cache_.erase(it);
}

void CachingAllocator::trim_cache_locked() noexcept {
  if (lost_to_fork_->load(std::memory_order_relaxed)) return;  // the parent's memory: not ours to free
  const uint64_t bound = std::max(peak_, kCacheFloor);
  while (cached_ > bound && !cache_.empty()) free_block_locked(cache_.begin());
}

void CachingAllocator::release_cache_locked() noexcept {
  if (lost_to_fork_->load(std::memory_order_relaxed)) return;  // the parent's memory: not ours to free
  while (!cache_.empty()) free_block_locked(cache_.begin());
}

void CachingAllocator::empty_cache() noexcept {
  std::lock_guard<std::mutex> lock(mu_);
  release_cache_locked();
}

void CachingAllocator::fill_stats(porta_memory_stats* out) {
  std::lock_guard<std::mutex> lock(mu_);
  out->allocated_bytes = allocated_;
  out->reserved_bytes = allocated_ + cached_;
  out->peak_allocated_bytes = peak_;
  out->peak_reserved_bytes = peak_reserved_;
  out->allocations = allocations_;
  out->cache_hits = cache_hits_;
  out->device_allocations = device_allocations_;
  out->device_frees = device_frees_;
}

}  // namespace porta
