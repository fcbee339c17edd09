// The C entry points of the calling thread's last error: its message, its
// machine-readable detail, and the names of the status codes.
#include "c_api/c_api.hpp"
#include "runtime/error.hpp"

PORTA_API const char* porta_last_error(void) { return porta::last_error().c_str(); }

PORTA_API porta_error_detail porta_last_error_detail(void) {
  return static_cast<porta_error_detail>(porta::last_error_detail());
}

PORTA_API const char* porta_status_name(porta_status status) {
  switch (status) {
    case PORTA_OK: return "PORTA_OK";
    case PORTA_ERROR_INVALID_ARGUMENT: return "PORTA_ERROR_INVALID_ARGUMENT";
    case PORTA_ERROR_DEVICE_MISMATCH: return "PORTA_ERROR_DEVICE_MISMATCH";
    case PORTA_ERROR_SHAPE_MISMATCH: return "PORTA_ERROR_SHAPE_MISMATCH";
    case PORTA_ERROR_UNSUPPORTED_DTYPE: return "PORTA_ERROR_UNSUPPORTED_DTYPE";
    case PORTA_ERROR_NO_SUCH_DEVICE: return "PORTA_ERROR_NO_SUCH_DEVICE";
    case PORTA_ERROR_NOT_IMPLEMENTED: return "PORTA_ERROR_NOT_IMPLEMENTED";
    case PORTA_ERROR_OUT_OF_MEMORY: return "PORTA_ERROR_OUT_OF_MEMORY";
    case PORTA_ERROR_BACKEND: return "PORTA_ERROR_BACKEND";
    case PORTA_ERROR_INVALID_HANDLE: return "PORTA_ERROR_INVALID_HANDLE";
    case PORTA_ERROR_IO: return "PORTA_ERROR_IO";
    case PORTA_ERROR_INTERNAL: return "PORTA_ERROR_INTERNAL";
    case PORTA_ERROR_TIMEOUT: return "PORTA_ERROR_TIMEOUT";
  }
  return "PORTA_ERROR_UNKNOWN_STATUS";
}
