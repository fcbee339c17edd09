// INDEX kind over the index's shape S, with porta_layout's operands 0 the
// values (gather's out, scatter's src), 1 the index and 2 the data tensor
// (gather's src, scatter's self), whose stride along dim is 0: an index
// value i adds i * step there. The core checks index ranges; a value outside
// [0, extent) is never followed (gather writes 0, scatter skips it).
//   op_gather:  one work-item per element of S;
//   op_scatter: one work-item per line of S (the layout's shape has 1 along
//               dim), walking it in increasing p[dim] with the reduction
//               `reduce` (porta_scatter_reduce), as the host kernels do.

// Offsets of row-major position i of L's shape in operands 0, 1 and 2 (.x, .y, .z).
inline long4 index_offsets(int ndim, const porta_layout* L, long i) {
  long4 o = (long4)(0);
  for (int d = ndim - 1; d >= 0; --d) {
    const long q = d > 0 ? i / L->shape[d] : 0, at = i - q * L->shape[d];
    i = q;
    o += at * (long4)(L->stride[0][d], L->stride[1][d], L->stride[2][d], 0);
  }
  return o;
}

__kernel void op_gather(long n, int ndim, porta_layout L, long step, long extent, __global T* out, long out0,
                        __global const long* index, long index0, __global const T* src, long src0) {
  const long e = get_global_id(0);
  if (e >= n) return;
  const long4 o = index_offsets(ndim, &L, e);
  const long i = index[index0 + o.y];
  out[out0 + o.x] = (i >= 0 && i < extent) ? src[src0 + o.z + i * step] : (T)0;
}

// SCATTER's reductions; integers wrap (computed as ulong), NaN propagates
// through amax and amin. The plugin never asks for sum or prod on bool.
inline T scatter_combine(int reduce, T self, T src) {
  switch (reduce) {
    case 0:
      return src;
#if IS_FLOAT
    case 1:
      return self + src;
    case 2:
      return self * src;
    case 3:
      return isnan(self) || isnan(src) ? self + src : (src > self ? src : self);
    default:
      return isnan(self) || isnan(src) ? self + src : (src < self ? src : self);
#else
    case 1:
      return (T)((ulong)self + (ulong)src);
    case 2:
      return (T)((ulong)self * (ulong)src);
    case 3:
      return src > self ? src : self;
    default:
      return src < self ? src : self;
#endif
  }
}

__kernel void op_scatter(long lines, int ndim, porta_layout L, long len, long src_step, long index_step,
                         long self_step, long extent, int reduce, __global const T* src, long src0,
                         __global const long* index, long index0, __global T* self, long self0) {
  const long line = get_global_id(0);
  if (line >= lines) return;
  const long4 o = index_offsets(ndim, &L, line);
  for (long j = 0; j < len; ++j) {
    const long i = index[index0 + o.y + j * index_step];
    if (i < 0 || i >= extent) continue;
    __global T* dst = self + self0 + o.z + i * self_step;
    *dst = scatter_combine(reduce, *dst, src[src0 + o.x + j * src_step]);
  }
}
