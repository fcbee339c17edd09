// INDEX kernels: GATHER with a thread per output element, SCATTER with a
// thread per line (the positions with p[dim] == 0) that walks it in
// increasing p[dim], so a repeated index gives the cpu plugin's answer and
// no two threads write one element. Both address their operands with
// strided_index.cuh over the index's shape, the data tensor taking part
// with stride 0 along dim. A kernel cannot report an index outside
// [0, extent) (the core checks ranges): it is never followed; GATHER writes
// 0 there and SCATTER skips it.
#include "dtype_dispatch.hpp"
#include "index_call.hpp"
#include "index_math.hpp"
#include "kernels.hpp"
#include "strided_index.cuh"

namespace porta::cuda {
namespace {

using host::storage_t;
using host::visit_dtype;
using plugin::IndexCall;

// Operands 0 values (GATHER's out, SCATTER's src), 1 index, 2 data over the
// index's shape (its lines: S[dim] = 1), and each one's stride along dim.
struct IndexLayout {
  Layout<3> l;
  int64_t along[3] = {};
};

IndexLayout index_layout(const IndexCall& k, bool lines) {
  IndexLayout r;
  const DLTensor* ts[3] = {k.values, k.index, k.data};
  r.l.ndim = k.index->ndim;
  for (int32_t d = 0; d < r.l.ndim; ++d) {
    r.l.shape[d] = (lines && d == k.dim) ? 1 : k.index->shape[d];
    for (int i = 0; i < 3; ++i) r.l.strides[i][d] = stride_of(*ts[i], d);
  }
  for (int i = 0; i < 3; ++i) r.along[i] = r.l.strides[i][k.dim];
  r.l.strides[2][k.dim] = 0;
  return r;
}

template <class Index, class T>
__global__ void __launch_bounds__(kThreads)
    gather_kernel(Layout<3> l, int64_t n, T* out, const int64_t* index, const T* src, int64_t step, int64_t extent) {
  for (int64_t e = thread_index(); e < n; e += thread_count()) {
    int64_t off[3];
    offsets_of<Index>(l, static_cast<Index>(e), off);
    const int64_t i = index[off[1]];
    out[off[0]] = (i >= 0 && i < extent) ? src[off[2] + i * step] : T(0);
  }
}

template <class Index, class T, int Reduce>
__global__ void __launch_bounds__(kThreads)
    scatter_kernel(Layout<3> l, int64_t lines, int64_t len, const T* src, const int64_t* index, T* self,
                   int64_t src_step, int64_t index_step, int64_t self_step, int64_t extent) {
  const math::ScatterReduce<Reduce> f;
  for (int64_t line = thread_index(); line < lines; line += thread_count()) {
    int64_t off[3];
    offsets_of<Index>(l, static_cast<Index>(line), off);
    for (int64_t j = 0; j < len; ++j) {
      const int64_t i = index[off[1] + j * index_step];
      if (i < 0 || i >= extent) continue;
      T& dst = self[off[2] + i * self_step];
      dst = f(dst, src[off[0] + j * src_step]);
    }
  }
}

porta_status read_call(uint32_t op, const porta_kernel_call* c, IndexCall* k) {
  char msg[256];
  return plugin::index_call(op, c, k, msg, sizeof msg) ? PORTA_OK : report(PORTA_ERROR_INVALID_ARGUMENT, msg);
}

template <class T>
porta_status gather(const porta_kernel_call* c) {
  IndexCall k;
  if (porta_status st = read_call(PORTA_OP_GATHER, c, &k); st != PORTA_OK) return st;
  Launch l;
  if (porta_status st = begin(c, &l); st != PORTA_OK) return st;
  const IndexLayout g = index_layout(k, false);
  const int64_t n = numel(*k.index);
  T* out = data_of<T>(*k.values);
  const int64_t* index = data_of<const int64_t>(*k.index);
  const T* src = data_of<const T>(*k.data);
  if (n <= int64_t{UINT32_MAX})
    gather_kernel<uint32_t, T><<<l.blocks(n), kThreads, 0, l.stream>>>(g.l, n, out, index, src, g.along[2], k.extent());
  else
    gather_kernel<uint64_t, T><<<l.blocks(n), kThreads, 0, l.stream>>>(g.l, n, out, index, src, g.along[2], k.extent());
  return launched("gather");
}

template <class T, int Reduce>
void launch_scatter(const Launch& l, const IndexCall& k) {
  const IndexLayout g = index_layout(k, true);
  const int64_t lines = k.lines(), len = k.index->shape[k.dim];
  const T* src = data_of<const T>(*k.values);
  const int64_t* index = data_of<const int64_t>(*k.index);
  T* self = data_of<T>(*k.data);
  if (lines <= int64_t{UINT32_MAX})
    scatter_kernel<uint32_t, T, Reduce><<<l.blocks(lines), kThreads, 0, l.stream>>>(
        g.l, lines, len, src, index, self, g.along[0], g.along[1], g.along[2], k.extent());
  else
    scatter_kernel<uint64_t, T, Reduce><<<l.blocks(lines), kThreads, 0, l.stream>>>(
        g.l, lines, len, src, index, self, g.along[0], g.along[1], g.along[2], k.extent());
}

template <class T>
porta_status scatter(const porta_kernel_call* c) {
  IndexCall k;
  if (porta_status st = read_call(PORTA_OP_SCATTER, c, &k); st != PORTA_OK) return st;
  if (numel(*k.index) == 0) return PORTA_OK;
  Launch l;
  if (porta_status st = begin(c, &l); st != PORTA_OK) return st;
  switch (k.reduce) {
    case PORTA_SCATTER_ASSIGN:
      launch_scatter<T, PORTA_SCATTER_ASSIGN>(l, k);
      break;
    case PORTA_SCATTER_SUM:
      launch_scatter<T, PORTA_SCATTER_SUM>(l, k);
      break;
    case PORTA_SCATTER_PROD:
      launch_scatter<T, PORTA_SCATTER_PROD>(l, k);
      break;
    case PORTA_SCATTER_AMAX:
      launch_scatter<T, PORTA_SCATTER_AMAX>(l, k);
      break;
    default:
      launch_scatter<T, PORTA_SCATTER_AMIN>(l, k);
      break;
  }
  return launched("scatter");
}

}  // namespace

porta_kernel_fn find_index_kernel(uint32_t op, int dtype) {
  if (!plugin::op_takes_dtype(op, dtype)) return nullptr;
  return visit_dtype(dtype, [&]<int DT>() {
    using T = storage_t<DT>;
    return lookup_kind<PORTA_OP_KIND_INDEX>(op, []<uint32_t Op>(op_id<Op>) -> porta_kernel_fn {
      if constexpr (Op == PORTA_OP_GATHER)
        return &gather<T>;
      else if constexpr (Op == PORTA_OP_SCATTER)
        return &scatter<T>;
      else
        static_assert(no_kernel_for<Op>, "an INDEX row without its kernel here");
    });
  });
}

}  // namespace porta::cuda
