// Index math for strided and broadcast operands, written once for every
// host kernel: walks K tensors of one shape in row-major order, handing the
// kernel body runs along the innermost dimension.
#pragma once

#include <dlpack/dlpack.h>

#include <algorithm>
#include <cstdint>

#include "thread_pool.hpp"

namespace porta::host {


// K operands sharing `shape`; operand k has element pointer base[k] and
// strides strides[k] (elements of its own size, esize[k] bytes).
template <int K>
struct StridedOperands {
  int32_t ndim = 0;
  const int64_t* shape = nullptr;
  char* base[K] = {};
  const int64_t* strides[K] = {};
  int64_t esize[K] = {};
};

// Calls body(ptrs, inner_strides_in_bytes, count, linear_index) for every
// innermost run of elements [begin, end) (linear row-major indices).
template <int K, typename Body>
void for_each_run(const StridedOperands<K>& ops, int64_t begin, int64_t end, Body&& body) {
  if (begin >= end) return;
  const int32_t nd = ops.ndim;
  if (nd == 0) {
    char* p[K];
    int64_t s[K];
    for (int k = 0; k < K; ++k) p[k] = ops.base[k], s[k] = 0;
    body(p, s, int64_t{1}, begin);
    return;
  }
  const int64_t inner = ops.shape[nd - 1];
  int64_t idx[32];
  int64_t rem = begin;
  for (int32_t d = nd - 1; d >= 0; --d) {
    idx[d] = rem % ops.shape[d];
    rem /= ops.shape[d];
  }
  int64_t inner_stride[K];
  for (int k = 0; k < K; ++k) inner_stride[k] = ops.strides[k][nd - 1] * ops.esize[k];
  int64_t linear = begin;
  while (linear < end) {
    char* p[K];
    for (int k = 0; k < K; ++k) {
      int64_t off = 0;
      for (int32_t d = 0; d < nd; ++d) off += idx[d] * ops.strides[k][d];
      p[k] = ops.base[k] + off * ops.esize[k];
    }
    const int64_t count = std::min(inner - idx[nd - 1], end - linear);
    body(p, inner_stride, count, linear);
    linear += count;
    idx[nd - 1] += count;
    for (int32_t d = nd - 1; d > 0 && idx[d] >= ops.shape[d]; --d) {
      idx[d] = 0;
      ++idx[d - 1];
    }
  }
}

// Builds the operand set from DLTensors (all of outs[0]'s shape): the
// output first, then the inputs.
template <int K>
StridedOperands<K> operands(const DLTensor* const (&ts)[K]) {
  StridedOperands<K> ops;
  ops.ndim = ts[0]->ndim;
  ops.shape = ts[0]->shape;
  for (int k = 0; k < K; ++k) {
    ops.base[k] = static_cast<char*>(ts[k]->data) + ts[k]->byte_offset;
    ops.strides[k] = ts[k]->strides;
    ops.esize[k] = (ts[k]->dtype.bits * ts[k]->dtype.lanes + 7) / 8;
  }
  return ops;
}

// Elements per parallel chunk for elementwise work.
inline constexpr int64_t kElementwiseGrain = 1 << 15;

// Runs body over all elements in parallel chunks.
template <int K, typename Body>
void parallel_runs(const StridedOperands<K>& ops, int64_t n, Body&& body) {
  parallel_for(n, kElementwiseGrain, [&](int64_t b, int64_t e) { for_each_run(ops, b, e, body); });
}

}  // namespace porta::host
