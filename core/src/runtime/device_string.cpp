// The device-string grammar: type[:index], type = [a-z][a-z0-9_]*, index a
// non-negative decimal without sign or leading zeros; bare "type" is index 0.
#include <climits>
#include <cstring>

#include "runtime/error.hpp"
#include "runtime/registry.hpp"

namespace porta {

DeviceState& Registry::parse(const char* text) {
  require(text, "device string");
  const std::string s = text;
  auto malformed = [&](const char* why) {
    fail(PORTA_ERROR_INVALID_ARGUMENT, "invalid device string '", s, "': ", why,
         "; expected type[:index] such as 'cpu', 'cuda' or 'cuda:1'");
  };
  if (s.empty()) malformed("it is empty");
  size_t colon = s.find(':');
  std::string type = s.substr(0, colon);
  if (type.empty()) malformed("the device type is missing");
  if (!(type[0] >= 'a' && type[0] <= 'z')) malformed("the type must start with a lowercase letter");
  for (char c : type)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
      malformed("the type may hold only lowercase letters, digits and '_'");
  int64_t index = 0;
  if (colon != std::string::npos) {
    std::string digits = s.substr(colon + 1);
    if (digits.empty()) malformed("the index after ':' is missing");
    if (digits.size() > 1 && digits[0] == '0') malformed("the index has a leading zero");
    for (char c : digits) {
      if (c < '0' || c > '9') malformed("the index must be a non-negative decimal number");
      index = index * 10 + (c - '0');
      if (index > INT32_MAX) malformed("the index is too large");
    }
  }
  Backend* b = backend_named(type);
  if (b == nullptr) fail_unknown_type(type);
  return device(DLDevice{static_cast<DLDeviceType>(b->device_type), static_cast<int32_t>(index)});
}

}  // namespace porta
