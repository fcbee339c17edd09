// C API: sorting and counting (ops/composite/sorting.cpp).
#include "c_api/c_api.hpp"
#include "ops/composite/composite.hpp"

using namespace porta;

namespace {

// Hands both tensors to the caller, or neither on error.
template <typename Make>
porta_status produce_sorted(porta_tensor** values, porta_tensor** indices, Make&& make) {
  return guard([&] {
    require(values, "values");
    require(indices, "indices");
    ops::Sorted s = make();
    *values = s.values.release();
    *indices = s.indices.release();
  });
}

template <typename Make>
porta_status produce_unique(porta_tensor** values, porta_tensor** inverse, porta_tensor** counts, Make&& make) {
  return guard([&] {
    require(values, "values");
    require(inverse, "inverse");
    require(counts, "counts");
    composite::Unique u = make();
    *values = u.values.release();
    *inverse = u.inverse.release();
    *counts = u.counts.release();
  });
}

}  // namespace

PORTA_API porta_status porta_sort(porta_tensor* t, int32_t dim, int32_t descending, porta_tensor** values,
                                  porta_tensor** indices) {
  return produce_sorted(values, indices, [&] { return composite::sort(arg(t, "t"), dim, descending != 0); });
}

PORTA_API porta_status porta_argsort(porta_tensor* t, int32_t dim, int32_t descending, porta_tensor** out) {
  return produce(out, [&] { return ops::sort(arg(t, "t"), dim, descending != 0).indices; });
}

PORTA_API porta_status porta_topk(porta_tensor* t, int64_t k, int32_t dim, int32_t largest, porta_tensor** values,
                                  porta_tensor** indices) {
  return produce_sorted(values, indices, [&] { return composite::topk(arg(t, "t"), k, dim, largest != 0); });
}

PORTA_API porta_status porta_kthvalue(porta_tensor* t, int64_t k, int32_t dim, int32_t keepdim,
                                      porta_tensor** values, porta_tensor** indices) {
  return produce_sorted(values, indices, [&] { return composite::kthvalue(arg(t, "t"), k, dim, keepdim != 0); });
}

PORTA_API porta_status porta_unique(porta_tensor* t, porta_tensor** values, porta_tensor** inverse,
                                    porta_tensor** counts) {
  return produce_unique(values, inverse, counts, [&] { return composite::unique(arg(t, "t")); });
}

PORTA_API porta_status porta_unique_consecutive(porta_tensor* t, porta_tensor** values, porta_tensor** inverse,
                                                porta_tensor** counts) {
  return produce_unique(values, inverse, counts, [&] { return composite::unique_consecutive(arg(t, "t")); });
}

PORTA_API porta_status porta_bincount(porta_tensor* x, porta_tensor* weights, int64_t minlength, porta_tensor** out) {
  return produce(out, [&] {
    return composite::bincount(arg(x, "x"), optional_arg(weights, "weights"), minlength);
  });
}
