// work_wait for communicator plugins (porta/comm.h) whose engine offers only
// a non-blocking test of an operation (MPI_Test, cudaEventQuery): test until
// it is done or the time is up, spinning briefly first (an operation on small
// tensors completes in microseconds), then sleeping, at most a millisecond
// between tests.
#pragma once

#include <porta/types.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <thread>

namespace porta::plugin {

// `test(int32_t* done)` returns a status; `timed_out()` reports the timeout
// and returns its status. timeout_ms < 0: no limit.
template <typename Test, typename TimedOut>
porta_status wait_by_polling(int64_t timeout_ms, Test&& test, TimedOut&& timed_out) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(std::max<int64_t>(timeout_ms, 0));
  auto pause = std::chrono::microseconds(1);
  for (;;) {
    int32_t done = 0;
    if (porta_status st = test(&done); st != PORTA_OK) return st;
    if (done) return PORTA_OK;
    if (timeout_ms >= 0 && std::chrono::steady_clock::now() >= deadline) return timed_out();
    if (pause < std::chrono::microseconds(64))
      std::this_thread::yield();
    else
      std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
  }
}

}  // namespace porta::plugin
