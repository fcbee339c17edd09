#include "runtime/threads.hpp"

#include <sched.h>

#include <atomic>
#include <cstdlib>
#include <string>
#include <thread>

#include "runtime/error.hpp"
#include "runtime/log.hpp"

namespace porta {
namespace {

// A positive count from `var` (OMP_NUM_THREADS may be a list, "8,2": its
// first entry is the outer level), or 0 when unset or malformed.
int32_t count_from_env(const char* var) {
  const char* v = std::getenv(var);
  if (v == nullptr || *v == '\0') return 0;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  if (n >= 1 && n <= 1 << 16 && (*end == '\0' || *end == ',')) return static_cast<int32_t>(n);
  log_line(PORTA_LOG_WARN, cat(var, "=", v, " ignored: expected a positive number of threads"));
  return 0;
}

int32_t default_threads() {
  if (int32_t n = count_from_env("PORTA_NUM_THREADS")) return n;
  if (int32_t n = count_from_env("OMP_NUM_THREADS")) return n;
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  return static_cast<int32_t>(std::max(1u, std::thread::hardware_concurrency()));
}

std::atomic<int32_t>& setting() {
  static std::atomic<int32_t> n{default_threads()};
  return n;
}

}  // namespace

int32_t num_threads() { return setting().load(std::memory_order_relaxed); }

void set_num_threads(int32_t n) {
  if (n < 1) fail(PORTA_ERROR_INVALID_ARGUMENT, "number of threads must be at least 1, got ", n);
  setting().store(n, std::memory_order_relaxed);
}

}  // namespace porta
