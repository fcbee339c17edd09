// COPY and CAST kinds: compiled per output dtype T; one kernel per input
// dtype, cast_from_<input dtype index>. COPY is the cast from T itself.
// Conversions follow ops.h (as the host's Convert): to bool is "nonzero";
// integers truncate (two's complement); a float to int32/int64 saturates
// toward zero with NaN as 0 (OpenCL's _sat_rtz conversions define exactly
// that), and to uint8, int8 and int16 goes through int64. The 16-bit floats
// (float16.cl) widen to float32 exactly and convert from there; everything
// narrows to them from float32 (float64 and int64 round to float32 first, as
// the host does).

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
#elif DT == 6
// Through the unsigned type, whose narrowing is defined to wrap, then its bits.
#define CONVERT(x) as_char((uchar)(x))
#define CONVERT_FLOAT(x) as_char((uchar)convert_long_sat_rtz(x))
#elif DT == 7
#define CONVERT(x) as_short((ushort)(x))
#define CONVERT_FLOAT(x) as_short((ushort)convert_long_sat_rtz(x))
#elif DT == 8
#define CONVERT(x) porta_float32_to_float16((float)(x))
#define CONVERT_FLOAT(x) CONVERT(x)
#elif DT == 9
#define CONVERT(x) porta_float32_to_bfloat16((float)(x))
#define CONVERT_FLOAT(x) CONVERT(x)
#else
#define CONVERT(x) ((T)(x))
#define CONVERT_FLOAT(x) ((T)(x))
#endif

// The 16-bit floats as float32 first; from its own dtype a copy of the bits.
#if DT == 8
#define CONVERT_FLOAT16(x) (x)
#else
#define CONVERT_FLOAT16(x) CONVERT_FLOAT(porta_float16_to_float32(x))
#endif
#if DT == 9
#define CONVERT_BFLOAT16(x) (x)
#else
#define CONVERT_BFLOAT16(x) CONVERT_FLOAT(porta_bfloat16_to_float32(x))
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
CAST_FROM(6, char, CONVERT)
CAST_FROM(7, short, CONVERT)
CAST_FROM(8, ushort, CONVERT_FLOAT16)
CAST_FROM(9, ushort, CONVERT_BFLOAT16)
