// Core logging to stderr, filtered by PORTA_LOG (debug | info | warn; default warn).
#pragma once

#include <porta/plugin.h>

#include <string>

namespace porta {

bool log_enabled(porta_log_level level);
void log_line(porta_log_level level, const std::string& message);

}  // namespace porta
