// SORT kind: a bottom-up stable merge sort of every (outer, inner) line of
// contiguous [outer, n, inner], the cuda plugin's passes (sort_kernels.cu):
// op_sort_start copies the input and the positions into the start buffer,
// then each op_sort_merge pass merges runs of `width`, a work-item per
// element finding its place by binary search in the neighbouring run.
// The order is plugins/common/sort_order.hpp's: NaN after every number
// ascending and before it descending, ties in input order.

inline int sort_before(T a, T b, int descending) {
#if IS_FLOAT
  const int an = isnan(a), bn = isnan(b);
  if (an || bn) return descending ? (an && !bn) : (bn && !an);
#endif
  return descending ? b < a : a < b;
}

__kernel void op_sort_start(long total, long n, long inner, __global const T* x, long x0, __global T* v, long v0,
                            __global long* idx, long idx0) {
  const long e = get_global_id(0);
  if (e >= total) return;
  v[v0 + e] = x[x0 + e];
  idx[idx0 + e] = e / inner % n;
}

__kernel void op_sort_merge(long total, long n, long inner, long width, int descending, __global const T* v,
                            long v0, __global const long* idx, long idx0, __global T* vo, long vo0,
                            __global long* io, long io0) {
  const long e = get_global_id(0);
  if (e >= total) return;
  const long j = e / inner % n, line0 = e - j * inner;
  const T x = v[v0 + e];
  const long s = j / (2 * width) * (2 * width);
  const long mid = min(s + width, n), end = min(s + 2 * width, n);
  const int left = j < mid;
  long lo = left ? mid : s, hi = left ? end : mid;
  while (lo < hi) {
    const long m = lo + (hi - lo) / 2;
    const T y = v[v0 + line0 + m * inner];
    const int go_right = left ? sort_before(y, x, descending) : !sort_before(x, y, descending);
    if (go_right)
      lo = m + 1;
    else
      hi = m;
  }
  const long k = left ? j + (lo - mid) : s + (j - mid) + (lo - s);
  vo[vo0 + line0 + k * inner] = x;
  io[io0 + line0 + k * inner] = idx[idx0 + e];
}
