// FACTORY kind: fill, arange and the Philox samplers (philox.h, shared with
// the host kernels, is compiled into this program). The output may have any
// strides: work-item i writes row-major element i.

// The value comes in T, converted by the plugin (for the 16-bit floats, its
// bits from porta/float16.h): fill is the one kernel of the storage dtypes.
ELEMENTWISE_KERNEL(op_full, { y[y0 + o.x] = value; }, __global T* y, long y0, T value)

#if DT != 0 && !IS_STORAGE
// Integers go through int64, so uint8 wraps as on the host instead of saturating.
#if IS_FLOAT
#define FROM_REAL(v) ((T)(v))
#else
#define FROM_REAL(v) ((T)(long)(v))
#endif
ELEMENTWISE_KERNEL(op_arange, { y[y0 + o.x] = FROM_REAL(start + (real_t)i * step); }, __global T* y, long y0,
                   real_t start, real_t step)
#endif

#if DT == 4
// a + u * (b - a) in float, with a and (b - a) rounded to float by the plugin.
ELEMENTWISE_KERNEL(op_rand_uniform, { y[y0 + o.x] = a + porta_uniform_f32(seed, offset + (ulong)i) * width; },
                   __global T* y, long y0, ulong seed, ulong offset, float a, float width)
#elif DT == 5
ELEMENTWISE_KERNEL(op_rand_uniform, { y[y0 + o.x] = a + porta_uniform_f64(seed, offset + (ulong)i) * width; },
                   __global T* y, long y0, ulong seed, ulong offset, double a, double width)
#endif

#if DT == 4  // float64 normals are made on the host (factory_ops.cpp)
ELEMENTWISE_KERNEL(op_rand_normal, { y[y0 + o.x] = (T)(mean + std * porta_normal(seed, offset + (ulong)i)); },
                   __global T* y, long y0, ulong seed, ulong offset, real_t mean, real_t std)
#endif
