#include "runtime/dtype.hpp"

#include "runtime/error.hpp"

namespace porta {

int dtype_index(DLDataType t) {
  if (t.lanes != 1) return -1;
  switch (t.code) {
    case kDLBool: return t.bits == 8 ? static_cast<int>(Dtype::Bool) : -1;
    case kDLUInt: return t.bits == 8 ? static_cast<int>(Dtype::UInt8) : -1;
    case kDLInt:
      if (t.bits == 32) return static_cast<int>(Dtype::Int32);
      if (t.bits == 64) return static_cast<int>(Dtype::Int64);
      return -1;
    case kDLFloat:
      if (t.bits == 32) return static_cast<int>(Dtype::Float32);
      if (t.bits == 64) return static_cast<int>(Dtype::Float64);
      return -1;
    default: return -1;
  }
}

Dtype checked_dtype(DLDataType t) {
  int i = dtype_index(t);
  if (i < 0)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "unsupported dtype ", dtype_name(t),
         " (supported: float32, float64, int32, int64, uint8, bool)");
  return static_cast<Dtype>(i);
}

DLDataType to_dl(Dtype d) {
  switch (d) {
    case Dtype::Bool: return porta_bool;
    case Dtype::UInt8: return porta_uint8;
    case Dtype::Int32: return porta_int32;
    case Dtype::Int64: return porta_int64;
    case Dtype::Float32: return porta_float32;
    case Dtype::Float64: return porta_float64;
  }
  return porta_float32;
}

size_t dtype_size(Dtype d) {
  switch (d) {
    case Dtype::Bool:
    case Dtype::UInt8: return 1;
    case Dtype::Int32:
    case Dtype::Float32: return 4;
    case Dtype::Int64:
    case Dtype::Float64: return 8;
  }
  return 1;
}

std::string dtype_name(DLDataType t) {
  switch (dtype_index(t)) {
    case 0: return "bool";
    case 1: return "uint8";
    case 2: return "int32";
    case 3: return "int64";
    case 4: return "float32";
    case 5: return "float64";
    default:
      return cat("(code ", int(t.code), ", bits ", int(t.bits), ", lanes ", int(t.lanes), ")");
  }
}

}  // namespace porta
