// UNARY kernels: out = f(in) with the functors of
// plugins/common/elementwise_math.hpp, one per UNARY row of porta/ops.h
// (elementwise_lookup.hpp derives the set).
#include "elementwise.cuh"
#include "elementwise_lookup.hpp"

namespace porta::cuda {
namespace {

struct UnaryShapes {
  static constexpr bool has(porta_op_kind k) { return k == PORTA_OP_KIND_UNARY; }
  template <class F, class T>
  static porta_status unary(const porta_kernel_call* c) {
    return launch_elementwise<F, T, T>(c, "unary");
  }
};

}  // namespace

porta_kernel_fn find_unary_kernel(uint32_t op, int dtype) { return plugin::find_elementwise<UnaryShapes>(op, dtype); }

}  // namespace porta::cuda
