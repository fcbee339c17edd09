// OPTIMIZER kind: fused, in-place SGD and Adam/AdamW updates, one
// work-item per element, with the host kernels' arithmetic in T (the plugin
// passes the same T-rounded constants the host computes).

// SGD: flags bit 0 weight decay, 1 momentum, 2 nesterov, 3 first step.
__kernel void op_sgd_step(long n, __global T* param, long p0, __global const T* grad, long g0, __global T* buf, long b0,
                          int flags, T wd, T mom, T keep, T neg_lr) {
  const long i = get_global_id(0);
  if (i >= n) return;
  T d = grad[g0 + i];
  const T x = param[p0 + i];
  if (flags & 1) d = d + wd * x;
  if (flags & 2) {
    const T bv = (flags & 8) ? d : buf[b0 + i] * mom + keep * d;
    buf[b0 + i] = bv;
    d = (flags & 4) ? d + mom * bv : bv;
  }
  param[p0 + i] = x + neg_lr * d;
}

// torch.lerp's formula: exact at both ends.
inline T lerp_(T from, T to, T weight) {
  return fabs(weight) < (T)0.5 ? from + weight * (to - from) : to - (to - from) * ((T)1 - weight);
}

// Adam: flags bit 0 weight decay, 1 decoupled (AdamW).
__kernel void op_adam_step(long n, __global T* param, long p0, __global const T* grad, long g0, __global T* m, long m0,
                           __global T* v, long v0, int flags, T wd, T shrink, T w1, T b2, T w2, T neg_step,
                           T bias2_sqrt, T eps) {
  const long i = get_global_id(0);
  if (i >= n) return;
  T x = param[p0 + i], g = grad[g0 + i];
  if (flags & 1) {
    if (flags & 2) x = x * shrink;
    else g = g + wd * x;
  }
  const T mi = lerp_(m[m0 + i], g, w1);
  const T vi = v[v0 + i] * b2 + w2 * g * g;
  m[m0 + i] = mi;
  v[v0 + i] = vi;
  const T denom = sqrt(vi) / bias2_sqrt + eps;
  param[p0 + i] = x + neg_step * mi / denom;
}
