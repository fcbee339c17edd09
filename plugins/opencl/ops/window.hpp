// 2-D window geometry as the conv and pool kernels take it (window2d in
// kernels/window2d.cl), with the output size of porta_conv2d_params.
#pragma once

#include <string>

#include "cl_check.hpp"

namespace porta::opencl {

struct Window {
  cl_int kh, kw, sh, sw, ph, pw, dh, dw;

  // porta_conv2d_params and porta_pool2d_params share these leading fields.
  template <class P>
  static Window of(const P& p) {
    return {p.kernel_h, p.kernel_w, p.stride_h, p.stride_w, p.padding_h, p.padding_w, p.dilation_h, p.dilation_w};
  }
  bool valid() const { return kh >= 1 && kw >= 1 && sh >= 1 && sw >= 1 && dh >= 1 && dw >= 1 && ph >= 0 && pw >= 0; }
  int64_t out_h(int64_t h) const { return out_size(h, kh, sh, ph, dh); }
  int64_t out_w(int64_t w) const { return out_size(w, kw, sw, pw, dw); }
  static int64_t out_size(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d) {
    const int64_t span = in + 2 * p - d * (k - 1) - 1;
    return span < 0 ? 0 : span / s + 1;
  }
};

// INVALID_ARGUMENT naming `op` for an illegal geometry.
inline porta_status invalid_window(const char* op) {
  return report(PORTA_ERROR_INVALID_ARGUMENT,
                std::string(op) + ": kernel, stride and dilation must be >= 1 and padding >= 0");
}

}  // namespace porta::opencl
