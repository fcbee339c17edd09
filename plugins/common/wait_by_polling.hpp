// work_wait for communicator plugins (porta/comm.h) whose engine offers only
// a non-blocking test of an operation (MPI_Test, cudaEventQuery): test until
// it is done or the time is up. For the first kSpin of the wait it tests
// back to back, yielding the core between tests, as MPI_Wait does: MPI
// without an asynchronous progress thread advances an operation only inside
// a test, one protocol step per call, so a sleep between tests is added to
// every step (it made an all-reduce of 4 B take 0.4-4 ms against MPI's
// 0.5 us, docs/benchmarks.md). After that it sleeps between tests, the
// pause doubling to at most a millisecond: a peer that far behind is busy or
// gone, and the core waits on without a spinning core.
#pragma once

#include <porta/types.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <thread>

namespace porta::plugin {

inline constexpr std::chrono::milliseconds kSpin{50};

// `test(int32_t* done)` returns a status; `timed_out()` reports the timeout
// and returns its status. timeout_ms < 0: no limit.
template <typename Test, typename TimedOut>
porta_status wait_by_polling(int64_t timeout_ms, Test&& test, TimedOut&& timed_out) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::milliseconds(std::max<int64_t>(timeout_ms, 0));
  const auto spin_until = start + kSpin;
  auto pause = std::chrono::microseconds(16);
  for (;;) {
    int32_t done = 0;
    if (porta_status st = test(&done); st != PORTA_OK) return st;
    if (done) return PORTA_OK;
    const auto now = Clock::now();
    if (timeout_ms >= 0 && now >= deadline) return timed_out();
    if (now < spin_until) {
      std::this_thread::yield();
      continue;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
  }
}

}  // namespace porta::plugin
