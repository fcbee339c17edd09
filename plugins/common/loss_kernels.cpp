// Host kernels of the LOSS kind: cross entropy with class indices over
// contiguous logits [N, C], one task per row. logsumexp subtracts the row
// max and sums in double (float rows: their exps in float, at the CPU's
// vector width).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <type_traits>
#include <vector>

#include "host_kernels.hpp"
#include "lane_math.hpp"
#include "row_math.hpp"
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

// log(sum(exp(x[k]))) of a row, in double: the row max subtracted, the sum
// of exp(x - max) added in double.
double logsumexp(const double* x, int64_t classes) {
  double mx = x[0];
  for (int64_t k = 1; k < classes; ++k)
    if (!(x[k] <= mx)) mx = x[k];  // a NaN sticks
  double sum = 0;
  for (int64_t k = 0; k < classes; ++k) sum += std::exp(x[k] - mx);
  return mx + std::log(sum);
}

// float rows, a block at a time (exp_shifted_rows: their exps in float at
// the vector width, SLEEF's as the EXP kernel's, summed in double), the
// block's logs in one call; a NaN anywhere makes its exp, so the row's sum,
// NaN. Where each exp was libm's double: the loss over [2048, 76] 661 ->
// 243 us, and by blocks 118 us. lse[r] for rows [0, rows) of x.
PORTA_WIDEST_VECTORS void logsumexp_rows(const float* x, int64_t rows, int64_t classes, float* scratch,
                                         double* lse) {
  float mx[kBlockRows];
  exp_shifted_rows(x, scratch, rows, classes, mx, lse);
  log_into(lse, lse, rows);
  for (int64_t r = 0; r < rows; ++r) lse[r] += mx[r];
}

// Runs body(begin, end) over blocks of samples in parallel (float: at most
// kBlockRows rows and kBlockValues values, or one row), with a scratch of the
// block's values.
template <class T, class Body>
void for_each_block(const DLTensor& logits, Body&& body) {
  const int64_t classes = std::max<int64_t>(logits.shape[1], 1);
  const int64_t block = std::is_same_v<T, float> ? block_rows(classes) : 1;
  parallel_for(logits.shape[0], std::max<int64_t>(block, kElementwiseGrain / classes), [&](int64_t b, int64_t e) {
    thread_local std::vector<T> scratch;
    if (std::is_same_v<T, float>) scratch.resize(static_cast<size_t>(std::min(block, e - b) * classes));
    for (int64_t r = b; r < e; r += block) body(r, std::min(e, r + block), scratch.data());
  });
}

// lse[r - begin] for rows [begin, end) of the logits.
void logsumexp_block(const double* x, int64_t begin, int64_t end, int64_t classes, double*, double* lse) {
  for (int64_t r = begin; r < end; ++r) lse[r - begin] = logsumexp(x + r * classes, classes);
}
void logsumexp_block(const float* x, int64_t begin, int64_t end, int64_t classes, float* scratch, double* lse) {
  logsumexp_rows(x + begin * classes, end - begin, classes, scratch, lse);
}

template <class T>
porta_status cross_entropy_kernel(const porta_kernel_call* c) {
  if (const porta_status st = check_targets("cross_entropy", c); st != PORTA_OK) return st;
  const int64_t classes = c->inputs[0].shape[1];
  const T* x = data_of<T>(c->inputs[0]);
  const int64_t* target = data_of<int64_t>(c->inputs[1]);
  T* loss = data_of<T>(c->outputs[0]);
  for_each_block<T>(c->inputs[0], [&](int64_t begin, int64_t end, T* scratch) {
    double lse[kBlockRows];
    logsumexp_block(x, begin, end, classes, scratch, lse);
    for (int64_t n = begin; n < end; ++n)
      loss[n] = static_cast<T>(lse[n - begin] - static_cast<double>(x[n * classes + target[n]]));
  });
  return PORTA_OK;
}

// out = (softmax(row) - onehot(target)) * g for rows [begin, end); the
// exponent x - lse formed in double, then (float rows) one exp over the block
// at the vector width.
PORTA_WIDEST_VECTORS void softmax_minus_onehot(const double* x, const double* lse, const int64_t* target,
                                               const double* g, double* out, int64_t begin, int64_t end,
                                               int64_t classes) {
  for (int64_t n = begin; n < end; ++n)
    for (int64_t k = 0; k < classes; ++k)
      out[n * classes + k] =
          (std::exp(x[n * classes + k] - lse[n - begin]) - (k == target[n] ? 1.0 : 0.0)) * g[n];
}
PORTA_WIDEST_VECTORS void softmax_minus_onehot(const float* x, const double* lse, const int64_t* target,
                                               const float* g, float* out, int64_t begin, int64_t end,
                                               int64_t classes) {
  for (int64_t n = begin; n < end; ++n)
    for (int64_t k = 0; k < classes; ++k)
      out[n * classes + k] = static_cast<float>(static_cast<double>(x[n * classes + k]) - lse[n - begin]);
  exp_into(out + begin * classes, out + begin * classes, (end - begin) * classes);
  for (int64_t n = begin; n < end; ++n) {
    float* row = out + n * classes;
    row[target[n]] -= 1.0f;
    for (int64_t k = 0; k < classes; ++k) row[k] *= g[n];
  }
}

template <class T>
porta_status cross_entropy_backward_kernel(const porta_kernel_call* c) {
  if (const porta_status st = check_targets("cross_entropy_backward", c); st != PORTA_OK) return st;
  const int64_t classes = c->inputs[0].shape[1];
  const T* x = data_of<T>(c->inputs[0]);
  const int64_t* target = data_of<int64_t>(c->inputs[1]);
  const T* grad_loss = data_of<T>(c->inputs[2]);
  T* gx = data_of<T>(c->outputs[0]);
  for_each_block<T>(c->inputs[0], [&](int64_t begin, int64_t end, T* scratch) {
    double lse[kBlockRows];
    logsumexp_block(x, begin, end, classes, scratch, lse);
    softmax_minus_onehot(x, lse, target, grad_loss, gx, begin, end, classes);
  });
  return PORTA_OK;
}

template <class T>
porta_kernel_fn find_for(uint32_t op) {
  return lookup_kind<PORTA_OP_KIND_LOSS>(op, []<uint32_t Op>(op_id<Op>) -> porta_kernel_fn {
    if constexpr (Op == PORTA_OP_CROSS_ENTROPY)
      return &cross_entropy_kernel<T>;
    else if constexpr (Op == PORTA_OP_CROSS_ENTROPY_BACKWARD)
      return &cross_entropy_backward_kernel<T>;
    else
      static_assert(no_kernel_for<Op>, "a LOSS row without its kernel here");
  });
}

}  // namespace

porta_kernel_fn find_loss_kernel(uint32_t op, int dtype) {
  if (dtype == kDtFloat32) return find_for<float>(op);
  if (dtype == kDtFloat64) return find_for<double>(op);
  return nullptr;
}

}  // namespace porta::host
