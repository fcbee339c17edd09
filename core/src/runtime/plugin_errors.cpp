#include "runtime/plugin_errors.hpp"

#include <algorithm>

#include "runtime/log.hpp"
#include "runtime/threads.hpp"

namespace porta {
namespace {

thread_local std::string t_plugin_error;

void host_set_error(const char* message) { t_plugin_error = message ? message : ""; }

void host_log(porta_log_level level, const char* message) {
  // A level the core does not know is shown as an error rather than dropped.
  const auto known = static_cast<porta_log_level>(std::clamp<int>(level, PORTA_LOG_DEBUG, PORTA_LOG_ERROR));
  log_line(known, std::string("plugin: ") + (message ? message : ""));
}

int32_t host_num_threads() { return num_threads(); }

const porta_host_api kHostApi = {
    sizeof(porta_host_api), PORTA_PLUGIN_ABI_MAJOR, PORTA_PLUGIN_ABI_MINOR, host_set_error, host_log, host_num_threads,
};

const porta_comm_host_api kCommHostApi = {
    sizeof(porta_comm_host_api), PORTA_COMM_ABI_MAJOR, PORTA_COMM_ABI_MINOR, host_set_error, host_log,
};

}  // namespace

const porta_host_api* host_api() { return &kHostApi; }
const porta_comm_host_api* comm_host_api() { return &kCommHostApi; }

std::string take_plugin_error() {
  std::string m;
  m.swap(t_plugin_error);
  return m;
}

}  // namespace porta
