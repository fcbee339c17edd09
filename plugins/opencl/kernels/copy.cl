// COPY and CAST kinds: compiled per output dtype T; one kernel per input
// dtype, cast_from_<input dtype index>. COPY is the cast from T itself.
// Conversions follow the host: to bool is "nonzero", and a float to uint8
// wraps through int64.

#if DT == 0
#define CONVERT(x) ((uchar)((x) != 0))
#elif DT == 1
#define CONVERT(x) ((uchar)(long)(x))
#else
#define CONVERT(x) ((T)(x))
#endif

#define CAST_FROM(index, S)                                                                 \
  ELEMENTWISE_KERNEL(cast_from_##index, { y[y0 + o.x] = CONVERT(a[a0 + o.y]); }, __global T* y, long y0, \
                     __global const S* a, long a0)

CAST_FROM(0, uchar)
CAST_FROM(1, uchar)
CAST_FROM(2, int)
CAST_FROM(3, long)
CAST_FROM(4, float)
#ifdef PORTA_FP64
CAST_FROM(5, double)
#endif
