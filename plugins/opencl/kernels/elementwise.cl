// UNARY, BINARY, COMPARE and WHERE kinds: one work-item per element of the
// output; operands addressed as common.cl's ELEMENTWISE_KERNEL describes.
// Kernel names are "op_" + the op's name in PORTA_OP_LIST. (Kernel bodies
// are macro arguments: no commas outside parentheses in them.)

#define UNARY(name, EXPR)                                                   \
  ELEMENTWISE_KERNEL(name, { const T x = a[a0 + o.y]; y[y0 + o.x] = (EXPR); }, \
                     __global T* y, long y0, __global const T* a, long a0)

#define BINARY(name, OUT, EXPR)                                                               \
  ELEMENTWISE_KERNEL(name, {                                                                  \
    const T x = a[a0 + o.y];                                                                  \
    const T z = b[b0 + o.z];                                                                  \
    y[y0 + o.x] = (OUT)(EXPR);                                                                \
  }, __global OUT* y, long y0, __global const T* a, long a0, __global const T* b, long b0)

// The integer and float division families and erfinv, as
// plugins/common/elementwise_math.hpp computes them (the core refuses an
// integer zero divisor before launching).
#if IS_FLOAT
inline T porta_fmod(T a, T b) { return fmod(a, b); }
inline T porta_floor_divide(T a, T b) {
  if (b == (T)0) return a / b;
  const T mod = fmod(a, b);
  T div = (a - mod) / b;
  if (mod != (T)0 && ((b < (T)0) != (mod < (T)0))) div -= (T)1;
  if (div == (T)0) return copysign((T)0, a / b);
  T floor_div = floor(div);
  if (div - floor_div > (T)0.5) floor_div += (T)1;
  return floor_div;
}
// Winitzki's closed form polished by three Halley steps on erf, in real_t,
// on |y|, with the residual from erfc for |y| >= 0.5 (no cancellation near 1).
inline T porta_erfinv(T v) {
  const real_t y = (real_t)v;
  if (!(y > (real_t)-1 && y < (real_t)1)) return y == (real_t)1 ? (T)INFINITY : y == (real_t)-1 ? (T)-INFINITY : (T)NAN;
  if (y == (real_t)0) return v;
  const real_t ay = fabs(y), tail = (real_t)1 - ay;
  const real_t a = (real_t)0.147, pi = (real_t)3.14159265358979323846;
  const real_t l = log(tail * ((real_t)1 + ay));
  const real_t t = (real_t)2 / (pi * a) + l / (real_t)2;
  real_t x = sqrt(sqrt(t * t - l / a) - t);
  for (int i = 0; i < 3; ++i) {
    const real_t f = ay < (real_t)0.5 ? erf(x) - ay : tail - erfc(x);
    x -= f / ((real_t)1.12837916709551257390 * exp(-x * x) + x * f);
  }
  return (T)(y < (real_t)0 ? -x : x);
}
#elif IS_NUMERIC
inline T porta_fmod(T a, T b) {
  if (b == (T)0) return (T)0;
#if DT != 1
  if (b == (T)-1) return (T)0;
#endif
  return a % b;
}
inline T porta_floor_divide(T a, T b) {
  if (b == (T)0) return (T)0;
#if DT != 1
  if (b == (T)-1) return (T)(-a);
  const T q = a / b;
  return ((a < (T)0) != (b < (T)0)) && q * b != a ? (T)(q - (T)1) : q;
#else
  return a / b;
#endif
}
#endif
#if IS_NUMERIC
inline T porta_remainder(T a, T b) {
  T r = porta_fmod(a, b);
  if (r != (T)0 && ((r < (T)0) != (b < (T)0))) r = (T)(r + b);
  return r;
}
#endif

#if IS_NUMERIC
UNARY(op_neg, (T)(-x))
#if DT == 1
UNARY(op_abs, x)
#else
UNARY(op_abs, x < (T)0 ? (T)(-x) : x)  // -0.0 and NaN keep their sign, as on the host
#endif
UNARY(op_relu, x > (T)0 || x != x ? x : (T)0)  // NaN stays NaN
BINARY(op_add, T, x + z)
BINARY(op_sub, T, x - z)
BINARY(op_mul, T, x * z)
#if IS_FLOAT
BINARY(op_maximum, T, isnan(x) || isnan(z) ? x + z : (x > z ? x : z))  // NaN propagates
BINARY(op_minimum, T, isnan(x) || isnan(z) ? x + z : (x < z ? x : z))
#else
BINARY(op_maximum, T, x > z ? x : z)
BINARY(op_minimum, T, x < z ? x : z)
#endif
#if IS_FLOAT
UNARY(op_floor, floor(x))
UNARY(op_ceil, ceil(x))
UNARY(op_round, rint(x))  // halves to even
UNARY(op_trunc, trunc(x))
UNARY(op_sign, (T)((x > (T)0) - (x < (T)0)))  // NaN gives 0, as in PyTorch
#else
UNARY(op_floor, x)
UNARY(op_ceil, x)
UNARY(op_round, x)
UNARY(op_trunc, x)
#if DT == 1
UNARY(op_sign, (T)(x != (T)0))
#else
UNARY(op_sign, (T)((x > (T)0) - (x < (T)0)))
#endif
#endif
BINARY(op_remainder, T, porta_remainder(x, z))
BINARY(op_fmod, T, porta_fmod(x, z))
BINARY(op_floor_divide, T, porta_floor_divide(x, z))
#endif

#if IS_FLOAT
UNARY(op_exp, exp(x))
UNARY(op_log, log(x))
UNARY(op_sqrt, sqrt(x))
UNARY(op_sigmoid, (T)1 / ((T)1 + exp(-x)))
// Saturated where tanh rounds to +-1 in T: PoCL's float tanh stops at
// 0.99999994, even for +-inf (C99: exactly +-1).
UNARY(op_tanh, fabs(x) > (DT == 4 ? (T)9.1 : (T)19.1) ? copysign((T)1, x) : tanh(x))
UNARY(op_sin, sin(x))
UNARY(op_cos, cos(x))
UNARY(op_tan, tan(x))
UNARY(op_asin, asin(x))
UNARY(op_acos, acos(x))
UNARY(op_atan, atan(x))
UNARY(op_sinh, sinh(x))
UNARY(op_cosh, cosh(x))
UNARY(op_erf, erf(x))
UNARY(op_erfinv, porta_erfinv(x))
UNARY(op_log1p, log1p(x))
UNARY(op_expm1, expm1(x))
UNARY(op_log2, log2(x))
UNARY(op_log10, log10(x))
UNARY(op_exp2, exp2(x))
UNARY(op_asinh, asinh(x))
BINARY(op_div, T, x / z)
BINARY(op_pow, T, pow(x, z))
BINARY(op_atan2, T, atan2(x, z))
#endif

// Bitwise ops on the integers and bool (and, or, xor; bool's ~ is the core's), shifts as the host's.
#if !IS_FLOAT && !IS_STORAGE
BINARY(op_bitwise_and, T, x & z)
BINARY(op_bitwise_or, T, x | z)
BINARY(op_bitwise_xor, T, x ^ z)
#if DT != 0
#if DT == 1
typedef uchar U;
#define SIGNED 0
#elif DT == 2
typedef uint U;
#define SIGNED 1
#else
typedef ulong U;
#define SIGNED 1
#endif
inline T porta_lshift(T a, T b) {
  const T width = (T)(sizeof(T) * 8);
  if ((SIGNED && b < (T)0) || b >= width) return (T)0;
  return (T)((U)a << (U)b);
}
inline T porta_rshift(T a, T b) {
  const T widest = (T)(sizeof(T) * 8 - SIGNED);
  if ((SIGNED && b < (T)0) || b >= widest) return (T)(a >> widest);
  return (T)(a >> b);
}
UNARY(op_bitwise_not, (T)(~x))
BINARY(op_bitwise_left_shift, T, porta_lshift(x, z))
BINARY(op_bitwise_right_shift, T, porta_rshift(x, z))
#endif
#endif

BINARY(op_eq, uchar, x == z)
BINARY(op_ne, uchar, x != z)
BINARY(op_lt, uchar, x < z)
BINARY(op_le, uchar, x <= z)
BINARY(op_gt, uchar, x > z)
BINARY(op_ge, uchar, x >= z)

ELEMENTWISE_KERNEL(op_where, { y[y0 + o.x] = c[c0 + o.y] ? a[a0 + o.z] : b[b0 + o.w]; },
                   __global T* y, long y0, __global const uchar* c, long c0, __global const T* a, long a0,
                   __global const T* b, long b0)
