// Host kernels of the CONV kind: IM2COL and its adjoint COL2IM, the data
// movement around the GEMM of a convolution. Both walk the cols rows with
// the output column (ow) innermost, so stride-1 rows are plain copies.
#include <cstring>

#include "host_kernels.hpp"
#include "strided_loop.hpp"
#include "window2d.hpp"

namespace porta::host {
namespace {

// The shapes of one call: x [N, C, H, W] and cols [C*KH*KW, N*OH*OW].
struct ConvShape {
  Window2d w;
  int64_t n, c, h, wd, oh, ow;
};

porta_status conv_shape(const char* op, const porta_kernel_call* c, const DLTensor& x, const DLTensor& cols,
                        ConvShape* s) {
  const auto* p = plugin::conv_params(c);
  if (!p) {
    char msg[96];
    std::snprintf(msg, sizeof msg, "%s: missing or too-small porta_conv2d_params", op);
    return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
  }
  if (x.ndim != 4 || cols.ndim != 2) {
    char msg[128];
    std::snprintf(msg, sizeof msg, "%s: expected x [N, C, H, W] and cols [C*KH*KW, N*OH*OW], got %d-D and %d-D", op,
                  x.ndim, cols.ndim);
    return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
  }
  s->w = window_of(*p);
  if (const porta_status st = check_window(op, s->w); st != PORTA_OK) return st;
  s->n = x.shape[0], s->c = x.shape[1], s->h = x.shape[2], s->wd = x.shape[3];
  s->oh = s->w.out_h(s->h), s->ow = s->w.out_w(s->wd);
  if (cols.shape[0] != s->c * s->w.kh * s->w.kw || cols.shape[1] != s->n * s->oh * s->ow) {
    char msg[256];
    std::snprintf(msg, sizeof msg, "%s: cols must be [%lld, %lld] for x [%lld, %lld, %lld, %lld], got [%lld, %lld]",
                  op, (long long)(s->c * s->w.kh * s->w.kw), (long long)(s->n * s->oh * s->ow), (long long)s->n,
                  (long long)s->c, (long long)s->h, (long long)s->wd, (long long)cols.shape[0],
                  (long long)cols.shape[1]);
    return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
  }
  return PORTA_OK;
}

// Fills one cols row (tap i, j of one input plane): OH*OW values.
template <class T>
void im2col_row(const ConvShape& s, const T* plane, T* row, int64_t i, int64_t j) {
  const Window2d& w = s.w;
  const int64_t hoff = i * w.dh - w.ph, woff = j * w.dw - w.pw;
  const TapRange rh = tap_range(hoff, w.sh, s.h, s.oh), rw = tap_range(woff, w.sw, s.wd, s.ow);
  if (rh.begin == rh.end || rw.begin == rw.end) {  // the tap only ever reads padding
    std::memset(row, 0, sizeof(T) * static_cast<size_t>(s.oh * s.ow));
    return;
  }
  std::memset(row, 0, sizeof(T) * static_cast<size_t>(rh.begin * s.ow));
  std::memset(row + rh.end * s.ow, 0, sizeof(T) * static_cast<size_t>((s.oh - rh.end) * s.ow));
  if (w.sh == 1 && w.sw == 1 && woff == 0 && s.ow == s.wd) {  // the rows are contiguous in x too
    std::memcpy(row + rh.begin * s.ow, plane + (rh.begin + hoff) * s.wd,
                sizeof(T) * static_cast<size_t>((rh.end - rh.begin) * s.ow));
    return;
  }
  for (int64_t oh = rh.begin; oh < rh.end; ++oh) {
    T* out = row + oh * s.ow;
    const T* in = plane + (oh * w.sh + hoff) * s.wd;
    std::memset(out, 0, sizeof(T) * static_cast<size_t>(rw.begin));
    std::memset(out + rw.end, 0, sizeof(T) * static_cast<size_t>(s.ow - rw.end));
    if (w.sw == 1) {
      std::memcpy(out + rw.begin, in + rw.begin + woff, sizeof(T) * static_cast<size_t>(rw.end - rw.begin));
    } else {
      for (int64_t o = rw.begin; o < rw.end; ++o) out[o] = in[o * w.sw + woff];
    }
  }
}

// Adds one cols row back into the plane it was read from.
template <class T>
void col2im_row(const ConvShape& s, const T* row, T* plane, int64_t i, int64_t j) {
  const Window2d& w = s.w;
  const int64_t hoff = i * w.dh - w.ph, woff = j * w.dw - w.pw;
  const TapRange rh = tap_range(hoff, w.sh, s.h, s.oh), rw = tap_range(woff, w.sw, s.wd, s.ow);
  if (rw.begin == rw.end) return;
  for (int64_t oh = rh.begin; oh < rh.end; ++oh) {
    const T* in = row + oh * s.ow;
    T* out = plane + (oh * w.sh + hoff) * s.wd;
    if (w.sw == 1) {
      T* shifted = out + woff + rw.begin;  // in bounds: rw.begin + woff >= 0
      for (int64_t o = 0; o < rw.end - rw.begin; ++o) shifted[o] += in[rw.begin + o];
    } else {
      for (int64_t o = rw.begin; o < rw.end; ++o) out[o * w.sw + woff] += in[o];
    }
  }
}

template <class T>
porta_status im2col_kernel(const porta_kernel_call* c) {
  ConvShape s;
  if (const porta_status st = conv_shape("im2col", c, c->inputs[0], c->outputs[0], &s); st != PORTA_OK) return st;
  const T* x = data_of<T>(c->inputs[0]);
  T* cols = data_of<T>(c->outputs[0]);
  const int64_t taps = s.w.kh * s.w.kw, plane = s.h * s.wd, row = s.oh * s.ow, ld = s.n * row;
  // Chunk (n, c, tap) is OH*OW values: row c*taps + tap of cols, columns n*OH*OW on.
  parallel_for(s.n * s.c * taps, std::max<int64_t>(1, kElementwiseGrain / row), [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const int64_t n = r / (s.c * taps), ct = r % (s.c * taps), c = ct / taps, tap = ct % taps;
      im2col_row(s, x + (n * s.c + c) * plane, cols + ct * ld + n * row, tap / s.w.kw, tap % s.w.kw);
    }
  });
  return PORTA_OK;
}

template <class T>
porta_status col2im_kernel(const porta_kernel_call* c) {
  ConvShape s;
  if (const porta_status st = conv_shape("col2im", c, c->outputs[0], c->inputs[0], &s); st != PORTA_OK) return st;
  const T* cols = data_of<T>(c->inputs[0]);
  T* x = data_of<T>(c->outputs[0]);
  const int64_t taps = s.w.kh * s.w.kw, plane = s.h * s.wd, row = s.oh * s.ow, ld = s.n * row;
  // One task per plane (n, c): it owns its output and the taps chunks that feed it.
  parallel_for(s.n * s.c, std::max<int64_t>(1, kElementwiseGrain / (taps * row)), [&](int64_t b, int64_t e) {
    for (int64_t pl = b; pl < e; ++pl) {
      const int64_t n = pl / s.c, c = pl % s.c;
      T* out = x + pl * plane;
      std::memset(out, 0, sizeof(T) * static_cast<size_t>(plane));
      for (int64_t tap = 0; tap < taps; ++tap)
        col2im_row(s, cols + (c * taps + tap) * ld + n * row, out, tap / s.w.kw, tap % s.w.kw);
    }
  });
  return PORTA_OK;
}

template <class T>
porta_kernel_fn find_for(uint32_t op) {
  return lookup_kind<PORTA_OP_KIND_CONV>(op, []<uint32_t Op>(op_id<Op>) -> porta_kernel_fn {
    if constexpr (Op == PORTA_OP_IM2COL)
      return &im2col_kernel<T>;
    else if constexpr (Op == PORTA_OP_COL2IM)
      return &col2im_kernel<T>;
    else if constexpr (Op == PORTA_OP_CONV2D || Op == PORTA_OP_CONV2D_BACKWARD_INPUT ||
                       Op == PORTA_OP_CONV2D_BACKWARD_WEIGHT)
      return nullptr;  // find_direct_conv_kernel's (oneDNN); without it the core lowers them to im2col + matmul
    else
      static_assert(no_kernel_for<Op>, "a CONV row without its kernel here");
  });
}

}  // namespace

porta_kernel_fn find_conv_kernel(uint32_t op, int dtype) {
  if (op >= PORTA_OP_CONV2D && op <= PORTA_OP_CONV2D_BACKWARD_WEIGHT) return find_direct_conv_kernel(op, dtype);
  if (dtype == kDtFloat32) return find_for<float>(op);
  if (dtype == kDtFloat64) return find_for<double>(op);
  return nullptr;
}

}  // namespace porta::host
