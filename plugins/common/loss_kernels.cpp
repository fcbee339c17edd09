// Host kernels of the LOSS kind: cross entropy with class indices over
// contiguous logits [N, C], one task per row. logsumexp subtracts the row
// max and sums in double (float rows: their exps in float, at the CPU's
// vector width).
#include <cmath>
#include <cstdio>
#include <vector>

#include "host_kernels.hpp"
#include "lane_math.hpp"
#include "strided_loop.hpp"
#include "vector_math.hpp"

namespace porta::host {
namespace {

// exp(x[k]) into y[k] (y may be x): SLEEF's vector exp where it is loaded
// (vector_math.hpp), else the C library's.
void exp_into(const float* x, float* y, int64_t n) {
  if (!vecmath::apply(vecmath::Fn::Exp, x, y, n))
    for (int64_t k = 0; k < n; ++k) y[k] = std::exp(x[k]);
}

// Reports INVALID_ARGUMENT naming the first target outside [0, classes).
porta_status check_targets(const char* op, const porta_kernel_call* c) {
  const DLTensor &logits = c->inputs[0], &target = c->inputs[1];
  char msg[192];
  if (logits.ndim != 2 || target.ndim != 1 || target.shape[0] != logits.shape[0]) {
    std::snprintf(msg, sizeof msg, "%s: expected logits [N, C] and target [N], got %d-D and %d-D", op, logits.ndim,
                  target.ndim);
    return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
  }
  const int64_t n = logits.shape[0], classes = logits.shape[1];
  const int64_t* t = data_of<int64_t>(target);
  for (int64_t i = 0; i < n; ++i) {
    if (t[i] < 0 || t[i] >= classes) {
      std::snprintf(msg, sizeof msg, "%s: target[%lld] = %lld is outside [0, %lld), the number of classes", op,
                    (long long)i, (long long)t[i], (long long)classes);
      return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
    }
  }
  return PORTA_OK;
}

// log(sum(exp(x[k]))) of a row, in double: the row max subtracted, the sum
// of exp(x - max) added in double.
double logsumexp(const double* x, int64_t classes, std::vector<double>&) {
  double mx = x[0];
  for (int64_t k = 1; k < classes; ++k)
    if (!(x[k] <= mx)) mx = x[k];  // a NaN sticks
  double sum = 0;
  for (int64_t k = 0; k < classes; ++k) sum += std::exp(x[k] - mx);
  return mx + std::log(sum);
}

// float rows: exp(x - max) in float at the CPU's vector width (SLEEF's
// exp, as the EXP kernel's), summed in double lanes; the max vectorizes too
// (a NaN anywhere makes its exp and so the sum NaN). One exp per value in
// libm's double took half of the loss over [2048, 76] (docs/benchmarks.md).
PORTA_WIDEST_VECTORS double logsumexp(const float* x, int64_t classes, std::vector<float>& scratch) {
  float mx = x[0];
  for (int64_t k = 1; k < classes; ++k) mx = x[k] > mx ? x[k] : mx;
  if (mx != mx) return mx;  // x[0] was NaN
  scratch.resize(static_cast<size_t>(classes));
  float* e = scratch.data();
  for (int64_t k = 0; k < classes; ++k) e[k] = x[k] - mx;
  exp_into(e, e, classes);
  const double sum = lane_fold<double, 16>(classes, [e](int64_t k) { return static_cast<double>(e[k]); },
                                           [](double a, double b) { return a + b; });
  return static_cast<double>(mx) + std::log(sum);
}

// Runs body(n) for every sample n in parallel.
template <class Body>
void for_each_sample(const DLTensor& logits, Body&& body) {
  parallel_for(logits.shape[0], std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(logits.shape[1], 1)),
               [&](int64_t b, int64_t e) {
                 for (int64_t n = b; n < e; ++n) body(n);
               });
}

template <class T>
porta_status cross_entropy_kernel(const porta_kernel_call* c) {
  if (const porta_status st = check_targets("cross_entropy", c); st != PORTA_OK) return st;
  const int64_t classes = c->inputs[0].shape[1];
  const T* x = data_of<T>(c->inputs[0]);
  const int64_t* target = data_of<int64_t>(c->inputs[1]);
  T* loss = data_of<T>(c->outputs[0]);
  for_each_sample(c->inputs[0], [&](int64_t n) {
    thread_local std::vector<T> scratch;
    const T* row = x + n * classes;
    loss[n] = static_cast<T>(logsumexp(row, classes, scratch) - static_cast<double>(row[target[n]]));
  });
  return PORTA_OK;
}

// out = (softmax(row) - onehot(target)) * g; the exponent x - lse formed in
// double, then (float rows) exp at the vector width.
PORTA_WIDEST_VECTORS void softmax_minus_onehot(const double* row, double lse, int64_t target, double g, double* out,
                                               int64_t classes) {
  for (int64_t k = 0; k < classes; ++k) out[k] = (std::exp(row[k] - lse) - (k == target ? 1.0 : 0.0)) * g;
}
PORTA_WIDEST_VECTORS void softmax_minus_onehot(const float* row, double lse, int64_t target, double g, float* out,
                                               int64_t classes) {
  for (int64_t k = 0; k < classes; ++k) out[k] = static_cast<float>(static_cast<double>(row[k]) - lse);
  exp_into(out, out, classes);
  out[target] -= 1.0f;
  const float gf = static_cast<float>(g);
  for (int64_t k = 0; k < classes; ++k) out[k] *= gf;
}

template <class T>
porta_status cross_entropy_backward_kernel(const porta_kernel_call* c) {
  if (const porta_status st = check_targets("cross_entropy_backward", c); st != PORTA_OK) return st;
  const int64_t classes = c->inputs[0].shape[1];
  const T* x = data_of<T>(c->inputs[0]);
  const int64_t* target = data_of<int64_t>(c->inputs[1]);
  const T* grad_loss = data_of<T>(c->inputs[2]);
  T* gx = data_of<T>(c->outputs[0]);
  for_each_sample(c->inputs[0], [&](int64_t n) {
    thread_local std::vector<T> scratch;
    const T* row = x + n * classes;
    softmax_minus_onehot(row, logsumexp(row, classes, scratch), target[n], static_cast<double>(grad_loss[n]),
                         gx + n * classes, classes);
  });
  return PORTA_OK;
}

template <class T>
porta_kernel_fn find_for(uint32_t op) {
  switch (op) {
    case PORTA_OP_CROSS_ENTROPY: return &cross_entropy_kernel<T>;
    case PORTA_OP_CROSS_ENTROPY_BACKWARD: return &cross_entropy_backward_kernel<T>;
    default: return nullptr;
  }
}

}  // namespace

porta_kernel_fn find_loss_kernel(uint32_t op, int dtype) {
  if (dtype == kDtFloat32) return find_for<float>(op);
  if (dtype == kDtFloat64) return find_for<double>(op);
  return nullptr;
}

}  // namespace porta::host
