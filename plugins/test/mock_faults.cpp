#include "mock_faults.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

namespace porta::mock {
namespace {

constexpr const char* kFaultNames[] = {"alloc", "kernel", "copy"};
constexpr int kFaultKinds = 3;
// Calls of each kind left before the injected failure; 0 = none armed.
std::atomic<int64_t> g_countdown[kFaultKinds];

int fault_index(const char* name, size_t len) {
  for (int i = 0; i < kFaultKinds; ++i)
    if (std::strlen(kFaultNames[i]) == len && std::strncmp(name, kFaultNames[i], len) == 0) return i;
  return -1;
}

}  // namespace

bool should_fail(Fault f) {
  std::atomic<int64_t>& c = g_countdown[static_cast<int>(f)];
  int64_t left = c.load(std::memory_order_relaxed);
  while (left > 0)
    if (c.compare_exchange_weak(left, left - 1, std::memory_order_relaxed)) return left == 1;
  return false;
}

bool configure_from_env(const char** why) {
  const char* env = std::getenv("PORTA_MOCK_FAULT");
  if (env == nullptr) return true;
  // A comma-separated list of kind:count.
  for (const char* p = env; *p;) {
    const char* colon = std::strchr(p, ':');
    const char* end = std::strchr(p, ',');
    if (end == nullptr) end = p + std::strlen(p);
    char* num_end = nullptr;
    const int kind = colon && colon < end ? fault_index(p, static_cast<size_t>(colon - p)) : -1;
    const long long n = kind >= 0 ? std::strtoll(colon + 1, &num_end, 10) : -1;
    if (kind < 0 || num_end != end || n < 0) {
      *why = "PORTA_MOCK_FAULT must be a comma-separated list of kind:count with kind alloc, kernel or copy "
             "(e.g. \"alloc:3,kernel:10\")";
      return false;
    }
    g_countdown[kind].store(n, std::memory_order_relaxed);
    p = *end ? end + 1 : end;
  }
  return true;
}

}  // namespace porta::mock

extern "C" int porta_mock_inject_fault(const char* kind, int64_t nth) {
  const int i = kind ? porta::mock::fault_index(kind, std::strlen(kind)) : -1;
  if (i < 0 || nth < 0) return -1;
  porta::mock::g_countdown[i].store(nth, std::memory_order_relaxed);
  return 0;
}
