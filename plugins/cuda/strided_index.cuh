// Index math for strided and broadcast operands on the device, written once
// for every cuda kernel: K operands sharing one shape (operand 0 is the
// output), a linear row-major index turned into each operand's offset.
#pragma once

#include <cuda_runtime.h>
#include <porta/types.h>

#include <cstdint>

namespace porta::cuda {

// K operands of one shape, passed to kernels by value.
template <int K>
struct Layout {
  int32_t ndim = 0;
  int64_t shape[PORTA_MAX_DIMS] = {};
  int64_t strides[K][PORTA_MAX_DIMS] = {};  // elements; 0 where broadcast
};

// Row-major strides of `t`'s own shape where DLPack leaves strides NULL.
inline int64_t stride_of(const DLTensor& t, int32_t d) {
  if (t.strides) return t.strides[d];
  int64_t s = 1;
  for (int32_t i = d + 1; i < t.ndim; ++i) s *= t.shape[i];
  return s;
}

// The layout of ts[0..K) over ts[0]'s shape (every operand has that shape).
template <int K>
Layout<K> layout_of(const DLTensor* const (&ts)[K]) {
  Layout<K> l;
  l.ndim = ts[0]->ndim;
  for (int32_t d = 0; d < l.ndim; ++d) {
    l.shape[d] = ts[0]->shape[d];
    for (int k = 0; k < K; ++k) l.strides[k][d] = stride_of(*ts[k], d);
  }
  return l;
}

// Whether `t` is row-major contiguous over its shape (size-1 dims ignored).
inline bool is_contiguous(const DLTensor& t) {
  int64_t expected = 1;
  for (int32_t d = t.ndim - 1; d >= 0; --d) {
    if (t.shape[d] != 1 && stride_of(t, d) != expected) return false;
    expected *= t.shape[d];
  }
  return true;
}

// Whether every element of `t` is the same one (all strides 0 or size 1).
inline bool is_broadcast_scalar(const DLTensor& t) {
  for (int32_t d = 0; d < t.ndim; ++d)
    if (t.shape[d] != 1 && stride_of(t, d) != 0) return false;
  return true;
}

inline bool is_aligned(const void* p, size_t alignment) { return reinterpret_cast<uintptr_t>(p) % alignment == 0; }

#if defined(__CUDACC__)

__device__ inline int64_t thread_index() { return int64_t{blockIdx.x} * blockDim.x + threadIdx.x; }
__device__ inline int64_t thread_count() { return int64_t{gridDim.x} * blockDim.x; }

// Offsets (in elements) of linear index `i` in each operand. Index is
// uint32_t when the element count allows (division is much cheaper).
template <class Index, int K>
__device__ inline void offsets_of(const Layout<K>& l, Index i, int64_t (&off)[K]) {
#pragma unroll
  for (int k = 0; k < K; ++k) off[k] = 0;
  for (int32_t d = l.ndim - 1; d >= 0; --d) {
    const Index extent = static_cast<Index>(l.shape[d]);
    const Index at = d > 0 ? i % extent : i;
    i = d > 0 ? i / extent : 0;
#pragma unroll
    for (int k = 0; k < K; ++k) off[k] += static_cast<int64_t>(at) * l.strides[k][d];
  }
}

#endif

// V elements loaded or stored with one (vector) memory access.
template <class T, int V>
struct alignas(sizeof(T) * V) Vec {
  T v[V];
};

}  // namespace porta::cuda
