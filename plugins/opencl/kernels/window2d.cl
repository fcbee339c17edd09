// 2-D window geometry shared by conv.cl and pool.cl: the eight ints that
// begin porta_conv2d_params and porta_pool2d_params (after struct_size).

typedef struct {
  int kh, kw, sh, sw, ph, pw, dh, dw;
} window2d;

// The taps t in [0, count) with t * stride + offset in [0, len), as
// [.x, .y) (window2d.hpp's tap_range).
inline long2 tap_range(long offset, long stride, long len, long count) {
  const long first = offset >= 0 ? 0 : (stride - 1 - offset) / stride;
  const long last = len - 1 - offset;
  const long begin = min(first, count);
  const long end = last < 0 ? 0 : min(last / stride + 1, count);
  return (long2)(begin, max(begin, end));
}

// ceil(a / b) for b > 0 and any a.
inline long ceil_div(long a, long b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }
