// Host kernels of the COPY, UNARY, BINARY, COMPARE and WHERE kinds. The
// transcendental unary ops of float and double run on SLEEF's vector
// functions where it is loaded (vector_math.hpp), strided runs through a
// buffer, so that every element gets the same bits wherever it sits.
#include <algorithm>
#include <type_traits>

#include "copy_run.hpp"
#include "dtype_dispatch.hpp"
#include "elementwise_lookup.hpp"
#include "elementwise_math.hpp"
#include "half_runs.hpp"
#include "lane_math.hpp"
#include "strided_loop.hpp"
#include "vector_math.hpp"

namespace porta::host {
namespace {

using namespace porta::math;

template <class T>
T& at(char* p, int64_t stride, int64_t i) {
  return *reinterpret_cast<T*>(p + i * stride);
}

// The op of a unary functor, or -1 (vector_math.hpp's vectorized() says whether
// it has a vector function: porta/ops.h's vector column).
template <class Op>
constexpr int kOpOf = -1;
template <uint32_t O>
constexpr int kOpOf<Math<O>> = static_cast<int>(O);

// ---- kernel shapes

// A unary op on SLEEF's vector function fn: contiguous runs directly,
// strided ones gathered into a buffer and scattered back.
template <class T>
void vector_unary_kernel(const porta_kernel_call* c, porta_op op) {
  const DLTensor* ts[2] = {&c->outputs[0], &c->inputs[0]};
  parallel_runs(operands(ts), numel(c->outputs[0]), [op](char** p, const int64_t* s, int64_t n, int64_t) {
    if (s[0] == sizeof(T) && s[1] == sizeof(T)) {
      vecmath::apply(op, reinterpret_cast<const T*>(p[1]), reinterpret_cast<T*>(p[0]), n);
      return;
    }
    constexpr int64_t kBlock = 256;
    T buf[kBlock];
    for (int64_t k = 0; k < n; k += kBlock) {
      const int64_t m = std::min(kBlock, n - k);
      for (int64_t i = 0; i < m; ++i) buf[i] = at<T>(p[1], s[1], k + i);
      vecmath::apply(op, buf, buf, m);
      for (int64_t i = 0; i < m; ++i) at<T>(p[0], s[0], k + i) = buf[i];
    }
  });
}

template <class Op, class T>
porta_status unary_kernel(const porta_kernel_call* c) {
  if constexpr (std::is_floating_point_v<T> && kOpOf<Op> >= 0 && vecmath::vectorized(porta_op(kOpOf<Op>))) {
    if (vecmath::level() != vecmath::Level::None) {
      vector_unary_kernel<T>(c, porta_op(kOpOf<Op>));
      return PORTA_OK;
    }
  }
  const DLTensor* ts[2] = {&c->outputs[0], &c->inputs[0]};
  parallel_runs(operands(ts), numel(c->outputs[0]), [](char** p, const int64_t* s, int64_t n, int64_t) {
    if (s[0] == sizeof(T) && s[1] == sizeof(T)) {
      T* out = reinterpret_cast<T*>(p[0]);
      const T* in = reinterpret_cast<const T*>(p[1]);
      for (int64_t i = 0; i < n; ++i) out[i] = Op{}(in[i]);
    } else {
      for (int64_t i = 0; i < n; ++i) at<T>(p[0], s[0], i) = Op{}(at<T>(p[1], s[1], i));
    }
  });
  return PORTA_OK;
}

// Out is T for arithmetic, uint8_t (bool) for comparisons.
template <class Op, class T, class Out>
porta_status binary_kernel(const porta_kernel_call* c) {
  const DLTensor* ts[3] = {&c->outputs[0], &c->inputs[0], &c->inputs[1]};
  parallel_runs(operands(ts), numel(c->outputs[0]), [](char** p, const int64_t* s, int64_t n, int64_t) {
    Out* out = reinterpret_cast<Out*>(p[0]);
    const T* a = reinterpret_cast<const T*>(p[1]);
    const T* b = reinterpret_cast<const T*>(p[2]);
    if (s[0] == sizeof(Out) && s[1] == sizeof(T) && s[2] == sizeof(T)) {
      for (int64_t i = 0; i < n; ++i) out[i] = Op{}(a[i], b[i]);
    } else if (s[0] == sizeof(Out) && s[1] == sizeof(T) && s[2] == 0) {
      const T bv = *b;
      for (int64_t i = 0; i < n; ++i) out[i] = Op{}(a[i], bv);
    } else if (s[0] == sizeof(Out) && s[1] == 0 && s[2] == sizeof(T)) {
      const T av = *a;
      for (int64_t i = 0; i < n; ++i) out[i] = Op{}(av, b[i]);
    } else {
      for (int64_t i = 0; i < n; ++i) at<Out>(p[0], s[0], i) = Op{}(at<T>(p[1], s[1], i), at<T>(p[2], s[2], i));
    }
  });
  return PORTA_OK;
}

// A run of contiguous output and condition, a and b contiguous or one value
// (AStep, BStep: 1 or 0): a select without branches, at the CPU's widest
// vectors. Branching on each condition, a random mask took 3 ms for
// [128, 16, 28, 28] on 2 threads (a mispredicted branch every other value).
template <class T, int AStep, int BStep>
PORTA_WIDEST_VECTORS void select_run(T* out, const uint8_t* cond, const T* a, const T* b, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = Math<PORTA_OP_WHERE>{}(cond[i], a[i * AStep], b[i * BStep]);
}

template <class T>
porta_status where_kernel(const porta_kernel_call* c) {
  const DLTensor* ts[4] = {&c->outputs[0], &c->inputs[0], &c->inputs[1], &c->inputs[2]};
  parallel_runs(operands(ts), numel(c->outputs[0]), [](char** p, const int64_t* s, int64_t n, int64_t) {
    constexpr int64_t t = sizeof(T);
    T* out = reinterpret_cast<T*>(p[0]);
    const auto* cond = reinterpret_cast<const uint8_t*>(p[1]);
    const T *a = reinterpret_cast<const T*>(p[2]), *b = reinterpret_cast<const T*>(p[3]);
    if (s[0] == t && s[1] == 0) {  // one condition along the run (a mask broadcast over rows): a copy or a fill
      const T* src = *cond ? a : b;
      const int64_t step = *cond ? s[2] : s[3];
      if (step == t) {
        copy_run(out, src, static_cast<size_t>(n) * sizeof(T));
      } else {
        for (int64_t i = 0; i < n; ++i) out[i] = at<T>(p[*cond ? 2 : 3], step, i);
      }
      return;
    }
    if (s[0] == t && s[1] == 1 && s[2] == t && s[3] == t) return select_run<T, 1, 1>(out, cond, a, b, n);
    if (s[0] == t && s[1] == 1 && s[2] == t && s[3] == 0) return select_run<T, 1, 0>(out, cond, a, b, n);
    if (s[0] == t && s[1] == 1 && s[2] == 0 && s[3] == t) return select_run<T, 0, 1>(out, cond, a, b, n);
    for (int64_t i = 0; i < n; ++i)
      at<T>(p[0], s[0], i) = Math<PORTA_OP_WHERE>{}(at<uint8_t>(p[1], s[1], i), at<T>(p[2], s[2], i), at<T>(p[3], s[3], i));
  });
  return PORTA_OK;
}

// The float32 <-> float16 / bfloat16 conversions with vectorized runs (half_runs.hpp).
template <class To, class From>
inline constexpr bool has_half_run =
    (std::is_same_v<From, float> && math::is_float16_type<To>) || (std::is_same_v<To, float> && math::is_float16_type<From>);

template <class To, class From>
void half_run(const From* in, To* out, int64_t n) {
  auto* bits_out = reinterpret_cast<uint16_t*>(out);
  const auto* bits_in = reinterpret_cast<const uint16_t*>(in);
  if constexpr (std::is_same_v<To, math::Float16>) float32_to_float16_run(reinterpret_cast<const float*>(in), bits_out, n);
  else if constexpr (std::is_same_v<To, math::BFloat16>) float32_to_bfloat16_run(reinterpret_cast<const float*>(in), bits_out, n);
  else if constexpr (std::is_same_v<From, math::Float16>) float16_to_float32_run(bits_in, reinterpret_cast<float*>(out), n);
  else bfloat16_to_float32_run(bits_in, reinterpret_cast<float*>(out), n);
}

template <int ToDt, int FromDt>
void cast_runs(const porta_kernel_call* c) {
  using To = storage_t<ToDt>;
  using From = storage_t<FromDt>;
  const DLTensor* ts[2] = {&c->outputs[0], &c->inputs[0]};
  parallel_runs(operands(ts), numel(c->outputs[0]), [](char** p, const int64_t* s, int64_t n, int64_t) {
    const Convert<To, ToDt == 0> convert;
    if (s[0] == sizeof(To) && s[1] == sizeof(From)) {  // contiguous runs: a copy, or a loop that vectorizes
      if constexpr (ToDt == FromDt) {
        copy_run(p[0], p[1], static_cast<size_t>(n) * sizeof(To));
      } else if constexpr (has_half_run<To, From>) {
        half_run(reinterpret_cast<const From*>(p[1]), reinterpret_cast<To*>(p[0]), n);
      } else {
        To* out = reinterpret_cast<To*>(p[0]);
        const From* in = reinterpret_cast<const From*>(p[1]);
        for (int64_t i = 0; i < n; ++i) out[i] = convert(in[i]);
      }
    } else if (s[1] == 0) {  // a broadcast source: one value along the run
      const To v = convert(*reinterpret_cast<const From*>(p[1]));
      for (int64_t i = 0; i < n; ++i) at<To>(p[0], s[0], i) = v;
    } else {
      for (int64_t i = 0; i < n; ++i) at<To>(p[0], s[0], i) = convert(at<From>(p[1], s[1], i));
    }
  });
}

// COPY is CAST from the same dtype.
template <int ToDt>
porta_status cast_kernel(const porta_kernel_call* c) {
  const int from = host_dtype(c->inputs[0].dtype);
  if (from < 0) return report(PORTA_ERROR_UNSUPPORTED_DTYPE, "cast: unsupported input dtype");
  visit_any_dtype(from, [&]<int FromDt>() { cast_runs<ToDt, FromDt>(c); });
  return PORTA_OK;
}

// The kernel shapes elementwise_lookup.hpp instantiates for every row.
struct HostShapes {
  static constexpr bool has(porta_op_kind) { return true; }
  template <int DT>
  static porta_status copy(const porta_kernel_call* c) { return cast_kernel<DT>(c); }
  template <class F, class T>
  static porta_status unary(const porta_kernel_call* c) { return unary_kernel<F, T>(c); }
  template <class F, class T>
  static porta_status binary(const porta_kernel_call* c) { return binary_kernel<F, T, T>(c); }
  template <class F, class T>
  static porta_status compare(const porta_kernel_call* c) { return binary_kernel<F, T, uint8_t>(c); }
  template <class T>
  static porta_status where(const porta_kernel_call* c) { return where_kernel<T>(c); }
};

}  // namespace

porta_kernel_fn find_elementwise_kernel(uint32_t op, int dtype) { return plugin::find_elementwise<HostShapes>(op, dtype); }

porta_kernel_fn find_storage_copy_kernel(int dtype) {
  return visit_any_dtype(dtype, []<int DT>() -> porta_kernel_fn { return &cast_kernel<DT>; });
}

}  // namespace porta::host
