// Host kernels of the NORM kind: layer normalization of contiguous
// [rows, n] rows, one pass over each row's values for its two sums, and
// batch normalization of each channel of [N, C, S],
// a channel's runs of S values a thread's; the sums in double lanes added
// pairwise (lane_math.hpp).
#include <cmath>
#include <cstdio>
#include <type_traits>
#include <utility>

#include "host_kernels.hpp"
#include "lane_math.hpp"
#include "plugin_support.hpp"
#include "strided_loop.hpp"

namespace porta::host {
namespace {

// 32 lanes: a layer's row is in cache, and eight lanes of double wait on the
// latency of their adds (layer_norm [64, 128, 512] on 2 threads: 1.15 -> 1.07
// ms; the widest vectors, 1.45 -> 1.15 ms).
constexpr int64_t kRowLanes = 32;

template <class F>
double row_sum(int64_t n, F f) {
  return lane_fold<double, kRowLanes>(n, f, [](double a, double b) { return a + b; });
}

// Both sums of f(j) = (u, v) over a row, in one pass.
template <class F>
std::pair<double, double> row_sums(int64_t n, F f) {
  return lane_sum_pair<double, kRowLanes>(n, f);
}

// The mean and variance of count values: from the sums of d = x - shift
// and d * d, shift one of the values, mean = shift + S1 / count and
// var = S2 / count - (S1 / count)^2, in one pass over the values instead of
// two (layer_norm [64, 128, 512] on 2 threads: 0.89 -> 0.70 ms). The
// subtraction costs accuracy where the shift is far from the mean:
// (shift - mean)^2 <= count * var, so S2 / count is at most
// (count + 1) * var, and its rounding in 32 double lanes of count / 32
// additions each is at most about count^2 / 32 * 2^-53 of var. For float
// values and count <= 2^16 that is 2^-26 of var, 2^-27 of rstd, under float's
// 2^-24 rounding even in that worst case; double values and longer rows take
// two passes, the sums of x and then of (x - mean)^2.
template <class T>
constexpr bool one_pass_moments(int64_t count) {
  return std::is_same_v<T, float> && count <= (int64_t{1} << 16);
}

struct Moments {
  double mean, var;
};

inline std::pair<double, double> shifted_terms(double x, double shift) {
  const double d = x - shift;
  return {d, d * d};
}

// sums(term) gives the two sums of term(v) over the values, v each value
// as a double; first is the first value.
template <class Sums>
Moments moments(double first, double count, Sums sums) {
  const auto [s1, s2] = sums([first](double v) { return shifted_terms(v, first); });
  const double dm = s1 / count;
  return {first + dm, std::max(0.0, s2 / count - dm * dm)};
}

// One row: y = (x - mean) * rstd * w + b, stats = (mean, rstd).
template <class T>
PORTA_WIDEST_VECTORS void forward_row(const T* x, const T* w, const T* b, T* y, T* stats, int64_t n, double eps) {
  const double count = static_cast<double>(n);
  Moments mo;
  if (one_pass_moments<T>(n)) {
    mo = moments(static_cast<double>(x[0]), count, [&](auto term) {
      return row_sums(n, [&](int64_t j) { return term(static_cast<double>(x[j])); });
    });
  } else {
    mo.mean = row_sum(n, [x](int64_t j) { return static_cast<double>(x[j]); }) / count;
    mo.var = row_sum(n, [x, mean = mo.mean](int64_t j) {
               const double d = static_cast<double>(x[j]) - mean;
               return d * d;
             }) /
             count;
  }
  const double rstd = 1.0 / std::sqrt(mo.var + eps);
  const T m = static_cast<T>(mo.mean), r = static_cast<T>(rstd);
  for (int64_t j = 0; j < n; ++j) y[j] = (x[j] - m) * r * w[j] + b[j];
  stats[0] = m, stats[1] = r;
}

// One row: gx = rstd * (g - mean(g) - xhat * mean(g * xhat)), g = gy * w;
// both means in one pass.
template <class T>
PORTA_WIDEST_VECTORS void backward_row(const T* gy, const T* x, const T* stats, const T* w, T* gx, int64_t n) {
  const T m = stats[0], r = stats[1];
  const double inv_n = 1.0 / static_cast<double>(n);
  const auto [sum_g, sum_gx] = row_sums(n, [&](int64_t j) {
    const double g = static_cast<double>(gy[j] * w[j]);
    return std::pair<double, double>(g, g * static_cast<double>((x[j] - m) * r));
  });
  const T a = static_cast<T>(sum_g * inv_n), c = static_cast<T>(sum_gx * inv_n);
  for (int64_t j = 0; j < n; ++j) gx[j] = r * (gy[j] * w[j] - a - (x[j] - m) * r * c);
}

// The sum of f(x, u) over channel c's places of [N, C, S] x and u.
template <class T, class F>
double channel_sum(const T* x, const T* u, int64_t N, int64_t C, int64_t S, int64_t c, F f) {
  if (S == 1) return row_sum(N, [&](int64_t n) { return f(x[n * C + c], u[n * C + c]); });
  double sum = 0;
  for (int64_t n = 0; n < N; ++n) {
    const int64_t at = (n * C + c) * S;
    sum += row_sum(S, [&](int64_t s) { return f(x[at + s], u[at + s]); });
  }
  return sum;
}

// Both sums of f(x, u) = (p, q) over channel c's places, in one pass.
template <class T, class F>
std::pair<double, double> channel_sums(const T* x, const T* u, int64_t N, int64_t C, int64_t S, int64_t c, F f) {
  if (S == 1) return row_sums(N, [&](int64_t n) { return f(x[n * C + c], u[n * C + c]); });
  double p = 0, q = 0;
  for (int64_t n = 0; n < N; ++n) {
    const int64_t at = (n * C + c) * S;
    const auto [run_p, run_q] = row_sums(S, [&](int64_t s) { return f(x[at + s], u[at + s]); });
    p += run_p, q += run_q;
  }
  return {p, q};
}

// out = f(x, u) at channel c's places of [N, C, S] out, x and u.
template <class T, class F>
void channel_map(T* out, const T* x, const T* u, int64_t N, int64_t C, int64_t S, int64_t c, F f) {
  for (int64_t n = 0; n < N; ++n) {
    const int64_t at = (n * C + c) * S;
    for (int64_t s = 0; s < S; ++s) out[at + s] = f(x[at + s], u[at + s]);
  }
}

// Channel c: y = (x - mean) * rstd * w + b, stats = (mean, rstd, var).
template <class T>
PORTA_WIDEST_VECTORS void batch_forward_channel(const porta_kernel_call* k, int64_t N, int64_t C, int64_t S, int64_t c,
                                                double eps) {
  const T* x = data_of<const T>(k->inputs[0]);
  const double count = static_cast<double>(N * S);
  Moments mo;
  if (one_pass_moments<T>(N * S)) {
    mo = moments(static_cast<double>(x[c * S]), count, [&](auto term) {
      return channel_sums(x, x, N, C, S, c, [&](T v, T) { return term(static_cast<double>(v)); });
    });
  } else {
    mo.mean = channel_sum(x, x, N, C, S, c, [](T v, T) { return static_cast<double>(v); }) / count;
    mo.var = channel_sum(x, x, N, C, S, c, [mean = mo.mean](T v, T) {
               const double d = static_cast<double>(v) - mean;
               return d * d;
             }) /
             count;
  }
  const double rstd = 1.0 / std::sqrt(mo.var + eps);
  const T m = static_cast<T>(mo.mean), r = static_cast<T>(rstd);
  const T w = data_of<const T>(k->inputs[1])[c], b = data_of<const T>(k->inputs[2])[c];
  channel_map(data_of<T>(k->outputs[0]), x, x, N, C, S, c,
              [=](T v, T) { return (v - m) * r * w + b; });
  T* stats = data_of<T>(k->outputs[1]) + 3 * c;
  stats[0] = m, stats[1] = r, stats[2] = static_cast<T>(mo.var);
}

// Channel c: sums = (sum(gy), sum(gy * xhat)), gx = rstd * w * (gy - sums[0] / M - xhat * sums[1] / M).
template <class T>
PORTA_WIDEST_VECTORS void batch_backward_channel(const porta_kernel_call* k, int64_t N, int64_t C, int64_t S,
                                                 int64_t c) {
  const T* gy = data_of<const T>(k->inputs[0]);
  const T* x = data_of<const T>(k->inputs[1]);
  const T* stats = data_of<const T>(k->inputs[2]) + 3 * c;
  const T m = stats[0], r = stats[1], w = data_of<const T>(k->inputs[3])[c];
  const double M = static_cast<double>(N * S);
  const auto [sum_g, sum_gx] = channel_sums(gy, x, N, C, S, c, [m, r](T g, T v) {
    return std::pair<double, double>(static_cast<double>(g), static_cast<double>(g) * static_cast<double>((v - m) * r));
  });
  const T a = static_cast<T>(sum_g / M), b = static_cast<T>(sum_gx / M), scale = r * w;
  channel_map(data_of<T>(k->outputs[0]), gy, x, N, C, S, c,
              [=](T g, T v) { return scale * (g - a - (v - m) * r * b); });
  T* sums = data_of<T>(k->outputs[1]) + 2 * c;
  sums[0] = static_cast<T>(sum_g), sums[1] = static_cast<T>(sum_gx);
}

// Op's operands as ops.h gives them: x (input 0, or 1 for a backward) of
// rank `ndim` ("[rows, n]" or "[N, C, S]"), and porta_norm_params.
template <uint32_t Op>
const porta_norm_params* checked_params(const porta_kernel_call* c, int32_t ndim, const char* shape) {
  constexpr bool forward = Op == PORTA_OP_LAYER_NORM || Op == PORTA_OP_BATCH_NORM;
  constexpr int32_t outputs = Op == PORTA_OP_LAYER_NORM_BACKWARD ? 1 : 2;
  const porta_norm_params* p = plugin::op_params<porta_norm_params>(c);
  const int32_t rank = c->num_inputs > 1 ? c->inputs[forward ? 0 : 1].ndim : -1;
  if (p && rank == ndim && c->num_inputs == (forward ? 3 : 4) && c->num_outputs == outputs) return p;
  char msg[160];
  std::snprintf(msg, sizeof msg, "%s: expected porta_norm_params and contiguous %s operands (got %s, %d-D)",
                plugin::op_name(Op), shape, p ? "params" : "no params", rank);
  report(PORTA_ERROR_INVALID_ARGUMENT, msg);
  return nullptr;
}

template <uint32_t Op, class T>
porta_status batch_norm_kernel(const porta_kernel_call* c) {
  const porta_norm_params* p = checked_params<Op>(c, 3, "[N, C, S]");
  if (!p) return PORTA_ERROR_INVALID_ARGUMENT;
  const DLTensor& x = c->inputs[Op == PORTA_OP_BATCH_NORM ? 0 : 1];
  const int64_t N = x.shape[0], C = x.shape[1], S = x.shape[2];
  const double eps = p->eps;
  parallel_for(C, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(N * S, 1)), [&](int64_t begin, int64_t end) {
    for (int64_t ch = begin; ch < end; ++ch) {
      if constexpr (Op == PORTA_OP_BATCH_NORM)
        batch_forward_channel<T>(c, N, C, S, ch, eps);
      else
        batch_backward_channel<T>(c, N, C, S, ch);
    }
  });
  return PORTA_OK;
}

template <uint32_t Op, class T>
porta_status layer_norm_kernel(const porta_kernel_call* c) {
  const porta_norm_params* p = checked_params<Op>(c, 2, "[rows, n]");
  if (!p) return PORTA_ERROR_INVALID_ARGUMENT;
  const DLTensor& x = c->inputs[Op == PORTA_OP_LAYER_NORM ? 0 : 1];
  const int64_t rows = x.shape[0], n = x.shape[1];
  const double eps = p->eps;
  parallel_for(rows, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(n, 1)), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      if constexpr (Op == PORTA_OP_LAYER_NORM) {
        forward_row(data_of<const T>(c->inputs[0]) + r * n, data_of<const T>(c->inputs[1]),
                    data_of<const T>(c->inputs[2]), data_of<T>(c->outputs[0]) + r * n,
                    data_of<T>(c->outputs[1]) + 2 * r, n, eps);
      } else {
        backward_row(data_of<const T>(c->inputs[0]) + r * n, data_of<const T>(c->inputs[1]) + r * n,
                     data_of<const T>(c->inputs[2]) + 2 * r, data_of<const T>(c->inputs[3]),
                     data_of<T>(c->outputs[0]) + r * n, n);
      }
    }
  });
  return PORTA_OK;
}

template <class T>
porta_kernel_fn find_for(uint32_t op) {
  return lookup_kind<PORTA_OP_KIND_NORM>(op, []<uint32_t Op>(op_id<Op>) -> porta_kernel_fn {
    if constexpr (Op == PORTA_OP_LAYER_NORM || Op == PORTA_OP_LAYER_NORM_BACKWARD)
      return &layer_norm_kernel<Op, T>;
    else if constexpr (Op == PORTA_OP_BATCH_NORM || Op == PORTA_OP_BATCH_NORM_BACKWARD)
      return &batch_norm_kernel<Op, T>;
    else
      static_assert(no_kernel_for<Op>, "a NORM row without its kernel here");
  });
}

}  // namespace

porta_kernel_fn find_norm_kernel(uint32_t op, int dtype) {
  if (dtype == kDtFloat32) return find_for<float>(op);
  if (dtype == kDtFloat64) return find_for<double>(op);
  return nullptr;
}

}  // namespace porta::host
