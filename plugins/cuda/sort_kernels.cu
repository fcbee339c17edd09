// SORT kernels: a bottom-up stable merge sort of every (outer, inner) line
// of contiguous [outer, n, inner] at once. Each pass merges runs of width
// 1, 2, 4, ... with a thread per element finding its place by binary search
// in the neighbouring run (sort_order.hpp), ping-ponging between the
// outputs and the scratch outputs the core provides; the start buffer is
// chosen so that the last pass writes the outputs. O(N log^2 n) work, no
// atomics, and the host kernels' result bit for bit.
#include "dtype_dispatch.hpp"
#include "kernels.hpp"
#include "sort_call.hpp"
#include "sort_order.hpp"
#include "strided_index.cuh"

namespace porta::cuda {
namespace {

using host::storage_t;
using host::visit_dtype;

template <class T>
__global__ void __launch_bounds__(kThreads) sort_start(const T* x, T* v, int64_t* idx, int64_t total, int64_t n,
                                                       int64_t inner) {
  for (int64_t e = thread_index(); e < total; e += thread_count()) {
    v[e] = x[e];
    idx[e] = e / inner % n;
  }
}

template <class T>
__global__ void __launch_bounds__(kThreads)
    sort_merge(const T* v, const int64_t* idx, T* v_out, int64_t* idx_out, int64_t total, int64_t n, int64_t inner,
               int64_t width, bool descending) {
  for (int64_t e = thread_index(); e < total; e += thread_count()) {
    const int64_t j = e / inner % n, line0 = e - j * inner;  // the address of the line's element 0
    const T x = v[e];
    const int64_t k =
        math::merge_destination(j, n, width, descending, x, [&](int64_t m) { return v[line0 + m * inner]; });
    v_out[line0 + k * inner] = x;
    idx_out[line0 + k * inner] = idx[e];
  }
}

template <class T>
porta_status sort(const porta_kernel_call* c) {
  plugin::SortCall s;
  char msg[256];
  if (!plugin::sort_call(c, &s, msg, sizeof msg)) return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
  if (!s.has_scratch) return report(PORTA_ERROR_INVALID_ARGUMENT, "sort: the cuda kernel needs the scratch outputs[2..3]");
  Launch l;
  if (porta_status st = begin(c, &l); st != PORTA_OK) return st;
  const int64_t total = s.outer * s.n * s.inner;
  int passes = 0;
  for (int64_t w = 1; w < s.n; w *= 2) ++passes;
  T* v[2] = {data_of<T>(c->outputs[0]), data_of<T>(c->outputs[2])};
  int64_t* idx[2] = {data_of<int64_t>(c->outputs[1]), data_of<int64_t>(c->outputs[3])};
  int at = passes % 2;  // an odd number of passes starts in the scratch and ends in the outputs
  sort_start<T><<<l.blocks(total), kThreads, 0, l.stream>>>(data_of<const T>(c->inputs[0]), v[at], idx[at], total,
                                                            s.n, s.inner);
  for (int64_t w = 1; w < s.n; w *= 2, at ^= 1)
    sort_merge<T><<<l.blocks(total), kThreads, 0, l.stream>>>(v[at], idx[at], v[at ^ 1], idx[at ^ 1], total, s.n,
                                                              s.inner, w, s.descending);
  return launched("sort");
}

}  // namespace

porta_kernel_fn find_sort_kernel(uint32_t op, int dtype) {
  if (op != PORTA_OP_SORT) return nullptr;
  return visit_dtype(dtype, [&]<int DT>() -> porta_kernel_fn {
    if constexpr (plugin::op_takes_dtype(PORTA_OP_SORT, DT))
      return &sort<storage_t<DT>>;
    else
      return nullptr;
  });
}

}  // namespace porta::cuda
