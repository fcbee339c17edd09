// CONV kind: IM2COL and its adjoint COL2IM for x [N, C, H, W] and
// cols [C*KH*KW, N*OH*OW] (see porta_op_kind). The geometry arrives as
// porta_conv2d_params' eight ints (window2d.cl). Each work-item handles a
// whole row of outputs, so its index arithmetic is paid once per row.

// Range (N*OH, C*KH*KW): work-item (n*OH + oh, row) fills the OW columns
// of cols row `row` that belong to image n, output row oh.
__kernel void op_im2col(long n, long c, long h, long w, long oh, long ow, window2d g, __global const T* x, long x0,
                        __global T* cols, long c0) {
  const long nh = get_global_id(0), row = get_global_id(1);
  if (nh >= n * oh || row >= c * g.kh * g.kw) return;
  const long ni = nh / oh, yo = nh - ni * oh;
  const int taps = g.kh * g.kw, tap = (int)(row % taps), i = tap / g.kw, j = tap - i * g.kw;
  const long ci = row / taps, hi = yo * g.sh - g.ph + i * g.dh;
  __global T* out = cols + c0 + row * (n * oh * ow) + ni * oh * ow + yo * ow;
  if (hi < 0 || hi >= h) {
    for (long xo = 0; xo < ow; ++xo) out[xo] = 0;
    return;
  }
  __global const T* in = x + x0 + ((ni * c + ci) * h + hi) * w;
  const long woff = j * g.dw - g.pw;
  for (long xo = 0; xo < ow; ++xo) {
    const long wi = xo * g.sw + woff;
    out[xo] = (wi >= 0 && wi < w) ? in[wi] : (T)0;
  }
}

// Range N*C*H: work-item (n, c, h) overwrites row h of plane (n, c) with the
// sum of the cols entries IM2COL read from it, taps in the host's order.
__kernel void op_col2im(long n, long c, long h, long w, long oh, long ow, window2d g, __global const T* cols, long c0,
                        __global T* x, long x0) {
  const long e = get_global_id(0);
  if (e >= n * c * h) return;
  const long hi = e % h, plane = e / h, ci = plane % c, ni = plane / c, ld = n * oh * ow;
  __global T* out = x + x0 + e * w;
  for (long p = 0; p < w; ++p) out[p] = 0;
  for (int i = 0; i < g.kh; ++i) {
    const long ty = hi + g.ph - i * g.dh;  // = yo * sh
    if (ty < 0 || ty % g.sh != 0 || ty / g.sh >= oh) continue;
    const long yo = ty / g.sh;
    for (int j = 0; j < g.kw; ++j) {
      __global const T* in = cols + c0 + ((ci * g.kh + i) * g.kw + j) * ld + ni * oh * ow + yo * ow;
      const long woff = j * g.dw - g.pw;
      const long2 rw = tap_range(woff, g.sw, w, ow);  // outputs whose tap lands inside the row
      for (long xo = rw.x; xo < rw.y; ++xo) out[xo * g.sw + woff] += in[xo];
    }
  }
}
