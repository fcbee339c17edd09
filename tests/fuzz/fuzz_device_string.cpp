// Fuzzes the device-string grammar (porta_device_parse): any NUL-terminated
// text either names a loaded device or fails with a message, never crashes.
#include <porta/porta.h>

#include <string>

#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);  // c_str() ends at the first NUL
  DLDevice device{static_cast<DLDeviceType>(-1), -1};
  if (porta_device_parse(text.c_str(), &device) == PORTA_OK) {
    FUZZ_CHECK(device.device_id >= 0, "a parsed device has a negative index");
    int count = 0;
    FUZZ_CHECK(porta_device_count(text.substr(0, text.find(':')).c_str(), &count) == PORTA_OK,
               "a parsed device's type is unknown to porta_device_count");
    FUZZ_CHECK(device.device_id < count, "a parsed device's index is past the device count");
  } else {
    const char* message = porta_last_error();
    FUZZ_CHECK(message != nullptr && *message != '\0', "a failed parse left no message");
    FUZZ_CHECK(device.device_id == -1, "a failed parse wrote its out-parameter");
  }
  return 0;
}
