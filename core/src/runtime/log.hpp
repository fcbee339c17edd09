// Core logging: to stderr, or to the callback a user installed
// (porta_set_log_callback), filtered by a threshold from PORTA_LOG
// (debug | info | warn | error | off, any case; default warn) or
// porta_set_log_level.
#pragma once

#include <porta/porta.h>

#include <string>

namespace porta {

bool log_enabled(porta_log_level level);
void log_line(porta_log_level level, const std::string& message);
// Throws INVALID_ARGUMENT for a level outside [PORTA_LOG_DEBUG, PORTA_LOG_OFF].
void set_log_threshold(int32_t level);
porta_log_level log_threshold();
void set_log_callback(porta_log_callback callback, void* user_data);

}  // namespace porta
