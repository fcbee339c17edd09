// COPY and CAST kernels: strided in -> strided out with Porta's conversion
// rules (plugins/common/elementwise_math.hpp). COPY is CAST from the same
// dtype; the kernel is looked up by the output dtype.
#include "elementwise.cuh"
#include "elementwise_lookup.hpp"

namespace porta::cuda {
namespace {

using host::storage_t;

template <int ToDt>
porta_status cast_kernel(const porta_kernel_call* c) {
  const int from = dtype_index(c->inputs[0].dtype);
  if (from < 0) return report(PORTA_ERROR_UNSUPPORTED_DTYPE, "cast: unsupported input dtype");
  using To = storage_t<ToDt>;
  return host::visit_any_dtype(from, [&]<int FromDt>() {
    return launch_elementwise<math::Convert<To, ToDt == 0>, To, storage_t<FromDt>>(c, "cast");
  });
}

// The cast kernel of a dtype (a functor: nvcc refuses a template lambda here).
struct CastOf {
  template <int DT>
  porta_kernel_fn operator()() const {
    return &cast_kernel<DT>;
  }
};

struct CopyShapes {
  static constexpr bool has(porta_op_kind k) { return k == PORTA_OP_KIND_COPY; }
  template <int DT>
  static porta_status copy(const porta_kernel_call* c) {
    return cast_kernel<DT>(c);
  }
};

}  // namespace

porta_kernel_fn find_copy_kernel(uint32_t op, int dtype) {
  if (plugin::is_storage_dt(dtype))  // the conversions every dtype has (porta/ops.h, porta_op_dtypes)
    return host::visit_any_dtype(dtype, CastOf{});
  return plugin::find_elementwise<CopyShapes>(op, dtype);
}

}  // namespace porta::cuda
