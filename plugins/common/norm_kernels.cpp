// Host kernels of the NORM kind: layer normalization of contiguous
// [rows, n] rows, one pass over each row's values per sum (a row is in cache
// after the first), the sums in double lanes added pairwise (lane_math.hpp).
#include <cmath>
#include <cstdio>

#include "host_kernels.hpp"
#include "lane_math.hpp"
#include "plugin_support.hpp"
#include "strided_loop.hpp"

namespace porta::host {
namespace {

template <class F>
double row_sum(int64_t n, F f) {
  return lane_fold<double>(n, f, [](double a, double b) { return a + b; });
}

// One row: y = (x - mean) * rstd * w + b, stats = (mean, rstd).
template <class T>
void forward_row(const T* x, const T* w, const T* b, T* y, T* stats, int64_t n, double eps) {
  const double mean = row_sum(n, [x](int64_t j) { return static_cast<double>(x[j]); }) / static_cast<double>(n);
  const double var = row_sum(n, [x, mean](int64_t j) {
                       const double d = static_cast<double>(x[j]) - mean;
                       return d * d;
                     }) /
                     static_cast<double>(n);
  const double rstd = 1.0 / std::sqrt(var + eps);
  const T m = static_cast<T>(mean), r = static_cast<T>(rstd);
  for (int64_t j = 0; j < n; ++j) y[j] = (x[j] - m) * r * w[j] + b[j];
  stats[0] = m, stats[1] = r;
}

// One row: gx = rstd * (g - mean(g) - xhat * mean(g * xhat)), g = gy * w.
template <class T>
void backward_row(const T* gy, const T* x, const T* stats, const T* w, T* gx, int64_t n) {
  const T m = stats[0], r = stats[1];
  const double inv_n = 1.0 / static_cast<double>(n);
  const double mean_g = row_sum(n, [&](int64_t j) { return static_cast<double>(gy[j] * w[j]); }) * inv_n;
  const double mean_gx = row_sum(n, [&](int64_t j) {
                           return static_cast<double>(gy[j] * w[j]) * static_cast<double>((x[j] - m) * r);
                         }) *
                         inv_n;
  const T a = static_cast<T>(mean_g), c = static_cast<T>(mean_gx);
  for (int64_t j = 0; j < n; ++j) gx[j] = r * (gy[j] * w[j] - a - (x[j] - m) * r * c);
}

template <uint32_t Op, class T>
porta_status norm_kernel(const porta_kernel_call* c) {
  const porta_norm_params* p = plugin::op_params<porta_norm_params>(c);
  const DLTensor& x = c->inputs[Op == PORTA_OP_LAYER_NORM ? 0 : 1];
  if (!p || x.ndim != 2 || c->num_inputs != (Op == PORTA_OP_LAYER_NORM ? 3 : 4)) {
    char msg[160];
    std::snprintf(msg, sizeof msg, "%s: expected porta_norm_params and contiguous [rows, n] operands (got %s, %d-D)",
                  plugin::op_name(Op), p ? "params" : "no params", x.ndim);
    return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
  }
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
  switch (op) {
    case PORTA_OP_LAYER_NORM: return &norm_kernel<PORTA_OP_LAYER_NORM, T>;
    case PORTA_OP_LAYER_NORM_BACKWARD: return &norm_kernel<PORTA_OP_LAYER_NORM_BACKWARD, T>;
    default: return nullptr;
  }
}

}  // namespace

porta_kernel_fn find_norm_kernel(uint32_t op, int dtype) {
  if (dtype == kDtFloat32) return find_for<float>(op);
  if (dtype == kDtFloat64) return find_for<double>(op);
  return nullptr;
}

}  // namespace porta::host
