// Bad-argument cases, part 2c: sorting (porta.h's section of that name,
// after the scans, in its order). The two- and three-output functions set
// every output or none.
#include <array>
#include <string>

#include "c_api_bad_args.hpp"

namespace porta_bad_args {
namespace {

template <typename Unique>
void check_unique(Fixture& x, Unique unique) {
  Untouched<porta_tensor*> v, i, c;
  REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", unique(nullptr, v.p(), i.p(), c.p()));
  REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", unique(Fixture::released(), v.p(), i.p(), c.p()));
  REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a live porta_tensor", unique(Fixture::foreign(), v.p(), i.p(), c.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "values must not be NULL", unique(x.f.get(), nullptr, i.p(), c.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "inverse must not be NULL", unique(x.f.get(), v.p(), nullptr, c.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "counts must not be NULL", unique(x.f.get(), v.p(), i.p(), nullptr));
}

// unique / unique_consecutive along a dim: handles, outputs, a bad dim, 0-d and zero-sized slices.
void check_unique_dim(Fixture& x, const char* op,
                      porta_status (*f)(porta_tensor*, int32_t, porta_tensor**, porta_tensor**, porta_tensor**)) {
  check_unique(x,
               [&](porta_tensor* t, porta_tensor** v, porta_tensor** i, porta_tensor** c) { return f(t, 0, v, i, c); });
  Untouched<porta_tensor*> v, i, c;
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, (std::string(op) + ": dimension 2 is out of range").c_str(),
          f(x.f.get(), 2, v.p(), i.p(), c.p()));
  Tensor scalar = make({}, x.cpu), flat = make({3, 0}, x.cpu);
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "Dimension specified as 0 but tensor has no dimensions",
          f(scalar.get(), 0, v.p(), i.p(), c.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "There are 0 sized dimensions, and they aren't selected",
          f(flat.get(), 0, v.p(), i.p(), c.p()));
}

// cummax and cummin: handles, both outputs, a bad dim.
void check_running(Fixture& x, const char* op,
                   porta_status (*f)(porta_tensor*, int32_t, porta_tensor**, porta_tensor**)) {
  check_pair(x, [&](porta_tensor* t, porta_tensor** v, porta_tensor** i) { return f(t, 1, v, i); });
  Untouched<porta_tensor*> v, i;
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, (std::string(op) + ": dimension 2 is out of range").c_str(),
          f(x.f.get(), 2, v.p(), i.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out of range", f(x.f.get(), INT32_MIN, v.p(), i.p()));
}

const Case kCases[] = {
    {"porta_sort",
     [](Fixture& x) {
       check_pair(x, [](porta_tensor* t, porta_tensor** v, porta_tensor** i) { return porta_sort(t, 1, 0, v, i); });
       Untouched<porta_tensor*> v, i;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out of range", porta_sort(x.f.get(), 2, 0, v.p(), i.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out of range", porta_sort(x.f.get(), INT32_MIN, 1, v.p(), i.p()));
     }},
    {"porta_argsort",
     [](Fixture& x) {
       expect_handle_and_out_checked(x, [](porta_tensor* t, porta_tensor** o) { return porta_argsort(t, 0, 1, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out of range", porta_argsort(x.f.get(), -3, 0, out.p()));
     }},
    {"porta_topk",
     [](Fixture& x) {
       check_pair(x, [](porta_tensor* t, porta_tensor** v, porta_tensor** i) { return porta_topk(t, 1, 1, 1, v, i); });
       Untouched<porta_tensor*> v, i;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "k out of range: k = 4", porta_topk(x.f.get(), 4, 1, 1, v.p(), i.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "k = -1", porta_topk(x.f.get(), -1, 1, 0, v.p(), i.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, ("k = " + std::to_string(INT64_MIN)).c_str(),
               porta_topk(x.f.get(), INT64_MIN, 1, 0, v.p(), i.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out of range", porta_topk(x.f.get(), 1, 5, 0, v.p(), i.p()));
     }},
    {"porta_kthvalue",
     [](Fixture& x) {
       check_pair(x,
                  [](porta_tensor* t, porta_tensor** v, porta_tensor** i) { return porta_kthvalue(t, 1, 1, 0, v, i); });
       Untouched<porta_tensor*> v, i;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "k = 0 out of range", porta_kthvalue(x.f.get(), 0, 1, 0, v.p(), i.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "k = 4 out of range", porta_kthvalue(x.f.get(), 4, 1, 1, v.p(), i.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out of range", porta_kthvalue(x.f.get(), 1, -4, 0, v.p(), i.p()));
     }},
    {"porta_max_dim",
     [](Fixture& x) {
       check_pair(x, [](porta_tensor* t, porta_tensor** v, porta_tensor** i) { return porta_max_dim(t, 1, 0, v, i); });
       Untouched<porta_tensor*> v, i;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out of range", porta_max_dim(x.f.get(), 2, 0, v.p(), i.p()));
     }},
    {"porta_min_dim",
     [](Fixture& x) {
       check_pair(x, [](porta_tensor* t, porta_tensor** v, porta_tensor** i) { return porta_min_dim(t, 1, 0, v, i); });
       Untouched<porta_tensor*> v, i;
       const int64_t none[2] = {2, 0};
       porta_tensor* empty = nullptr;
       ASSERT_EQ(porta_zeros(none, 2, porta_float32, x.cpu, &empty), PORTA_OK);
       Tensor owned(empty);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "to have non-zero size", porta_min_dim(empty, 1, 0, v.p(), i.p()));
     }},
    {"porta_unique", [](Fixture& x) { check_unique(x, porta_unique); }},
    {"porta_unique_consecutive", [](Fixture& x) { check_unique(x, porta_unique_consecutive); }},
    {"porta_bincount",
     [](Fixture& x) {
       Tensor ints = make({3}, x.cpu, porta_int64), weights = make({3}, x.cpu);
       expect_each_handle_checked<2>({ints.get(), weights.get()}, {"x", "weights"},
                                     [](auto a, porta_tensor** o) { return porta_bincount(a[0], a[1], 0, o); }, 1);
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "1-d non-negative integral inputs, got a float32",
               porta_bincount(x.f.get(), nullptr, 0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "minlength should be >= 0, got -1",
               porta_bincount(ints.get(), nullptr, -1, out.p()));
       Tensor short_weights = make({2}, x.cpu);
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "should have the same length",
               porta_bincount(ints.get(), short_weights.get(), 0, out.p()));
       Tensor elsewhere = make({3}, x.mock);
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1", porta_bincount(ints.get(), elsewhere.get(), 0, out.p()));
     }},
    {"porta_cummax", [](Fixture& x) { check_running(x, "cummax", porta_cummax); }},
    {"porta_cummin", [](Fixture& x) { check_running(x, "cummin", porta_cummin); }},
    {"porta_mode",
     [](Fixture& x) {
       check_pair(x, [](porta_tensor* t, porta_tensor** v, porta_tensor** i) { return porta_mode(t, 1, 0, v, i); });
       Untouched<porta_tensor*> v, i;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "mode: dimension 2 is out of range",
               porta_mode(x.f.get(), 2, 0, v.p(), i.p()));
       Tensor empty = make({2, 0}, x.cpu);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "mode(): Expected reduction dim 1 to have non-zero size.",
               porta_mode(empty.get(), 1, 1, v.p(), i.p()));
     }},
    {"porta_searchsorted",
     [](Fixture& x) {
       Tensor sorter = make({4}, x.cpu, porta_int64);  // zeros: a valid (if odd) order
       expect_each_handle_checked<3>(
           {x.f4.get(), x.f.get(), sorter.get()}, {"sorted_sequence", "values", "sorter"},
           [](auto a, porta_tensor** o) { return porta_searchsorted(a[0], a[1], 0, 0, a[2], o); }, 2);
       Untouched<porta_tensor*> out;
       Tensor scalar = make({}, x.cpu), three = make({3}, x.cpu, porta_int64), floats = make({4}, x.cpu);
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "boundaries tensor should have positive dimension, but got 0 dimension",
               porta_searchsorted(scalar.get(), x.f.get(), 0, 0, nullptr, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH,
               "the first N-1 dimensions of boundaries tensor and input value tensor must match, but we got boundaries "
               "tensor [2, 3] and input value tensor [4]",
               porta_searchsorted(x.f.get(), x.f4.get(), 0, 0, nullptr, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "boundary and sorter must have the same size",
               porta_searchsorted(x.f4.get(), x.f.get(), 0, 0, three.get(), out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "sorter must be a tensor of long dtype but got float32",
               porta_searchsorted(x.f4.get(), x.f.get(), 0, 0, floats.get(), out.p()));
       const int64_t far[4] = {0, 1, 2, 4};
       ASSERT_EQ(porta_tensor_from_host_into(sorter.get(), far, sizeof far), PORTA_OK);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "index 4 is out of bounds for dimension 0 with size 4",
               porta_searchsorted(x.f4.get(), x.f.get(), 0, 0, sorter.get(), out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "bool tensors are not supported",
               porta_searchsorted(x.f4.get(), x.mask.get(), 0, 0, nullptr, out.p()));
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1",
               porta_searchsorted(x.f4.get(), x.other.get(), 0, 0, nullptr, out.p()));
     }},
    {"porta_bucketize",
     [](Fixture& x) {
       expect_each_handle_checked<2>({x.f.get(), x.f4.get()}, {"t", "boundaries"},
                                     [](auto a, porta_tensor** o) { return porta_bucketize(a[0], a[1], 1, 1, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "bucketize: boundaries tensor must be 1 dimension, but got dim(2)",
               porta_bucketize(x.f4.get(), x.f.get(), 0, 0, out.p()));
     }},
    {"porta_unique_dim", [](Fixture& x) { check_unique_dim(x, "unique", porta_unique_dim); }},
    {"porta_unique_consecutive_dim",
     [](Fixture& x) { check_unique_dim(x, "unique_consecutive", porta_unique_consecutive_dim); }},
};

}  // namespace

std::vector<Case> sorting_cases() { return {std::begin(kCases), std::end(kCases)}; }

}  // namespace porta_bad_args
