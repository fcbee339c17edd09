#include "json.hpp"

#include "../error.hpp"

namespace porta::io::json {
namespace {

constexpr int kMaxDepth = 64;

// Length of the UTF-8 sequence starting at s[i], or 0 if it is malformed.
size_t utf8_length(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  size_t n;
  uint32_t cp;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) { n = 2; cp = c & 0x1F; }
  else if (c >= 0xE0 && c <= 0xEF) { n = 3; cp = c & 0x0F; }
  else if (c >= 0xF0 && c <= 0xF4) { n = 4; cp = c & 0x07; }
  else return 0;
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  const bool overlong = (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
  if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  Value document() {
    Value v = value(0);
    skip_space();
    if (pos_ != s_.size()) error("unexpected text after the end of the JSON value");
    return v;
  }

 private:
  [[noreturn]] void error(const std::string& what) const {
    throw SyntaxError(cat(what, " at byte ", pos_));
  }

  void skip_space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
  }

  char peek() {
    if (pos_ >= s_.size()) error("unexpected end of the JSON text");
    return s_[pos_];
  }

  void expect(char c) {
    if (peek() != c) error(cat("expected '", c, "' but found '", s_[pos_], "'"));
    ++pos_;
  }

  Value value(int depth) {
    if (depth > kMaxDepth) error(cat("nesting deeper than ", kMaxDepth, " levels"));
    skip_space();
    Value v;
    switch (peek()) {
      case '{': object(v, depth); break;
      case '[': array(v, depth); break;
      case '"': v.kind = Value::Kind::String; v.string = string(); break;
      case 't': literal("true"); v.kind = Value::Kind::Bool; v.boolean = true; break;
      case 'f': literal("false"); v.kind = Value::Kind::Bool; break;
      case 'n': literal("null"); break;
      default: v.kind = Value::Kind::Integer; v.integer = integer(); break;
    }
    return v;
  }

  void literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) error("unexpected character");
    pos_ += word.size();
  }

  void object(Value& v, int depth) {
    v.kind = Value::Kind::Object;
    expect('{');
    skip_space();
    if (peek() == '}') { ++pos_; return; }
    for (;;) {
      skip_space();
      if (peek() != '"') error("expected a string key");
      std::string key = string();
      skip_space();
      expect(':');
      v.object.push_back(Member{std::move(key), value(depth + 1)});
      skip_space();
      if (peek() == '}') { ++pos_; return; }
      expect(',');
    }
  }

  void array(Value& v, int depth) {
    v.kind = Value::Kind::Array;
    expect('[');
    skip_space();
    if (peek() == ']') { ++pos_; return; }
    for (;;) {
      v.array.push_back(value(depth + 1));
      skip_space();
      if (peek() == ']') { ++pos_; return; }
      expect(',');
    }
  }

  int64_t integer() {
    const bool negative = peek() == '-';
    if (negative) ++pos_;
    if (pos_ >= s_.size() || s_[pos_] < '0' || s_[pos_] > '9') error("expected a value");
    if (s_[pos_] == '0' && pos_ + 1 < s_.size() && s_[pos_ + 1] >= '0' && s_[pos_ + 1] <= '9')
      error("a number with a leading zero");
    uint64_t magnitude = 0;
    const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
    while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
      const uint64_t digit = static_cast<uint64_t>(s_[pos_] - '0');
      if (magnitude > (limit - digit) / 10) error("an integer too large for 64 bits");
      magnitude = magnitude * 10 + digit;
      ++pos_;
    }
    if (pos_ < s_.size() && (s_[pos_] == '.' || s_[pos_] == 'e' || s_[pos_] == 'E'))
      error("a number with a fraction or exponent (only integers are expected here)");
    return negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
  }

  uint32_t hex4() {
    if (pos_ + 4 > s_.size()) error("unexpected end of a \\u escape");
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = s_[pos_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= static_cast<uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f') v |= static_cast<uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= static_cast<uint32_t>(c - 'A' + 10);
      else error("a bad hex digit in a \\u escape");
    }
    return v;
  }

  uint32_t unicode_escape() {
    uint32_t cp = hex4();
    if (cp >= 0xDC00 && cp <= 0xDFFF) error("a lone low surrogate in a \\u escape");
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      if (s_.substr(pos_, 2) != "\\u") error("a high surrogate without its low half");
      pos_ += 2;
      const uint32_t low = hex4();
      if (low < 0xDC00 || low > 0xDFFF) error("a high surrogate without its low half");
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    return cp;
  }

  std::string string() {
    expect('"');
    std::string out;
    for (;;) {
      const char c = peek();
      const auto u = static_cast<unsigned char>(c);
      if (c == '"') { ++pos_; return out; }
      if (u < 0x20) error("a raw control character in a string (it must be escaped)");
      if (c != '\\') {
        const size_t n = utf8_length(s_, pos_);
        if (n == 0) error("invalid UTF-8 in a string");
        out.append(s_.substr(pos_, n));
        pos_ += n;
        continue;
      }
      ++pos_;
      const char e = peek();
      ++pos_;
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': append_utf8(out, unicode_escape()); break;
        default: --pos_; error(cat("an unknown escape '\\", e, "'"));
      }
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

const char* kind_name(Value::Kind kind) {
  switch (kind) {
    case Value::Kind::Null: return "null";
    case Value::Kind::Bool: return "a boolean";
    case Value::Kind::Integer: return "an integer";
    case Value::Kind::String: return "a string";
    case Value::Kind::Array: return "an array";
    case Value::Kind::Object: return "an object";
  }
  return "a value";
}

Value parse(std::string_view text) { return Parser(text).document(); }

std::string quote(std::string_view s) {
  static const char* const kHex = "0123456789abcdef";
  std::string out = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      out += "\\u00";
      out += kHex[u >> 4];
      out += kHex[u & 0xF];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

bool is_utf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const size_t n = utf8_length(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

}  // namespace porta::io::json
