// COPY and CAST kinds: compiled per output dtype T; one kernel per input
// dtype, cast_from_<input dtype index>. COPY is the cast from T itself.
// Conversions follow ops.h (as the host's Convert): to bool is "nonzero";
// integers truncate; a float to int32/int64 saturates toward zero with NaN
// as 0 (OpenCL's _sat_rtz conversions define exactly that), and to uint8
// goes through int64.

#if DT == 0
#define CONVERT(x) ((uchar)((x) != 0))
#define CONVERT_FLOAT(x) CONVERT(x)
#elif DT == 1
#define CONVERT(x) ((uchar)(x))
#define CONVERT_FLOAT(x) ((uchar)convert_long_sat_rtz(x))
#elif DT == 2
#define CONVERT(x) ((T)(x))
#define CONVERT_FLOAT(x) convert_int_sat_rtz(x)
#elif DT == 3
#define CONVERT(x) ((T)(x))
#define CONVERT_FLOAT(x) convert_long_sat_rtz(x)
#else
#define CONVERT(x) ((T)(x))
#define CONVERT_FLOAT(x) ((T)(x))
#endif

#define CAST_FROM(index, S, CONV)                                                         \
  ELEMENTWISE_KERNEL(cast_from_##index, { y[y0 + o.x] = CONV(a[a0 + o.y]); }, __global T* y, long y0, \
                     __global const S* a, long a0)

CAST_FROM(0, uchar, CONVERT)
CAST_FROM(1, uchar, CONVERT)
CAST_FROM(2, int, CONVERT)
CAST_FROM(3, long, CONVERT)
CAST_FROM(4, float, CONVERT_FLOAT)
#ifdef PORTA_FP64
CAST_FROM(5, double, CONVERT_FLOAT)
#endif
