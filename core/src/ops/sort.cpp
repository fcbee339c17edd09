// SORT: a stable sort along one dim, values and int64 indices, one kernel
// call over contiguous [outer, n, inner]. The core hands the kernel two
// scratch tensors of the same shapes (device merge sorts ping-pong through
// them; porta/ops.h), so no plugin allocates working memory itself. With
// `first` > 0 only each line's first `first` positions are asked for (the
// plugin may sort the whole line); the rest of the outputs are unspecified.
#include "runtime/error.hpp"
#include "ops/ops.hpp"

namespace porta::ops {

Sorted sort(const TensorPtr& t, int32_t dim, bool descending, int64_t first) {
  const int32_t nd = std::max(t->ndim(), 1);
  const int32_t d = wrap_dim("sort", dim, nd);
  DeviceState& dev = *t->device;
  if (t->ndim() == 0) return {clone(t), full(dev, Dims{}, 0.0, Dtype::Int64)};
  Sorted out{empty(dev, t->dtype, t->shape), empty(dev, Dtype::Int64, t->shape)};
  if (t->numel() == 0) return out;
  const Lines lines = lines_around(t->shape, d);
  TensorPtr in = contiguous(t);
  TensorPtr scratch_values = empty(dev, t->dtype, t->shape), scratch_indices = empty(dev, Dtype::Int64, t->shape);
  const KernelArg arg = lines.arg(*in);
  const KernelArg outs[4] = {lines.arg(*out.values), lines.arg(*out.indices), lines.arg(*scratch_values),
                             lines.arg(*scratch_indices)};
  const porta_sort_params p{sizeof(porta_sort_params), descending ? 1 : 0, 0, first < lines.n() ? first : 0};
  launch(dev, PORTA_OP_SORT, t->dtype, &arg, 1, outs, 4, &p);
  return out;
}

}  // namespace porta::ops
