// Host kernels of the SORT kind: a stable sort of each (outer, inner) line
// of contiguous [outer, n, inner], in parallel over lines (sort_order.hpp's
// order, so the result equals the devices' merge sort). The scratch outputs
// are not needed here.
#include <algorithm>
#include <numeric>
#include <vector>

#include "dtype_dispatch.hpp"
#include "sort_call.hpp"
#include "sort_order.hpp"
#include "strided_loop.hpp"

namespace porta::host {
namespace {

template <class T>
porta_status sort_kernel(const porta_kernel_call* c) {
  plugin::SortCall s;
  char msg[256];
  if (!plugin::sort_call(c, &s, msg, sizeof msg)) return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
  const T* x = data_of<const T>(c->inputs[0]);
  T* values = data_of<T>(c->outputs[0]);
  int64_t* indices = data_of<int64_t>(c->outputs[1]);
  const int64_t n = s.n, inner = s.inner;
  const bool descending = s.descending;
  parallel_for(s.outer * inner, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(n, 1)),
               [&](int64_t b, int64_t e) {
                 std::vector<int64_t> order(static_cast<size_t>(n));
                 for (int64_t line = b; line < e; ++line) {
                   const int64_t base = (line / inner) * n * inner + line % inner;
                   std::iota(order.begin(), order.end(), int64_t{0});
                   std::stable_sort(order.begin(), order.end(), [&](int64_t i, int64_t j) {
                     return math::sort_before(x[base + i * inner], x[base + j * inner], descending);
                   });
                   for (int64_t k = 0; k < n; ++k) {
                     values[base + k * inner] = x[base + order[k] * inner];
                     indices[base + k * inner] = order[k];
                   }
                 }
               });
  return PORTA_OK;
}

}  // namespace

porta_kernel_fn find_sort_kernel(uint32_t op, int dtype) {
  if (op != PORTA_OP_SORT) return nullptr;
  return visit_dtype(dtype, [&]<int DT>() -> porta_kernel_fn {
    if constexpr (plugin::op_takes_dtype(PORTA_OP_SORT, DT))
      return &sort_kernel<storage_t<DT>>;
    else
      return nullptr;
  });
}

}  // namespace porta::host
