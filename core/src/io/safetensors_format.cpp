#include "io/safetensors_format.hpp"

namespace porta::io {

const char* safetensors_dtype(Dtype d) {
  switch (d) {
    case Dtype::Bool: return "BOOL";
    case Dtype::UInt8: return "U8";
    case Dtype::Int32: return "I32";
    case Dtype::Int64: return "I64";
    case Dtype::Float32: return "F32";
    case Dtype::Float64: return "F64";
    case Dtype::Int8: return "I8";
    case Dtype::Int16: return "I16";
    case Dtype::Float16: return "F16";
    case Dtype::BFloat16: return "BF16";
  }
  return "F32";
}

std::optional<Dtype> dtype_from_safetensors(std::string_view s) {
  for (int i = 0; i < kDtypeCount; ++i)
    if (s == safetensors_dtype(static_cast<Dtype>(i))) return static_cast<Dtype>(i);
  return std::nullopt;
}

}  // namespace porta::io
