// Bad-argument cases, part 2b: indexing, joins and scans (porta.h's section
// of that name, between the composite ops and autograd, in its order).
#include <array>
#include <string>

#include "c_api_bad_args.hpp"

namespace porta_bad_args {
namespace {

// An int64 tensor of `shape` on `device` holding `values`.
Tensor index(const std::vector<int64_t>& values, std::vector<int64_t> shape, DLDevice device) {
  porta_tensor* t = nullptr;
  EXPECT_EQ(
      porta_tensor_from_host(values.data(), porta_int64, shape.data(), static_cast<int32_t>(shape.size()), device, &t),
      PORTA_OK)
      << porta_last_error();
  return Tensor(t);
}

// cat and stack: n < 1, a NULL array, a bad element and out, each refused.
template <typename Join>
void check_join(Fixture& x, Join join, const char* shape_hint) {
  porta_tensor* two[2] = {x.f.get(), x.f.get()};
  Untouched<porta_tensor*> out;
  for (int32_t n : {0, -1, INT32_MIN})
    REFUSED(PORTA_ERROR_INVALID_ARGUMENT, ("(n >= 1), got n = " + std::to_string(n)).c_str(), join(two, n, 0, out.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "tensors must not be NULL", join(nullptr, 2, 0, out.p()));
  porta_tensor* with_null[2] = {x.f.get(), nullptr};
  REFUSED(PORTA_ERROR_INVALID_HANDLE, "tensors[1] is NULL", join(with_null, 2, 0, out.p()));
  porta_tensor* with_released[2] = {Fixture::released(), x.f.get()};
  REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", join(with_released, 2, 0, out.p()));
  porta_tensor* with_foreign[2] = {x.f.get(), Fixture::foreign()};
  REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a live porta_tensor", join(with_foreign, 2, 0, out.p()));
  porta_tensor* mixed[2] = {x.f.get(), x.other.get()};
  REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1", join(mixed, 2, 0, out.p()));
  porta_tensor* shapes[2] = {x.f.get(), x.f4.get()};
  REFUSED(PORTA_ERROR_SHAPE_MISMATCH, shape_hint, join(shapes, 2, 0, out.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out of range", join(two, 2, 7, out.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", join(two, 2, 0, nullptr));
}

// cumsum and cumprod.
void check_scan(Fixture& x, porta_status (*scan)(porta_tensor*, int32_t, porta_tensor**)) {
  expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) { return scan(t, 1, o); });
  Untouched<porta_tensor*> out;
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dimension 2 is out of range", scan(x.f.get(), 2, out.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out of range", scan(x.f.get(), INT32_MIN, out.p()));
}

const Case kCases[] = {
    {"porta_gather",
     [](Fixture& x) {
       Tensor i = index({0, 1, 1, 0, 2, 2}, {2, 3}, x.cpu);
       expect_each_handle_checked<2>({x.f.get(), i.get()}, {"src", "index"},
                                     [](auto a, porta_tensor** o) { return porta_gather(a[0], 1, a[1], o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "expected an int64 or int32 index, got float32",
               porta_gather(x.f.get(), 1, x.f.get(), out.p()));
       Tensor there = index({0, 1, 1, 0, 2, 2}, {2, 3}, x.mock);
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1", porta_gather(x.f.get(), 1, there.get(), out.p()));
       Tensor far = index({0, 1, 5, 0, 2, 2}, {2, 3}, x.cpu), below = index({0, -2, 1, 0, 2, 2}, {2, 3}, x.cpu);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "index 5 is out of bounds for dimension 1 with size 3",
               porta_gather(x.f.get(), 1, far.get(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "index -2 is out of bounds",
               porta_gather(x.f.get(), 1, below.get(), out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "as many dimensions", porta_gather(x.f.get(), 0, x.labels.get(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dimension 2 is out of range",
               porta_gather(x.f.get(), 2, i.get(), out.p()));
     }},
    {"porta_scatter",
     [](Fixture& x) {
       Tensor i = index({0, 1, 1, 0, 1, 0}, {2, 3}, x.cpu);
       expect_each_handle_checked<3>(
           {x.f.get(), i.get(), x.f.get()}, {"self", "index", "src"},
           [](auto a, porta_tensor** o) { return porta_scatter(a[0], 0, a[1], a[2], PORTA_SCATTER_SUM, 1, o); });
       Untouched<porta_tensor*> out;
       for (int32_t reduce : {-1, 6, INT32_MIN})
         REFUSED(PORTA_ERROR_INVALID_ARGUMENT, ("reduce " + std::to_string(reduce)).c_str(),
                 porta_scatter(x.f.get(), 0, i.get(), x.f.get(), reduce, 1, out.p()));
       Tensor f64 = make({2, 3}, x.cpu, porta_float64);
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "a source of self's dtype",
               porta_scatter(x.f.get(), 0, i.get(), f64.get(), PORTA_SCATTER_ASSIGN, 1, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "bool",
               porta_scatter(x.mask.get(), 0, i.get(), x.mask.get(), PORTA_SCATTER_SUM, 1, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "int64 or int32 index",
               porta_scatter(x.f.get(), 0, x.f.get(), x.f.get(), PORTA_SCATTER_SUM, 1, out.p()));
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1",
               porta_scatter(x.f.get(), 0, i.get(), x.other.get(), PORTA_SCATTER_SUM, 1, out.p()));
       Tensor far = index({0, 1, 2, 0, 1, 0}, {2, 3}, x.cpu);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "index 2 is out of bounds for dimension 0 with size 2",
               porta_scatter(x.f.get(), 0, far.get(), x.f.get(), PORTA_SCATTER_MEAN, 0, out.p()));
       Tensor leaf = x.leaf();
       REFUSED(PORTA_ERROR_NOT_IMPLEMENTED, "gradient",
               porta_scatter(leaf.get(), 0, i.get(), x.f.get(), PORTA_SCATTER_AMAX, 1, out.p()));
     }},
    {"porta_index_select",
     [](Fixture& x) {
       expect_each_handle_checked<2>({x.f.get(), x.labels.get()}, {"src", "index"},
                                     [](auto a, porta_tensor** o) { return porta_index_select(a[0], 1, a[1], o); });
       Untouched<porta_tensor*> out;
       Tensor matrix = index({0, 1, 1, 0}, {2, 2}, x.cpu);
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "supposed to be a vector",
               porta_index_select(x.f.get(), 1, matrix.get(), out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "int32 or int64", porta_index_select(x.f.get(), 1, x.f4.get(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out of range", porta_index_select(x.f.get(), 5, x.labels.get(), out.p()));
     }},
    {"porta_index_add",
     [](Fixture& x) {
       expect_each_handle_checked<3>(
           {x.f.get(), x.labels.get(), x.f.get()}, {"self", "index", "source"},
           [](auto a, porta_tensor** o) { return porta_index_add(a[0], 0, a[1], a[2], 2, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "source [4]",
               porta_index_add(x.f.get(), 0, x.labels.get(), x.f4.get(), 1, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "int32 or int64",
               porta_index_add(x.f.get(), 0, x.f4.get(), x.f.get(), 1, out.p()));
     }},
    {"porta_index_copy",
     [](Fixture& x) {
       expect_each_handle_checked<3>({x.f.get(), x.labels.get(), x.f.get()}, {"self", "index", "source"},
                                     [](auto a, porta_tensor** o) { return porta_index_copy(a[0], 0, a[1], a[2], o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "source [4]",
               porta_index_copy(x.f.get(), 0, x.labels.get(), x.f4.get(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out of range",
               porta_index_copy(x.f.get(), -3, x.labels.get(), x.f.get(), out.p()));
     }},
    {"porta_index_fill",
     [](Fixture& x) {
       expect_each_handle_checked<2>({x.f.get(), x.labels.get()}, {"self", "index"},
                                     [](auto a, porta_tensor** o) { return porta_index_fill(a[0], 1, a[1], 0.5, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "cannot be converted to type int64",
               porta_index_fill(x.labels.get(), 0, x.labels.get(), 1e300, out.p()));
       Tensor far = index({3}, {1}, x.cpu);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "index 3 is out of bounds",
               porta_index_fill(x.f.get(), 1, far.get(), 0, out.p()));
     }},
    {"porta_index_fill_tensor",
     [](Fixture& x) {
       porta_tensor* value = nullptr;
       ASSERT_EQ(porta_scalar_tensor(PORTA_SCALAR_FLOAT, 0, 0.5, x.cpu, &value), PORTA_OK);
       Tensor owned(value);
       expect_each_handle_checked<3>({x.f.get(), x.labels.get(), value}, {"self", "index", "value"},
                                     [](auto a, porta_tensor** o) { return porta_index_fill_tensor(a[0], 1, a[1], a[2], o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "only supports a 0-dimensional value tensor",
               porta_index_fill_tensor(x.f.get(), 1, x.labels.get(), x.f.get(), out.p()));
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1",
               porta_index_fill_tensor(x.other.get(), 1, x.labels.get(), value, out.p()));
     }},
    {"porta_masked_fill",
     [](Fixture& x) {
       expect_each_handle_checked<2>({x.f.get(), x.mask.get()}, {"self", "mask"},
                                     [](auto a, porta_tensor** o) { return porta_masked_fill(a[0], a[1], 0, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "expected a bool mask, got float32",
               porta_masked_fill(x.f.get(), x.f.get(), 0, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "cannot be broadcast",
               porta_masked_fill(x.f4.get(), x.mask.get(), 0, out.p()));
       Tensor ints = index({0, 1, 1, 0, 2, 2}, {2, 3}, x.cpu);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "cannot be converted to type int64",
               porta_masked_fill(ints.get(), x.mask.get(), 1e300, out.p()));
     }},
    {"porta_masked_fill_tensor",
     [](Fixture& x) {
       porta_tensor* value = nullptr;
       ASSERT_EQ(porta_scalar_tensor(PORTA_SCALAR_INT, INT64_C(1) << 60, 0.0, x.cpu, &value), PORTA_OK);
       Tensor owned(value);
       expect_each_handle_checked<3>({x.f.get(), x.mask.get(), value}, {"self", "mask", "value"},
                                     [](auto a, porta_tensor** o) { return porta_masked_fill_tensor(a[0], a[1], a[2], o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "only supports a 0-dimensional value tensor",
               porta_masked_fill_tensor(x.f.get(), x.mask.get(), x.f.get(), out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "expected a bool mask",
               porta_masked_fill_tensor(x.f.get(), x.f.get(), value, out.p()));
     }},
    {"porta_masked_select",
     [](Fixture& x) {
       expect_each_handle_checked<2>({x.f.get(), x.mask.get()}, {"self", "mask"},
                                     [](auto a, porta_tensor** o) { return porta_masked_select(a[0], a[1], o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "bool mask", porta_masked_select(x.f.get(), x.labels.get(), out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "cannot be broadcast",
               porta_masked_select(x.f4.get(), x.mask.get(), out.p()));
     }},
    {"porta_nonzero", [](Fixture& x) { expect_handle_and_out_checked(x, porta_nonzero); }},
    {"porta_take",
     [](Fixture& x) {
       expect_each_handle_checked<2>({x.f.get(), x.labels.get()}, {"t", "index"},
                                     [](auto a, porta_tensor** o) { return porta_take(a[0], a[1], o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "int64 index", porta_take(x.f.get(), x.f4.get(), out.p()));
       Tensor far = index({6}, {1}, x.cpu), below = index({-7}, {1}, x.cpu);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "index 6 on a tensor of 6 elements",
               porta_take(x.f.get(), far.get(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "index -7", porta_take(x.f.get(), below.get(), out.p()));
     }},
    {"porta_embedding",
     [](Fixture& x) {
       expect_each_handle_checked<2>({x.f.get(), x.labels.get()}, {"weight", "indices"}, [](auto a, porta_tensor** o) {
         return porta_embedding(a[0], a[1], INT64_MIN, o);
       });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "weight must be 2-D",
               porta_embedding(x.f4.get(), x.labels.get(), INT64_MIN, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "int32 or int64 indices",
               porta_embedding(x.f.get(), x.mask.get(), INT64_MIN, out.p()));
       for (int64_t padding_idx : {int64_t{2}, int64_t{-3}, INT64_MAX})
         REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "padding_idx",
                 porta_embedding(x.f.get(), x.labels.get(), padding_idx, out.p()));
       Tensor far = index({2}, {1}, x.cpu);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "index 2 is out of bounds",
               porta_embedding(x.f.get(), far.get(), INT64_MIN, out.p()));
     }},
    {"porta_cat",
     [](Fixture& x) {
       check_join(x, porta_cat, "same number of dimensions");
       porta_tensor* scalars[1] = {nullptr};
       Tensor scalar = make({}, x.cpu);
       scalars[0] = scalar.get();
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "zero-dimensional", porta_cat(scalars, 1, 0, out.p()));
     }},
    {"porta_stack", [](Fixture& x) { check_join(x, porta_stack, "equal size"); }},
    {"porta_split",
     [](Fixture& x) {
       const int64_t sizes[2] = {1, 1};
       Untouched<std::array<porta_tensor*, 3>> outs;
       porta_tensor** o = outs.p()->data();
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_split(nullptr, sizes, 2, 0, o));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_split(Fixture::released(), sizes, 2, 0, o));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a live porta_tensor", porta_split(Fixture::foreign(), sizes, 2, 0, o));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "outs must not be NULL", porta_split(x.f.get(), sizes, 2, 0, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "sizes must not be NULL", porta_split(x.f.get(), nullptr, 2, 0, o));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "n must be non-negative, got -1", porta_split(x.f.get(), sizes, -1, 0, o));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "split sizes add up to 1 but dimension 0 has size 2",
               porta_split(x.f.get(), sizes, 1, 0, o));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "add up to 2 but dimension 1 has size 3",
               porta_split(x.f.get(), sizes, 2, 1, o));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "add up to 0", porta_split(x.f.get(), nullptr, 0, 0, o));
       const int64_t negative[3] = {3, -1, 0};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "non-negative, got -1", porta_split(x.f.get(), negative, 3, 0, o));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out of range", porta_split(x.f.get(), sizes, 2, 2, o));
     }},
    {"porta_unbind",
     [](Fixture& x) {
       Untouched<std::array<porta_tensor*, 3>> outs;
       porta_tensor** o = outs.p()->data();
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_unbind(nullptr, 0, o));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_unbind(Fixture::released(), 0, o));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a live porta_tensor", porta_unbind(Fixture::foreign(), 0, o));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "outs must not be NULL", porta_unbind(x.f.get(), 0, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out of range", porta_unbind(x.f.get(), 2, o));
       Tensor scalar = make({}, x.cpu);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "no dimensions", porta_unbind(scalar.get(), 0, o));
     }},
    {"porta_cumsum", [](Fixture& x) { check_scan(x, porta_cumsum); }},
    {"porta_cumprod", [](Fixture& x) { check_scan(x, porta_cumprod); }},
};

}  // namespace

std::vector<Case> indexing_cases() { return {std::begin(kCases), std::end(kCases)}; }

}  // namespace porta_bad_args
