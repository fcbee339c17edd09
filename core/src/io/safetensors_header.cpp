// Validation of a safetensors header: every tensor entry, the metadata, and
// that the entries tile the data buffer exactly (as the reference library
// requires): no overlaps, no gaps, no bytes left over.
#include <algorithm>
#include <string_view>
#include <unordered_set>

#include "runtime/error.hpp"
#include "io/json.hpp"
#include "io/safetensors_format.hpp"

namespace porta::io {
namespace {

using json::Value;

// `s` with control characters escaped, safe to embed in a message.
std::string printable(std::string_view s) {
  static const char* const kHex = "0123456789abcdef";
  std::string out;
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F) {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 0xF];
    } else {
      out += c;
    }
  }
  return out;
}

template <typename... Args>
[[noreturn]] void bad_tensor(const std::string& where, const std::string& name, Args&&... args) {
  fail(PORTA_ERROR_IO, where, ": tensor '", printable(name), "': ", std::forward<Args>(args)...);
}

// The value of `key` in `entry`; missing or repeated keys are errors.
const Value& field(const Value& entry, std::string_view key, const std::string& where, const std::string& name) {
  const Value* found = nullptr;
  for (const auto& [k, v] : entry.object) {
    if (k != key) continue;
    if (found) bad_tensor(where, name, "the key \"", key, "\" appears twice");
    found = &v;
  }
  if (!found) bad_tensor(where, name, "has no \"", key, "\" (each tensor needs dtype, shape and data_offsets)");
  return *found;
}

uint64_t non_negative(const Value& v, const char* what, const std::string& where, const std::string& name) {
  if (v.kind != Value::Kind::Integer)
    bad_tensor(where, name, what, " holds ", json::kind_name(v.kind), " where an integer belongs");
  if (v.integer < 0) bad_tensor(where, name, what, " holds ", v.integer, ", which is negative");
  return static_cast<uint64_t>(v.integer);
}

Dtype parse_dtype(const Value& v, const std::string& where, const std::string& name) {
  if (v.kind != Value::Kind::String) bad_tensor(where, name, "dtype is ", json::kind_name(v.kind), ", not a string");
  const auto d = dtype_from_safetensors(v.string);
  if (!d)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, where, ": tensor '", name, "': dtype \"", v.string,
         "\" is not supported (Porta reads ", kSafetensorsDtypes, "; convert the tensor to one of them before saving)");
  return *d;
}

Dims parse_shape(const Value& v, const std::string& where, const std::string& name) {
  if (v.kind != Value::Kind::Array) bad_tensor(where, name, "shape is ", json::kind_name(v.kind), ", not an array");
  if (v.array.size() > PORTA_MAX_DIMS)
    bad_tensor(where, name, "shape has ", v.array.size(), " dimensions; Porta supports at most ", PORTA_MAX_DIMS);
  Dims shape;
  for (const Value& d : v.array) shape.push_back(static_cast<int64_t>(non_negative(d, "shape", where, name)));
  return shape;
}

// Bytes the tensor needs, with every overflow caught.
uint64_t byte_size(const Dims& shape, Dtype dtype, const std::string& where, const std::string& name) {
  uint64_t n = 1, span = 1;  // span: n with size-0 dimensions counted as 1, as the row-major strides count them
  for (int64_t d : shape) {
    const auto u = static_cast<uint64_t>(d);
    if (span > static_cast<uint64_t>(INT64_MAX) / (u ? u : 1))
      bad_tensor(where, name, "shape ", shape.str(), " has more elements than int64 can count (size-0 dimensions ",
                 "count as 1 here: the row-major strides of the others must still fit)");
    span *= u ? u : 1;
    n *= u;
  }
  if (n > UINT64_MAX / dtype_size(dtype))
    bad_tensor(where, name, "shape ", shape.str(), " needs more bytes than 64 bits can count");
  return n * dtype_size(dtype);
}

SafetensorsEntry parse_entry(const std::string& name, const Value& v, uint64_t buffer_bytes, const std::string& where) {
  if (v.kind != Value::Kind::Object)
    bad_tensor(where, name, "the entry is ", json::kind_name(v.kind), ", not an object");
  if (name.find('\0') != std::string::npos) bad_tensor(where, name, "the name contains a NUL character");
  SafetensorsEntry e;
  e.name = name;
  e.dtype = parse_dtype(field(v, "dtype", where, name), where, name);
  e.shape = parse_shape(field(v, "shape", where, name), where, name);
  const Value& offsets = field(v, "data_offsets", where, name);
  if (offsets.kind != Value::Kind::Array || offsets.array.size() != 2)
    bad_tensor(where, name, "data_offsets must be an array [begin, end]");
  e.begin = non_negative(offsets.array[0], "data_offsets", where, name);
  e.end = non_negative(offsets.array[1], "data_offsets", where, name);
  if (e.begin > e.end) bad_tensor(where, name, "data_offsets [", e.begin, ", ", e.end, "] end before they begin");
  if (e.end > buffer_bytes)
    bad_tensor(where, name, "data_offsets [", e.begin, ", ", e.end, "] reach past the end of the ", buffer_bytes,
               "-byte data buffer (the file is truncated or the header is wrong)");
  const uint64_t need = byte_size(e.shape, e.dtype, where, name);
  if (e.end - e.begin != need)
    bad_tensor(where, name, "data_offsets [", e.begin, ", ", e.end, "] span ", e.end - e.begin, " bytes but shape ",
               e.shape.str(), " of ", safetensors_dtype(e.dtype), " needs ", need);
  return e;
}

void check_metadata(const Value& v, const std::string& where) {
  if (v.kind != Value::Kind::Object)
    fail(PORTA_ERROR_IO, where, ": \"__metadata__\" is ", json::kind_name(v.kind), ", not an object of strings");
  std::unordered_set<std::string_view> seen;
  for (const auto& [k, x] : v.object) {
    if (x.kind != Value::Kind::String)
      fail(PORTA_ERROR_IO, where, ": \"__metadata__\" entry '", printable(k), "' is ", json::kind_name(x.kind),
           ", not a string");
    if (!seen.insert(k).second)
      fail(PORTA_ERROR_IO, where, ": \"__metadata__\" names '", printable(k), "' twice (duplicate keys)");
  }
}

// Sorts by offset and checks that the entries tile [0, buffer_bytes).
void check_layout(std::vector<SafetensorsEntry>& entries, uint64_t buffer_bytes, const std::string& where) {
  std::stable_sort(entries.begin(), entries.end(), [](const SafetensorsEntry& a, const SafetensorsEntry& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  uint64_t covered = 0;
  const SafetensorsEntry* previous = nullptr;
  for (const SafetensorsEntry& e : entries) {
    if (e.begin < covered)
      bad_tensor(where, e.name, "data_offsets [", e.begin, ", ", e.end, "] overlap tensor '", printable(previous->name), "' at [",
                 previous->begin, ", ", previous->end, "]");
    if (e.begin > covered)
      bad_tensor(where, e.name, "data_offsets [", e.begin, ", ", e.end, "] leave bytes [", covered, ", ", e.begin,
                 ") of the data buffer unused (a gap between tensors)");
    covered = e.end;
    previous = &e;
  }
  if (covered != buffer_bytes)
    fail(PORTA_ERROR_IO, where, ": the data buffer has ", buffer_bytes, " bytes but the tensors cover only ", covered,
         " (trailing bytes after the last tensor)");
}

}  // namespace

std::vector<SafetensorsEntry> parse_safetensors_header(std::string_view header, uint64_t buffer_bytes,
                                                       const std::string& where) {
  Value root;
  try {
    root = json::parse(header);
  } catch (const json::SyntaxError& e) {
    fail(PORTA_ERROR_IO, where, ": the header is not valid JSON: ", e.what());
  }
  if (root.kind != Value::Kind::Object)
    fail(PORTA_ERROR_IO, where, ": the header is ", json::kind_name(root.kind), ", not a JSON object");
  std::vector<SafetensorsEntry> entries;
  std::unordered_set<std::string> seen;
  for (const auto& [name, v] : root.object) {
    if (!seen.insert(name).second)
      fail(PORTA_ERROR_IO, where, ": the header names '", printable(name), "' twice (duplicate tensor names)");
    if (name == kSafetensorsMetadataKey)
      check_metadata(v, where);
    else
      entries.push_back(parse_entry(name, v, buffer_bytes, where));
  }
  check_layout(entries, buffer_bytes, where);
  return entries;
}

}  // namespace porta::io
