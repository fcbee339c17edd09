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
#endif

#if IS_FLOAT
UNARY(op_exp, exp(x))
UNARY(op_log, log(x))
UNARY(op_sqrt, sqrt(x))
UNARY(op_sigmoid, (T)1 / ((T)1 + exp(-x)))
UNARY(op_tanh, tanh(x))
BINARY(op_div, T, x / z)
BINARY(op_pow, T, pow(x, z))
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
