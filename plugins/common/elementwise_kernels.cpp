// Host kernels of the COPY, UNARY, BINARY, COMPARE and WHERE kinds.
#include <cstring>

#include "dtype_dispatch.hpp"
#include "elementwise_lookup.hpp"
#include "elementwise_math.hpp"
#include "strided_loop.hpp"

namespace porta::host {
namespace {

using namespace porta::math;

template <class T>
T& at(char* p, int64_t stride, int64_t i) {
  return *reinterpret_cast<T*>(p + i * stride);
}

// ---- kernel shapes

template <class Op, class T>
porta_status unary_kernel(const porta_kernel_call* c) {
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

template <class T>
porta_status where_kernel(const porta_kernel_call* c) {
  const DLTensor* ts[4] = {&c->outputs[0], &c->inputs[0], &c->inputs[1], &c->inputs[2]};
  parallel_runs(operands(ts), numel(c->outputs[0]), [](char** p, const int64_t* s, int64_t n, int64_t) {
    for (int64_t i = 0; i < n; ++i)
      at<T>(p[0], s[0], i) = Math<PORTA_OP_WHERE>{}(at<uint8_t>(p[1], s[1], i), at<T>(p[2], s[2], i), at<T>(p[3], s[3], i));
  });
  return PORTA_OK;
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
        std::memcpy(p[0], p[1], static_cast<size_t>(n) * sizeof(To));
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
  visit_dtype(from, [&]<int FromDt>() { cast_runs<ToDt, FromDt>(c); });
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

}  // namespace porta::host
