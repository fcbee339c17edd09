#include "runtime/error.hpp"

#include <porta/porta.h>

namespace porta {
namespace {
thread_local std::string t_last_error;
thread_local int t_last_error_detail = PORTA_ERROR_DETAIL_NONE;
}  // namespace

void set_last_error(std::string message, int detail) {
  t_last_error = std::move(message);
  t_last_error_detail = detail;
}
const std::string& last_error() { return t_last_error; }
int last_error_detail() { return t_last_error_detail; }

}  // namespace porta
