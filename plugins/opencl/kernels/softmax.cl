// SOFTMAX kind over contiguous [outer, dim, inner]: one work-item per row of
// `dim` elements `inner` apart, with the host kernels' arithmetic: exp in T,
// sums in double, the max subtracted first.

#define ROW_INDEX                                      \
  const long r = get_global_id(0);                     \
  if (r >= outer * inner) return;                      \
  const long at = (r / inner) * dim * inner + r % inner

__kernel void op_softmax(long outer, long dim, long inner, __global const T* x, long x0, __global T* y, long y0) {
  ROW_INDEX;
  __global const T* a = x + x0 + at;
  __global T* b = y + y0 + at;
  T mx = a[0];
  for (long k = 1; k < dim; ++k)
    if (!(a[k * inner] <= mx)) mx = a[k * inner];  // a NaN sticks
  real_t sum = 0;
  for (long k = 0; k < dim; ++k) {
    const T e = exp(a[k * inner] - mx);
    b[k * inner] = e;
    sum += (real_t)e;
  }
  const T inv = (T)((real_t)1 / sum);
  for (long k = 0; k < dim; ++k) b[k * inner] *= inv;
}

__kernel void op_log_softmax(long outer, long dim, long inner, __global const T* x, long x0, __global T* y, long y0) {
  ROW_INDEX;
  __global const T* a = x + x0 + at;
  __global T* b = y + y0 + at;
  T mx = a[0];
  for (long k = 1; k < dim; ++k)
    if (!(a[k * inner] <= mx)) mx = a[k * inner];
  real_t sum = 0;
  for (long k = 0; k < dim; ++k) sum += (real_t)exp(a[k * inner] - mx);
  const real_t shift = (real_t)mx + log(sum);
  for (long k = 0; k < dim; ++k) b[k * inner] = (T)((real_t)a[k * inner] - shift);
}

// gx = y * (gy - sum(gy * y))
__kernel void op_softmax_backward(long outer, long dim, long inner, __global const T* y, long y0,
                                  __global const T* gy, long gy0, __global T* gx, long gx0) {
  ROW_INDEX;
  __global const T* a = y + y0 + at;
  __global const T* g = gy + gy0 + at;
  __global T* out = gx + gx0 + at;
  real_t sum = 0;
  for (long k = 0; k < dim; ++k) sum += (real_t)g[k * inner] * (real_t)a[k * inner];
  const T s = (T)sum;
  for (long k = 0; k < dim; ++k) out[k * inner] = a[k * inner] * (g[k * inner] - s);
}

// gx = gy - exp(y) * sum(gy)
__kernel void op_log_softmax_backward(long outer, long dim, long inner, __global const T* y, long y0,
                                      __global const T* gy, long gy0, __global T* gx, long gx0) {
  ROW_INDEX;
  __global const T* a = y + y0 + at;
  __global const T* g = gy + gy0 + at;
  __global T* out = gx + gx0 + at;
  real_t sum = 0;
  for (long k = 0; k < dim; ++k) sum += (real_t)g[k * inner];
  const T s = (T)sum;
  for (long k = 0; k < dim; ++k) out[k * inner] = g[k * inner] - exp(a[k * inner]) * s;
}
