// Prepended to every program. Each program is compiled once per dtype with
// -DDT=<porta host dtype index> (0 bool, 1 uint8, 2 int32, 3 int64,
// 4 float32, 5 float64; and for the conversion programs, copy and factory,
// the storage dtypes 6 int8, 7 int16, 8 float16, 9 bfloat16), and
// -DPORTA_FP64 where the device has cl_khr_fp64.
// No contraction into fma: results then round as on the host.
#pragma OPENCL FP_CONTRACT OFF
#ifdef PORTA_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real_t;  // what the host computes "in double"
#else
typedef float real_t;
#endif

#if DT == 0 || DT == 1
typedef uchar T;
#elif DT == 2
typedef int T;
#elif DT == 3
typedef long T;
#elif DT == 4
typedef float T;
#elif DT == 5
typedef double T;
#elif DT == 6
typedef char T;
#elif DT == 7
typedef short T;
#elif DT == 8 || DT == 9
typedef ushort T;  // float16, bfloat16: bit patterns, converted by float16.cl
#endif

#define IS_FLOAT (DT == 4 || DT == 5)
#define IS_STORAGE (DT >= 6)  // kept in memory only: FULL, COPY and CAST have kernels for them
#define IS_NUMERIC (DT != 0)
#if IS_FLOAT
#define IS_NAN(x) isnan(x)
typedef real_t acc_t;  // float sums accumulate in double, as on the host
#else
#define IS_NAN(x) 0
typedef long acc_t;
#endif

// Elementwise-shaped kernels (elementwise, copy and factory programs) come
// in two variants per op, from ELEMENTWISE_KERNEL:
//   <name>     mode LAYOUT_CONTIGUOUS: a 1-D range, element i at offset i in
//              every operand; mode LAYOUT_STRIDED: a 3-D range over the (up
//              to) three dimensions of the coalesced shape, innermost first;
//   <name>_nd  more than three dimensions: ids 0 and 1 walk the two
//              innermost, id 2 the row-major index over the others, whose
//              strides come from the layout.
// The first variant has no loop, so PoCL vectorizes it across work-items.
#define LAYOUT_CONTIGUOUS 0
#define LAYOUT_STRIDED 1
#define PORTA_MAX_DIMS 16
// Shapes and strides (elements) of up to 4 operands, operand 0 the output
// (kernel_launch.hpp fills it).
typedef struct {
  long shape[PORTA_MAX_DIMS];
  long stride[4][PORTA_MAX_DIMS];
} porta_layout;

// ext: the range's extents; s0, s1, s2: each operand's stride along range
// dimension 0, 1, 2 (operand k in component k: .x is the output).
#define ELEMENTWISE_PARAMS \
  long n, int mode, long4 ext, long4 s0, long4 s1, long4 s2, int ndim, porta_layout L

// Declares i, the work-item's row-major element index (work-items past the
// end return), and o, its element offsets in the operands (component k).
#define ELEMENTWISE_INDEX(ND)                                                    \
  long i;                                                                        \
  long4 o;                                                                       \
  if (mode == LAYOUT_CONTIGUOUS) {                                               \
    i = get_global_id(0);                                                        \
    if (i >= n) return;                                                          \
    o = (long4)(i);                                                              \
  } else {                                                                       \
    const long x_ = get_global_id(0), y_ = get_global_id(1);                     \
    long z_ = get_global_id(2);                                                  \
    if (x_ >= ext.x || y_ >= ext.y) return;                                      \
    i = (z_ * ext.y + y_) * ext.x + x_;                                          \
    o = x_ * s0 + y_ * s1;                                                       \
    if (!(ND)) {                                                                 \
      o += z_ * s2;                                                              \
    } else {                                                                     \
      for (int d_ = ndim - 3; d_ >= 0; --d_) {                                   \
        const long q_ = d_ > 0 ? z_ / L.shape[d_] : 0, idx_ = z_ - q_ * L.shape[d_]; \
        z_ = q_;                                                                 \
        o += idx_ * (long4)(L.stride[0][d_], L.stride[1][d_], L.stride[2][d_], L.stride[3][d_]); \
      }                                                                          \
    }                                                                            \
  }

// Both variants of an elementwise kernel: ELEMENTWISE_KERNEL(name, body,
// kernel parameters after the layout...); the body sees i and o.
#define ELEMENTWISE_KERNEL(name, BODY, ...)                              \
  __kernel void name(ELEMENTWISE_PARAMS, __VA_ARGS__) {                  \
    ELEMENTWISE_INDEX(0)                                                 \
    BODY                                                                 \
  }                                                                      \
  __kernel void name##_nd(ELEMENTWISE_PARAMS, __VA_ARGS__) {             \
    ELEMENTWISE_INDEX(1)                                                 \
    BODY                                                                 \
  }
