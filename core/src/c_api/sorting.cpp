// C API: sorting and counting (ops/composite/sorting.cpp).
#include "c_api/c_api.hpp"
#include "ops/composite/composite.hpp"

using namespace porta;

namespace {

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
  return produce_pair(values, "values", indices, "indices",
                      [&] { return composite::sort(arg(t, "t"), dim, descending != 0); });
}

PORTA_API porta_status porta_argsort(porta_tensor* t, int32_t dim, int32_t descending, porta_tensor** out) {
  return produce(out, [&] { return ops::sort(arg(t, "t"), dim, descending != 0).indices; });
}

PORTA_API porta_status porta_topk(porta_tensor* t, int64_t k, int32_t dim, int32_t largest, porta_tensor** values,
                                  porta_tensor** indices) {
  return produce_pair(values, "values", indices, "indices",
                      [&] { return composite::topk(arg(t, "t"), k, dim, largest != 0); });
}

PORTA_API porta_status porta_kthvalue(porta_tensor* t, int64_t k, int32_t dim, int32_t keepdim,
                                      porta_tensor** values, porta_tensor** indices) {
  return produce_pair(values, "values", indices, "indices",
                      [&] { return composite::kthvalue(arg(t, "t"), k, dim, keepdim != 0); });
}

PORTA_API porta_status porta_max_dim(porta_tensor* t, int32_t dim, int32_t keepdim, porta_tensor** values,
                                     porta_tensor** indices) {
  return produce_pair(values, "values", indices, "indices",
                      [&] { return composite::extreme(arg(t, "t"), dim, keepdim != 0, true); });
}

PORTA_API porta_status porta_min_dim(porta_tensor* t, int32_t dim, int32_t keepdim, porta_tensor** values,
                                     porta_tensor** indices) {
  return produce_pair(values, "values", indices, "indices",
                      [&] { return composite::extreme(arg(t, "t"), dim, keepdim != 0, false); });
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

PORTA_API porta_status porta_cummax(porta_tensor* t, int32_t dim, porta_tensor** values, porta_tensor** indices) {
  return produce_pair(values, "values", indices, "indices",
                      [&] { return composite::cumulative_extreme(arg(t, "t"), dim, true); });
}

PORTA_API porta_status porta_cummin(porta_tensor* t, int32_t dim, porta_tensor** values, porta_tensor** indices) {
  return produce_pair(values, "values", indices, "indices",
                      [&] { return composite::cumulative_extreme(arg(t, "t"), dim, false); });
}

PORTA_API porta_status porta_mode(porta_tensor* t, int32_t dim, int32_t keepdim, porta_tensor** values,
                                  porta_tensor** indices) {
  return produce_pair(values, "values", indices, "indices",
                      [&] { return composite::mode(arg(t, "t"), dim, keepdim != 0); });
}

PORTA_API porta_status porta_searchsorted(porta_tensor* sorted_sequence, porta_tensor* values, int32_t right,
                                          int32_t out_int32, porta_tensor* sorter, porta_tensor** out) {
  return produce(out, [&] {
    return composite::searchsorted(arg(sorted_sequence, "sorted_sequence"), arg(values, "values"), right != 0,
                                   out_int32 != 0, optional_arg(sorter, "sorter"));
  });
}

PORTA_API porta_status porta_bucketize(porta_tensor* t, porta_tensor* boundaries, int32_t right, int32_t out_int32,
                                       porta_tensor** out) {
  return produce(out, [&] {
    return composite::bucketize(arg(t, "t"), arg(boundaries, "boundaries"), right != 0, out_int32 != 0);
  });
}

PORTA_API porta_status porta_unique_dim(porta_tensor* t, int32_t dim, porta_tensor** values, porta_tensor** inverse,
                                        porta_tensor** counts) {
  return produce_unique(values, inverse, counts, [&] { return composite::unique_dim(arg(t, "t"), dim); });
}

PORTA_API porta_status porta_unique_consecutive_dim(porta_tensor* t, int32_t dim, porta_tensor** values,
                                                    porta_tensor** inverse, porta_tensor** counts) {
  return produce_unique(values, inverse, counts, [&] { return composite::unique_consecutive_dim(arg(t, "t"), dim); });
}
