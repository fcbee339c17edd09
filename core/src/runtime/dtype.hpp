// Porta's dtypes: the six DLPack types the core supports, a dense index
// for dispatch tables, and PyTorch-style promotion.
#pragma once

#include <porta/types.h>

#include <string>

namespace porta {

// Dense dtype index used by the dispatcher; order is the promotion order.
enum class Dtype : int { Bool = 0, UInt8, Int32, Int64, Float32, Float64 };
inline constexpr int kDtypeCount = 6;

// Index of a DLDataType, or -1 if Porta does not support it.
int dtype_index(DLDataType t);
// Throws UNSUPPORTED_DTYPE unless Porta supports `t`; returns its Dtype.
Dtype checked_dtype(DLDataType t);
DLDataType to_dl(Dtype d);
// Bytes per element.
size_t dtype_size(Dtype d);
// "float32", "int64", ... (or "code:bits:lanes" for unsupported types).
std::string dtype_name(DLDataType t);
inline std::string dtype_name(Dtype d) { return dtype_name(to_dl(d)); }

inline bool is_floating(Dtype d) { return d == Dtype::Float32 || d == Dtype::Float64; }
inline bool is_integral(Dtype d) { return !is_floating(d) && d != Dtype::Bool; }
// The dtype two operands promote to (bool < uint8 < int32 < int64 < float32 < float64).
inline Dtype promote(Dtype a, Dtype b) { return static_cast<int>(a) >= static_cast<int>(b) ? a : b; }
// PyTorch's result type for an operand that is a dimensioned tensor beside
// one that is 0-d (or a scalar): the 0-d operand's dtype counts only when it
// is of a higher category (bool < integer < floating), so float32 x 0-d
// float64 is float32, int32 + 0-d int64 is int32, int64 x 0-d float64 is
// float64.
inline Dtype combine_categories(Dtype dimensioned, Dtype zero_dim) {
  if (is_floating(dimensioned)) return dimensioned;
  if (dimensioned == Dtype::Bool || is_floating(zero_dim)) return promote(dimensioned, zero_dim);
  return dimensioned;
}
// The dtype a binary op computes in for operands of these dtypes and ranks.
inline Dtype result_type(Dtype a, bool a_zero_dim, Dtype b, bool b_zero_dim) {
  if (a_zero_dim == b_zero_dim) return promote(a, b);
  return a_zero_dim ? combine_categories(b, a) : combine_categories(a, b);
}
// `d` if floating, else float32 (for ops like exp, div that produce floats).
inline Dtype to_floating(Dtype d) { return is_floating(d) ? d : Dtype::Float32; }

}  // namespace porta
