// A tensor as encoding.py records it ({"dt", "shape", "v": base64 of the values, float16 and bfloat16 widened
// to float32}): its values read from a record or from a porta::Tensor, and an input tensor made from a record
// the way engine.Run.make makes it.
#pragma once

#include <cstdint>
#include <cstring>
#include <porta/porta.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "json_gz.hpp"

namespace oracle {

// A record's or a tensor's values as compare.py sees them: exact doubles for the floating dtypes, int64 for
// the integers and bool (an int64 sum past 2**53 keeps every bit).
struct Values {
  std::string dtype;
  porta::Shape shape;
  bool floating = false;
  std::vector<double> floats;
  std::vector<int64_t> ints;
  size_t size() const { return floating ? floats.size() : ints.size(); }
};

inline std::string base64_decode(const std::string& text) {
  static const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  uint32_t bits = 0;
  int count = 0;
  for (char c : text) {
    if (c == '=') break;
    const size_t six = alphabet.find(c);
    if (six == std::string::npos) throw std::runtime_error("not base64: " + text);
    bits = (bits << 6) | static_cast<uint32_t>(six);
    if ((count += 6) >= 8) out.push_back(static_cast<char>((bits >> (count -= 8)) & 0xff));
  }
  return out;
}

namespace detail {

template <class Stored, class To>
std::vector<To> unpack(const std::string& bytes) {
  std::vector<Stored> stored(bytes.size() / sizeof(Stored));
  if (!stored.empty()) std::memcpy(stored.data(), bytes.data(), stored.size() * sizeof(Stored));
  return std::vector<To>(stored.begin(), stored.end());
}

inline std::vector<int64_t> unpack_ints(const std::string& dtype, const std::string& bytes) {
  if (dtype == "int64") return unpack<int64_t, int64_t>(bytes);
  if (dtype == "int32") return unpack<int32_t, int64_t>(bytes);
  if (dtype == "int16") return unpack<int16_t, int64_t>(bytes);
  if (dtype == "int8") return unpack<int8_t, int64_t>(bytes);
  if (dtype == "uint8" || dtype == "bool") return unpack<uint8_t, int64_t>(bytes);
  throw std::runtime_error("a record of dtype " + dtype);
}

template <class T, class V>
porta::Tensor host_tensor(const std::vector<V>& values, const porta::Shape& shape) {
  return porta::Tensor::from_vector(std::vector<T>(values.begin(), values.end()), shape);
}

// A CPU tensor of the values, as engine.Run.tensor makes it: float16 and bfloat16 from float32 (which holds them
// exactly).
inline porta::Tensor host_tensor(const Values& v) {
  const std::string& dt = v.dtype;
  if (dt == "float64") return host_tensor<double>(v.floats, v.shape);
  if (dt == "float32") return host_tensor<float>(v.floats, v.shape);
  if (dt == "float16") return host_tensor<float>(v.floats, v.shape).cast(porta::kFloat16);
  if (dt == "bfloat16") return host_tensor<float>(v.floats, v.shape).cast(porta::kBFloat16);
  if (dt == "int64") return host_tensor<int64_t>(v.ints, v.shape);
  if (dt == "int32") return host_tensor<int32_t>(v.ints, v.shape);
  if (dt == "int16") return host_tensor<int16_t>(v.ints, v.shape);
  if (dt == "int8") return host_tensor<int8_t>(v.ints, v.shape);
  if (dt == "uint8") return host_tensor<uint8_t>(v.ints, v.shape);
  return host_tensor<bool>(v.ints, v.shape);
}

}  // namespace detail

inline Values decode(const Json& record) {
  Values v;
  v.dtype = record.at("dt").get<std::string>();
  v.shape = record.at("shape").get<porta::Shape>();
  const std::string bytes = base64_decode(record.at("v").get<std::string>());
  v.floating = v.dtype == "float64" || v.dtype == "float32" || v.dtype == "float16" || v.dtype == "bfloat16";
  if (v.dtype == "float64")
    v.floats = detail::unpack<double, double>(bytes);
  else if (v.floating)
    v.floats = detail::unpack<float, double>(bytes);  // float16 and bfloat16 stored as float32
  else
    v.ints = detail::unpack_ints(v.dtype, bytes);
  return v;
}

inline Values read(const porta::Tensor& t) {
  Values v;
  v.dtype = porta::dtype_name(t.dtype());
  v.shape = t.shape();
  v.floating = t.dtype().code == kDLFloat || t.dtype().code == kDLBfloat;
  const porta::Tensor host = t.cpu();
  if (v.floating)
    v.floats = host.cast(porta::kFloat64).to_vector<double>();
  else
    v.ints = host.cast(porta::kInt64).to_vector<int64_t>();
  return v;
}

// An input tensor on `device`, made as engine.Run.tensor makes it: on the CPU, then moved.
inline porta::Tensor make_tensor(const Json& record, const porta::Device& device) {
  return detail::host_tensor(decode(record)).to(device);
}

}  // namespace oracle
