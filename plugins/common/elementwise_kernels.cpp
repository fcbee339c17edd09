// Host kernels of the COPY, UNARY, BINARY, COMPARE and WHERE kinds.
#include "dtype_dispatch.hpp"
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
      at<T>(p[0], s[0], i) = Where{}(at<uint8_t>(p[1], s[1], i), at<T>(p[2], s[2], i), at<T>(p[3], s[3], i));
  });
  return PORTA_OK;
}

template <int ToDt, int FromDt>
void cast_runs(const porta_kernel_call* c) {
  using To = storage_t<ToDt>;
  using From = storage_t<FromDt>;
  const DLTensor* ts[2] = {&c->outputs[0], &c->inputs[0]};
  parallel_runs(operands(ts), numel(c->outputs[0]), [](char** p, const int64_t* s, int64_t n, int64_t) {
    for (int64_t i = 0; i < n; ++i) at<To>(p[0], s[0], i) = Convert<To, ToDt == 0>{}(at<From>(p[1], s[1], i));
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

template <int DT>
porta_kernel_fn find_for_dtype(uint32_t op) {
  using T = storage_t<DT>;
  constexpr bool flt = is_float_dt(DT);
  constexpr bool numeric = DT != kDtBool;
  switch (op) {
    case PORTA_OP_COPY:
    case PORTA_OP_CAST: return &cast_kernel<DT>;
    case PORTA_OP_NEG: return numeric ? &unary_kernel<Neg, T> : nullptr;
    case PORTA_OP_ABS: return numeric ? &unary_kernel<Abs, T> : nullptr;
    case PORTA_OP_RELU: return numeric ? &unary_kernel<Relu, T> : nullptr;
    case PORTA_OP_ADD: return numeric ? &binary_kernel<Add, T, T> : nullptr;
    case PORTA_OP_SUB: return numeric ? &binary_kernel<Sub, T, T> : nullptr;
    case PORTA_OP_MUL: return numeric ? &binary_kernel<Mul, T, T> : nullptr;
    case PORTA_OP_MAXIMUM: return numeric ? &binary_kernel<Maximum, T, T> : nullptr;
    case PORTA_OP_MINIMUM: return numeric ? &binary_kernel<Minimum, T, T> : nullptr;
    case PORTA_OP_EQ: return &binary_kernel<Eq, T, uint8_t>;
    case PORTA_OP_NE: return &binary_kernel<Ne, T, uint8_t>;
    case PORTA_OP_LT: return &binary_kernel<Lt, T, uint8_t>;
    case PORTA_OP_LE: return &binary_kernel<Le, T, uint8_t>;
    case PORTA_OP_GT: return &binary_kernel<Gt, T, uint8_t>;
    case PORTA_OP_GE: return &binary_kernel<Ge, T, uint8_t>;
    case PORTA_OP_WHERE: return &where_kernel<T>;
    default: break;
  }
  if constexpr (flt) {
    switch (op) {
      case PORTA_OP_EXP: return &unary_kernel<Exp, T>;
      case PORTA_OP_LOG: return &unary_kernel<Log, T>;
      case PORTA_OP_SQRT: return &unary_kernel<Sqrt, T>;
      case PORTA_OP_SIGMOID: return &unary_kernel<Sigmoid, T>;
      case PORTA_OP_TANH: return &unary_kernel<Tanh, T>;
      case PORTA_OP_DIV: return &binary_kernel<Div, T, T>;
      case PORTA_OP_POW: return &binary_kernel<Pow, T, T>;
      default: break;
    }
  }
  return nullptr;
}

}  // namespace

porta_kernel_fn find_elementwise_kernel(uint32_t op, int dtype) {
  return visit_dtype(dtype, [&]<int DT>() { return find_for_dtype<DT>(op); });
}

}  // namespace porta::host
