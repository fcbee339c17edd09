// 2-D window geometry shared by the convolution lowering and the pooling
// kernels: the output size, the parameter check, and which output positions
// put a given window tap inside the input (the rest read padding).
#pragma once

#include <dlpack/dlpack.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <initializer_list>

#include "host_kernels.hpp"

namespace porta::host {

struct Window2d {
  int64_t kh, kw, sh, sw, ph, pw, dh, dw;

  // Output length along one axis in floor mode; 0 when the window does not fit.
  static int64_t out_size(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d) {
    const int64_t span = in + 2 * p - d * (k - 1) - 1;
    return span < 0 ? 0 : span / s + 1;
  }
  int64_t out_h(int64_t h) const { return out_size(h, kh, sh, ph, dh); }
  int64_t out_w(int64_t w) const { return out_size(w, kw, sw, pw, dw); }
};

// porta_conv2d_params and porta_pool2d_params share these leading fields.
template <class P>
Window2d window_of(const P& p) {
  return {p.kernel_h, p.kernel_w, p.stride_h, p.stride_w, p.padding_h, p.padding_w, p.dilation_h, p.dilation_w};
}

// Reports INVALID_ARGUMENT, naming `op`, unless the geometry is legal.
inline porta_status check_window(const char* op, const Window2d& w) {
  if (w.kh >= 1 && w.kw >= 1 && w.sh >= 1 && w.sw >= 1 && w.dh >= 1 && w.dw >= 1 && w.ph >= 0 && w.pw >= 0)
    return PORTA_OK;
  char msg[256];
  std::snprintf(msg, sizeof msg,
                "%s: kernel (%lld, %lld), stride (%lld, %lld) and dilation (%lld, %lld) must be >= 1 and "
                "padding (%lld, %lld) >= 0",
                op, (long long)w.kh, (long long)w.kw, (long long)w.sh, (long long)w.sw, (long long)w.dh,
                (long long)w.dw, (long long)w.ph, (long long)w.pw);
  return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
}

// As check_window, and the geometry must map in_h x in_w to out_h x out_w.
inline porta_status check_window(const char* op, const Window2d& w, int64_t in_h, int64_t in_w, int64_t out_h,
                                 int64_t out_w) {
  if (const porta_status st = check_window(op, w); st != PORTA_OK) return st;
  if (w.out_h(in_h) == out_h && w.out_w(in_w) == out_w) return PORTA_OK;
  char msg[256];
  std::snprintf(msg, sizeof msg, "%s: a %lldx%lld input gives a %lldx%lld output with this geometry, not %lldx%lld",
                op, (long long)in_h, (long long)in_w, (long long)w.out_h(in_h), (long long)w.out_w(in_w),
                (long long)out_h, (long long)out_w);
  return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
}

// Reports INVALID_ARGUMENT unless every tensor in `ts` is 4-D.
inline porta_status check_4d(const char* op, std::initializer_list<const DLTensor*> ts) {
  for (const DLTensor* t : ts) {
    if (t->ndim != 4) {
      char msg[128];
      std::snprintf(msg, sizeof msg, "%s: expected 4-D [N, C, H, W] tensors, got %d-D", op, t->ndim);
      return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
    }
  }
  return PORTA_OK;
}

// The outputs o in [begin, end) (of `count`) whose tap o * stride + offset
// lies in [0, len); outside that range the tap reads padding.
struct TapRange {
  int64_t begin, end;
};
inline TapRange tap_range(int64_t offset, int64_t stride, int64_t len, int64_t count) {
  const int64_t first = offset >= 0 ? 0 : (stride - 1 - offset) / stride;
  const int64_t last = len - 1 - offset;  // o * stride <= last
  const int64_t begin = std::min(first, count);
  const int64_t end = last < 0 ? 0 : std::min(last / stride + 1, count);
  return {begin, std::max(begin, end)};
}

}  // namespace porta::host
