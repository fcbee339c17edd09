// UNARY kernels: out = f(in) with the functors of
// plugins/common/elementwise_math.hpp, for the dtypes the cpu plugin has.
#include "dtype_dispatch.hpp"
#include "elementwise.cuh"
#include "elementwise_math.hpp"

namespace porta::cuda {
namespace {

using host::is_float_dt;
using host::storage_t;
using host::visit_dtype;

template <class Op, class T>
porta_status unary_kernel(const porta_kernel_call* c) {
  return launch_elementwise<Op, T, T>(c, "unary");
}

template <int DT>
porta_kernel_fn find_for_dtype(uint32_t op) {
  using T = storage_t<DT>;
  if constexpr (DT != kDtBool) {  // no arithmetic on bool
    switch (op) {
      case PORTA_OP_NEG:
        return &unary_kernel<math::Neg, T>;
      case PORTA_OP_ABS:
        return &unary_kernel<math::Abs, T>;
      case PORTA_OP_RELU:
        return &unary_kernel<math::Relu, T>;
      default:
        break;
    }
  }
  if constexpr (is_float_dt(DT)) {
    switch (op) {
      case PORTA_OP_EXP:
        return &unary_kernel<math::Exp, T>;
      case PORTA_OP_LOG:
        return &unary_kernel<math::Log, T>;
      case PORTA_OP_SQRT:
        return &unary_kernel<math::Sqrt, T>;
      case PORTA_OP_SIGMOID:
        return &unary_kernel<math::Sigmoid, T>;
      case PORTA_OP_TANH:
        return &unary_kernel<math::Tanh, T>;
      default:
        break;
    }
  }
  return nullptr;
}

}  // namespace

porta_kernel_fn find_unary_kernel(uint32_t op, int dtype) {
  return visit_dtype(dtype, [&]<int DT>() { return find_for_dtype<DT>(op); });
}

}  // namespace porta::cuda
