// C API: indexing, joins and splits (ops/index.cpp, ops/join.cpp,
// ops/composite/indexing.cpp). porta_cumsum and porta_cumprod are generated
// from the op table in c_api/ops.cpp.
#include "c_api/c_api.hpp"
#include "ops/composite/composite.hpp"

using namespace porta;

PORTA_API porta_status porta_gather(porta_tensor* src, int32_t dim, porta_tensor* index, porta_tensor** out) {
  return produce(out, [&] { return ag::gather(arg(src, "src"), dim, arg(index, "index")); });
}

PORTA_API porta_status porta_scatter(porta_tensor* self, int32_t dim, porta_tensor* index, porta_tensor* src,
                                     int32_t reduce, int include_self, porta_tensor** out) {
  return produce(out, [&] {
    return composite::scatter_reduce(arg(self, "self"), dim, arg(index, "index"), arg(src, "src"), reduce,
                                     include_self != 0);
  });
}

PORTA_API porta_status porta_index_select(porta_tensor* src, int32_t dim, porta_tensor* index, porta_tensor** out) {
  return produce(out, [&] { return composite::index_select(arg(src, "src"), dim, arg(index, "index")); });
}

PORTA_API porta_status porta_index_add(porta_tensor* self, int32_t dim, porta_tensor* index, porta_tensor* source,
                                       double alpha, porta_tensor** out) {
  return produce(out, [&] {
    return composite::index_add(arg(self, "self"), dim, arg(index, "index"), arg(source, "source"), alpha);
  });
}

PORTA_API porta_status porta_index_copy(porta_tensor* self, int32_t dim, porta_tensor* index, porta_tensor* source,
                                        porta_tensor** out) {
  return produce(out, [&] {
    return composite::index_copy(arg(self, "self"), dim, arg(index, "index"), arg(source, "source"));
  });
}

// A C API double fill value as the wrapped number Scalar::from_double makes.
static TensorPtr number_beside(const TensorPtr& self, double value) {
  return ops::wrapped_number(*self->device, Scalar::from_double(value));
}

PORTA_API porta_status porta_index_fill(porta_tensor* self, int32_t dim, porta_tensor* index, double value,
                                        porta_tensor** out) {
  return produce(out, [&] {
    TensorPtr s = arg(self, "self");
    return composite::index_fill(s, dim, arg(index, "index"), number_beside(s, value));
  });
}

PORTA_API porta_status porta_index_fill_tensor(porta_tensor* self, int32_t dim, porta_tensor* index,
                                               porta_tensor* value, porta_tensor** out) {
  return produce(out, [&] { return composite::index_fill(arg(self, "self"), dim, arg(index, "index"), arg(value, "value")); });
}

PORTA_API porta_status porta_masked_fill(porta_tensor* self, porta_tensor* mask, double value, porta_tensor** out) {
  return produce(out, [&] {
    TensorPtr s = arg(self, "self");
    return composite::masked_fill(s, arg(mask, "mask"), number_beside(s, value));
  });
}

PORTA_API porta_status porta_masked_fill_tensor(porta_tensor* self, porta_tensor* mask, porta_tensor* value,
                                                porta_tensor** out) {
  return produce(out, [&] { return composite::masked_fill(arg(self, "self"), arg(mask, "mask"), arg(value, "value")); });
}

PORTA_API porta_status porta_masked_select(porta_tensor* self, porta_tensor* mask, porta_tensor** out) {
  return produce(out, [&] { return composite::masked_select(arg(self, "self"), arg(mask, "mask")); });
}

PORTA_API porta_status porta_nonzero(porta_tensor* t, porta_tensor** out) {
  return produce(out, [&] { return composite::nonzero(arg(t, "t")); });
}

PORTA_API porta_status porta_take(porta_tensor* t, porta_tensor* index, porta_tensor** out) {
  return produce(out, [&] { return composite::take(arg(t, "t"), arg(index, "index")); });
}

PORTA_API porta_status porta_embedding(porta_tensor* weight, porta_tensor* indices, int64_t padding_idx,
                                       porta_tensor** out) {
  return produce(out, [&] { return composite::embedding(arg(weight, "weight"), arg(indices, "indices"), padding_idx); });
}

PORTA_API porta_status porta_cat(porta_tensor* const* tensors, int32_t n, int32_t dim, porta_tensor** out) {
  return produce(out, [&] { return ag::cat(tensor_array("cat", tensors, n), dim); });
}

PORTA_API porta_status porta_stack(porta_tensor* const* tensors, int32_t n, int32_t dim, porta_tensor** out) {
  return produce(out, [&] { return ag::stack(tensor_array("stack", tensors, n), dim); });
}

PORTA_API porta_status porta_split(porta_tensor* t, const int64_t* sizes, int32_t n, int32_t dim, porta_tensor** outs) {
  return produce_all(outs, [&] {
    if (n < 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "split: n must be non-negative, got ", n);
    if (n > 0) require(sizes, "sizes");
    return ag::split(arg(t, "t"), std::vector<int64_t>(sizes, sizes + n), dim);
  });
}

PORTA_API porta_status porta_unbind(porta_tensor* t, int32_t dim, porta_tensor** outs) {
  return produce_all(outs, [&] { return ag::unbind(arg(t, "t"), dim); });
}
