// Host kernels of the LOSS kind: cross entropy with class indices over
// contiguous logits [N, C], one task per row. logsumexp subtracts the row
// max and works in double.
#include <cmath>
#include <cstdio>

#include "host_kernels.hpp"
#include "strided_loop.hpp"

namespace porta::host {
namespace {

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

template <class T>
double logsumexp(const T* x, int64_t classes) {
  T mx = x[0];
  for (int64_t k = 1; k < classes; ++k)
    if (!(x[k] <= mx)) mx = x[k];  // a NaN sticks
  double sum = 0;
  for (int64_t k = 0; k < classes; ++k) sum += std::exp(static_cast<double>(x[k]) - static_cast<double>(mx));
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
    const T* row = x + n * classes;
    loss[n] = static_cast<T>(logsumexp(row, classes) - static_cast<double>(row[target[n]]));
  });
  return PORTA_OK;
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
    const T* row = x + n * classes;
    T* out = gx + n * classes;
    const double lse = logsumexp(row, classes), g = static_cast<double>(grad_loss[n]);
    for (int64_t k = 0; k < classes; ++k) {
      const double p = std::exp(static_cast<double>(row[k]) - lse) - (k == target[n] ? 1.0 : 0.0);
      out[k] = static_cast<T>(p * g);
    }
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
