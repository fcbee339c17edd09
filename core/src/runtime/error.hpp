// Internal error type: core code throws porta::Error; every C entry point
// catches it at the boundary and turns it into a status plus the
// thread-local message.
#pragma once

#include <porta/types.h>

#include <exception>
#include <sstream>
#include <string>
#include <utility>

namespace porta {

class Error : public std::exception {
 public:
  // `detail` is a porta_error_detail (porta/porta.h): what porta_last_error_detail() reports.
  Error(porta_status status, std::string message, int detail = 0)
      : status_(status), detail_(detail), message_(std::move(message)) {}
  porta_status status() const noexcept { return status_; }
  int detail() const noexcept { return detail_; }
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  porta_status status_;
  int detail_;
  std::string message_;
};

// Concatenates its arguments with operator<< into a std::string.
template <typename... Args>
std::string cat(Args&&... args) {
  std::ostringstream os;
  (os << ... << std::forward<Args>(args));
  return os.str();
}

template <typename... Args>
[[noreturn]] void fail(porta_status status, Args&&... args) {
  throw Error(status, cat(std::forward<Args>(args)...));
}

// Records `message` as the calling thread's last error, with its porta_error_detail
// (0, PORTA_ERROR_DETAIL_NONE, unless the error says more).
void set_last_error(std::string message, int detail = 0);
// The calling thread's last error message.
const std::string& last_error();
// The calling thread's last error's porta_error_detail.
int last_error_detail();

// Runs `body` and converts anything it throws into a status.
template <typename Body>
porta_status guard(Body&& body) noexcept {
  try {
    body();
    return PORTA_OK;
  } catch (const Error& e) {
    set_last_error(e.what(), e.detail());
    return e.status();
  } catch (const std::bad_alloc&) {
    set_last_error("out of host memory");
    return PORTA_ERROR_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    set_last_error(cat("internal error: ", e.what()));
    return PORTA_ERROR_INTERNAL;
  } catch (...) {
    set_last_error("internal error: unknown exception");
    return PORTA_ERROR_INTERNAL;
  }
}

// Throws INVALID_ARGUMENT naming `what` when `p` is NULL.
template <typename T>
T* require(T* p, const char* what) {
  if (p == nullptr) fail(PORTA_ERROR_INVALID_ARGUMENT, what, " must not be NULL");
  return p;
}

}  // namespace porta
