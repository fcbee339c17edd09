// The JSON grammar, string escapes and UTF-8 checks are nlohmann-json's
// (Debian's nlohmann-json3-dev, header-only, used in this file only). Its SAX
// interface feeds a Builder that makes Porta's Value tree and adds what
// safetensors headers need on top: integers exact in int64 (the library
// reads them with strtoull/strtoll, never through a double; one out of range
// or with a fraction or exponent is refused), nesting at most kMaxDepth, no
// NUL byte and no byte-order mark, and every failure as a SyntaxError naming
// the byte. Nothing the library throws leaves this file.
#include "io/json.hpp"

#include <cstring>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>

#include "runtime/error.hpp"

namespace porta::io::json {
namespace {

using Library = nlohmann::json;

constexpr size_t kMaxDepth = 64;
constexpr size_t kMaxQuoted = 40;  // bytes of an offending token a message repeats

// A pointer into the text that records in *furthest how far the library's
// lexer has read, so a SAX callback can say where it is. The lexer reads one
// character past a number (and keeps it for the next token); the callbacks
// below allow for that.
class TrackedChars {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  TrackedChars(const char* p, const char** furthest) : p_(p), furthest_(furthest) {}
  reference operator*() const { return *p_; }
  TrackedChars& operator++() {
    *furthest_ = ++p_;
    return *this;
  }
  TrackedChars operator++(int) {
    TrackedChars before = *this;
    ++*this;
    return before;
  }
  bool operator==(const TrackedChars& other) const { return p_ == other.p_; }

 private:
  const char* p_;
  const char** furthest_;
};

// `s` with bytes outside printable ASCII as \xNN and cut after kMaxQuoted bytes.
std::string printable(std::string_view s) {
  static const char* const kHex = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < s.size() && i < kMaxQuoted; ++i) {
    const auto u = static_cast<unsigned char>(s[i]);
    if (u < 0x20 || u >= 0x7F) {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 0xF];
    } else {
      out += s[i];
    }
  }
  if (s.size() > kMaxQuoted) out += "...";
  return out;
}

bool is_number_char(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

// Builds the Value tree from the library's SAX events. A callback that
// refuses something records why in error_ and returns false, which stops the
// parse; parse_error() does the same for the library's own errors.
class Builder {
 public:
  Builder(std::string_view text, const char* const* furthest) : text_(text), furthest_(furthest) {}

  bool null() { return add(Value{}); }
  bool boolean(bool b) {
    Value v;
    v.kind = Value::Kind::Bool;
    v.boolean = b;
    return add(std::move(v));
  }
  // The library calls this for numbers with a '-', number_unsigned for the others.
  bool number_integer(int64_t n) {
    return n == 0 && leading_zero() ? refuse_number("a number with a leading zero") : integer(n);
  }
  bool number_unsigned(uint64_t n) {
    if (n == 0 && leading_zero()) return refuse_number("a number with a leading zero");
    if (n > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return refuse_number(too_large());
    return integer(static_cast<int64_t>(n));
  }
  // A fraction or exponent, or an integer strtoull/strtoll could not hold.
  bool number_float(double, const std::string& raw) {
    return refuse_number(raw.find_first_of(".eE") == std::string::npos ? too_large() : fraction());
  }
  bool string(std::string& s) {
    Value v;
    v.kind = Value::Kind::String;
    v.string = std::move(s);
    return add(std::move(v));
  }
  bool binary(Library::binary_t&) { return refuse("binary data", position()); }  // never sent for JSON text
  bool start_object(size_t) { return open(Value::Kind::Object); }
  bool key(std::string& k) {
    open_.back().object.push_back(Member{std::move(k), Value{}});
    return true;
  }
  bool end_object() { return close(); }
  bool start_array(size_t) { return open(Value::Kind::Array); }
  bool end_array() { return close(); }

  // `position` counts the characters the lexer took, the offending one included.
  bool parse_error(size_t position, const std::string& last_token, const nlohmann::detail::exception& e) {
    const size_t at = position > 0 ? position - 1 : 0;
    if (e.id == 406)  // a number beyond double's range: an integer too large, or e.g. 1e999
      return refuse_number(last_token.find_first_of(".eE") == std::string::npos ? too_large() : fraction());
    // e.what(): "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error while ..."
    std::string detail = e.what();
    if (detail.rfind("[json.exception.", 0) == 0) {
      const size_t colon = detail.find(": ");
      if (colon != std::string::npos) detail.erase(0, colon + 2);
    }
    if (detail.rfind("syntax error ", 0) == 0) detail.erase(0, std::strlen("syntax error "));
    std::string headline = "syntax error";
    if (at >= text_.size())
      headline = "unexpected end of the JSON text";
    else if (done_)
      headline = "unexpected text after the end of the JSON value";
    error_ = cat(headline, " at byte ", at, " (", printable_message(detail, last_token), ")");
    return false;
  }

  // The document, or throws SyntaxError.
  Value take(bool parsed) {
    if (!error_.empty()) throw SyntaxError(error_);
    if (!parsed || !done_) throw SyntaxError("the JSON parser stopped without a value or a reason");  // not expected
    return std::move(root_);
  }

 private:
  bool refuse(const std::string& what, size_t at) {
    error_ = cat(what, " at byte ", at);
    return false;
  }

  static std::string too_large() {
    return cat("an integer too large for int64 (integers here lie in ", std::numeric_limits<int64_t>::min(), " to ",
               std::numeric_limits<int64_t>::max(), ")");
  }
  static std::string fraction() { return "a number with a fraction or exponent (only integers are expected here)"; }

  // Bytes the lexer has read.
  size_t position() const { return static_cast<size_t>(*furthest_ - text_.data()); }

  // Where the number the lexer just read starts: back from the character it
  // read past the number, over what a number is made of (the character
  // before a valid number is a separator, a bracket or whitespace).
  size_t number_start() const {
    size_t i = position();
    if (i > 0 && !is_number_char(text_[i - 1])) --i;
    while (i > 0 && is_number_char(text_[i - 1])) --i;
    return i;
  }

  // A 0 or -0 the lexer ended because a digit followed ("08"): the
  // character it read past the number is that digit.
  bool leading_zero() const {
    const size_t i = position();
    return i >= 2 && text_[i - 2] == '0' && text_[i - 1] >= '0' && text_[i - 1] <= '9';
  }

  bool refuse_number(const std::string& what) { return refuse(what, number_start()); }

  // The library's message with the token it quotes made printable and short.
  static std::string printable_message(std::string detail, const std::string& token) {
    if (!token.empty()) {
      const std::string shown = printable(token);
      for (size_t at = detail.find(token); at != std::string::npos; at = detail.find(token, at + shown.size())) {
        detail.replace(at, token.size(), shown);
      }
    }
    std::string out;
    for (char c : detail) {  // what is left is the library's own ASCII text; keep it so
      const auto u = static_cast<unsigned char>(c);
      out += (u < 0x20 || u >= 0x7F) ? '?' : c;
    }
    return out;
  }

  bool integer(int64_t n) {
    Value v;
    v.kind = Value::Kind::Integer;
    v.integer = n;
    return add(std::move(v));
  }

  bool open(Value::Kind kind) {
    if (open_.size() >= kMaxDepth) return refuse(cat("nesting deeper than ", kMaxDepth, " levels"), position() - 1);
    open_.emplace_back().kind = kind;
    return true;
  }

  bool close() {
    Value v = std::move(open_.back());
    open_.pop_back();
    return add(std::move(v));
  }

  // Puts a finished value into the innermost open container, or makes it the document.
  bool add(Value v) {
    if (open_.empty()) {
      root_ = std::move(v);
      done_ = true;
    } else if (open_.back().kind == Value::Kind::Array) {
      open_.back().array.push_back(std::move(v));
    } else {
      open_.back().object.back().value = std::move(v);  // key() added the member
    }
    return true;
  }

  std::string_view text_;
  const char* const* furthest_;
  std::vector<Value> open_;  // the containers being filled, outermost first
  Value root_;
  bool done_ = false;
  std::string error_;
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

Value parse(std::string_view text) {
  // The library takes a NUL byte for the end of the text (so `{}\0junk`
  // would pass) and skips a UTF-8 byte-order mark; JSON allows neither, the
  // reference safetensors reader accepts neither, and neither does Porta.
  if (const size_t nul = text.find('\0'); nul != std::string_view::npos)
    throw SyntaxError(
        cat("a NUL byte at byte ", nul, " (JSON text never holds one; in a string it is written \\u0000)"));
  if (text.substr(0, 3) == "\xEF\xBB\xBF")
    throw SyntaxError("a UTF-8 byte-order mark at byte 0 (the JSON value must come first)");
  const char* furthest = text.data();
  Builder builder(text, &furthest);
  bool parsed = false;
  try {
    parsed =
        Library::sax_parse(TrackedChars(text.data(), &furthest), TrackedChars(text.data() + text.size(), &furthest),
                           &builder, nlohmann::json::input_format_t::json, /*strict=*/true,
                           /*ignore_comments=*/false);
  } catch (const nlohmann::json::exception& e) {  // not expected: the SAX path reports through parse_error
    throw SyntaxError(cat("the JSON parser failed: ", e.what()));
  }
  return builder.take(parsed);
}

std::string quote(std::string_view s) {
  try {
    return Library(std::string(s)).dump(-1, ' ', /*ensure_ascii=*/false, Library::error_handler_t::strict);
  } catch (const nlohmann::json::exception&) {
    fail(PORTA_ERROR_INVALID_ARGUMENT, "a JSON string must be valid UTF-8");
  }
}

bool is_utf8(std::string_view s) {
  try {
    (void)quote(s);
    return true;
  } catch (const Error&) {
    return false;
  }
}

}  // namespace porta::io::json
