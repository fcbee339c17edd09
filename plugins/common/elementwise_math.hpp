// The math of the elementwise ops (UNARY, BINARY, COMPARE and WHERE kinds,
// and CAST): Math<PORTA_OP_X> is op X's functor, written once for the host
// kernels and the CUDA plugin's kernels, which look it up by the op's row of
// porta/ops.h (elementwise_lookup.hpp). A row of one of those kinds without
// its Math<> here does not compile.
#pragma once

#include <porta/ops.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "float16_types.hpp"
#include "host_device.hpp"

namespace porta::math {

template <class T>
PORTA_HD bool is_nan(T x) {
  if constexpr (std::is_floating_point_v<T>) return x != x;
  else return false;
}

// Integer arithmetic wraps around (two's complement), as in PyTorch and
// NumPy, instead of being undefined: it is done in the unsigned type.
template <class T, bool = std::is_integral_v<T> && std::is_signed_v<T>>
struct WrappingOf { using type = T; };
template <class T>
struct WrappingOf<T, true> { using type = std::make_unsigned_t<T>; };
template <class T>
using Wrapping = typename WrappingOf<T>::type;
template <class T>
PORTA_HD Wrapping<T> wrap(T x) { return static_cast<Wrapping<T>>(x); }
template <class T>
PORTA_HD T wrapped_neg(T x) { return static_cast<T>(-wrap(x)); }

template <class T>
inline constexpr bool is_signed_int = std::is_integral_v<T> && std::is_signed_v<T>;

// erfinv in double: Winitzki's closed form (relative error < 2e-3) polished
// by three Halley steps on erf, which triple the correct digits each. The
// steps run on |y|; for |y| >= 0.5 the residual is taken as (1 - |y|) -
// erfc(x), both exact there, since erf(x) - |y| would cancel to nothing near
// 1 (float64 at 1 - 2^-52 lost three digits).
PORTA_HD inline double erfinv_double(double y) {
  if (!(y > -1.0 && y < 1.0)) {
    if (y == 1.0) return std::numeric_limits<double>::infinity();
    if (y == -1.0) return -std::numeric_limits<double>::infinity();
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (y == 0.0) return y;  // keeps -0.0
  const double ay = std::fabs(y), tail = 1.0 - ay;
  const double a = 0.147, pi = 3.14159265358979323846;
  const double l = std::log(tail * (1.0 + ay));
  const double t = 2.0 / (pi * a) + l / 2.0;
  double x = std::sqrt(std::sqrt(t * t - l / a) - t);
  const double two_over_sqrt_pi = 1.12837916709551257390;
  for (int i = 0; i < 3; ++i) {
    const double f = ay < 0.5 ? std::erf(x) - ay : tail - std::erfc(x);
    const double df = two_over_sqrt_pi * std::exp(-x * x);
    x -= f / (df + x * f);
  }
  return y < 0 ? -x : x;
}

// Math<Op>: the functor of elementwise op Op.
template <uint32_t Op>
struct Math;

// One-argument functors: PORTA_MATH_UNARY(NAME, body using x of type T).
#define PORTA_MATH_UNARY(NAME, ...)                            \
  template <>                                                  \
  struct Math<PORTA_OP_##NAME> {                               \
    template <class T>                                         \
    PORTA_HD T operator()(T x) const { __VA_ARGS__ }           \
  };
// Two-argument functors: body using a and b of type T, returning R.
#define PORTA_MATH_BINARY(NAME, R, ...)                        \
  template <>                                                  \
  struct Math<PORTA_OP_##NAME> {                               \
    template <class T>                                         \
    PORTA_HD R operator()(T a, T b) const { __VA_ARGS__ }      \
  };

PORTA_MATH_UNARY(NEG, return wrapped_neg(x);)
PORTA_MATH_UNARY(EXP, return std::exp(x);)
PORTA_MATH_UNARY(LOG, return std::log(x);)
PORTA_MATH_UNARY(SQRT, return std::sqrt(x);)
// NaN stays NaN (as in PyTorch and as maximum(x, 0) does).
PORTA_MATH_UNARY(RELU, return x > T(0) || x != x ? x : T(0);)
PORTA_MATH_UNARY(SIGMOID, return T(1) / (T(1) + std::exp(-x));)
PORTA_MATH_UNARY(TANH, return std::tanh(x);)
PORTA_MATH_UNARY(ABS, if constexpr (std::is_unsigned_v<T>) return x; else return x < T(0) ? wrapped_neg(x) : x;)
PORTA_MATH_UNARY(SIN, return std::sin(x);)
PORTA_MATH_UNARY(COS, return std::cos(x);)
PORTA_MATH_UNARY(TAN, return std::tan(x);)
PORTA_MATH_UNARY(ASIN, return std::asin(x);)
PORTA_MATH_UNARY(ACOS, return std::acos(x);)
PORTA_MATH_UNARY(ATAN, return std::atan(x);)
PORTA_MATH_UNARY(SINH, return std::sinh(x);)
PORTA_MATH_UNARY(COSH, return std::cosh(x);)
// Rounding: integers are already whole; round is half to even (PyTorch's).
PORTA_MATH_UNARY(FLOOR, if constexpr (std::is_integral_v<T>) return x; else return std::floor(x);)
PORTA_MATH_UNARY(CEIL, if constexpr (std::is_integral_v<T>) return x; else return std::ceil(x);)
PORTA_MATH_UNARY(ROUND, if constexpr (std::is_integral_v<T>) return x; else return std::rint(x);)
PORTA_MATH_UNARY(TRUNC, if constexpr (std::is_integral_v<T>) return x; else return std::trunc(x);)
// -1, 0 or 1; NaN gives 0, as PyTorch's sign does (NumPy's gives NaN).
PORTA_MATH_UNARY(SIGN, if constexpr (std::is_unsigned_v<T>) return static_cast<T>(x != T(0));
                 else return static_cast<T>(int(T(0) < x) - int(x < T(0)));)
PORTA_MATH_UNARY(ERF, return std::erf(x);)
PORTA_MATH_UNARY(ERFINV, return static_cast<T>(erfinv_double(static_cast<double>(x)));)
PORTA_MATH_UNARY(LOG1P, return std::log1p(x);)
PORTA_MATH_UNARY(EXPM1, return std::expm1(x);)
PORTA_MATH_UNARY(LOG2, return std::log2(x);)
PORTA_MATH_UNARY(LOG10, return std::log10(x);)
PORTA_MATH_UNARY(EXP2, return std::exp2(x);)
PORTA_MATH_UNARY(ASINH, return std::asinh(x);)

PORTA_MATH_BINARY(ADD, T, return static_cast<T>(wrap(a) + wrap(b));)
PORTA_MATH_BINARY(SUB, T, return static_cast<T>(wrap(a) - wrap(b));)
PORTA_MATH_BINARY(MUL, T, return static_cast<T>(wrap(a) * wrap(b));)
PORTA_MATH_BINARY(DIV, T, return a / b;)
PORTA_MATH_BINARY(POW, T, return std::pow(a, b);)
// NaN propagates, as in PyTorch.
PORTA_MATH_BINARY(MAXIMUM, T, if (is_nan(a) || is_nan(b)) return static_cast<T>(a + b); return a > b ? a : b;)
PORTA_MATH_BINARY(MINIMUM, T, if (is_nan(a) || is_nan(b)) return static_cast<T>(a + b); return a < b ? a : b;)
PORTA_MATH_BINARY(ATAN2, T, return std::atan2(a, b);)
// Integer division: the core refuses a zero divisor before launching (as
// PyTorch does); x / -1 is computed as a wrapping negation, so INT_MIN / -1
// wraps instead of trapping.
// fmod: the remainder of truncated division, with a's sign (C's % and fmod).
PORTA_MATH_BINARY(FMOD, T,
                  if constexpr (std::is_floating_point_v<T>) return std::fmod(a, b);
                  else {
                    if (b == T(0)) return T(0);
                    if constexpr (is_signed_int<T>) if (b == T(-1)) return T(0);
                    return static_cast<T>(a % b);
                  })
// remainder (Python's %): the remainder of floor division, with b's sign.
PORTA_MATH_BINARY(REMAINDER, T,
                  T r = Math<PORTA_OP_FMOD>{}(a, b);
                  if constexpr (!std::is_unsigned_v<T>)
                    if (r != T(0) && ((r < T(0)) != (b < T(0)))) r = static_cast<T>(r + b);
                  return r;)
// floor_divide (Python's //): floor(a / b). For floats as PyTorch computes
// it, from fmod, so that a == b * (a // b) + a % b holds as closely as it can.
PORTA_MATH_BINARY(FLOOR_DIVIDE, T,
                  if constexpr (std::is_floating_point_v<T>) {
                    if (b == T(0)) return a / b;
                    const T mod = std::fmod(a, b);
                    T div = (a - mod) / b;
                    if (mod != T(0) && ((b < T(0)) != (mod < T(0)))) div -= T(1);
                    if (div == T(0)) return std::copysign(T(0), a / b);
                    T floor_div = std::floor(div);
                    if (div - floor_div > T(0.5)) floor_div += T(1);
                    return floor_div;
                  } else {
                    if (b == T(0)) return T(0);
                    if constexpr (is_signed_int<T>) {
                      if (b == T(-1)) return wrapped_neg(a);
                      const T q = static_cast<T>(a / b);
                      return ((a < T(0)) != (b < T(0))) && q * b != a ? static_cast<T>(q - 1) : q;
                    } else {
                      return static_cast<T>(a / b);
                    }
                  })

// Bitwise ops on integers (and on bool's 0 and 1: the logical ones). Shifts as PyTorch's: a negative shift, or
// one by the width or more, gives 0 to the left and the sign to the right.
PORTA_MATH_BINARY(BITWISE_AND, T, return static_cast<T>(a & b);)
PORTA_MATH_BINARY(BITWISE_OR, T, return static_cast<T>(a | b);)
PORTA_MATH_BINARY(BITWISE_XOR, T, return static_cast<T>(a ^ b);)
PORTA_MATH_UNARY(BITWISE_NOT, return static_cast<T>(~x);)
PORTA_MATH_BINARY(BITWISE_LEFT_SHIFT, T, constexpr T width = sizeof(T) * 8;
                  if (static_cast<std::make_signed_t<T>>(b) < 0 || b >= width) return T(0);
                  return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) << b);)
PORTA_MATH_BINARY(BITWISE_RIGHT_SHIFT, T, constexpr T widest = sizeof(T) * 8 - std::is_signed_v<T>;
                  if (static_cast<std::make_signed_t<T>>(b) < 0 || b >= widest) return static_cast<T>(a >> widest);
                  return static_cast<T>(a >> b);)
PORTA_MATH_BINARY(EQ, uint8_t, return a == b;)
PORTA_MATH_BINARY(NE, uint8_t, return a != b;)
PORTA_MATH_BINARY(LT, uint8_t, return a < b;)
PORTA_MATH_BINARY(LE, uint8_t, return a <= b;)
PORTA_MATH_BINARY(GT, uint8_t, return a > b;)
PORTA_MATH_BINARY(GE, uint8_t, return a >= b;)

#undef PORTA_MATH_UNARY
#undef PORTA_MATH_BINARY

// WHERE: cond (bool, stored as uint8_t) ? a : b.
template <>
struct Math<PORTA_OP_WHERE> {
  template <class T>
  PORTA_HD T operator()(uint8_t cond, T a, T b) const { return cond ? a : b; }
};

// A float toward zero into integer type I, NaN giving 0 and values beyond I's
// range its minimum or maximum (a plain static_cast is undefined there).
template <class I, class F>
PORTA_HD I saturating_float_to_int(F x) {
  if (x != x) return I(0);
  const F hi_bound = static_cast<F>(std::numeric_limits<I>::max()) + F(1);  // 2^31, 2^63: exact in float and double
  if (x >= hi_bound) return std::numeric_limits<I>::max();
  if (x < static_cast<F>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  return static_cast<I>(x);
}

// Conversion with Porta's rules (ops.h, PORTA_OP_KIND_COPY): to bool is
// "nonzero"; float to int32/int64 saturates with NaN as 0; float to uint8,
// int8 and int16 goes through int64, as PyTorch does; integers truncate;
// float16 and bfloat16 widen to float32 first, and everything narrows to
// them from float32 (float16_types.hpp). From its own type a 16-bit float is
// kept as it is: a strided COPY keeps a NaN's payload as the contiguous one
// (a memcpy) does, where the trip through float32 would make every bfloat16
// NaN 0x7fc0.
template <class To, bool ToBool>
struct Convert {
  template <class From> PORTA_HD To operator()(From x) const {
    if constexpr (is_float16_type<From> && std::is_same_v<From, To>) return x;
    else if constexpr (is_float16_type<From>) return (*this)(to_float(x));
    else if constexpr (is_float16_type<To>) return from_float<To>(static_cast<float>(x));
    else if constexpr (ToBool) return static_cast<To>(x != From(0));
    else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To> && sizeof(To) < 4)
      return static_cast<To>(saturating_float_to_int<int64_t>(x));
    else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>)
      return saturating_float_to_int<To>(x);
    else return static_cast<To>(x);
  }
};

}  // namespace porta::math
