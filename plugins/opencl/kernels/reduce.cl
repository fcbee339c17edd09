// REDUCE and ARGREDUCE kinds over contiguous x [outer, reduce, inner] into
// y [outer, inner]. Two shapes of launch per op:
//   <op>_rows:  one work-item per output, looping over `reduce`;
//   <op>_group: one work-group per output (many elements, few outputs),
//               each item striding over `reduce`, then a tree in local memory.
// Floats sum in double (where the device has it) as on the host; max/min and
// the arg ops keep the first extreme, and a NaN is an extreme (the first one
// wins), so every combining order gives the host's answer.

// ---- sums: acc_t running total
#define SUM_INIT (acc_t)0
#define SUM_ADD(s, x) ((s) + (acc_t)(x))

// ---- extremes: (value, index) pairs; index -1 is "none yet"
// Does (x, xi) replace (best, bi)?
inline bool beats_max(T x, long xi, T best, long bi) {
  if (bi < 0) return true;
  if (xi < 0) return false;
  if (IS_NAN(best)) return IS_NAN(x) && xi < bi;
  if (IS_NAN(x) || x > best) return true;
  return x == best && xi < bi;
}
inline bool beats_min(T x, long xi, T best, long bi) {
  if (bi < 0) return true;
  if (xi < 0) return false;
  if (IS_NAN(best)) return IS_NAN(x) && xi < bi;
  if (IS_NAN(x) || x < best) return true;
  return x == best && xi < bi;
}

#define X_AT(o, k) x[x0 + ((o) / inner * red + (k)) * inner + (o) % inner]

// Sum-like ops: FINISH(total) gives the output value.
#define SUM_KERNELS(name, OUT, FINISH)                                                                    \
  __kernel void name##_rows(long outer, long red, long inner, __global const T* x, long x0,               \
                            __global OUT* y, long y0) {                                                   \
    const long o = get_global_id(0);                                                                      \
    if (o >= outer * inner) return;                                                                       \
    acc_t s = SUM_INIT;                                                                                   \
    for (long k = 0; k < red; ++k) s = SUM_ADD(s, X_AT(o, k));                                            \
    y[y0 + o] = FINISH(s);                                                                                \
  }                                                                                                       \
  __kernel void name##_group(long outer, long red, long inner, __global const T* x, long x0,              \
                             __global OUT* y, long y0, __local acc_t* part) {                             \
    const long o = get_group_id(0);                                                                       \
    const int lid = get_local_id(0), ls = get_local_size(0);                                              \
    acc_t s = SUM_INIT;                                                                                   \
    for (long k = lid; k < red; k += ls) s = SUM_ADD(s, X_AT(o, k));                                      \
    part[lid] = s;                                                                                        \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                         \
    for (int step = ls / 2; step > 0; step /= 2) {                                                        \
      if (lid < step) part[lid] += part[lid + step];                                                      \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                       \
    }                                                                                                     \
    if (lid == 0) y[y0 + o] = FINISH(part[0]);                                                            \
  }

// Extreme-like ops: BEATS picks the winner; RESULT(value, index) the output.
#define EXTREME_KERNELS(name, OUT, BEATS, RESULT)                                                         \
  __kernel void name##_rows(long outer, long red, long inner, __global const T* x, long x0,               \
                            __global OUT* y, long y0) {                                                   \
    const long o = get_global_id(0);                                                                      \
    if (o >= outer * inner) return;                                                                       \
    T best = X_AT(o, 0);                                                                                  \
    long bi = 0;                                                                                          \
    for (long k = 1; k < red; ++k) {                                                                      \
      const T v = X_AT(o, k);                                                                             \
      if (BEATS(v, k, best, bi)) best = v, bi = k;                                                        \
    }                                                                                                     \
    y[y0 + o] = RESULT(best, bi);                                                                         \
  }                                                                                                       \
  __kernel void name##_group(long outer, long red, long inner, __global const T* x, long x0,              \
                             __global OUT* y, long y0, __local T* pv, __local long* pi) {                 \
    const long o = get_group_id(0);                                                                       \
    const int lid = get_local_id(0), ls = get_local_size(0);                                              \
    T best = 0;                                                                                           \
    long bi = -1;                                                                                         \
    for (long k = lid; k < red; k += ls) {                                                                \
      const T v = X_AT(o, k);                                                                             \
      if (BEATS(v, k, best, bi)) best = v, bi = k;                                                        \
    }                                                                                                     \
    pv[lid] = best;                                                                                       \
    pi[lid] = bi;                                                                                         \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                         \
    for (int step = ls / 2; step > 0; step /= 2) {                                                        \
      if (lid < step && BEATS(pv[lid + step], pi[lid + step], pv[lid], pi[lid]))                          \
        pv[lid] = pv[lid + step], pi[lid] = pi[lid + step];                                               \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                       \
    }                                                                                                     \
    if (lid == 0) y[y0 + o] = RESULT(pv[0], pi[0]);                                                       \
  }

#define AS_T(s) ((T)(s))
#define MEAN_OF(s) ((T)((real_t)(s) / (real_t)red))
#define VALUE(v, i) (v)
#define INDEX(v, i) (i)

#if DT == 3 || IS_FLOAT
SUM_KERNELS(op_sum, T, AS_T)
#endif
#if IS_FLOAT
SUM_KERNELS(op_mean, T, MEAN_OF)
#endif
EXTREME_KERNELS(op_max, T, beats_max, VALUE)
EXTREME_KERNELS(op_min, T, beats_min, VALUE)
EXTREME_KERNELS(op_argmax, long, beats_max, INDEX)
EXTREME_KERNELS(op_argmin, long, beats_min, INDEX)
