#include "log.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace porta {
namespace {

porta_log_level threshold() {
  static const porta_log_level level = [] {
    const char* v = std::getenv("PORTA_LOG");
    if (v == nullptr) return PORTA_LOG_WARN;
    if (std::strcmp(v, "debug") == 0) return PORTA_LOG_DEBUG;
    if (std::strcmp(v, "info") == 0) return PORTA_LOG_INFO;
    return PORTA_LOG_WARN;
  }();
  return level;
}

const char* level_name(porta_log_level level) {
  switch (level) {
    case PORTA_LOG_DEBUG: return "debug";
    case PORTA_LOG_INFO: return "info";
    default: return "warn";
  }
}

}  // namespace

bool log_enabled(porta_log_level level) { return level >= threshold(); }

void log_line(porta_log_level level, const std::string& message) {
  if (!log_enabled(level)) return;
  std::fprintf(stderr, "[porta %s] %s\n", level_name(level), message.c_str());
}

}  // namespace porta
