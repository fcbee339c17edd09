// Wall-clock timing of device work for the GPU benchmarks: warm up, then run
// until both a minimum time and a minimum count are reached, synchronizing
// the device only at the ends (the work queues up like a real program's).
#pragma once

#include <chrono>
#include <cstdio>
#include <functional>

namespace bench {

struct Timing {
  double ms_per_iter;
  int iters;
};

// `sync` waits for the device; `step` enqueues one iteration.
inline Timing time_it(const std::function<void()>& step, const std::function<void()>& sync, double min_seconds = 1.0,
                      int min_iters = 10, int warmup = 3) {
  using Clock = std::chrono::steady_clock;
  for (int i = 0; i < warmup; ++i) step();
  sync();
  int iters = 0;
  const auto start = Clock::now();
  double elapsed = 0;
  do {
    for (int i = 0; i < min_iters; ++i) step();
    iters += min_iters;
    sync();
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  } while (elapsed < min_seconds);
  return {1000.0 * elapsed / iters, iters};
}

}  // namespace bench
