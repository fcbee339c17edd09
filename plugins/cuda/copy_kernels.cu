// COPY and CAST kernels: strided in -> strided out with Porta's conversion
// rules (plugins/common/elementwise_math.hpp). COPY is CAST from the same
// dtype; the kernel is looked up by the output dtype.
#include "dtype_dispatch.hpp"
#include "elementwise.cuh"
#include "elementwise_math.hpp"

namespace porta::cuda {
namespace {

using host::storage_t;
using host::visit_dtype;

template <int ToDt>
porta_status cast_kernel(const porta_kernel_call* c) {
  const int from = dtype_index(c->inputs[0].dtype);
  if (from < 0) return report(PORTA_ERROR_UNSUPPORTED_DTYPE, "cast: unsupported input dtype");
  using To = storage_t<ToDt>;
  return visit_dtype(from, [&]<int FromDt>() {
    return launch_elementwise<math::Convert<To, ToDt == 0>, To, storage_t<FromDt>>(c, "cast");
  });
}

}  // namespace

porta_kernel_fn find_copy_kernel(uint32_t op, int dtype) {
  if (op != PORTA_OP_COPY && op != PORTA_OP_CAST) return nullptr;
  return visit_dtype(dtype, [&]<int DT>() -> porta_kernel_fn { return &cast_kernel<DT>; });
}

}  // namespace porta::cuda
