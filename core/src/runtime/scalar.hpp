// A number as the caller's language typed it: its kind decides how it
// promotes (PyTorch's bool < int < float), its value is exact (an int64
// never goes through a double).
#pragma once

#include <cstdint>

namespace porta {

struct Scalar {
  enum class Kind { Bool, Int, Float };
  Kind kind = Kind::Float;
  int64_t i = 0;  // Bool (0 or 1) and Int
  double f = 0;   // Float
  static Scalar of_bool(bool b) { return {Kind::Bool, b ? 1 : 0, 0}; }
  static Scalar of_int(int64_t v) { return {Kind::Int, v, 0}; }
  static Scalar of_float(double v) { return {Kind::Float, 0, v}; }
  // The C API's double scalars (porta_add_scalar, ...) and the core's own
  // constants: an integral value within int64 is an integer, else a float.
  static Scalar from_double(double s);
  double as_double() const { return kind == Kind::Float ? f : static_cast<double>(i); }
};

}  // namespace porta
