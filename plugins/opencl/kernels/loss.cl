// LOSS kind: cross entropy with class indices over contiguous logits
// [N, C]; one work-item per sample, logsumexp in double with the row max
// subtracted, as the host kernels do. The plugin checks the targets first.

inline real_t logsumexp(__global const T* x, long classes) {
  T mx = x[0];
  for (long k = 1; k < classes; ++k)
    if (!(x[k] <= mx)) mx = x[k];  // a NaN sticks
  real_t sum = 0;
  for (long k = 0; k < classes; ++k) sum += exp((real_t)x[k] - (real_t)mx);
  return (real_t)mx + log(sum);
}

__kernel void op_cross_entropy(long n, long classes, __global const T* logits, long l0, __global const long* target,
                               long t0, __global T* loss, long o0) {
  const long s = get_global_id(0);
  if (s >= n) return;
  __global const T* row = logits + l0 + s * classes;
  loss[o0 + s] = (T)(logsumexp(row, classes) - (real_t)row[target[t0 + s]]);
}

__kernel void op_cross_entropy_backward(long n, long classes, __global const T* logits, long l0,
                                        __global const long* target, long t0, __global const T* grad_loss, long g0,
                                        __global T* gx, long gx0) {
  const long s = get_global_id(0);
  if (s >= n) return;
  __global const T* row = logits + l0 + s * classes;
  __global T* out = gx + gx0 + s * classes;
  const real_t lse = logsumexp(row, classes), g = (real_t)grad_loss[g0 + s];
  const long t = target[t0 + s];
  for (long k = 0; k < classes; ++k) out[k] = (T)((exp((real_t)row[k] - lse) - (k == t ? (real_t)1 : (real_t)0)) * g);
}
