// SCAN kind: inclusive op_cumsum and op_cumprod along the middle axis of
// contiguous [outer, n, inner] (int64, float32, float64), one work-item per
// (outer, inner) line walking it in order, forward or reversed. Floats
// accumulate in double where the device has it and round each result, as
// the host kernels do; int64 wraps (computed as ulong). op_cummax /
// op_cummin (every dtype): the running value and where it came from, by
// plugins/common/index_math.hpp's takes_over rule.

#if DT == 3 || IS_FLOAT
#if IS_FLOAT
typedef real_t scan_t;
#define SCAN_ADD(a, b) ((a) + (b))
#define SCAN_MUL(a, b) ((a) * (b))
#else
typedef long scan_t;
#define SCAN_ADD(a, b) ((long)((ulong)(a) + (ulong)(b)))
#define SCAN_MUL(a, b) ((long)((ulong)(a) * (ulong)(b)))
#endif

#define SCAN_KERNEL(name, START, STEP)                                                                  \
  __kernel void name(long lines, long n, long inner, int reverse, __global const T* x, long x0,         \
                     __global T* y, long y0) {                                                          \
    const long line = get_global_id(0);                                                                 \
    if (line >= lines) return;                                                                          \
    const long first = reverse ? (n - 1) * inner : 0, stride = reverse ? -inner : inner;                \
    const long base = line / inner * n * inner + line % inner + first;                                  \
    scan_t acc = (scan_t)(START);                                                                       \
    for (long j = 0; j < n; ++j) {                                                                      \
      const long at = base + j * stride;                                                                \
      acc = STEP(acc, (scan_t)x[x0 + at]);                                                              \
      y[y0 + at] = (T)acc;                                                                              \
    }                                                                                                   \
  }

SCAN_KERNEL(op_cumsum, 0, SCAN_ADD)
SCAN_KERNEL(op_cumprod, 1, SCAN_MUL)
#endif

#if IS_FLOAT
#define TAKES_OVER(best, x, CMP) (isnan(x) || (!isnan(best) && (x) CMP (best)))
#else
#define TAKES_OVER(best, x, CMP) ((x) CMP (best))
#endif

#define EXTREME_SCAN_KERNEL(name, CMP)                                                                  \
  __kernel void name(long lines, long n, long inner, __global const T* x, long x0, __global T* y, long y0, \
                     __global long* where, long w0) {                                                   \
    const long line = get_global_id(0);                                                                 \
    if (line >= lines) return;                                                                          \
    const long base = line / inner * n * inner + line % inner;                                          \
    T best = x[x0 + base];                                                                              \
    long from = 0;                                                                                      \
    for (long j = 0; j < n; ++j) {                                                                      \
      const long at = base + j * inner;                                                                 \
      const T v = x[x0 + at];                                                                           \
      if (j > 0 && TAKES_OVER(best, v, CMP)) {                                                          \
        best = v;                                                                                       \
        from = j;                                                                                       \
      }                                                                                                 \
      y[y0 + at] = best;                                                                                \
      where[w0 + at] = from;                                                                            \
    }                                                                                                   \
  }

EXTREME_SCAN_KERNEL(op_cummax, >=)
EXTREME_SCAN_KERNEL(op_cummin, <=)
