// Host kernels of the FACTORY kind: fill, arange and the Philox samplers.
#include "dtype_dispatch.hpp"
#include "philox.h"
#include "philox_vector.hpp"
#include "strided_loop.hpp"

namespace porta::host {
namespace {

// Writes gen(linear_index) to every element of the (possibly strided) output.
template <class T, class Gen>
void generate(const porta_kernel_call* c, Gen gen) {
  const DLTensor* ts[1] = {&c->outputs[0]};
  parallel_runs(operands(ts), numel(c->outputs[0]), [&](char** p, const int64_t* s, int64_t n, int64_t first) {
    for (int64_t i = 0; i < n; ++i) *reinterpret_cast<T*>(p[0] + i * s[0]) = gen(first + i);
  });
}

template <class P>
const P* params(const porta_kernel_call* c) {
  const P* p = static_cast<const P*>(c->params);
  return (p && p->struct_size >= sizeof(P)) ? p : nullptr;
}

template <int DT>
porta_status fill_kernel(const porta_kernel_call* c) {
  using T = storage_t<DT>;
  const auto* p = params<porta_fill_params>(c);
  if (!p) return report(PORTA_ERROR_INVALID_ARGUMENT, "full: missing porta_fill_params");
  const T v = fill_value<DT>(*p);
  generate<T>(c, [v](int64_t) { return v; });
  return PORTA_OK;
}

template <int DT>
porta_status arange_kernel(const porta_kernel_call* c) {
  using T = storage_t<DT>;
  const auto* p = params<porta_arange_params>(c);
  if (!p) return report(PORTA_ERROR_INVALID_ARGUMENT, "arange: missing porta_arange_params");
  const double start = p->start, step = p->step;
  generate<T>(c, [=](int64_t i) { return static_cast<T>(start + static_cast<double>(i) * step); });
  return PORTA_OK;
}

template <int DT, bool Normal>
porta_status random_kernel(const porta_kernel_call* c) {
  using T = storage_t<DT>;
  const auto* p = params<porta_random_params>(c);
  if (!p) return report(PORTA_ERROR_INVALID_ARGUMENT, "rand: missing porta_random_params");
  const uint64_t seed = p->seed, offset = p->offset;
  const double a = p->a, b = p->b;
  if constexpr (!Normal && DT == kDtFloat32) {  // contiguous runs 8 or 16 samples at a time (philox_vector.hpp)
    const DLTensor* ts[1] = {&c->outputs[0]};
    const float af = static_cast<float>(a), scale = static_cast<float>(b - a);
    parallel_runs(operands(ts), numel(c->outputs[0]), [&](char** q, const int64_t* s, int64_t n, int64_t first) {
      if (s[0] == sizeof(float)) return philox_uniform_f32(seed, offset + static_cast<uint64_t>(first),
                                                           reinterpret_cast<float*>(q[0]), n, af, scale);
      for (int64_t i = 0; i < n; ++i)
        *reinterpret_cast<float*>(q[0] + i * s[0]) = af + porta_uniform_f32(seed, offset + static_cast<uint64_t>(first + i)) * scale;
    });
    return PORTA_OK;
  }
  generate<T>(c, [=](int64_t i) {
    const uint64_t n = offset + static_cast<uint64_t>(i);
    if constexpr (Normal) {
      return static_cast<T>(a + b * porta_normal(seed, n));
    } else if constexpr (DT == kDtFloat32) {
      return static_cast<T>(static_cast<float>(a) + porta_uniform_f32(seed, n) * static_cast<float>(b - a));
    } else {
      return static_cast<T>(a + porta_uniform_f64(seed, n) * (b - a));
    }
  });
  return PORTA_OK;
}

}  // namespace

porta_kernel_fn find_storage_fill_kernel(int dtype) {
  return visit_any_dtype(dtype, []<int DT>() -> porta_kernel_fn { return &fill_kernel<DT>; });
}

porta_kernel_fn find_factory_kernel(uint32_t op, int dtype) {
  return visit_dtype(dtype, [&]<int DT>() {
    return lookup_kind<PORTA_OP_KIND_FACTORY>(op, []<uint32_t Op>(op_id<Op>) -> porta_kernel_fn {
      if constexpr (!plugin::op_takes_dtype(Op, DT))
        return nullptr;  // arange: no bool; the random ops: floats only (the row's dtype class)
      else if constexpr (Op == PORTA_OP_FULL)
        return &fill_kernel<DT>;
      else if constexpr (Op == PORTA_OP_ARANGE)
        return &arange_kernel<DT>;
      else if constexpr (Op == PORTA_OP_RAND_UNIFORM)
        return &random_kernel<DT, false>;
      else if constexpr (Op == PORTA_OP_RAND_NORMAL)
        return &random_kernel<DT, true>;
      else
        static_assert(no_kernel_for<Op>, "a FACTORY row without its kernel here");
    });
  });
}

}  // namespace porta::host
