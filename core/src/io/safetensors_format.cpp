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
  }
  return "F32";
}

std::optional<Dtype> dtype_from_safetensors(std::string_view s) {
  for (Dtype d : {Dtype::Bool, Dtype::UInt8, Dtype::Int32, Dtype::Int64, Dtype::Float32, Dtype::Float64})
    if (s == safetensors_dtype(d)) return d;
  return std::nullopt;
}

}  // namespace porta::io
