// BINARY, COMPARE and WHERE kernels: inputs broadcast to out's shape (zero
// strides), math from plugins/common/elementwise_math.hpp, one kernel per row
// of porta/ops.h (elementwise_lookup.hpp derives the set).
#include "elementwise.cuh"
#include "elementwise_lookup.hpp"

namespace porta::cuda {
namespace {

struct BinaryShapes {
  static constexpr bool has(porta_op_kind k) {
    return k == PORTA_OP_KIND_BINARY || k == PORTA_OP_KIND_COMPARE || k == PORTA_OP_KIND_WHERE;
  }
  template <class F, class T>
  static porta_status binary(const porta_kernel_call* c) {
    return launch_elementwise<F, T, T, T>(c, "binary");
  }
  template <class F, class T>
  static porta_status compare(const porta_kernel_call* c) {
    return launch_elementwise<F, uint8_t, T, T>(c, "compare");
  }
  template <class T>
  static porta_status where(const porta_kernel_call* c) {
    return launch_elementwise<math::Math<PORTA_OP_WHERE>, T, uint8_t, T, T>(c, "where");
  }
};

}  // namespace

porta_kernel_fn find_binary_kernel(uint32_t op, int dtype) { return plugin::find_elementwise<BinaryShapes>(op, dtype); }

}  // namespace porta::cuda
