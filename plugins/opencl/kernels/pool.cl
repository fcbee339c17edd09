// POOL kind over planes = N*C: max and average 2-D pooling and their
// gradients, summing in the host kernels' order so results match them.
// Geometry: porta_pool2d_params' first eight ints (window2d.cl).

// "v is a new maximum": larger, or any NaN (the last NaN of a window wins, as PyTorch).
inline bool beats(T v, T best) { return v > best || isnan(v); }

// Range (OW, OH, planes): one work-item per output.
#define OUTPUT_INDEX                                                   \
  const long xo = get_global_id(0), yo = get_global_id(1), pl = get_global_id(2); \
  if (xo >= ow || yo >= oh) return;                                    \
  const long e = (pl * oh + yo) * ow + xo

// Values and int64 indices (ih * W + iw).
__kernel void op_max_pool2d(long planes, long h, long w, long oh, long ow, window2d g, __global const T* x, long x0,
                            __global T* y, long y0, __global long* idx, long i0) {
  OUTPUT_INDEX;
  const long hoff = yo * g.sh - g.ph, woff = xo * g.sw - g.pw;
  const long2 ri = tap_range(hoff, g.dh, h, g.kh), rj = tap_range(woff, g.dw, w, g.kw);
  __global const T* plane = x + x0 + pl * h * w;
  T best = (T)(-INFINITY);
  long at = -1;
  for (long i = ri.x; i < ri.y; ++i)
    for (long j = rj.x; j < rj.y; ++j) {
      const long pos = (hoff + i * g.dh) * w + woff + j * g.dw;
      if (at < 0 || beats(plane[pos], best)) best = plane[pos], at = pos;
    }
  y[y0 + e] = best;
  idx[i0 + e] = at;
}

// One work-item per plane: zeros, then grad_out summed into the indexed
// positions in output order.
__kernel void op_max_pool2d_backward(long planes, long in_plane, long out_plane, __global const T* gy, long gy0,
                                     __global const long* idx, long i0, __global T* gx, long gx0) {
  const long pl = get_global_id(0);
  if (pl >= planes) return;
  __global T* g = gx + gx0 + pl * in_plane;
  __global const T* go = gy + gy0 + pl * out_plane;
  __global const long* at = idx + i0 + pl * out_plane;
  for (long p = 0; p < in_plane; ++p) g[p] = 0;
  for (long o = 0; o < out_plane; ++o)
    if (at[o] >= 0 && at[o] < in_plane) g[at[o]] += go[o];
}

inline bool is_2x2_stride_2(window2d g) {
  return g.kh == 2 && g.kw == 2 && g.sh == 2 && g.sw == 2 && g.ph == 0 && g.pw == 0 && g.dh == 1 && g.dw == 1;
}

inline long avg_divisor(int include_pad, window2d g, long2 ri, long2 rj) {
  return include_pad ? (long)g.kh * g.kw : (ri.y - ri.x) * (rj.y - rj.x);
}

// The window mean.
__kernel void op_avg_pool2d(long planes, long h, long w, long oh, long ow, window2d g, int include_pad,
                            __global const T* x, long x0, __global T* y, long y0) {
  OUTPUT_INDEX;
  __global const T* plane = x + x0 + pl * h * w;
  if (is_2x2_stride_2(g)) {
    __global const T* r0 = plane + 2 * yo * w;
    __global const T* r1 = r0 + w;
    y[y0 + e] = ((r0[2 * xo] + r0[2 * xo + 1]) + (r1[2 * xo] + r1[2 * xo + 1])) * (T)0.25;
    return;
  }
  const long hoff = yo * g.sh - g.ph, woff = xo * g.sw - g.pw;
  const long2 ri = tap_range(hoff, g.dh, h, g.kh), rj = tap_range(woff, g.dw, w, g.kw);
  real_t sum = 0;
  for (long i = ri.x; i < ri.y; ++i)
    for (long j = rj.x; j < rj.y; ++j) sum += (real_t)plane[(hoff + i * g.dh) * w + woff + j * g.dw];
  y[y0 + e] = (T)(sum / (real_t)avg_divisor(include_pad, g, ri, rj));
}

// Range (W, H, planes): one work-item per input element, the share of every
// window holding it, in output order.
__kernel void op_avg_pool2d_backward(long planes, long h, long w, long oh, long ow, window2d g, int include_pad,
                                     __global const T* gy, long gy0, __global T* gx, long gx0) {
  const long wi = get_global_id(0), hi = get_global_id(1), pl = get_global_id(2);
  if (wi >= w || hi >= h) return;
  const long e = (pl * h + hi) * w + wi;
  __global const T* go = gy + gy0 + pl * oh * ow;
  const long y_lo = max(0L, ceil_div(hi + g.ph - (long)(g.kh - 1) * g.dh, g.sh)), y_hi = min(oh - 1, (hi + g.ph) / g.sh);
  const long x_lo = max(0L, ceil_div(wi + g.pw - (long)(g.kw - 1) * g.dw, g.sw)), x_hi = min(ow - 1, (wi + g.pw) / g.sw);
  T sum = 0;
  for (long yo = y_lo; yo <= y_hi; ++yo) {
    if ((hi + g.ph - yo * g.sh) % g.dh != 0) continue;
    const long2 ri = tap_range(yo * g.sh - g.ph, g.dh, h, g.kh);
    for (long xo = x_lo; xo <= x_hi; ++xo) {
      if ((wi + g.pw - xo * g.sw) % g.dw != 0) continue;
      const long2 rj = tap_range(xo * g.sw - g.pw, g.dw, w, g.kw);
      sum += go[yo * ow + xo] / (T)avg_divisor(include_pad, g, ri, rj);
    }
  }
  gx[gx0 + e] = sum;
}
