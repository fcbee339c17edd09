#include "nn_reference.hpp"

#include <algorithm>
#include <cmath>

namespace conformance {
namespace {

HostTensor zeros_like(DLDataType d, const Shape& s) {
  return HostTensor{d, s, std::vector<double>(static_cast<size_t>(numel(s)), 0.0)};
}

Reduction zero_reduction(DLDataType d, const Shape& s) {
  return Reduction{zeros_like(d, s), std::vector<double>(static_cast<size_t>(numel(s)), 0.0)};
}

// Calls f(n, c, oh, ow, ih, iw, i, j) for every in-bounds tap of every window.
template <typename F>
void for_each_tap(const Shape& x, int64_t channels_out, const Window2d& g, F&& f) {
  const int64_t N = x[0], H = x[2], W = x[3], OH = g.out_h(H), OW = g.out_w(W);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < channels_out; ++c)
      for (int64_t oh = 0; oh < OH; ++oh)
        for (int64_t ow = 0; ow < OW; ++ow)
          for (int64_t i = 0; i < g.kh; ++i)
            for (int64_t j = 0; j < g.kw; ++j) {
              const int64_t ih = oh * g.sh - g.ph + i * g.dh, iw = ow * g.sw - g.pw + j * g.dw;
              if (ih >= 0 && ih < H && iw >= 0 && iw < W) f(n, c, oh, ow, ih, iw, i, j);
            }
}

}  // namespace

ConvResult ref_conv2d(const HostTensor& x, const HostTensor& w, const HostTensor* bias, const Window2d& g,
                      const HostTensor* gy) {
  const int64_t N = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3], F = w.shape[0];
  const int64_t OH = g.out_h(H), OW = g.out_w(W);
  const DLDataType dt = x.dtype;
  ConvResult r{zero_reduction(dt, {N, F, OH, OW}), zero_reduction(dt, x.shape), zero_reduction(dt, w.shape),
               zero_reduction(dt, {F})};
  auto yi = [&](int64_t n, int64_t f, int64_t oh, int64_t ow) { return ((n * F + f) * OH + oh) * OW + ow; };
  if (bias)
    for (int64_t i = 0; i < numel(r.y.value.shape); ++i) {
      const int64_t f = (i / (OH * OW)) % F;
      r.y.value.v[i] = bias->v[f], r.y.scale[i] = std::fabs(bias->v[f]);
    }
  const Shape xs{N, F, H, W};  // iterate output channels f; taps read every input channel c below
  for_each_tap(xs, F, g,
               [&](int64_t n, int64_t f, int64_t oh, int64_t ow, int64_t ih, int64_t iw, int64_t i, int64_t j) {
                 for (int64_t c = 0; c < C; ++c) {
                   const int64_t xi = ((n * C + c) * H + ih) * W + iw, wi = ((f * C + c) * g.kh + i) * g.kw + j;
                   const double p = x.v[xi] * w.v[wi];
                   r.y.value.v[yi(n, f, oh, ow)] += p;
                   r.y.scale[yi(n, f, oh, ow)] += std::fabs(p);
                   if (gy) {
                     const double gv = gy->v[yi(n, f, oh, ow)];
                     r.dx.value.v[xi] += gv * w.v[wi], r.dx.scale[xi] += std::fabs(gv * w.v[wi]);
                     r.dw.value.v[wi] += gv * x.v[xi], r.dw.scale[wi] += std::fabs(gv * x.v[xi]);
                   }
                 }
               });
  if (gy)
    for (int64_t i = 0; i < gy->numel(); ++i) {
      const int64_t f = (i / (OH * OW)) % F;
      r.db.value.v[f] += gy->v[i], r.db.scale[f] += std::fabs(gy->v[i]);
    }
  return r;
}

PoolResult ref_max_pool2d(const HostTensor& x, const Window2d& g, const HostTensor* gy) {
  const int64_t N = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3], OH = g.out_h(H), OW = g.out_w(W);
  PoolResult r{zeros_like(x.dtype, {N, C, OH, OW}), zero_reduction(x.dtype, x.shape)};
  std::vector<int64_t> best(static_cast<size_t>(r.y.numel()), -1);
  for_each_tap(x.shape, C, g,
               [&](int64_t n, int64_t c, int64_t oh, int64_t ow, int64_t ih, int64_t iw, int64_t, int64_t) {
                 const int64_t o = ((n * C + c) * OH + oh) * OW + ow, xi = ((n * C + c) * H + ih) * W + iw;
                 if (best[o] < 0 || x.v[xi] > x.v[best[o]] || std::isnan(x.v[xi])) best[o] = xi;  // PyTorch's rule
               });
  for (int64_t o = 0; o < r.y.numel(); ++o) {
    r.y.v[o] = x.v[best[o]];
    if (gy) r.dx.value.v[best[o]] += gy->v[o], r.dx.scale[best[o]] += std::fabs(gy->v[o]);
  }
  return r;
}

PoolResult ref_avg_pool2d(const HostTensor& x, const Window2d& g, bool count_include_pad, const HostTensor* gy) {
  const int64_t N = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3], OH = g.out_h(H), OW = g.out_w(W);
  PoolResult r{zeros_like(x.dtype, {N, C, OH, OW}), zero_reduction(x.dtype, x.shape)};
  std::vector<double> count(static_cast<size_t>(r.y.numel()), 0.0);
  for_each_tap(x.shape, C, g,
               [&](int64_t n, int64_t c, int64_t oh, int64_t ow, int64_t ih, int64_t iw, int64_t, int64_t) {
                 const int64_t o = ((n * C + c) * OH + oh) * OW + ow;
                 r.y.v[o] += x.v[((n * C + c) * H + ih) * W + iw];
                 count[o] += 1;
               });
  auto divisor = [&](int64_t o) { return count_include_pad ? static_cast<double>(g.kh * g.kw) : count[o]; };
  for (int64_t o = 0; o < r.y.numel(); ++o) r.y.v[o] /= divisor(o);
  if (gy)
    for_each_tap(x.shape, C, g,
                 [&](int64_t n, int64_t c, int64_t oh, int64_t ow, int64_t ih, int64_t iw, int64_t, int64_t) {
                   const int64_t o = ((n * C + c) * OH + oh) * OW + ow, xi = ((n * C + c) * H + ih) * W + iw;
                   r.dx.value.v[xi] += gy->v[o] / divisor(o);
                   r.dx.scale[xi] += std::fabs(gy->v[o] / divisor(o));
                 });
  return r;
}

SoftmaxResult ref_softmax(const HostTensor& x, int32_t dim, bool log, const HostTensor* gy) {
  const size_t nd = x.shape.size();
  const size_t d = static_cast<size_t>(dim < 0 ? dim + static_cast<int32_t>(nd) : dim);
  int64_t outer = 1, len = nd ? x.shape[d] : 1, inner = 1;
  for (size_t i = 0; i < nd; ++i) {
    if (i < d) outer *= x.shape[i];
    if (i > d) inner *= x.shape[i];
  }
  SoftmaxResult r{zeros_like(x.dtype, x.shape), zeros_like(x.dtype, x.shape)};
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t in = 0; in < inner; ++in) {
      auto at = [&](int64_t k) { return (o * len + k) * inner + in; };
      double mx = -INFINITY, sum = 0;
      for (int64_t k = 0; k < len; ++k) mx = std::max(mx, x.v[at(k)]);
      for (int64_t k = 0; k < len; ++k) sum += std::exp(x.v[at(k)] - mx);
      for (int64_t k = 0; k < len; ++k)
        r.y.v[at(k)] = log ? x.v[at(k)] - mx - std::log(sum) : std::exp(x.v[at(k)] - mx) / sum;
      if (!gy) continue;
      double dot = 0;  // softmax: sum(gy * y); log_softmax: sum(gy)
      for (int64_t k = 0; k < len; ++k) dot += log ? gy->v[at(k)] : gy->v[at(k)] * r.y.v[at(k)];
      for (int64_t k = 0; k < len; ++k) {
        const double y = r.y.v[at(k)], g = gy->v[at(k)];
        r.dx.v[at(k)] = log ? g - std::exp(y) * dot : y * (g - dot);
      }
    }
  return r;
}

CrossEntropyResult ref_cross_entropy(const HostTensor& logits, const HostTensor& target, int reduction,
                                     const HostTensor* gloss) {
  const int64_t N = logits.shape[0], C = logits.shape[1];
  const SoftmaxResult sm = ref_softmax(logits, 1, true, nullptr);  // log-probabilities
  HostTensor per{logits.dtype, {N}, {}};
  for (int64_t n = 0; n < N; ++n) per.v.push_back(-sm.y.v[n * C + static_cast<int64_t>(target.v[n])]);
  CrossEntropyResult r{per, zeros_like(logits.dtype, logits.shape)};
  if (reduction != PORTA_REDUCTION_NONE) {
    double s = 0;
    for (double v : per.v) s += v;
    r.loss = HostTensor{logits.dtype, {}, {reduction == PORTA_REDUCTION_MEAN ? s / static_cast<double>(N) : s}};
  }
  if (gloss)
    for (int64_t n = 0; n < N; ++n) {
      double g = reduction == PORTA_REDUCTION_NONE ? gloss->v[n] : gloss->v[0];
      if (reduction == PORTA_REDUCTION_MEAN) g /= static_cast<double>(N);
      for (int64_t c = 0; c < C; ++c)
        r.dx.v[n * C + c] = (std::exp(sm.y.v[n * C + c]) - (c == static_cast<int64_t>(target.v[n]) ? 1.0 : 0.0)) * g;
    }
  return r;
}

LayerNormRef ref_layer_norm(const HostTensor& x, int64_t n, const HostTensor* w, const HostTensor* b, double eps,
                            const HostTensor& gy) {
  const int64_t rows = n ? static_cast<int64_t>(x.v.size()) / n : 0;
  const Shape wshape = w ? w->shape : Shape{n};
  LayerNormRef r{zeros_like(x.dtype, x.shape), zeros_like(x.dtype, x.shape), zeros_like(x.dtype, wshape),
                 zeros_like(x.dtype, wshape)};
  auto wt = [&](int64_t j) { return w ? w->v[j] : 1.0; };
  for (int64_t row = 0; row < rows; ++row) {
    const double* xr = &x.v[row * n];
    const double* gr = &gy.v[row * n];
    double mean = 0, var = 0;
    for (int64_t j = 0; j < n; ++j) mean += xr[j];
    mean /= static_cast<double>(n);
    for (int64_t j = 0; j < n; ++j) var += (xr[j] - mean) * (xr[j] - mean);
    const double rstd = 1 / std::sqrt(var / static_cast<double>(n) + eps);
    double mean_g = 0, mean_gx = 0;
    for (int64_t j = 0; j < n; ++j) {
      const double xhat = (xr[j] - mean) * rstd, g = gr[j] * wt(j);
      r.y.v[row * n + j] = xhat * wt(j) + (b ? b->v[j] : 0.0);
      mean_g += g, mean_gx += g * xhat;
      r.dw.v[j] += gr[j] * xhat;
      r.db.v[j] += gr[j];
    }
    mean_g /= static_cast<double>(n), mean_gx /= static_cast<double>(n);
    for (int64_t j = 0; j < n; ++j) {
      const double xhat = (xr[j] - mean) * rstd;
      r.dx.v[row * n + j] = rstd * (gr[j] * wt(j) - mean_g - xhat * mean_gx);
    }
  }
  return r;
}

BatchNormRef ref_batch_norm(const HostTensor& x, const HostTensor* w, const HostTensor* b, double eps,
                            const HostTensor& gy) {
  const int64_t N = x.shape[0], C = x.shape[1], S = numel(x.shape) / std::max<int64_t>(N * C, 1), M = N * S;
  BatchNormRef r{zeros_like(x.dtype, x.shape), zeros_like(x.dtype, x.shape), zeros_like(x.dtype, {C}),
                 zeros_like(x.dtype, {C}),     zeros_like(x.dtype, {C}),     zeros_like(x.dtype, {C})};
  for (int64_t c = 0; c < C; ++c) {
    auto at = [&](int64_t k) { return (k / S * C + c) * S + k % S; };
    double mean = 0, var = 0, sum_g = 0, sum_gx = 0;
    for (int64_t k = 0; k < M; ++k) mean += x.v[at(k)];
    mean /= static_cast<double>(M);
    for (int64_t k = 0; k < M; ++k) var += (x.v[at(k)] - mean) * (x.v[at(k)] - mean);
    var /= static_cast<double>(M);
    const double rstd = 1 / std::sqrt(var + eps), wc = w ? w->v[c] : 1.0;
    for (int64_t k = 0; k < M; ++k) {
      const double xhat = (x.v[at(k)] - mean) * rstd;
      r.y.v[at(k)] = xhat * wc + (b ? b->v[c] : 0.0);
      sum_g += gy.v[at(k)], sum_gx += gy.v[at(k)] * xhat;
    }
    for (int64_t k = 0; k < M; ++k) {
      const double xhat = (x.v[at(k)] - mean) * rstd;
      r.dx.v[at(k)] = rstd * wc * (gy.v[at(k)] - sum_g / static_cast<double>(M) - xhat * sum_gx / static_cast<double>(M));
    }
    r.dw.v[c] = sum_gx, r.db.v[c] = sum_g, r.mean.v[c] = mean, r.var.v[c] = var;
  }
  return r;
}

LstmCellRef ref_lstm_cell(const HostTensor& x, const HostTensor& h, const HostTensor& c, const HostTensor& w_ih,
                          const HostTensor& w_hh, const HostTensor& b_ih, const HostTensor& b_hh, const HostTensor& gh,
                          const HostTensor& gc) {
  const int64_t N = x.shape[0], I = x.shape[1], H = h.shape[1];
  const auto sigmoid = [](double v) { return 1 / (1 + std::exp(-v)); };
  LstmCellRef r{zeros_like(x.dtype, {N, H}),     zeros_like(x.dtype, {N, H}), zeros_like(x.dtype, x.shape),
                zeros_like(x.dtype, {N, H}),     zeros_like(x.dtype, {N, H}), zeros_like(x.dtype, w_ih.shape),
                zeros_like(x.dtype, w_hh.shape), zeros_like(x.dtype, {4 * H})};
  for (int64_t n = 0; n < N; ++n) {
    std::vector<double> pre(static_cast<size_t>(4 * H));
    for (int64_t j = 0; j < 4 * H; ++j) {
      double s = b_ih.v[j] + b_hh.v[j];
      for (int64_t k = 0; k < I; ++k) s += x.v[n * I + k] * w_ih.v[j * I + k];
      for (int64_t k = 0; k < H; ++k) s += h.v[n * H + k] * w_hh.v[j * H + k];
      pre[j] = s;
    }
    std::vector<double> dpre(static_cast<size_t>(4 * H));
    for (int64_t k = 0; k < H; ++k) {
      const double i = sigmoid(pre[k]), f = sigmoid(pre[H + k]), g = std::tanh(pre[2 * H + k]),
                   o = sigmoid(pre[3 * H + k]);
      const double cn = f * c.v[n * H + k] + i * g, t = std::tanh(cn);
      r.c.v[n * H + k] = cn, r.h.v[n * H + k] = o * t;
      const double dh = gh.v[n * H + k], dcn = gc.v[n * H + k] + dh * o * (1 - t * t);
      dpre[k] = dcn * g * i * (1 - i);
      dpre[H + k] = dcn * c.v[n * H + k] * f * (1 - f);
      dpre[2 * H + k] = dcn * i * (1 - g * g);
      dpre[3 * H + k] = dh * t * o * (1 - o);
      r.dc.v[n * H + k] = dcn * f;
    }
    for (int64_t j = 0; j < 4 * H; ++j) {
      r.db.v[j] += dpre[j];
      for (int64_t k = 0; k < I; ++k) r.dx.v[n * I + k] += dpre[j] * w_ih.v[j * I + k], r.dw_ih.v[j * I + k] += dpre[j] * x.v[n * I + k];
      for (int64_t k = 0; k < H; ++k) r.dh.v[n * H + k] += dpre[j] * w_hh.v[j * H + k], r.dw_hh.v[j * H + k] += dpre[j] * h.v[n * H + k];
    }
  }
  return r;
}

}  // namespace conformance
