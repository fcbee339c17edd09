// Released handles are not freed at once. Their shells, emptied and tagged
// dead, wait in a bounded FIFO, so that using a handle after releasing it
// (within the last `Capacity` releases of its type) reads the dead tag and
// fails with PORTA_ERROR_INVALID_HANDLE instead of reading freed memory.
// Older shells are deleted; a use of one of those is what ASan reports.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace porta {

// How many released handles of each type stay detectable (porta.h promises it).
inline constexpr size_t kHandleQuarantineCapacity = 4096;

// Lock-free: one counter bump and one pointer exchange per release. Has no
// destructor, so releases during static destruction still find it intact;
// the shells still held at exit stay reachable from it (no leak reports).
template <typename Shell, size_t Capacity = kHandleQuarantineCapacity>
class HandleQuarantine {
 public:
  constexpr HandleQuarantine() = default;

  // Takes `shell` (already tagged dead and emptied) and deletes the shell
  // retired Capacity calls earlier, if any.
  void retire(Shell* shell) noexcept {
    const uint64_t slot = next_.fetch_add(1, std::memory_order_relaxed) % Capacity;
    delete slots_[slot].exchange(shell, std::memory_order_acq_rel);
  }

 private:
  std::atomic<Shell*> slots_[Capacity] = {};
  std::atomic<uint64_t> next_{0};
};

}  // namespace porta
