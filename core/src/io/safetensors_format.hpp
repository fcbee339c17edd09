// The safetensors layout (https://github.com/huggingface/safetensors):
//   u64 little-endian N | N bytes of JSON header | data buffer
// The header maps each tensor name to {"dtype", "shape", "data_offsets":
// [begin, end]} (offsets into the data buffer) and may hold "__metadata__",
// an object of strings. Data is row-major and little-endian.
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/tensor.hpp"

namespace porta::io {

// Porta's hosts are little-endian, so tensor bytes are copied as they are.
static_assert(std::endian::native == std::endian::little, "safetensors I/O assumes a little-endian host");

inline constexpr std::string_view kSafetensorsMetadataKey = "__metadata__";
inline constexpr const char* kSafetensorsDtypes = "F32, F64, I32, I64, U8, BOOL, I8, I16, F16 and BF16";

// "F32" for float32, ...
const char* safetensors_dtype(Dtype d);
// The Porta dtype of a safetensors dtype string, if Porta has one.
std::optional<Dtype> dtype_from_safetensors(std::string_view s);

// One tensor as the header describes it; offsets are into the data buffer.
struct SafetensorsEntry {
  std::string name;
  Dtype dtype = Dtype::Float32;
  Dims shape;
  uint64_t begin = 0, end = 0;
};

// Parses and validates a header against a data buffer of `buffer_bytes`;
// returns the entries in data-offset order. `where` starts error messages.
std::vector<SafetensorsEntry> parse_safetensors_header(std::string_view header, uint64_t buffer_bytes,
                                                       const std::string& where);

}  // namespace porta::io
