// A strict JSON reader and the one writer helper safetensors headers need.
// Values are null, booleans, integers (no fractions or exponents: headers
// hold only integers), strings, arrays and objects (keys in document order,
// duplicates kept so the caller can name them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace porta::io::json {

struct Member;

struct Value {
  enum class Kind { Null, Bool, Integer, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolean = false;
  int64_t integer = 0;
  std::string string;
  std::vector<Value> array;
  std::vector<Member> object;
};

struct Member {
  std::string key;
  Value value;
};

// "an integer", "a string", ... for error messages.
const char* kind_name(Value::Kind kind);

// What a parse failure says; the message includes the byte offset.
struct SyntaxError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses exactly one JSON value (surrounding whitespace allowed) from `text`.
// Throws SyntaxError on anything else, including invalid UTF-8 in strings.
Value parse(std::string_view text);

// `s` as a JSON string literal, quotes included.
std::string quote(std::string_view s);

// True when `s` is well-formed UTF-8.
bool is_utf8(std::string_view s);

}  // namespace porta::io::json
