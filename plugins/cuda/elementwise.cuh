// The elementwise launcher shared by the COPY, UNARY, BINARY, COMPARE and
// WHERE kernels: out = op(in...) over out's shape. Contiguous operands (or
// broadcast scalars) take a vectorized grid-stride loop; anything else takes
// the strided loop of strided_index.cuh.
#pragma once

#include <utility>

#include "kernels.hpp"
#include "strided_index.cuh"

namespace porta::cuda {

// Elements per vector in the contiguous loop.
inline constexpr int kVector = 4;

// An input of the contiguous loop: contiguous (step 1) or one broadcast value (step 0).
template <class T>
struct Linear {
  const T* p;
  int64_t step;
  __device__ T at(int64_t i) const { return p[i * step]; }
  __device__ Vec<T, kVector> vec(int64_t vi) const {
    if (step) return *reinterpret_cast<const Vec<T, kVector>*>(p + vi * kVector);
    Vec<T, kVector> r;
#pragma unroll
    for (int j = 0; j < kVector; ++j) r.v[j] = p[0];
    return r;
  }
};

template <class Op, class Out, class... In>
__device__ inline void apply_vec(Out* out, int64_t vi, Op op, const Vec<In, kVector>&... v) {
  Vec<Out, kVector> r;
#pragma unroll
  for (int j = 0; j < kVector; ++j) r.v[j] = op(v.v[j]...);
  *reinterpret_cast<Vec<Out, kVector>*>(out + vi * kVector) = r;
}

template <class Op, class Out, class... In>
__global__ void __launch_bounds__(kThreads) contiguous_kernel(Out* out, int64_t n, Op op, Linear<In>... in) {
  const int64_t vectors = n / kVector;
  for (int64_t vi = thread_index(); vi < vectors; vi += thread_count()) apply_vec(out, vi, op, in.vec(vi)...);
  for (int64_t i = vectors * kVector + thread_index(); i < n; i += thread_count()) out[i] = op(in.at(i)...);
}

template <class Op, class Out, class... In, size_t... Is>
__device__ inline void apply_at(std::index_sequence<Is...>, const int64_t* off, Op op, Out* out, const In*... in) {
  out[off[0]] = op(in[off[Is + 1]]...);
}

template <class Index, class Op, class Out, class... In>
__global__ void __launch_bounds__(kThreads)
    strided_kernel(Layout<1 + sizeof...(In)> l, int64_t n, Op op, Out* out, const In*... in) {
  for (int64_t i = thread_index(); i < n; i += thread_count()) {
    int64_t off[1 + sizeof...(In)];
    offsets_of<Index>(l, static_cast<Index>(i), off);
    apply_at(std::index_sequence_for<In...>{}, off, op, out, in...);
  }
}

template <class Op, class Out, class... In, size_t... Is>
porta_status launch_elementwise_impl(const porta_kernel_call* c, const char* name, Op op, std::index_sequence<Is...>) {
  Launch l;
  if (porta_status st = begin(c, &l); st != PORTA_OK) return st;
  const DLTensor& o = c->outputs[0];
  const int64_t n = numel(o);
  Out* out = data_of<Out>(o);
  const void* in[sizeof...(In) + 1] = {data_of<In>(c->inputs[Is])..., nullptr};
  const size_t in_size[sizeof...(In) + 1] = {sizeof(In)..., 0};

  bool linear = is_contiguous(o) && is_aligned(out, sizeof(Out) * kVector);
  int64_t step[sizeof...(In) + 1] = {};
  for (size_t k = 0; k < sizeof...(In) && linear; ++k) {
    const DLTensor& t = c->inputs[k];
    if (is_contiguous(t) && is_aligned(in[k], in_size[k] * kVector))
      step[k] = 1;
    else if (is_broadcast_scalar(t))
      step[k] = 0;
    else
      linear = false;
  }
  if (linear) {
    contiguous_kernel<Op, Out, In...><<<l.blocks((n + kVector - 1) / kVector), kThreads, 0, l.stream>>>(
        out, n, op, Linear<In>{static_cast<const In*>(in[Is]), step[Is]}...);
  } else {
    const DLTensor* ts[sizeof...(In) + 1] = {&o, &c->inputs[Is]...};
    const Layout<sizeof...(In) + 1> layout = layout_of(ts);
    if (n <= int64_t{UINT32_MAX})
      strided_kernel<uint32_t, Op, Out, In...>
          <<<l.blocks(n), kThreads, 0, l.stream>>>(layout, n, op, out, static_cast<const In*>(in[Is])...);
    else
      strided_kernel<uint64_t, Op, Out, In...>
          <<<l.blocks(n), kThreads, 0, l.stream>>>(layout, n, op, out, static_cast<const In*>(in[Is])...);
  }
  return launched(name);
}

// out (Out) = op(inputs[0] (In[0]), inputs[1] (In[1]), ...), elementwise.
template <class Op, class Out, class... In>
porta_status launch_elementwise(const porta_kernel_call* c, const char* name, Op op = Op{}) {
  return launch_elementwise_impl<Op, Out, In...>(c, name, op, std::index_sequence_for<In...>{});
}

}  // namespace porta::cuda
