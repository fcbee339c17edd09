// FACTORY kernels: full, arange and the Philox samplers, writing each
// element's generator(linear index) into any (strided) output. Built with
// -fmad=false so arange and the uniform sampler round exactly as the cpu
// plugin does. Normal samples are made on the host by philox.h's
// porta_normal and copied over: their log and cos must be the host libm's
// (glibc's are not correctly rounded in about 1 case in 1000, and no device
// libm reproduces its choices), or the bits would differ from cpu's.
#include <algorithm>
#include <thread>
#include <vector>

#include "dtype_dispatch.hpp"
#include "kernels.hpp"
#include "strided_index.cuh"
#define PORTA_PHILOX_QUALIFIER static __host__ __device__ inline
#include "philox.h"

namespace porta::cuda {
namespace {

using host::is_float_dt;
using host::storage_t;
using host::visit_dtype;

template <class Index, class T, class Gen>
__global__ void __launch_bounds__(kThreads) generate_kernel(T* out, Layout<1> l, bool contiguous, int64_t n, Gen gen) {
  for (int64_t i = thread_index(); i < n; i += thread_count()) {
    int64_t off[1] = {i};
    if (!contiguous) offsets_of<Index>(l, static_cast<Index>(i), off);
    out[off[0]] = gen(i);
  }
}

// Writes gen(linear index) to every element of the output.
template <class T, class Gen>
porta_status generate(const porta_kernel_call* c, const char* name, Gen gen) {
  Launch l;
  if (porta_status st = begin(c, &l); st != PORTA_OK) return st;
  const DLTensor& o = c->outputs[0];
  const DLTensor* ts[1] = {&o};
  const int64_t n = numel(o);
  const bool contiguous = is_contiguous(o);
  if (n <= int64_t{UINT32_MAX})
    generate_kernel<uint32_t><<<l.blocks(n), kThreads, 0, l.stream>>>(data_of<T>(o), layout_of(ts), contiguous, n, gen);
  else
    generate_kernel<uint64_t><<<l.blocks(n), kThreads, 0, l.stream>>>(data_of<T>(o), layout_of(ts), contiguous, n, gen);
  return launched(name);
}

template <class T>
struct Fill {
  T v;
  __device__ T operator()(int64_t) const { return v; }
};

template <class T>
struct Arange {
  double start, step;
  __device__ T operator()(int64_t i) const { return static_cast<T>(start + static_cast<double>(i) * step); }
};

struct UniformF32 {
  uint64_t seed, offset;
  float a, range;
  __device__ float operator()(int64_t i) const {
    return a + porta_uniform_f32(seed, offset + static_cast<uint64_t>(i)) * range;
  }
};

struct UniformF64 {
  uint64_t seed, offset;
  double a, range;
  __device__ double operator()(int64_t i) const {
    return a + porta_uniform_f64(seed, offset + static_cast<uint64_t>(i)) * range;
  }
};

template <class T>
struct Load {
  const T* src;
  __device__ T operator()(int64_t i) const { return src[i]; }
};

template <int DT>
porta_status fill_kernel(const porta_kernel_call* c) {
  using T = storage_t<DT>;
  const auto* p = op_params<porta_fill_params>(c);
  if (!p) return report(PORTA_ERROR_INVALID_ARGUMENT, "full: missing porta_fill_params");
  const T v = host::fill_value<DT>(*p);
  return generate<T>(c, "full", Fill<T>{v});
}

template <int DT>
porta_status arange_kernel(const porta_kernel_call* c) {
  using T = storage_t<DT>;
  const auto* p = op_params<porta_arange_params>(c);
  if (!p) return report(PORTA_ERROR_INVALID_ARGUMENT, "arange: missing porta_arange_params");
  return generate<T>(c, "arange", Arange<T>{p->start, p->step});
}

template <int DT>
porta_status uniform_kernel(const porta_kernel_call* c) {
  const auto* p = op_params<porta_random_params>(c);
  if (!p) return report(PORTA_ERROR_INVALID_ARGUMENT, "rand: missing porta_random_params");
  if constexpr (DT == kDtFloat32)
    return generate<float>(c, "rand",
                           UniformF32{p->seed, p->offset, static_cast<float>(p->a), static_cast<float>(p->b - p->a)});
  else
    return generate<double>(c, "rand", UniformF64{p->seed, p->offset, p->a, p->b - p->a});
}

template <int DT>
porta_status normal_kernel(const porta_kernel_call* c) {
  using T = storage_t<DT>;
  const auto* p = op_params<porta_random_params>(c);
  if (!p) return report(PORTA_ERROR_INVALID_ARGUMENT, "randn: missing porta_random_params");
  Launch l;
  if (porta_status st = begin(c, &l); st != PORTA_OK) return st;
  const DLTensor& o = c->outputs[0];
  const int64_t n = numel(o);
  std::vector<T> samples(static_cast<size_t>(n));
  const uint64_t seed = p->seed, offset = p->offset;
  const double a = p->a, b = p->b;
  auto fill = [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i)
      samples[static_cast<size_t>(i)] = static_cast<T>(a + b * porta_normal(seed, offset + static_cast<uint64_t>(i)));
  };
  const int64_t workers = std::clamp<int64_t>(n >> 16, 1, std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (int64_t w = 1; w < workers; ++w) pool.emplace_back(fill, n * w / workers, n * (w + 1) / workers);
  fill(0, n / workers);
  for (std::thread& t : pool) t.join();

  const size_t bytes = sizeof(T) * static_cast<size_t>(n);
  if (is_contiguous(o)) {
    if (porta_status st = check(cudaMemcpyAsync(data_of<T>(o), samples.data(), bytes, cudaMemcpyHostToDevice, l.stream),
                                "randn: cudaMemcpyAsync");
        st != PORTA_OK)
      return st;
    return check(cudaStreamSynchronize(l.stream), "randn: cudaStreamSynchronize");  // `samples` goes next
  }
  std::lock_guard<std::mutex> lock(l.device->scratch_mutex);
  void* staged = nullptr;
  if (porta_status st = scratch(*l.device, bytes, &staged); st != PORTA_OK) return st;
  if (porta_status st = check(cudaMemcpyAsync(staged, samples.data(), bytes, cudaMemcpyHostToDevice, l.stream),
                              "randn: cudaMemcpyAsync");
      st != PORTA_OK)
    return st;
  if (porta_status st = check(cudaStreamSynchronize(l.stream), "randn: cudaStreamSynchronize"); st != PORTA_OK)
    return st;
  return generate<T>(c, "randn", Load<T>{static_cast<const T*>(staged)});
}

// The fill kernel of a dtype (a functor: nvcc refuses a template lambda here).
struct FillOf {
  template <int DT>
  porta_kernel_fn operator()() const {
    return &fill_kernel<DT>;
  }
};

}  // namespace

porta_kernel_fn find_factory_kernel(uint32_t op, int dtype) {
  if (plugin::is_storage_dt(dtype))  // FULL only: the core computes the others in float32 / int32
    return op == PORTA_OP_FULL ? host::visit_any_dtype(dtype, FillOf{}) : nullptr;
  return visit_dtype(dtype, [&]<int DT>() {
    return lookup_kind<PORTA_OP_KIND_FACTORY>(op, []<uint32_t Op>(op_id<Op>) -> porta_kernel_fn {
      if constexpr (!plugin::op_takes_dtype(Op, DT))
        return nullptr;  // arange: no bool; the random ops: floats only (the row's dtype class)
      else if constexpr (Op == PORTA_OP_FULL)
        return &fill_kernel<DT>;
      else if constexpr (Op == PORTA_OP_ARANGE)
        return &arange_kernel<DT>;
      else if constexpr (Op == PORTA_OP_RAND_UNIFORM)
        return &uniform_kernel<DT>;
      else if constexpr (Op == PORTA_OP_RAND_NORMAL)
        return &normal_kernel<DT>;
      else
        static_assert(no_kernel_for<Op>, "a FACTORY row without its kernel here");
    });
  });
}

}  // namespace porta::cuda
