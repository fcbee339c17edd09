// Porta's dtypes: the ten DLPack types the core supports, a dense index for
// dispatch tables, PyTorch's promotion, and the compute dtype each storage
// dtype (int8, int16, float16, bfloat16) is computed in.
#pragma once

#include <porta/types.h>

#include <string>

namespace porta {

// Dense dtype index used by the dispatcher: the six compute dtypes of plugin
// ABI 1.0, then the storage dtypes of 1.10 (porta/ops.h, porta_op_dtypes).
enum class Dtype : int { Bool = 0, UInt8, Int32, Int64, Float32, Float64, Int8, Int16, Float16, BFloat16 };
inline constexpr int kDtypeCount = 10;
// The dtypes a plugin built against plugin ABI 1.`minor` knows: indices
// 0 to the result - 1.
inline constexpr int dtypes_known_at_plugin_minor(uint32_t minor) { return minor >= 10 ? kDtypeCount : 6; }

// Index of a DLDataType, or -1 if Porta does not support it.
int dtype_index(DLDataType t);
// Throws UNSUPPORTED_DTYPE unless Porta supports `t`; returns its Dtype.
Dtype checked_dtype(DLDataType t);
DLDataType to_dl(Dtype d);
// Bytes per element.
size_t dtype_size(Dtype d);
// "float32", "int64", ... (or "(code c, bits b, lanes l)" for unsupported types).
std::string dtype_name(DLDataType t);
std::string dtype_name(Dtype d);
// Every dtype's name, comma-separated, for error messages.
std::string dtype_names();

inline bool is_floating(Dtype d) {
  return d == Dtype::Float32 || d == Dtype::Float64 || d == Dtype::Float16 || d == Dtype::BFloat16;
}
inline bool is_integral(Dtype d) { return !is_floating(d) && d != Dtype::Bool; }
// float16 and bfloat16, the floats PyTorch computes in float32 (its "opmath") and rounds once.
inline bool is_low_precision(Dtype d) { return d == Dtype::Float16 || d == Dtype::BFloat16; }
// The dtype PyTorch's kernels compute `d` in: float32 for float16 and bfloat16, else `d` itself.
inline Dtype opmath_dtype(Dtype d) { return is_low_precision(d) ? Dtype::Float32 : d; }
// A storage dtype: computed in compute_dtype(d) where a plugin has no kernel of its own.
inline bool is_storage(Dtype d) { return static_cast<int>(d) >= 6; }
// float32 for float16 and bfloat16, int32 for int8 and int16, else `d`.
inline Dtype compute_dtype(Dtype d) {
  if (d == Dtype::Float16 || d == Dtype::BFloat16) return Dtype::Float32;
  if (d == Dtype::Int8 || d == Dtype::Int16) return Dtype::Int32;
  return d;
}
// The dtype two operands promote to, PyTorch's table: bool < integers <
// floats; among integers the wider, with uint8 and int8 meeting in int16;
// among floats the wider, with float16 and bfloat16 meeting in float32.
Dtype promote(Dtype a, Dtype b);
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
