// POOL kernels: max and average 2-D pooling and their gradients. Forward:
// one thread per output, window taps in the cpu plugin's order. Backward:
// one thread per input element gathering the outputs whose windows hold it,
// in increasing output order (the cpu plugin's order of accumulation), so
// no atomics and the same sums.
#include <climits>
#include <cmath>

#include "kernels.hpp"
#include "strided_index.cuh"
#include "window2d.hpp"

namespace porta::cuda {
namespace {

// One call's geometry: `planes` = N*C planes of h x w in, oh x ow out.
struct Pool {
  int32_t kh, kw, sh, sw, ph, pw, dh, dw;
  int32_t h, w, oh, ow;
  int64_t planes;
  bool include_pad;
  __host__ __device__ bool is_2x2_stride_2() const {
    return kh == 2 && kw == 2 && sh == 2 && sw == 2 && ph == 0 && pw == 0 && dh == 1 && dw == 1;
  }
};

// `big` is the input-sized tensor [N, C, H, W], `small` the pooled one.
porta_status pool_shape(const char* op, const porta_kernel_call* c, const DLTensor& big, const DLTensor& small,
                        Pool* s) {
  const auto* p = op_params<porta_pool2d_params>(c);
  if (!p) return reportf(PORTA_ERROR_INVALID_ARGUMENT, "%s: missing or too-small porta_pool2d_params", op);
  if (big.ndim != 4 || small.ndim != 4)
    return reportf(PORTA_ERROR_INVALID_ARGUMENT, "%s: expected 4-D [N, C, H, W] tensors, got %d-D and %d-D", op,
                   big.ndim, small.ndim);
  if (big.shape[0] != small.shape[0] || big.shape[1] != small.shape[1])
    return reportf(PORTA_ERROR_INVALID_ARGUMENT, "%s: N, C differ between [%lld, %lld, ...] and [%lld, %lld, ...]", op,
                   (long long)big.shape[0], (long long)big.shape[1], (long long)small.shape[0],
                   (long long)small.shape[1]);
  const host::Window2d w = host::window_of(*p);
  if (w.kh < 1 || w.kw < 1 || w.sh < 1 || w.sw < 1 || w.dh < 1 || w.dw < 1 || w.ph < 0 || w.pw < 0)
    return reportf(PORTA_ERROR_INVALID_ARGUMENT, "%s: kernel, stride and dilation must be >= 1 and padding >= 0", op);
  if (w.out_h(big.shape[2]) != small.shape[2] || w.out_w(big.shape[3]) != small.shape[3])
    return reportf(PORTA_ERROR_INVALID_ARGUMENT, "%s: a %lldx%lld input gives a %lldx%lld output, not %lldx%lld", op,
                   (long long)big.shape[2], (long long)big.shape[3], (long long)w.out_h(big.shape[2]),
                   (long long)w.out_w(big.shape[3]), (long long)small.shape[2], (long long)small.shape[3]);
  if (big.shape[2] > INT32_MAX / 4 || big.shape[3] > INT32_MAX / 4 || w.ph > INT32_MAX / 4 || w.pw > INT32_MAX / 4 ||
      w.kh * w.dh > INT32_MAX / 4 || w.kw * w.dw > INT32_MAX / 4)
    return reportf(PORTA_ERROR_INVALID_ARGUMENT, "%s: spatial sizes beyond 2^29 are not supported", op);
  *s = Pool{p->kernel_h,
            p->kernel_w,
            p->stride_h,
            p->stride_w,
            p->padding_h,
            p->padding_w,
            p->dilation_h,
            p->dilation_w,
            int32_t(big.shape[2]),
            int32_t(big.shape[3]),
            int32_t(small.shape[2]),
            int32_t(small.shape[3]),
            big.shape[0] * big.shape[1],
            p->count_include_pad != 0};
  return PORTA_OK;
}

// "v is a new maximum": larger, or any NaN, as PyTorch's kernels (NaN propagates, the last NaN of a
// window is its index; ties keep the first).
template <class T>
__device__ bool beats(T v, T best) {
  return v > best || v != v;
}

// The output (oh or ow) whose window puts tap k on input position `at`, or -1.
__device__ inline int32_t window_of_tap(int32_t at, int32_t k, int32_t pad, int32_t stride, int32_t dilation,
                                        int32_t outputs) {
  const int32_t t = at + pad - k * dilation;  // = o * stride
  const int32_t o = stride == 1 ? t : t / stride;
  return (t < 0 || o * stride != t || o >= outputs) ? -1 : o;
}

// In-bounds taps of the window starting at `start` (kernel k, dilation d, input length n).
__device__ inline int32_t taps_inside(int32_t start, int32_t k, int32_t d, int32_t n) {
  int32_t count = 0;
  for (int32_t i = 0; i < k; ++i) count += (start + i * d >= 0 && start + i * d < n);
  return count;
}

template <class T>
__global__ void __launch_bounds__(kThreads) max_pool_kernel(const T* x, T* y, int64_t* idx, Pool s, int64_t total) {
  for (int64_t e = thread_index(); e < total; e += thread_count()) {
    const int64_t plane = e / (int64_t(s.oh) * s.ow);
    // The index within a plane is 64-bit: oh * ow passes 2^31 for planes over 46341 x 46341.
    const int64_t o = e % (int64_t(s.oh) * s.ow);
    const int32_t oh = int32_t(o / s.ow), ow = int32_t(o % s.ow);
    const T* in = x + plane * s.h * s.w;
    const int32_t hoff = oh * s.sh - s.ph, woff = ow * s.sw - s.pw;
    T best = -INFINITY;
    int64_t at = -1;  // stays -1 only for a window entirely in the padding
    for (int32_t i = 0; i < s.kh; ++i) {
      const int32_t ih = hoff + i * s.dh;
      if (ih < 0 || ih >= s.h) continue;
      for (int32_t j = 0; j < s.kw; ++j) {
        const int32_t iw = woff + j * s.dw;
        if (iw < 0 || iw >= s.w) continue;
        const int64_t pos = int64_t(ih) * s.w + iw;
        if (at < 0 || beats(in[pos], best)) best = in[pos], at = pos;
      }
    }
    y[e] = best;
    idx[e] = at;
  }
}

template <class T>
__global__ void __launch_bounds__(kThreads)
    max_pool_backward_kernel(const T* gy, const int64_t* idx, T* gx, Pool s, int64_t total) {
  const int64_t in_plane = int64_t(s.h) * s.w, out_plane = int64_t(s.oh) * s.ow;
  for (int64_t e = thread_index(); e < total; e += thread_count()) {
    const int64_t plane = e / in_plane, pos = e % in_plane;
    const int32_t ih = int32_t(pos / s.w), iw = int32_t(pos % s.w);
    const T* g = gy + plane * out_plane;
    const int64_t* at = idx + plane * out_plane;
    T sum = T(0);
    for (int32_t i = s.kh - 1; i >= 0; --i) {  // increasing oh
      const int32_t oh = window_of_tap(ih, i, s.ph, s.sh, s.dh, s.oh);
      if (oh < 0) continue;
      for (int32_t j = s.kw - 1; j >= 0; --j) {  // increasing ow
        const int32_t ow = window_of_tap(iw, j, s.pw, s.sw, s.dw, s.ow);
        if (ow < 0) continue;
        const int64_t o = int64_t(oh) * s.ow + ow;
        if (at[o] == pos) sum += g[o];
      }
    }
    gx[e] = sum;
  }
}

// Without geometry the indices alone place the gradients (scatter; atomics).
template <class T>
__global__ void __launch_bounds__(kThreads)
    max_pool_backward_scatter_kernel(const T* gy, const int64_t* idx, T* gx, int64_t in_plane, int64_t out_plane,
                                     int64_t total) {
  for (int64_t e = thread_index(); e < total; e += thread_count()) {
    const int64_t at = idx[e];
    if (at >= 0 && at < in_plane) atomicAdd(gx + (e / out_plane) * in_plane + at, gy[e]);
  }
}

template <class T>
__global__ void __launch_bounds__(kThreads) avg_pool_kernel(const T* x, T* y, Pool s, int64_t total) {
  for (int64_t e = thread_index(); e < total; e += thread_count()) {
    const int64_t plane = e / (int64_t(s.oh) * s.ow);
    // The index within a plane is 64-bit: oh * ow passes 2^31 for planes over 46341 x 46341.
    const int64_t o = e % (int64_t(s.oh) * s.ow);
    const int32_t oh = int32_t(o / s.ow), ow = int32_t(o % s.ow);
    const T* in = x + plane * s.h * s.w;
    if (s.is_2x2_stride_2()) {
      const T *r0 = in + int64_t(2 * oh) * s.w + 2 * ow, *r1 = r0 + s.w;
      y[e] = ((r0[0] + r0[1]) + (r1[0] + r1[1])) * T(0.25);
      continue;
    }
    const int32_t hoff = oh * s.sh - s.ph, woff = ow * s.sw - s.pw;
    double sum = 0;
    for (int32_t i = 0; i < s.kh; ++i) {
      const int32_t ih = hoff + i * s.dh;
      if (ih < 0 || ih >= s.h) continue;
      for (int32_t j = 0; j < s.kw; ++j) {
        const int32_t iw = woff + j * s.dw;
        if (iw >= 0 && iw < s.w) sum += static_cast<double>(in[int64_t(ih) * s.w + iw]);
      }
    }
    const int32_t divisor =
        s.include_pad ? s.kh * s.kw : taps_inside(hoff, s.kh, s.dh, s.h) * taps_inside(woff, s.kw, s.dw, s.w);
    y[e] = static_cast<T>(sum / static_cast<double>(divisor));
  }
}

template <class T>
__global__ void __launch_bounds__(kThreads) avg_pool_backward_kernel(const T* gy, T* gx, Pool s, int64_t total) {
  const int64_t in_plane = int64_t(s.h) * s.w, out_plane = int64_t(s.oh) * s.ow;
  for (int64_t e = thread_index(); e < total; e += thread_count()) {
    const int64_t plane = e / in_plane, pos = e % in_plane;
    const int32_t ih = int32_t(pos / s.w), iw = int32_t(pos % s.w);
    const T* g = gy + plane * out_plane;
    if (s.is_2x2_stride_2()) {
      gx[e] = (ih < 2 * s.oh && iw < 2 * s.ow) ? g[int64_t(ih / 2) * s.ow + iw / 2] * T(0.25) : T(0);
      continue;
    }
    T sum = T(0);
    for (int32_t i = s.kh - 1; i >= 0; --i) {  // increasing oh
      const int32_t oh = window_of_tap(ih, i, s.ph, s.sh, s.dh, s.oh);
      if (oh < 0) continue;
      const int32_t rows = taps_inside(oh * s.sh - s.ph, s.kh, s.dh, s.h);
      for (int32_t j = s.kw - 1; j >= 0; --j) {  // increasing ow
        const int32_t ow = window_of_tap(iw, j, s.pw, s.sw, s.dw, s.ow);
        if (ow < 0) continue;
        const int32_t divisor = s.include_pad ? s.kh * s.kw : rows * taps_inside(ow * s.sw - s.pw, s.kw, s.dw, s.w);
        sum += g[int64_t(oh) * s.ow + ow] / static_cast<T>(divisor);
      }
    }
    gx[e] = sum;
  }
}

template <class T>
porta_status max_pool(const porta_kernel_call* c) {
  if (c->num_outputs < 2)
    return report(PORTA_ERROR_INVALID_ARGUMENT, "max_pool2d: needs two outputs, values and int64 indices");
  Pool s;
  if (porta_status st = pool_shape("max_pool2d", c, c->inputs[0], c->outputs[0], &s); st != PORTA_OK) return st;
  Launch l;
  if (porta_status st = begin(c, &l); st != PORTA_OK) return st;
  const int64_t total = numel(c->outputs[0]);
  max_pool_kernel<<<l.blocks(total), kThreads, 0, l.stream>>>(data_of<const T>(c->inputs[0]), data_of<T>(c->outputs[0]),
                                                              data_of<int64_t>(c->outputs[1]), s, total);
  return launched("max_pool2d");
}

template <class T>
porta_status max_pool_backward(const porta_kernel_call* c) {
  const DLTensor &gy = c->inputs[0], &idx = c->inputs[1], &gx = c->outputs[0];
  Launch l;
  if (porta_status st = begin(c, &l); st != PORTA_OK) return st;
  const int64_t total = numel(gx);
  if (op_params<porta_pool2d_params>(c) == nullptr) {  // the indices suffice: scatter them
    if (gx.ndim != 4 || gy.ndim != 4 || idx.ndim != 4)
      return report(PORTA_ERROR_INVALID_ARGUMENT, "max_pool2d_backward: expected 4-D [N, C, H, W] tensors");
    if (porta_status st = check(cudaMemsetAsync(data_of<T>(gx), 0, sizeof(T) * size_t(total), l.stream),
                                "max_pool2d_backward: cudaMemsetAsync");
        st != PORTA_OK)
      return st;
    const int64_t outputs = numel(gy);
    max_pool_backward_scatter_kernel<<<l.blocks(outputs), kThreads, 0, l.stream>>>(
        data_of<const T>(gy), data_of<const int64_t>(idx), data_of<T>(gx), gx.shape[2] * gx.shape[3],
        gy.shape[2] * gy.shape[3], outputs);
    return launched("max_pool2d_backward");
  }
  Pool s;
  if (porta_status st = pool_shape("max_pool2d_backward", c, gx, gy, &s); st != PORTA_OK) return st;
  max_pool_backward_kernel<<<l.blocks(total), kThreads, 0, l.stream>>>(
      data_of<const T>(gy), data_of<const int64_t>(idx), data_of<T>(gx), s, total);
  return launched("max_pool2d_backward");
}

template <class T>
porta_status avg_pool(const porta_kernel_call* c) {
  Pool s;
  if (porta_status st = pool_shape("avg_pool2d", c, c->inputs[0], c->outputs[0], &s); st != PORTA_OK) return st;
  Launch l;
  if (porta_status st = begin(c, &l); st != PORTA_OK) return st;
  const int64_t total = numel(c->outputs[0]);
  avg_pool_kernel<<<l.blocks(total), kThreads, 0, l.stream>>>(data_of<const T>(c->inputs[0]), data_of<T>(c->outputs[0]),
                                                              s, total);
  return launched("avg_pool2d");
}

template <class T>
porta_status avg_pool_backward(const porta_kernel_call* c) {
  Pool s;
  if (porta_status st = pool_shape("avg_pool2d_backward", c, c->outputs[0], c->inputs[0], &s); st != PORTA_OK)
    return st;
  Launch l;
  if (porta_status st = begin(c, &l); st != PORTA_OK) return st;
  const int64_t total = numel(c->outputs[0]);
  avg_pool_backward_kernel<<<l.blocks(total), kThreads, 0, l.stream>>>(data_of<const T>(c->inputs[0]),
                                                                       data_of<T>(c->outputs[0]), s, total);
  return launched("avg_pool2d_backward");
}

template <class T>
porta_kernel_fn find_for(uint32_t op) {
  return lookup_kind<PORTA_OP_KIND_POOL>(op, []<uint32_t Op>(op_id<Op>) -> porta_kernel_fn {
    if constexpr (Op == PORTA_OP_MAX_POOL2D)
      return &max_pool<T>;
    else if constexpr (Op == PORTA_OP_MAX_POOL2D_BACKWARD)
      return &max_pool_backward<T>;
    else if constexpr (Op == PORTA_OP_AVG_POOL2D)
      return &avg_pool<T>;
    else if constexpr (Op == PORTA_OP_AVG_POOL2D_BACKWARD)
      return &avg_pool_backward<T>;
    else
      static_assert(no_kernel_for<Op>, "a POOL row without its kernel here");
  });
}

}  // namespace

porta_kernel_fn find_pool_kernel(uint32_t op, int dtype) {
  if (dtype == kDtFloat32) return find_for<float>(op);
  if (dtype == kDtFloat64) return find_for<double>(op);
  return nullptr;
}

}  // namespace porta::cuda
