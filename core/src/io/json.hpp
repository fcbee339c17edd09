// A strict JSON reader and the one writer helper safetensors headers need,
// over nlohmann-json (json.cpp; the library stays out of this header).
// Values are null, booleans, integers (exact int64: no fractions or
// exponents, none beyond int64, since headers hold only integers), strings,
// arrays and objects (keys in document order, duplicates kept so the caller
// can name them), nested at most 64 deep.
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

// What a parse failure says; the message includes the byte offset (and, for
// the library's own errors, its words and the token it read, made printable).
struct SyntaxError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses exactly one JSON value (surrounding whitespace allowed) from `text`.
// Throws SyntaxError on anything else, including invalid UTF-8 in strings,
// a byte-order mark and text after the value; nothing else escapes.
Value parse(std::string_view text);

// `s` as a JSON string literal, quotes included; throws porta::Error
// (INVALID_ARGUMENT) unless `s` is valid UTF-8.
std::string quote(std::string_view s);

// True when `s` is well-formed UTF-8.
bool is_utf8(std::string_view s);

}  // namespace porta::io::json
