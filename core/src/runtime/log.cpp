#include "runtime/log.hpp"

#include <strings.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "runtime/error.hpp"

namespace porta {
namespace {

porta_log_level threshold_from_env() {
  const char* v = std::getenv("PORTA_LOG");
  if (v == nullptr || *v == '\0') return PORTA_LOG_WARN;
  constexpr struct {
    const char* name;
    porta_log_level level;
  } kLevels[] = {{"debug", PORTA_LOG_DEBUG}, {"info", PORTA_LOG_INFO},   {"warn", PORTA_LOG_WARN},
                 {"warning", PORTA_LOG_WARN}, {"error", PORTA_LOG_ERROR}, {"off", PORTA_LOG_OFF}};
  for (const auto& l : kLevels)
    if (strcasecmp(v, l.name) == 0) return l.level;
  std::fprintf(stderr, "[porta warn] PORTA_LOG=%s ignored: expected debug, info, warn, error or off\n", v);
  return PORTA_LOG_WARN;
}

std::atomic<int32_t>& threshold() {
  static std::atomic<int32_t> level{threshold_from_env()};
  return level;
}

struct Sink {
  std::mutex mu;
  porta_log_callback callback = nullptr;
  void* user_data = nullptr;
};

Sink& sink() {
  static Sink* s = new Sink();  // never destroyed: plugins may log during static teardown
  return *s;
}

const char* level_name(porta_log_level level) {
  switch (level) {
    case PORTA_LOG_DEBUG: return "debug";
    case PORTA_LOG_INFO: return "info";
    case PORTA_LOG_WARN: return "warn";
    default: return "error";
  }
}

}  // namespace

bool log_enabled(porta_log_level level) { return level >= threshold().load(std::memory_order_relaxed); }

porta_log_level log_threshold() { return static_cast<porta_log_level>(threshold().load(std::memory_order_relaxed)); }

void set_log_threshold(int32_t level) {
  if (level < PORTA_LOG_DEBUG || level > PORTA_LOG_OFF)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "log level ", level, " is out of range: use PORTA_LOG_DEBUG (0) to PORTA_LOG_OFF (4)");
  threshold().store(level, std::memory_order_relaxed);
}

void set_log_callback(porta_log_callback callback, void* user_data) {
  std::lock_guard<std::mutex> lock(sink().mu);
  sink().callback = callback;
  sink().user_data = user_data;
}

void log_line(porta_log_level level, const std::string& message) {
  if (level >= PORTA_LOG_OFF || !log_enabled(level)) return;
  porta_log_callback callback;
  void* user_data;
  {
    std::lock_guard<std::mutex> lock(sink().mu);
    callback = sink().callback;
    user_data = sink().user_data;
  }
  if (callback != nullptr)  // called outside the lock: it may log or call Porta itself
    callback(level, message.c_str(), user_data);
  else
    std::fprintf(stderr, "[porta %s] %s\n", level_name(level), message.c_str());
}

}  // namespace porta
