// CONV kernels: IM2COL and its adjoint COL2IM around the GEMM of a
// convolution, x [N, C, H, W] <-> cols [C*KH*KW, N*OH*OW] (porta/ops.h).
// IM2COL: one thread per cols element (a gather). COL2IM: one thread per x
// element summing the cols entries that read it, taps in the cpu plugin's
// order (no atomics, same sums).
#include <climits>

#include "kernels.hpp"
#include "strided_index.cuh"
#include "window2d.hpp"

namespace porta::cuda {
namespace {

using host::Window2d;

// One call's geometry, passed to the kernels.
struct Conv {
  int32_t kh, kw, sh, sw, ph, pw, dh, dw;
  int64_t n, c, h, w, oh, ow;
};

porta_status conv_shape(const char* op, const porta_kernel_call* c, const DLTensor& x, const DLTensor& cols, Conv* s) {
  const auto* p = plugin::conv_params(c);
  if (!p) return reportf(PORTA_ERROR_INVALID_ARGUMENT, "%s: missing or too-small porta_conv2d_params", op);
  if (x.ndim != 4 || cols.ndim != 2)
    return reportf(PORTA_ERROR_INVALID_ARGUMENT,
                   "%s: expected x [N, C, H, W] and cols [C*KH*KW, N*OH*OW], got %d-D and %d-D", op, x.ndim, cols.ndim);
  const Window2d w = host::window_of(*p);
  if (w.kh < 1 || w.kw < 1 || w.sh < 1 || w.sw < 1 || w.dh < 1 || w.dw < 1 || w.ph < 0 || w.pw < 0)
    return reportf(PORTA_ERROR_INVALID_ARGUMENT, "%s: kernel, stride and dilation must be >= 1 and padding >= 0", op);
  *s = Conv{p->kernel_h,  p->kernel_w,   p->stride_h,         p->stride_w,        p->padding_h,
            p->padding_w, p->dilation_h, p->dilation_w,       x.shape[0],         x.shape[1],
            x.shape[2],   x.shape[3],    w.out_h(x.shape[2]), w.out_w(x.shape[3])};
  if (s->h > INT32_MAX / 4 || s->w > INT32_MAX / 4 || s->ph > INT32_MAX / 4 || s->pw > INT32_MAX / 4 ||
      int64_t{s->kh} * s->dh > INT32_MAX / 4 || int64_t{s->kw} * s->dw > INT32_MAX / 4)
    return reportf(PORTA_ERROR_INVALID_ARGUMENT, "%s: spatial sizes beyond 2^29 are not supported", op);
  if (cols.shape[0] != s->c * s->kh * s->kw || cols.shape[1] != s->n * s->oh * s->ow)
    return reportf(PORTA_ERROR_INVALID_ARGUMENT, "%s: cols must be [%lld, %lld], got [%lld, %lld]", op,
                   (long long)(s->c * s->kh * s->kw), (long long)(s->n * s->oh * s->ow), (long long)cols.shape[0],
                   (long long)cols.shape[1]);
  return PORTA_OK;
}

// Index is uint32_t when every index fits (cheaper division).
template <class Index, class T>
__global__ void __launch_bounds__(kThreads) im2col_kernel(const T* x, T* cols, Conv s, int64_t total) {
  const Index L = static_cast<Index>(s.oh * s.ow), NL = static_cast<Index>(s.n) * L;
  const Index taps = static_cast<Index>(s.kh * s.kw);
  for (int64_t e = thread_index(); e < total; e += thread_count()) {
    const Index row = static_cast<Index>(e) / NL, col = static_cast<Index>(e) % NL;
    const Index ch = row / taps, tap = row % taps;
    const Index n = col / L, l = col % L;
    const int64_t ih = int64_t(l / Index(s.ow)) * s.sh - s.ph + int64_t(tap / Index(s.kw)) * s.dh;
    const int64_t iw = int64_t(l % Index(s.ow)) * s.sw - s.pw + int64_t(tap % Index(s.kw)) * s.dw;
    cols[e] = (ih >= 0 && ih < s.h && iw >= 0 && iw < s.w) ? x[((int64_t(n) * s.c + ch) * s.h + ih) * s.w + iw] : T(0);
  }
}

template <class Index, class T>
__global__ void __launch_bounds__(kThreads) col2im_kernel(const T* cols, T* x, Conv s, int64_t total) {
  const int64_t L = s.oh * s.ow, NL = s.n * L;
  for (int64_t e = thread_index(); e < total; e += thread_count()) {
    const Index i = static_cast<Index>(e);
    const int64_t w = i % Index(s.w), h = (i / Index(s.w)) % Index(s.h);
    const int64_t ch = (i / Index(s.w * s.h)) % Index(s.c), n = i / Index(s.w * s.h * s.c);
    T sum = T(0);
    for (int32_t ki = 0; ki < s.kh; ++ki) {
      const int32_t th = int32_t(h) + s.ph - ki * s.dh;  // = oh * sh when this tap reads (h, .)
      const int32_t oh = s.sh == 1 ? th : th / s.sh;
      if (th < 0 || oh * s.sh != th || oh >= s.oh) continue;
      for (int32_t kj = 0; kj < s.kw; ++kj) {
        const int32_t tw = int32_t(w) + s.pw - kj * s.dw;  // = ow * sw
        const int32_t ow = s.sw == 1 ? tw : tw / s.sw;
        if (tw < 0 || ow * s.sw != tw || ow >= s.ow) continue;
        const int64_t row = (ch * s.kh + ki) * s.kw + kj;
        sum += cols[row * NL + n * L + int64_t(oh) * s.ow + ow];
      }
    }
    x[e] = sum;
  }
}

template <class T>
porta_status im2col(const porta_kernel_call* c) {
  Conv s;
  if (porta_status st = conv_shape("im2col", c, c->inputs[0], c->outputs[0], &s); st != PORTA_OK) return st;
  Launch l;
  if (porta_status st = begin(c, &l); st != PORTA_OK) return st;
  const int64_t total = numel(c->outputs[0]);
  const T* x = data_of<const T>(c->inputs[0]);
  T* cols = data_of<T>(c->outputs[0]);
  if (total <= int64_t{UINT32_MAX} && numel(c->inputs[0]) <= int64_t{UINT32_MAX})
    im2col_kernel<uint32_t><<<l.blocks(total), kThreads, 0, l.stream>>>(x, cols, s, total);
  else
    im2col_kernel<uint64_t><<<l.blocks(total), kThreads, 0, l.stream>>>(x, cols, s, total);
  return launched("im2col");
}

template <class T>
porta_status col2im(const porta_kernel_call* c) {
  Conv s;
  if (porta_status st = conv_shape("col2im", c, c->outputs[0], c->inputs[0], &s); st != PORTA_OK) return st;
  Launch l;
  if (porta_status st = begin(c, &l); st != PORTA_OK) return st;
  const int64_t total = numel(c->outputs[0]);
  const T* cols = data_of<const T>(c->inputs[0]);
  T* x = data_of<T>(c->outputs[0]);
  if (total <= int64_t{UINT32_MAX})
    col2im_kernel<uint32_t><<<l.blocks(total), kThreads, 0, l.stream>>>(cols, x, s, total);
  else
    col2im_kernel<uint64_t><<<l.blocks(total), kThreads, 0, l.stream>>>(cols, x, s, total);
  return launched("col2im");
}

template <class T>
porta_kernel_fn find_for(uint32_t op) {
  return lookup_kind<PORTA_OP_KIND_CONV>(op, []<uint32_t Op>(op_id<Op>) -> porta_kernel_fn {
    if constexpr (Op == PORTA_OP_IM2COL)
      return &im2col<T>;
    else if constexpr (Op == PORTA_OP_COL2IM)
      return &col2im<T>;
    else if constexpr (Op == PORTA_OP_CONV2D || Op == PORTA_OP_CONV2D_BACKWARD_INPUT ||
                       Op == PORTA_OP_CONV2D_BACKWARD_WEIGHT)
      return nullptr;  // the core lowers them to im2col + matmul
    else
      static_assert(no_kernel_for<Op>, "a CONV row without its kernel here");
  });
}

}  // namespace

porta_kernel_fn find_conv_kernel(uint32_t op, int dtype) {
  if (dtype == kDtFloat32) return find_for<float>(op);
  if (dtype == kDtFloat64) return find_for<double>(op);
  return nullptr;
}

}  // namespace porta::cuda
