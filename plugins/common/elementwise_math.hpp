// The math of the elementwise ops (UNARY, BINARY, COMPARE kinds and CAST),
// one functor per op, written once for the host kernels and the CUDA
// plugin's kernels.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

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

struct Neg { template <class T> PORTA_HD T operator()(T x) const { return static_cast<T>(-wrap(x)); } };
struct Exp { template <class T> PORTA_HD T operator()(T x) const { return std::exp(x); } };
struct Log { template <class T> PORTA_HD T operator()(T x) const { return std::log(x); } };
struct Sqrt { template <class T> PORTA_HD T operator()(T x) const { return std::sqrt(x); } };
// NaN stays NaN (as in PyTorch and as maximum(x, 0) does).
struct Relu { template <class T> PORTA_HD T operator()(T x) const { return x > T(0) || x != x ? x : T(0); } };
struct Sigmoid { template <class T> PORTA_HD T operator()(T x) const { return T(1) / (T(1) + std::exp(-x)); } };
struct Tanh { template <class T> PORTA_HD T operator()(T x) const { return std::tanh(x); } };
struct Abs {
  template <class T> PORTA_HD T operator()(T x) const {
    if constexpr (std::is_unsigned_v<T>) return x;
    else return x < T(0) ? static_cast<T>(-wrap(x)) : x;
  }
};

struct Add { template <class T> PORTA_HD T operator()(T a, T b) const { return static_cast<T>(wrap(a) + wrap(b)); } };
struct Sub { template <class T> PORTA_HD T operator()(T a, T b) const { return static_cast<T>(wrap(a) - wrap(b)); } };
struct Mul { template <class T> PORTA_HD T operator()(T a, T b) const { return static_cast<T>(wrap(a) * wrap(b)); } };
struct Div { template <class T> PORTA_HD T operator()(T a, T b) const { return a / b; } };
struct Pow { template <class T> PORTA_HD T operator()(T a, T b) const { return std::pow(a, b); } };
// NaN propagates, as in PyTorch.
struct Maximum {
  template <class T> PORTA_HD T operator()(T a, T b) const {
    if (is_nan(a) || is_nan(b)) return static_cast<T>(a + b);
    return a > b ? a : b;
  }
};
struct Minimum {
  template <class T> PORTA_HD T operator()(T a, T b) const {
    if (is_nan(a) || is_nan(b)) return static_cast<T>(a + b);
    return a < b ? a : b;
  }
};

struct Eq { template <class T> PORTA_HD uint8_t operator()(T a, T b) const { return a == b; } };
struct Ne { template <class T> PORTA_HD uint8_t operator()(T a, T b) const { return a != b; } };
struct Lt { template <class T> PORTA_HD uint8_t operator()(T a, T b) const { return a < b; } };
struct Le { template <class T> PORTA_HD uint8_t operator()(T a, T b) const { return a <= b; } };
struct Gt { template <class T> PORTA_HD uint8_t operator()(T a, T b) const { return a > b; } };
struct Ge { template <class T> PORTA_HD uint8_t operator()(T a, T b) const { return a >= b; } };

// WHERE: cond (bool, stored as uint8_t) ? a : b.
struct Where { template <class T> PORTA_HD T operator()(uint8_t cond, T a, T b) const { return cond ? a : b; } };

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
// "nonzero"; float to int32/int64 saturates with NaN as 0; float to uint8
// goes through int64, as PyTorch does; integers truncate.
template <class To, bool ToBool>
struct Convert {
  template <class From> PORTA_HD To operator()(From x) const {
    if constexpr (ToBool) return static_cast<To>(x != From(0));
    else if constexpr (std::is_floating_point_v<From> && std::is_same_v<To, uint8_t>)
      return static_cast<To>(saturating_float_to_int<int64_t>(x));
    else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>)
      return saturating_float_to_int<To>(x);
    else return static_cast<To>(x);
  }
};

}  // namespace porta::math
