#include "runtime/dtype.hpp"

#include "runtime/error.hpp"

namespace porta {

int dtype_index(DLDataType t) {
  if (t.lanes != 1) return -1;
  switch (t.code) {
    case kDLBool:
      return t.bits == 8 ? static_cast<int>(Dtype::Bool) : -1;
    case kDLUInt:
      return t.bits == 8 ? static_cast<int>(Dtype::UInt8) : -1;
    case kDLInt:
      switch (t.bits) {
        case 8:
          return static_cast<int>(Dtype::Int8);
        case 16:
          return static_cast<int>(Dtype::Int16);
        case 32:
          return static_cast<int>(Dtype::Int32);
        case 64:
          return static_cast<int>(Dtype::Int64);
        default:
          return -1;
      }
    case kDLFloat:
      switch (t.bits) {
        case 16:
          return static_cast<int>(Dtype::Float16);
        case 32:
          return static_cast<int>(Dtype::Float32);
        case 64:
          return static_cast<int>(Dtype::Float64);
        default:
          return -1;
      }
    case kDLBfloat:
      return t.bits == 16 ? static_cast<int>(Dtype::BFloat16) : -1;
    default:
      return -1;
  }
}

Dtype checked_dtype(DLDataType t) {
  int i = dtype_index(t);
  if (i < 0)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "unsupported dtype ", dtype_name(t), " (supported: ", dtype_names(), ")");
  return static_cast<Dtype>(i);
}

DLDataType to_dl(Dtype d) {
  switch (d) {
    case Dtype::Bool:
      return porta_bool;
    case Dtype::UInt8:
      return porta_uint8;
    case Dtype::Int32:
      return porta_int32;
    case Dtype::Int64:
      return porta_int64;
    case Dtype::Float32:
      return porta_float32;
    case Dtype::Float64:
      return porta_float64;
    case Dtype::Int8:
      return porta_int8;
    case Dtype::Int16:
      return porta_int16;
    case Dtype::Float16:
      return porta_float16;
    case Dtype::BFloat16:
      return porta_bfloat16;
  }
  return porta_float32;
}

size_t dtype_size(Dtype d) { return to_dl(d).bits / 8u; }

std::string dtype_name(Dtype d) {
  switch (d) {
    case Dtype::Bool:
      return "bool";
    case Dtype::UInt8:
      return "uint8";
    case Dtype::Int32:
      return "int32";
    case Dtype::Int64:
      return "int64";
    case Dtype::Float32:
      return "float32";
    case Dtype::Float64:
      return "float64";
    case Dtype::Int8:
      return "int8";
    case Dtype::Int16:
      return "int16";
    case Dtype::Float16:
      return "float16";
    case Dtype::BFloat16:
      return "bfloat16";
  }
  return "unknown";
}

std::string dtype_name(DLDataType t) {
  const int i = dtype_index(t);
  if (i >= 0) return dtype_name(static_cast<Dtype>(i));
  return cat("(code ", int(t.code), ", bits ", int(t.bits), ", lanes ", int(t.lanes), ")");
}

std::string dtype_names() {
  std::string s;
  for (int i = 0; i < kDtypeCount; ++i) s += (i ? ", " : "") + dtype_name(static_cast<Dtype>(i));
  return s;
}

namespace {

// 0 bool, 1 integer, 2 floating.
int category(Dtype d) { return d == Dtype::Bool ? 0 : is_floating(d) ? 2 : 1; }

}  // namespace

Dtype promote(Dtype a, Dtype b) {
  if (a == b) return a;
  const int ca = category(a), cb = category(b);
  if (ca != cb) return ca > cb ? a : b;
  const size_t sa = dtype_size(a), sb = dtype_size(b);
  if (ca == 1) {
    // uint8 is the only unsigned integer: with a signed one it needs room for 0..255.
    if (a == Dtype::UInt8 || b == Dtype::UInt8) {
      const Dtype s = a == Dtype::UInt8 ? b : a;
      return s == Dtype::Int8 ? Dtype::Int16 : s;
    }
    return sa >= sb ? a : b;
  }
  if (sa == 2 && sb == 2) return Dtype::Float32;  // float16 with bfloat16
  return sa >= sb ? a : b;
}

}  // namespace porta
