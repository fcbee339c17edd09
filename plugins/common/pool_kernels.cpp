// Host kernels of the POOL kind: max and average 2-D pooling and their
// gradients, one task per (n, c) plane. 2x2 stride-2 windows without padding
// or dilation (the usual downsampling layer) take a dedicated path.
#include <cmath>
#include <cstring>
#include <limits>

#include "host_kernels.hpp"
#include "strided_loop.hpp"
#include "window2d.hpp"

namespace porta::host {
namespace {

// One call's geometry: `planes` = N*C planes of h x wd in, oh x ow out.
struct PoolShape {
  Window2d w;
  bool include_pad;
  int64_t planes, h, wd, oh, ow;
  bool is_2x2_stride_2() const {
    return w.kh == 2 && w.kw == 2 && w.sh == 2 && w.sw == 2 && w.ph == 0 && w.pw == 0 && w.dh == 1 && w.dw == 1;
  }
};

// `big` is the input-sized tensor [N, C, H, W], `small` the pooled one.
porta_status pool_shape(const char* op, const porta_kernel_call* c, const DLTensor& big, const DLTensor& small,
                        PoolShape* s) {
  const auto* p = op_params<porta_pool2d_params>(c);
  char msg[160];
  if (!p) {
    std::snprintf(msg, sizeof msg, "%s: missing or too-small porta_pool2d_params", op);
    return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
  }
  if (const porta_status st = check_4d(op, {&big, &small}); st != PORTA_OK) return st;
  if (big.shape[0] != small.shape[0] || big.shape[1] != small.shape[1]) {
    std::snprintf(msg, sizeof msg, "%s: N, C differ between [%lld, %lld, ...] and [%lld, %lld, ...]", op,
                  (long long)big.shape[0], (long long)big.shape[1], (long long)small.shape[0],
                  (long long)small.shape[1]);
    return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
  }
  *s = PoolShape{window_of(*p), p->count_include_pad != 0, big.shape[0] * big.shape[1], big.shape[2],
                 big.shape[3], small.shape[2], small.shape[3]};
  return check_window(op, s->w, s->h, s->wd, s->oh, s->ow);
}

// Runs body(plane) for every plane in parallel; `work` is elements per plane.
template <class Body>
void for_each_plane(int64_t planes, int64_t work, Body&& body) {
  parallel_for(planes, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(work, 1)),
               [&](int64_t b, int64_t e) {
                 for (int64_t pl = b; pl < e; ++pl) body(pl);
               });
}

// "v is a new maximum": larger, or any NaN, as PyTorch's kernels (NaN propagates, the last NaN of a
// window is its index; ties keep the first).
template <class T>
bool beats(T v, T best) {
  return v > best || std::isnan(v);
}

template <class T>
void max_pool_plane(const PoolShape& s, const T* x, T* y, int64_t* idx) {
  const Window2d& w = s.w;
  if (s.is_2x2_stride_2()) {
    for (int64_t oh = 0; oh < s.oh; ++oh) {
      const int64_t base = 2 * oh * s.wd;
      const T *r0 = x + base, *r1 = r0 + s.wd;
      for (int64_t ow = 0; ow < s.ow; ++ow) {
        const int64_t k = 2 * ow;
        T best = r0[k];
        int64_t at = base + k;
        if (beats(r0[k + 1], best)) best = r0[k + 1], at = base + k + 1;
        if (beats(r1[k], best)) best = r1[k], at = base + s.wd + k;
        if (beats(r1[k + 1], best)) best = r1[k + 1], at = base + s.wd + k + 1;
        y[oh * s.ow + ow] = best;
        idx[oh * s.ow + ow] = at;
      }
    }
    return;
  }
  for (int64_t oh = 0; oh < s.oh; ++oh) {
    const int64_t hoff = oh * w.sh - w.ph;
    const TapRange ri = tap_range(hoff, w.dh, s.h, w.kh);
    for (int64_t ow = 0; ow < s.ow; ++ow) {
      const int64_t woff = ow * w.sw - w.pw;
      const TapRange rj = tap_range(woff, w.dw, s.wd, w.kw);
      T best = -std::numeric_limits<T>::infinity();
      int64_t at = -1;  // stays -1 only for a window entirely in the padding
      for (int64_t i = ri.begin; i < ri.end; ++i) {
        const int64_t row = (hoff + i * w.dh) * s.wd;
        for (int64_t j = rj.begin; j < rj.end; ++j) {
          const int64_t pos = row + woff + j * w.dw;
          if (at < 0 || beats(x[pos], best)) best = x[pos], at = pos;
        }
      }
      y[oh * s.ow + ow] = best;
      idx[oh * s.ow + ow] = at;
    }
  }
}

template <class T>
porta_status max_pool_kernel(const porta_kernel_call* c) {
  if (c->num_outputs < 2)
    return report(PORTA_ERROR_INVALID_ARGUMENT, "max_pool2d: needs two outputs, values and int64 indices");
  PoolShape s;
  if (const porta_status st = pool_shape("max_pool2d", c, c->inputs[0], c->outputs[0], &s); st != PORTA_OK) return st;
  const T* x = data_of<T>(c->inputs[0]);
  T* y = data_of<T>(c->outputs[0]);
  int64_t* idx = data_of<int64_t>(c->outputs[1]);
  const int64_t in_plane = s.h * s.wd, out_plane = s.oh * s.ow;
  for_each_plane(s.planes, in_plane + out_plane, [&](int64_t pl) {
    max_pool_plane(s, x + pl * in_plane, y + pl * out_plane, idx + pl * out_plane);
  });
  return PORTA_OK;
}

// The indices suffice here, so the geometry params are optional.
template <class T>
porta_status max_pool_backward_kernel(const porta_kernel_call* c) {
  const DLTensor &gy_t = c->inputs[0], &idx_t = c->inputs[1], &gx_t = c->outputs[0];
  if (const porta_status st = check_4d("max_pool2d_backward", {&gy_t, &idx_t, &gx_t}); st != PORTA_OK) return st;
  const T* gy = data_of<T>(gy_t);
  const int64_t* idx = data_of<int64_t>(idx_t);
  T* gx = data_of<T>(gx_t);
  const int64_t in_plane = gx_t.shape[2] * gx_t.shape[3], out_plane = gy_t.shape[2] * gy_t.shape[3];
  for_each_plane(gx_t.shape[0] * gx_t.shape[1], in_plane + out_plane, [&](int64_t pl) {
    T* g = gx + pl * in_plane;
    const T* go = gy + pl * out_plane;
    const int64_t* at = idx + pl * out_plane;
    std::memset(g, 0, sizeof(T) * static_cast<size_t>(in_plane));
    for (int64_t o = 0; o < out_plane; ++o)
      if (at[o] >= 0 && at[o] < in_plane) g[at[o]] += go[o];  // -1: a window in the padding
  });
  return PORTA_OK;
}

// The window's divisor for output (ri, rj): all taps, or the in-bounds ones.
inline int64_t avg_divisor(const PoolShape& s, const TapRange& ri, const TapRange& rj) {
  return s.include_pad ? s.w.kh * s.w.kw : (ri.end - ri.begin) * (rj.end - rj.begin);
}

template <class T>
void avg_pool_plane(const PoolShape& s, const T* x, T* y) {
  const Window2d& w = s.w;
  if (s.is_2x2_stride_2()) {
    for (int64_t oh = 0; oh < s.oh; ++oh) {
      const T *r0 = x + 2 * oh * s.wd, *r1 = r0 + s.wd;
      T* out = y + oh * s.ow;
      for (int64_t ow = 0; ow < s.ow; ++ow)
        out[ow] = ((r0[2 * ow] + r0[2 * ow + 1]) + (r1[2 * ow] + r1[2 * ow + 1])) * T(0.25);
    }
    return;
  }
  for (int64_t oh = 0; oh < s.oh; ++oh) {
    const int64_t hoff = oh * w.sh - w.ph;
    const TapRange ri = tap_range(hoff, w.dh, s.h, w.kh);
    for (int64_t ow = 0; ow < s.ow; ++ow) {
      const int64_t woff = ow * w.sw - w.pw;
      const TapRange rj = tap_range(woff, w.dw, s.wd, w.kw);
      double sum = 0;
      for (int64_t i = ri.begin; i < ri.end; ++i) {
        const T* row = x + (hoff + i * w.dh) * s.wd;
        for (int64_t j = rj.begin; j < rj.end; ++j) sum += static_cast<double>(row[woff + j * w.dw]);
      }
      y[oh * s.ow + ow] = static_cast<T>(sum / static_cast<double>(avg_divisor(s, ri, rj)));
    }
  }
}

template <class T>
void avg_pool_backward_plane(const PoolShape& s, const T* gy, T* gx) {
  const Window2d& w = s.w;
  std::memset(gx, 0, sizeof(T) * static_cast<size_t>(s.h * s.wd));
  if (s.is_2x2_stride_2()) {
    for (int64_t oh = 0; oh < s.oh; ++oh) {
      T *r0 = gx + 2 * oh * s.wd, *r1 = r0 + s.wd;
      const T* g = gy + oh * s.ow;
      for (int64_t ow = 0; ow < s.ow; ++ow) {
        const T v = g[ow] * T(0.25);
        r0[2 * ow] = v, r0[2 * ow + 1] = v, r1[2 * ow] = v, r1[2 * ow + 1] = v;
      }
    }
    return;
  }
  for (int64_t oh = 0; oh < s.oh; ++oh) {
    const int64_t hoff = oh * w.sh - w.ph;
    const TapRange ri = tap_range(hoff, w.dh, s.h, w.kh);
    for (int64_t ow = 0; ow < s.ow; ++ow) {
      const int64_t woff = ow * w.sw - w.pw;
      const TapRange rj = tap_range(woff, w.dw, s.wd, w.kw);
      const T v = gy[oh * s.ow + ow] / static_cast<T>(avg_divisor(s, ri, rj));
      for (int64_t i = ri.begin; i < ri.end; ++i) {
        T* row = gx + (hoff + i * w.dh) * s.wd;
        for (int64_t j = rj.begin; j < rj.end; ++j) row[woff + j * w.dw] += v;
      }
    }
  }
}

template <class T>
porta_status avg_pool_kernel(const porta_kernel_call* c) {
  PoolShape s;
  if (const porta_status st = pool_shape("avg_pool2d", c, c->inputs[0], c->outputs[0], &s); st != PORTA_OK) return st;
  const T* x = data_of<T>(c->inputs[0]);
  T* y = data_of<T>(c->outputs[0]);
  const int64_t in_plane = s.h * s.wd, out_plane = s.oh * s.ow;
  for_each_plane(s.planes, in_plane + out_plane,
                 [&](int64_t pl) { avg_pool_plane(s, x + pl * in_plane, y + pl * out_plane); });
  return PORTA_OK;
}

template <class T>
porta_status avg_pool_backward_kernel(const porta_kernel_call* c) {
  PoolShape s;
  if (const porta_status st = pool_shape("avg_pool2d_backward", c, c->outputs[0], c->inputs[0], &s); st != PORTA_OK)
    return st;
  const T* gy = data_of<T>(c->inputs[0]);
  T* gx = data_of<T>(c->outputs[0]);
  const int64_t in_plane = s.h * s.wd, out_plane = s.oh * s.ow;
  for_each_plane(s.planes, in_plane + out_plane,
                 [&](int64_t pl) { avg_pool_backward_plane(s, gy + pl * out_plane, gx + pl * in_plane); });
  return PORTA_OK;
}

template <class T>
porta_kernel_fn find_for(uint32_t op) {
  return lookup_kind<PORTA_OP_KIND_POOL>(op, []<uint32_t Op>(op_id<Op>) -> porta_kernel_fn {
    if constexpr (Op == PORTA_OP_MAX_POOL2D)
      return &max_pool_kernel<T>;
    else if constexpr (Op == PORTA_OP_MAX_POOL2D_BACKWARD)
      return &max_pool_backward_kernel<T>;
    else if constexpr (Op == PORTA_OP_AVG_POOL2D)
      return &avg_pool_kernel<T>;
    else if constexpr (Op == PORTA_OP_AVG_POOL2D_BACKWARD)
      return &avg_pool_backward_kernel<T>;
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

}  // namespace porta::host
