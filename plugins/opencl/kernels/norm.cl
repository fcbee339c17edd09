// NORM kind: layer normalization of contiguous [rows, n] rows, one work-item
// per row, with the host kernels' arithmetic: sums in real_t (double where
// the device has fp64), the row formulas in T.

__kernel void op_layer_norm(long rows, long n, real_t eps, __global const T* x, long x0, __global const T* w, long w0,
                            __global const T* b, long b0, __global T* y, long y0, __global T* stats, long s0) {
  const long r = get_global_id(0);
  if (r >= rows) return;
  __global const T* xr = x + x0 + r * n;
  real_t sum = 0;
  for (long j = 0; j < n; ++j) sum += (real_t)xr[j];
  const real_t mean = sum / (real_t)n;
  real_t squares = 0;
  for (long j = 0; j < n; ++j) {
    const real_t d = (real_t)xr[j] - mean;
    squares += d * d;
  }
  const T m = (T)mean, s = (T)((real_t)1 / sqrt(squares / (real_t)n + eps));
  __global T* yr = y + y0 + r * n;
  for (long j = 0; j < n; ++j) yr[j] = (xr[j] - m) * s * w[w0 + j] + b[b0 + j];
  stats[s0 + 2 * r] = m;
  stats[s0 + 2 * r + 1] = s;
}

// gx = rstd * (g - mean(g) - xhat * mean(g * xhat)), g = gy * w
__kernel void op_layer_norm_backward(long rows, long n, real_t unused, __global const T* gy, long g0,
                                     __global const T* x, long x0, __global const T* stats, long s0,
                                     __global const T* w, long w0, __global T* gx, long gx0) {
  const long r = get_global_id(0);
  if (r >= rows) return;
  __global const T* gr = gy + g0 + r * n;
  __global const T* xr = x + x0 + r * n;
  const T m = stats[s0 + 2 * r], s = stats[s0 + 2 * r + 1];
  real_t sum_g = 0, sum_gx = 0;
  for (long j = 0; j < n; ++j) {
    const T g = gr[j] * w[w0 + j];
    sum_g += (real_t)g;
    sum_gx += (real_t)g * (real_t)((xr[j] - m) * s);
  }
  const T a = (T)(sum_g / (real_t)n), c = (T)(sum_gx / (real_t)n);
  __global T* out = gx + gx0 + r * n;
  for (long j = 0; j < n; ++j) out[j] = s * (gr[j] * w[w0 + j] - a - (xr[j] - m) * s * c);
}

// Batch normalization of [N, C, S]: one work-item per channel.
#define CHANNEL_AT(k) (((k) / S * C + c) * S + (k) % S)

__kernel void op_batch_norm(long N, long C, long S, real_t eps, __global const T* x, long x0, __global const T* w,
                            long w0, __global const T* b, long b0, __global T* y, long y0, __global T* stats,
                            long s0) {
  const long c = get_global_id(0);
  if (c >= C) return;
  const long M = N * S;
  real_t sum = 0;
  for (long k = 0; k < M; ++k) sum += (real_t)x[x0 + CHANNEL_AT(k)];
  const real_t mean = sum / (real_t)M;
  real_t squares = 0;
  for (long k = 0; k < M; ++k) {
    const real_t d = (real_t)x[x0 + CHANNEL_AT(k)] - mean;
    squares += d * d;
  }
  const real_t var = squares / (real_t)M;
  const T m = (T)mean, r = (T)((real_t)1 / sqrt(var + eps)), wc = w[w0 + c], bc = b[b0 + c];
  for (long k = 0; k < M; ++k) y[y0 + CHANNEL_AT(k)] = (x[x0 + CHANNEL_AT(k)] - m) * r * wc + bc;
  stats[s0 + 3 * c] = m;
  stats[s0 + 3 * c + 1] = r;
  stats[s0 + 3 * c + 2] = (T)var;
}

// sums = (sum(gy), sum(gy * xhat)), gx = rstd * w * (gy - sums[0] / M - xhat * sums[1] / M)
__kernel void op_batch_norm_backward(long N, long C, long S, real_t unused, __global const T* gy, long g0,
                                     __global const T* x, long x0, __global const T* stats, long s0,
                                     __global const T* w, long w0, __global T* gx, long gx0, __global T* sums,
                                     long u0) {
  const long c = get_global_id(0);
  if (c >= C) return;
  const long M = N * S;
  const T m = stats[s0 + 3 * c], r = stats[s0 + 3 * c + 1];
  real_t sum_g = 0, sum_gx = 0;
  for (long k = 0; k < M; ++k) {
    const T g = gy[g0 + CHANNEL_AT(k)];
    sum_g += (real_t)g;
    sum_gx += (real_t)g * (real_t)((x[x0 + CHANNEL_AT(k)] - m) * r);
  }
  const T a = (T)(sum_g / (real_t)M), bm = (T)(sum_gx / (real_t)M), scale = r * w[w0 + c];
  for (long k = 0; k < M; ++k) {
    const long at = CHANNEL_AT(k);
    gx[gx0 + at] = scale * (gy[g0 + at] - a - (x[x0 + at] - m) * r * bm);
  }
  sums[u0 + 2 * c] = (T)sum_g;
  sums[u0 + 2 * c + 1] = (T)sum_gx;
}
