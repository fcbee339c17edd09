#include "plugin_errors.hpp"

#include "log.hpp"

namespace porta {
namespace {

thread_local std::string t_plugin_error;

void host_set_error(const char* message) { t_plugin_error = message ? message : ""; }

void host_log(porta_log_level level, const char* message) {
  log_line(level, std::string("plugin: ") + (message ? message : ""));
}

const porta_host_api kHostApi = {
    sizeof(porta_host_api), PORTA_PLUGIN_ABI_MAJOR, PORTA_PLUGIN_ABI_MINOR, host_set_error, host_log,
};

}  // namespace

const porta_host_api* host_api() { return &kHostApi; }

std::string take_plugin_error() {
  std::string m;
  m.swap(t_plugin_error);
  return m;
}

}  // namespace porta
