// BINARY, COMPARE and WHERE kernels: inputs broadcast to out's shape (zero
// strides), math from plugins/common/elementwise_math.hpp.
#include "dtype_dispatch.hpp"
#include "elementwise.cuh"
#include "elementwise_math.hpp"

namespace porta::cuda {
namespace {

using host::is_float_dt;
using host::storage_t;
using host::visit_dtype;

template <class Op, class T>
porta_status binary_kernel(const porta_kernel_call* c) {
  return launch_elementwise<Op, T, T, T>(c, "binary");
}

template <class Op, class T>
porta_status compare_kernel(const porta_kernel_call* c) {
  return launch_elementwise<Op, uint8_t, T, T>(c, "compare");
}

template <class T>
porta_status where_kernel(const porta_kernel_call* c) {
  return launch_elementwise<math::Where, T, uint8_t, T, T>(c, "where");
}

template <int DT>
porta_kernel_fn find_for_dtype(uint32_t op) {
  using T = storage_t<DT>;
  switch (op) {
    case PORTA_OP_EQ:
      return &compare_kernel<math::Eq, T>;
    case PORTA_OP_NE:
      return &compare_kernel<math::Ne, T>;
    case PORTA_OP_LT:
      return &compare_kernel<math::Lt, T>;
    case PORTA_OP_LE:
      return &compare_kernel<math::Le, T>;
    case PORTA_OP_GT:
      return &compare_kernel<math::Gt, T>;
    case PORTA_OP_GE:
      return &compare_kernel<math::Ge, T>;
    case PORTA_OP_WHERE:
      return &where_kernel<T>;
    default:
      break;
  }
  if constexpr (DT != kDtBool) {  // no arithmetic on bool
    switch (op) {
      case PORTA_OP_ADD:
        return &binary_kernel<math::Add, T>;
      case PORTA_OP_SUB:
        return &binary_kernel<math::Sub, T>;
      case PORTA_OP_MUL:
        return &binary_kernel<math::Mul, T>;
      case PORTA_OP_MAXIMUM:
        return &binary_kernel<math::Maximum, T>;
      case PORTA_OP_MINIMUM:
        return &binary_kernel<math::Minimum, T>;
      default:
        break;
    }
  }
  if constexpr (is_float_dt(DT)) {
    switch (op) {
      case PORTA_OP_DIV:
        return &binary_kernel<math::Div, T>;
      case PORTA_OP_POW:
        return &binary_kernel<math::Pow, T>;
      default:
        break;
    }
  }
  return nullptr;
}

}  // namespace

porta_kernel_fn find_binary_kernel(uint32_t op, int dtype) {
  return visit_dtype(dtype, [&]<int DT>() { return find_for_dtype<DT>(op); });
}

}  // namespace porta::cuda
