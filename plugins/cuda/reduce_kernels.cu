// REDUCE and ARGREDUCE kernels over contiguous [outer, reduce, inner] ->
// [outer, inner]. Sums accumulate in double for floats and int64 for
// integers; max/min keep the first extreme index, and a NaN is an extreme
// (the first NaN wins), exactly as the cpu plugin's sequential loop.
// Three shapes of launch: a thread per output (many outputs, inner > 1), a
// block per output (rows), and a split of the reduced axis over many blocks
// plus a merge pass (few outputs, long rows).
#include <type_traits>

#include "dtype_dispatch.hpp"
#include "elementwise_math.hpp"
#include "kernels.hpp"
#include "strided_index.cuh"

namespace porta::cuda {
namespace {

using host::is_float_dt;
using host::storage_t;
using host::visit_dtype;

template <class T>
using acc_t = std::conditional_t<std::is_floating_point_v<T>, double, int64_t>;

constexpr bool is_sum(uint32_t op) { return op == PORTA_OP_SUM || op == PORTA_OP_MEAN; }
constexpr bool is_arg(uint32_t op) { return op == PORTA_OP_ARGMAX || op == PORTA_OP_ARGMIN; }

// A running reduction. Merging is commutative: the survivor is decided by
// value and then by index, never by the order partial results meet.
template <uint32_t Op, class T>
struct Acc {
  acc_t<T> sum;
  T best;
  int64_t index;  // of best; -1 while empty

  __device__ static Acc empty() { return Acc{acc_t<T>(0), T(0), -1}; }
  __device__ void add(T x, int64_t i) {
    if constexpr (is_sum(Op))
      sum += static_cast<acc_t<T>>(x);
    else
      merge(Acc{acc_t<T>(0), x, i});
  }
  __device__ void merge(const Acc& o) {
    if constexpr (is_sum(Op)) {
      sum += o.sum;
    } else {
      if (o.index < 0) return;
      bool take;
      if (index < 0) {
        take = true;
      } else {
        const bool mine_nan = math::is_nan(best), theirs_nan = math::is_nan(o.best);
        constexpr bool want_max = Op == PORTA_OP_MAX || Op == PORTA_OP_ARGMAX;
        if (mine_nan || theirs_nan)
          take = theirs_nan && (!mine_nan || o.index < index);
        else if (o.best == best)
          take = o.index < index;
        else
          take = want_max ? o.best > best : o.best < best;
      }
      if (take) best = o.best, index = o.index;
    }
  }
  template <class Out>
  __device__ Out finish(int64_t count) const {
    if constexpr (Op == PORTA_OP_SUM)
      return static_cast<Out>(sum);
    else if constexpr (Op == PORTA_OP_MEAN)
      return static_cast<Out>(static_cast<double>(sum) / static_cast<double>(count));
    else if constexpr (is_arg(Op))
      return static_cast<Out>(index);
    else
      return static_cast<Out>(best);
  }
};

// Merges the block's accumulators into part[0] (blockDim.x a power of two).
template <class A>
__device__ void block_merge(A* part) {
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x].merge(part[threadIdx.x + s]);
    __syncthreads();
  }
}

// One thread per output, walking its row in order.
template <uint32_t Op, class T, class Out>
__global__ void __launch_bounds__(kThreads)
    reduce_thread_kernel(const T* x, Out* y, int64_t outputs, int64_t red, int64_t inner) {
  for (int64_t o = thread_index(); o < outputs; o += thread_count()) {
    const T* row = x + (o / inner) * red * inner + o % inner;
    Acc<Op, T> a = Acc<Op, T>::empty();
    for (int64_t k = 0; k < red; ++k) a.add(row[k * inner], k);
    y[o] = a.template finish<Out>(red);
  }
}

// One block per output, its threads striding over the row.
template <uint32_t Op, class T, class Out>
__global__ void __launch_bounds__(kThreads)
    reduce_block_kernel(const T* x, Out* y, int64_t outputs, int64_t red, int64_t inner) {
  __shared__ Acc<Op, T> part[kThreads];
  for (int64_t o = blockIdx.x; o < outputs; o += gridDim.x) {
    const T* row = x + (o / inner) * red * inner + o % inner;
    Acc<Op, T> a = Acc<Op, T>::empty();
    for (int64_t k = threadIdx.x; k < red; k += blockDim.x) a.add(row[k * inner], k);
    part[threadIdx.x] = a;
    __syncthreads();
    block_merge(part);
    if (threadIdx.x == 0) y[o] = part[0].template finish<Out>(red);
    __syncthreads();  // part[] is reused for the next output
  }
}

// Split pass: block (p, o) reduces chunk p of output o's row into partial[o * parts + p].
template <uint32_t Op, class T>
__global__ void __launch_bounds__(kThreads)
    reduce_partial_kernel(const T* x, Acc<Op, T>* partial, int64_t red, int64_t inner, int64_t chunk) {
  __shared__ Acc<Op, T> part[kThreads];
  const int64_t o = blockIdx.y, p = blockIdx.x;
  const T* row = x + (o / inner) * red * inner + o % inner;
  const int64_t end = (p + 1) * chunk < red ? (p + 1) * chunk : red;
  Acc<Op, T> a = Acc<Op, T>::empty();
  for (int64_t k = p * chunk + threadIdx.x; k < end; k += blockDim.x) a.add(row[k * inner], k);
  part[threadIdx.x] = a;
  __syncthreads();
  block_merge(part);
  if (threadIdx.x == 0) partial[o * gridDim.x + p] = part[0];
}

// Merge pass: one block per output over its `parts` partial results.
template <uint32_t Op, class T, class Out>
__global__ void __launch_bounds__(kThreads)
    reduce_merge_kernel(const Acc<Op, T>* partial, Out* y, int64_t parts, int64_t red) {
  __shared__ Acc<Op, T> part[kThreads];
  const int64_t o = blockIdx.x;
  Acc<Op, T> a = Acc<Op, T>::empty();
  for (int64_t p = threadIdx.x; p < parts; p += blockDim.x) a.merge(partial[o * parts + p]);
  part[threadIdx.x] = a;
  __syncthreads();
  block_merge(part);
  if (threadIdx.x == 0) y[o] = part[0].template finish<Out>(red);
}

// Threads per block for rows of `red` elements: a power of two in [32, kThreads].
int block_threads(int64_t red) {
  int t = 32;
  while (t < kThreads && t < red) t *= 2;
  return t;
}

constexpr int64_t kSplitMinRow = int64_t{1} << 16;  // rows this long split when outputs are few
constexpr int64_t kSplitChunk = int64_t{1} << 13;   // elements per block in the split pass

template <uint32_t Op, class T>
porta_status reduce_kernel(const porta_kernel_call* c) {
  using Out = std::conditional_t<is_arg(Op), int64_t, T>;
  using A = Acc<Op, T>;
  Launch l;
  if (porta_status st = begin(c, &l); st != PORTA_OK) return st;
  const DLTensor& in = c->inputs[0];
  if (in.ndim != 3)
    return reportf(PORTA_ERROR_INVALID_ARGUMENT, "reduce: expected [outer, reduce, inner], got %d-D", in.ndim);
  const int64_t outer = in.shape[0], red = in.shape[1], inner = in.shape[2], outputs = outer * inner;
  const T* x = data_of<const T>(in);
  Out* y = data_of<Out>(c->outputs[0]);
  const int64_t sms = l.device->sm_count;

  if (outputs < sms && red >= kSplitMinRow && outputs <= 65535) {
    const int64_t max_parts = (sms * 8 + outputs - 1) / outputs;
    int64_t parts = (red + kSplitChunk - 1) / kSplitChunk;
    parts = parts < max_parts ? parts : max_parts;
    const int64_t chunk = (red + parts - 1) / parts;
    std::lock_guard<std::mutex> lock(l.device->scratch_mutex);
    void* partial = nullptr;
    if (porta_status st = scratch(*l.device, sizeof(A) * static_cast<size_t>(outputs * parts), &partial);
        st != PORTA_OK)
      return st;
    reduce_partial_kernel<Op, T>
        <<<dim3(static_cast<unsigned>(parts), static_cast<unsigned>(outputs)), kThreads, 0, l.stream>>>(
            x, static_cast<A*>(partial), red, inner, chunk);
    if (porta_status st = launched("reduce"); st != PORTA_OK) return st;
    reduce_merge_kernel<Op, T, Out><<<static_cast<unsigned>(outputs), block_threads(parts), 0, l.stream>>>(
        static_cast<const A*>(partial), y, parts, red);
  } else if (inner > 1 && outputs >= 4096) {
    reduce_thread_kernel<Op, T, Out><<<l.blocks(outputs), kThreads, 0, l.stream>>>(x, y, outputs, red, inner);
  } else {
    const int threads = block_threads(red);
    reduce_block_kernel<Op, T, Out>
        <<<l.blocks(outputs * threads, threads), threads, 0, l.stream>>>(x, y, outputs, red, inner);
  }
  return launched("reduce");
}

}  // namespace

porta_kernel_fn find_reduce_kernel(uint32_t op, int dtype) {
  return visit_dtype(dtype, [&]<int DT>() {
    using T = storage_t<DT>;
    // The row's dtype class: sum int64 and the floats, mean the floats, the others any.
    auto make = []<uint32_t Op>(op_id<Op>) -> porta_kernel_fn {
      static_assert(
          op_in<Op, PORTA_OP_SUM, PORTA_OP_MEAN, PORTA_OP_MAX, PORTA_OP_MIN, PORTA_OP_ARGMAX, PORTA_OP_ARGMIN>,
          "a REDUCE or ARGREDUCE row reduce_kernel does not serve");
      if constexpr (plugin::op_takes_dtype(Op, DT))
        return &reduce_kernel<Op, T>;
      else
        return nullptr;
    };
    return lookup_kind<PORTA_OP_KIND_REDUCE, PORTA_OP_KIND_ARGREDUCE>(op, make);
  });
}

}  // namespace porta::cuda
