// Bad-argument cases, part 2c: statistics, shapes and products (porta.h's
// section of that name, after indexing and before autograd, in its order).
#include <array>
#include <cmath>
#include <string>

#include "c_api_bad_args.hpp"

namespace porta_bad_args {
namespace {

using DimsOp = porta_status (*)(porta_tensor*, const int32_t*, int32_t, int, porta_tensor**);
using ProductOp = porta_status (*)(porta_tensor*, porta_tensor*, porta_tensor**);

// Dims lists every reduction over dims refuses: num_dims out of range, NULL
// dims with num_dims > 0, a dim out of range. call(dims, num_dims, out).
template <typename Call>
void expect_bad_dims_refused(const char* op, Call call) {
  Untouched<porta_tensor*> out;
  const int32_t far[1] = {2}, low[1] = {INT32_MIN};
  for (int32_t n : {-1, PORTA_MAX_DIMS + 1})
    REFUSED(PORTA_ERROR_INVALID_ARGUMENT, (std::string(op) + ": num_dims " + std::to_string(n) + " is out of range").c_str(),
            call(far, n, out.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dims must not be NULL", call(nullptr, 1, out.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, (std::string(op) + ": dimension 2 is out of range").c_str(),
          call(far, 1, out.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out of range", call(low, 1, out.p()));
}

// var and std: handles, dims, and an integer tensor refused.
void check_moment(Fixture& x, const char* op,
                  porta_status (*f)(porta_tensor*, const int32_t*, int32_t, double, int, porta_tensor**)) {
  const int32_t dim = 1;
  expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) { return f(t, &dim, 1, 1.0, 0, o); });
  expect_bad_dims_refused(op, [&](const int32_t* d, int32_t n, porta_tensor** o) { return f(x.f.get(), d, n, 1.0, 0, o); });
  Untouched<porta_tensor*> out;
  REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, (std::string(op) + ": expected a floating tensor, got int64").c_str(),
          f(x.labels.get(), nullptr, 0, 1.0, 0, out.p()));
}

// any, all: handles and dims (every dtype is accepted).
void check_logical(Fixture& x, const char* op, DimsOp f) {
  const int32_t dim = 0;
  expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) { return f(t, &dim, 1, 0, o); });
  expect_bad_dims_refused(op, [&](const int32_t* d, int32_t n, porta_tensor** o) { return f(x.f.get(), d, n, 1, o); });
}

void check_triangle(Fixture& x, const char* op, porta_status (*f)(porta_tensor*, int64_t, porta_tensor**)) {
  expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) { return f(t, 0, o); });
  Untouched<porta_tensor*> out;
  REFUSED(PORTA_ERROR_SHAPE_MISMATCH,
          (std::string(op) + ": input tensor must have at least 2 dimensions, got 1").c_str(), f(x.f4.get(), 0, out.p()));
}

// A two-operand product: each handle, NULL out, the other device, and
// operands of the wrong number of dims (`wrong` for a, then for b).
void check_product(ProductOp f, porta_tensor* a, porta_tensor* b, const char* b_name, porta_tensor* wrong_a,
                   const char* hint_a, porta_tensor* wrong_b, const char* hint_b) {
  expect_each_handle_checked<2>({a, b}, {"a", b_name}, [&](auto t, porta_tensor** o) { return f(t[0], t[1], o); });
  Untouched<porta_tensor*> out;
  REFUSED(PORTA_ERROR_SHAPE_MISMATCH, hint_a, f(wrong_a, b, out.p()));
  REFUSED(PORTA_ERROR_SHAPE_MISMATCH, hint_b, f(a, wrong_b, out.p()));
}

// median and nanmedian: handles, outputs, a bad dim and an empty dim.
void check_median(Fixture& x, const char* op,
                  porta_status (*f)(porta_tensor*, int32_t, int, porta_tensor**, porta_tensor**)) {
  check_pair(x, [&](porta_tensor* t, porta_tensor** v, porta_tensor** i) { return f(t, 1, 0, v, i); });
  Untouched<porta_tensor*> v, i;
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, (std::string(op) + ": dimension 2 is out of range").c_str(),
          f(x.f.get(), 2, 0, v.p(), i.p()));
  Tensor empty = make({2, 0}, x.cpu);
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT,
          (std::string(op) + "(): Expected reduction dim 1 to have non-zero size.").c_str(),
          f(empty.get(), 1, 1, v.p(), i.p()));
  Tensor no_ints = make({0}, x.cpu, porta_int64);  // an empty integer tensor has no NaN to give
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "to have non-zero size", f(no_ints.get(), PORTA_ALL_DIMS, 0, v.p(), i.p()));
}

const Case kCases[] = {
    {"porta_var", [](Fixture& x) { check_moment(x, "var", porta_var); }},
    {"porta_std", [](Fixture& x) { check_moment(x, "std", porta_std); }},
    {"porta_prod",
     [](Fixture& x) {
       expect_handle_and_out_checked(x, [](porta_tensor* t, porta_tensor** o) { return porta_prod(t, 1, 0, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "prod: dimension 2 is out of range", porta_prod(x.f.get(), 2, 0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out of range", porta_prod(x.f.get(), -3, 1, out.p()));
     }},
    {"porta_any", [](Fixture& x) { check_logical(x, "any", porta_any); }},
    {"porta_all", [](Fixture& x) { check_logical(x, "all", porta_all); }},
    {"porta_count_nonzero",
     [](Fixture& x) {
       expect_handle_and_out_checked(x, [](porta_tensor* t, porta_tensor** o) { return porta_count_nonzero(t, nullptr, 0, o); });
       expect_bad_dims_refused("count_nonzero", [&](const int32_t* d, int32_t n, porta_tensor** o) {
         return porta_count_nonzero(x.f.get(), d, n, o);
       });
     }},
    {"porta_vector_norm",
     [](Fixture& x) {
       expect_handle_and_out_checked(
           x, [](porta_tensor* t, porta_tensor** o) { return porta_vector_norm(t, 2.0, nullptr, 0, 0, o); });
       expect_bad_dims_refused("vector_norm", [&](const int32_t* d, int32_t n, porta_tensor** o) {
         return porta_vector_norm(x.f.get(), 2.0, d, n, 0, o);
       });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "vector_norm: ord must not be NaN",
               porta_vector_norm(x.f.get(), NAN, nullptr, 0, 0, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "vector_norm: expected a floating tensor, got int64",
               porta_vector_norm(x.labels.get(), 2.0, nullptr, 0, 0, out.p()));
       Tensor empty = make({0}, x.cpu);
       for (double ord : {double(INFINITY), -double(INFINITY)})
         REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "vector_norm: an infinite ord needs a non-empty tensor",
                 porta_vector_norm(empty.get(), ord, nullptr, 0, 0, out.p()));
     }},
    {"porta_normalize",
     [](Fixture& x) {
       expect_handle_and_out_checked(
           x, [](porta_tensor* t, porta_tensor** o) { return porta_normalize(t, 2.0, 1, 1e-12, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dimension 2 is out of range",
               porta_normalize(x.f.get(), 2.0, 2, 1e-12, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "normalize: expected a floating tensor, got int64",
               porta_normalize(x.labels.get(), 2.0, 0, 1e-12, out.p()));
     }},
    {"porta_cosine_similarity",
     [](Fixture& x) {
       porta_tensor* f = x.f.get();
       expect_handle_and_out_checked(
           x, [&](porta_tensor* t, porta_tensor** o) { return porta_cosine_similarity(t, f, 1, 1e-8, o); });
       expect_handle_and_out_checked(
           x, [&](porta_tensor* t, porta_tensor** o) { return porta_cosine_similarity(f, t, 1, 1e-8, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dimension 2 is out of range",
               porta_cosine_similarity(f, f, 2, 1e-8, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "expected a floating common dtype",
               porta_cosine_similarity(x.labels.get(), x.labels.get(), 0, 1e-8, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "cannot be broadcast", porta_cosine_similarity(f, x.f4.get(), 0, 1e-8, out.p()));
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1", porta_cosine_similarity(f, x.other.get(), 0, 1e-8, out.p()));
     }},
    {"porta_flip",
     [](Fixture& x) {
       const int32_t dim = 0;
       expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) { return porta_flip(t, &dim, 1, o); });
       Untouched<porta_tensor*> out;
       const int32_t twice[2] = {1, -1}, far[1] = {2};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "flip: dim 1 appears multiple times in the list of dims",
               porta_flip(x.f.get(), twice, 2, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "flip: dimension 2 is out of range", porta_flip(x.f.get(), far, 1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "flip: num_dims -1 is out of range",
               porta_flip(x.f.get(), far, -1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dims must not be NULL", porta_flip(x.f.get(), nullptr, 1, out.p()));
     }},
    {"porta_roll",
     [](Fixture& x) {
       const int64_t shifts[2] = {1, -1};
       const int32_t dims[2] = {0, 1};
       expect_handle_and_out_checked(
           x, [&](porta_tensor* t, porta_tensor** o) { return porta_roll(t, shifts, 2, dims, 2, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "roll: shifts and dims must align. shifts: 2, dims: 1",
               porta_roll(x.f.get(), shifts, 2, dims, 1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "roll: shifts and dims must align. shifts: 1, dims: 2",
               porta_roll(x.f.get(), shifts, 1, dims, 2, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "roll: without dims, shifts must have one entry (got 2)",
               porta_roll(x.f.get(), shifts, 2, nullptr, 0, out.p()));
       for (int32_t n : {0, -1, PORTA_MAX_DIMS + 1})
         REFUSED(PORTA_ERROR_INVALID_ARGUMENT, ("roll: num_shifts (" + std::to_string(n) + ") must be in [1, ").c_str(),
                 porta_roll(x.f.get(), shifts, n, dims, 1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "num_dims (-1) in [0, ", porta_roll(x.f.get(), shifts, 1, dims, -1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "shifts must not be NULL", porta_roll(x.f.get(), nullptr, 1, dims, 1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dims must not be NULL", porta_roll(x.f.get(), shifts, 1, nullptr, 1, out.p()));
       const int32_t far[1] = {2};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "roll: dimension 2 is out of range",
               porta_roll(x.f.get(), shifts, 1, far, 1, out.p()));
     }},
    {"porta_repeat",
     [](Fixture& x) {
       const int64_t repeats[3] = {2, 1, 3};
       expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) { return porta_repeat(t, repeats, 2, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT,
               "repeat: number of dimensions of repeat dims (1) can not be smaller than number of dimensions of tensor (2)",
               porta_repeat(x.f.get(), repeats, 1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "repeat: number of dimensions of repeat dims (-1)",
               porta_repeat(x.f.get(), repeats, -1, out.p()));
       const int32_t many = PORTA_MAX_DIMS / 2 + 1;
       std::vector<int64_t> ones(many, 1);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, ("repeat: at most " + std::to_string(PORTA_MAX_DIMS / 2)).c_str(),
               porta_repeat(x.f.get(), ones.data(), many, out.p()));
       const int64_t negative[2] = {1, -2};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "repeat: repeats can not be negative, got -2",
               porta_repeat(x.f.get(), negative, 2, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "repeats must not be NULL", porta_repeat(x.f.get(), nullptr, 2, out.p()));
     }},
    {"porta_tril", [](Fixture& x) { check_triangle(x, "tril", porta_tril); }},
    {"porta_triu", [](Fixture& x) { check_triangle(x, "triu", porta_triu); }},
    {"porta_outer",
     [](Fixture& x) {
       check_product(porta_outer, x.f4.get(), x.f4.get(), "b", x.f.get(), "outer: input must be 1-D, got 2-D [2, 3]",
                     x.f.get(), "outer: vec2 must be 1-D, got 2-D [2, 3]");
       Tensor there = make({4}, x.mock);
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1", porta_outer(x.f4.get(), there.get(), out.p()));
     }},
    {"porta_mm",
     [](Fixture& x) {
       Tensor b = make({3, 4}, x.cpu);
       check_product(porta_mm, x.f.get(), b.get(), "b", x.f4.get(), "mm: self must be 2-D, got 1-D [4]", x.image.get(),
                     "mm: mat2 must be 2-D, got 4-D [1, 1, 4, 4]");
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "", porta_mm(x.f.get(), x.f.get(), out.p()));
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1", porta_mm(x.other.get(), b.get(), out.p()));
     }},
    {"porta_mv",
     [](Fixture& x) {
       Tensor v = make({3}, x.cpu);
       check_product(porta_mv, x.f.get(), v.get(), "v", x.f4.get(), "mv: self must be 2-D, got 1-D [4]", x.f.get(),
                     "mv: vec must be 1-D, got 2-D [2, 3]");
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "", porta_mv(x.f.get(), x.f4.get(), out.p()));
     }},
    {"porta_dot",
     [](Fixture& x) {
       check_product(porta_dot, x.f4.get(), x.f4.get(), "b", x.f.get(), "dot: self must be 1-D, got 2-D [2, 3]",
                     x.f.get(), "dot: tensor must be 1-D, got 2-D [2, 3]");
       Tensor three = make({3}, x.cpu);
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH,
               "dot: inconsistent tensor size, expected tensor [4] and src [3] to have the same number of elements",
               porta_dot(x.f4.get(), three.get(), out.p()));
     }},
    {"porta_bmm",
     [](Fixture& x) {
       Tensor a = make({2, 2, 3}, x.cpu), b = make({2, 3, 4}, x.cpu), b3 = make({3, 3, 4}, x.cpu);
       check_product(porta_bmm, a.get(), b.get(), "b", x.f.get(), "bmm: self must be 3-D, got 2-D [2, 3]",
                     x.image.get(), "bmm: mat2 must be 3-D, got 4-D [1, 1, 4, 4]");
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "bmm: batch sizes differ: [2, 2, 3] and [3, 3, 4] (bmm does not broadcast",
               porta_bmm(a.get(), b3.get(), out.p()));
       Tensor one = make({1, 3, 4}, x.cpu);  // a batch of 1 does not broadcast either
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "bmm: batch sizes differ", porta_bmm(a.get(), one.get(), out.p()));
     }},
    {"porta_addmm",
     [](Fixture& x) {
       Tensor a = make({2, 4}, x.cpu), b = make({4, 3}, x.cpu), row = make({3}, x.cpu);
       expect_each_handle_checked<3>({x.f.get(), a.get(), b.get()}, {"c", "a", "b"}, [](auto t, porta_tensor** o) {
         return porta_addmm(t[0], t[1], t[2], 0.5, 2.0, o);
       });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "addmm: shapes [4] and [2, 3] cannot be broadcast together",
               porta_addmm(x.f4.get(), a.get(), b.get(), 1.0, 1.0, out.p()));
       Tensor big = make({3, 2, 3}, x.cpu);  // broadcasts with the product, but not to it
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "addmm: input [3, 2, 3] must broadcast to the product's shape [2, 3]",
               porta_addmm(big.get(), a.get(), b.get(), 1.0, 1.0, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "must be 2-D, got 1-D [4]",
               porta_addmm(row.get(), x.f4.get(), b.get(), 1.0, 1.0, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "", porta_addmm(row.get(), a.get(), a.get(), 1.0, 1.0, out.p()));
     }},
    {"porta_baddbmm",
     [](Fixture& x) {
       Tensor c = make({2, 2, 4}, x.cpu), a = make({2, 2, 3}, x.cpu), b = make({2, 3, 4}, x.cpu), b3 = make({3, 3, 4}, x.cpu);
       expect_each_handle_checked<3>({c.get(), a.get(), b.get()}, {"c", "a", "b"}, [](auto t, porta_tensor** o) {
         return porta_baddbmm(t[0], t[1], t[2], 0.5, 2.0, o);
       });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "baddbmm: shapes [2, 3] and [2, 2, 4] cannot be broadcast together",
               porta_baddbmm(x.f.get(), a.get(), b.get(), 1.0, 1.0, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "batch sizes differ", porta_baddbmm(c.get(), a.get(), b3.get(), 1.0, 1.0, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "must be 3-D, got 2-D [2, 3]",
               porta_baddbmm(c.get(), x.f.get(), b.get(), 1.0, 1.0, out.p()));
     }},
    {"porta_movedim",
     [](Fixture& x) {
       const int32_t src[1] = {0}, dst[1] = {1};
       expect_handle_and_out_checked(
           x, [&](porta_tensor* t, porta_tensor** o) { return porta_movedim(t, src, dst, 1, o); });
       Untouched<porta_tensor*> out;
       for (int32_t n : {-1, PORTA_MAX_DIMS + 1})
         REFUSED(PORTA_ERROR_INVALID_ARGUMENT, ("movedim: num_dims " + std::to_string(n) + " is out of range").c_str(),
                 porta_movedim(x.f.get(), src, dst, n, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "source must not be NULL",
               porta_movedim(x.f.get(), nullptr, dst, 1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "destination must not be NULL",
               porta_movedim(x.f.get(), src, nullptr, 1, out.p()));
       const int32_t far[1] = {2}, twice[2] = {0, -2}, both[2] = {0, 1};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "movedim: dimension 2 is out of range",
               porta_movedim(x.f.get(), far, dst, 1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "movedim: repeated dim in `source` ([0, -2])",
               porta_movedim(x.f.get(), twice, both, 2, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "movedim: repeated dim in `destination` ([0, -2])",
               porta_movedim(x.f.get(), both, twice, 2, out.p()));
     }},
    {"porta_diagonal",
     [](Fixture& x) {
       expect_handle_and_out_checked(x,
                                     [](porta_tensor* t, porta_tensor** o) { return porta_diagonal(t, 0, 0, 1, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "diagonal: diagonal dimensions cannot be identical 1, -1",
               porta_diagonal(x.f.get(), 0, 1, -1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "diagonal: dimension 2 is out of range",
               porta_diagonal(x.f.get(), 0, 0, 2, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out of range", porta_diagonal(x.f4.get(), 0, 0, 1, out.p()));
     }},
    {"porta_diag",
     [](Fixture& x) {
       expect_handle_and_out_checked(x, [](porta_tensor* t, porta_tensor** o) { return porta_diag(t, 0, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "diag(): Supports 1D or 2D tensors. Got 4D",
               porta_diag(x.image.get(), 0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "diag: diagonal 9223372036854775807 is too far",
               porta_diag(x.f4.get(), INT64_MAX, out.p()));
     }},
    {"porta_meshgrid",
     [](Fixture& x) {
       porta_tensor* two[2] = {x.f4.get(), x.labels.get()};
       porta_tensor* same[2] = {x.f4.get(), x.f4.get()};
       Untouched<std::array<porta_tensor*, 2>> outs;
       porta_tensor** o = outs.p()->data();
       for (int32_t n : {0, -1})
         REFUSED(PORTA_ERROR_INVALID_ARGUMENT,
                 ("meshgrid: expected a non-empty list of tensors (n >= 1), got n = " + std::to_string(n)).c_str(),
                 porta_meshgrid(same, n, PORTA_MESHGRID_IJ, o));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "tensors must not be NULL",
               porta_meshgrid(nullptr, 2, PORTA_MESHGRID_IJ, o));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "outs must not be NULL",
               porta_meshgrid(same, 2, PORTA_MESHGRID_IJ, nullptr));
       porta_tensor* with_null[2] = {x.f4.get(), nullptr};
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "tensors[1] is NULL", porta_meshgrid(with_null, 2, PORTA_MESHGRID_IJ, o));
       porta_tensor* with_released[2] = {Fixture::released(), x.f4.get()};
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_meshgrid(with_released, 2, PORTA_MESHGRID_IJ, o));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT,
               "meshgrid: indexing must be PORTA_MESHGRID_IJ (0) or PORTA_MESHGRID_XY (1), got 2",
               porta_meshgrid(same, 2, static_cast<porta_meshgrid_indexing>(2), o));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "meshgrid: expects all tensors to have the same dtype",
               porta_meshgrid(two, 2, PORTA_MESHGRID_XY, o));
       porta_tensor* matrix[2] = {x.f4.get(), x.f.get()};
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "meshgrid: Expected 0D or 1D tensor in the tensor list but got: ",
               porta_meshgrid(matrix, 2, PORTA_MESHGRID_IJ, o));
       Tensor there = make({4}, x.mock);
       porta_tensor* mixed[2] = {x.f4.get(), there.get()};
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "meshgrid: expects all tensors to be on the same device",
               porta_meshgrid(mixed, 2, PORTA_MESHGRID_IJ, o));
     }},
    {"porta_repeat_interleave",
     [](Fixture& x) {
       Tensor counts = make({3}, x.cpu, porta_int64);  // zeros: a valid count for each column of f
       expect_each_handle_checked<2>({x.f.get(), counts.get()}, {"t", "repeats"}, [](auto a, porta_tensor** o) {
         return porta_repeat_interleave(a[0], a[1], 1, -1, o);
       });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "repeat_interleave: output_size must be >= 0 or -1 (not given), got -2",
               porta_repeat_interleave(x.f.get(), counts.get(), 1, -2, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "repeat_interleave: output_size 1 does not match",
               porta_repeat_interleave(x.f.get(), counts.get(), 1, 1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT,
               "repeat_interleave: repeats must be a 0-dim or 1-dim integer tensor, got a",
               porta_repeat_interleave(x.f.get(), x.f4.get(), 1, -1, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "repeat_interleave: repeats must have the same size as input along dim",
               porta_repeat_interleave(x.f.get(), counts.get(), 0, -1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "repeat_interleave: dimension 2 is out of range",
               porta_repeat_interleave(x.f.get(), counts.get(), 2, -1, out.p()));
       Tensor negative = make({2}, x.cpu, porta_int64);
       const int64_t minus[2] = {1, -1};
       ASSERT_EQ(porta_tensor_from_host_into(negative.get(), minus, sizeof minus), PORTA_OK);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "repeat_interleave: repeats can not be negative, found -1",
               porta_repeat_interleave(x.f.get(), negative.get(), 0, -1, out.p()));
     }},
    {"porta_repeat_interleave_int",
     [](Fixture& x) {
       expect_handle_and_out_checked(
           x, [](porta_tensor* t, porta_tensor** o) { return porta_repeat_interleave_int(t, 2, 0, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "repeat_interleave: repeats can not be negative, got -1",
               porta_repeat_interleave_int(x.f.get(), -1, 0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "elements overflow int64",
               porta_repeat_interleave_int(x.f.get(), INT64_MAX, 1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out of range", porta_repeat_interleave_int(x.f.get(), 1, -3, out.p()));
     }},
    {"porta_unfold",
     [](Fixture& x) {
       expect_handle_and_out_checked(x, [](porta_tensor* t, porta_tensor** o) { return porta_unfold(t, 1, 2, 1, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "unfold: size is -1 but must be >= 0",
               porta_unfold(x.f.get(), 1, -1, 1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "unfold: maximum size for tensor at dimension 1 is 3 but size is 4",
               porta_unfold(x.f.get(), 1, 4, 1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "unfold: step is 0 but must be > 0",
               porta_unfold(x.f.get(), 1, 2, 0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "unfold: dimension 2 is out of range",
               porta_unfold(x.f.get(), 2, 1, 1, out.p()));
     }},
    {"porta_einsum",
     [](Fixture& x) {
       porta_tensor* two[2] = {x.f.get(), x.f.get()};
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "equation must not be NULL", porta_einsum(nullptr, two, 2, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "einsum: expected a non-empty list of tensors (n >= 1), got n = 0",
               porta_einsum("ij", two, 0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "tensors must not be NULL", porta_einsum("ij", nullptr, 1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_einsum("ij", two, 1, nullptr));
       porta_tensor* with_foreign[2] = {x.f.get(), Fixture::foreign()};
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a live porta_tensor", porta_einsum("ij,ij", with_foreign, 2, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "einsum(): invalid subscript given at index 1",
               porta_einsum("i?", two, 1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "einsum(): fewer operands were provided than specified in the equation",
               porta_einsum("ij,jk,kl", two, 2, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "einsum(): more operands were provided than specified in the equation",
               porta_einsum("ij", two, 2, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "einsum(): the number of subscripts in the equation (3)",
               porta_einsum("ijk", two, 1, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "einsum(): subscript i is repeated for operand 0 but the sizes don't match",
               porta_einsum("ii", two, 1, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "einsum(): operands do not broadcast",
               porta_einsum("ij,ji", two, 2, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "einsum(): output subscript k", porta_einsum("ij->k", two, 1, out.p()));
       porta_tensor* mixed[2] = {x.f.get(), x.other.get()};
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "einsum(): operand 1 is not on operand 0's device",
               porta_einsum("ij,ij", mixed, 2, out.p()));
       Tensor ints = make({2, 3}, x.cpu, porta_int64);
       porta_tensor* dtypes[2] = {x.f.get(), ints.get()};
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "einsum(): operands must have one dtype",
               porta_einsum("ij,ij", dtypes, 2, out.p()));
     }},
    {"porta_var_mean",
     [](Fixture& x) {
       const int32_t dim = 1;
       check_pair(
           x,
           [&](porta_tensor* t, porta_tensor** v, porta_tensor** m) {
             return porta_var_mean(t, &dim, 1, 1.0, 0, v, m);
           },
           "var", "mean");
       Untouched<porta_tensor*> v, m;
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "var_mean: expected a floating tensor, got int64",
               porta_var_mean(x.labels.get(), nullptr, 0, 1.0, 0, v.p(), m.p()));
       const int32_t far[1] = {2};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dimension 2 is out of range",
               porta_var_mean(x.f.get(), far, 1, 1.0, 0, v.p(), m.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dims must not be NULL",
               porta_var_mean(x.f.get(), nullptr, 1, 1.0, 0, v.p(), m.p()));
     }},
    {"porta_std_mean",
     [](Fixture& x) {
       check_pair(
           x,
           [](porta_tensor* t, porta_tensor** s, porta_tensor** m) {
             return porta_std_mean(t, nullptr, 0, 0.0, 1, s, m);
           },
           "std", "mean");
       Untouched<porta_tensor*> s, m;
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "std_mean: expected a floating tensor, got int64",
               porta_std_mean(x.labels.get(), nullptr, 0, 1.0, 0, s.p(), m.p()));
     }},
    {"porta_median", [](Fixture& x) { check_median(x, "median", porta_median); }},
    {"porta_nanmedian", [](Fixture& x) { check_median(x, "nanmedian", porta_nanmedian); }},
    {"porta_histc",
     [](Fixture& x) {
       expect_handle_and_out_checked(x, [](porta_tensor* t, porta_tensor** o) { return porta_histc(t, 4, 0, 6, o); });
       Untouched<porta_tensor*> out;
       for (int64_t bins : {int64_t{0}, int64_t{-1}})
         REFUSED(PORTA_ERROR_INVALID_ARGUMENT, ("histc: bins must be > 0, but got " + std::to_string(bins)).c_str(),
                 porta_histc(x.f.get(), bins, 0, 6, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "is too many", porta_histc(x.f.get(), INT64_MAX, 0, 6, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "histc: max must be larger than min",
               porta_histc(x.f.get(), 4, 6, 0, out.p()));
       for (double bad : {double(NAN), double(INFINITY)})
         REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "is not finite", porta_histc(x.f.get(), 4, 0, bad, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "histc: expected a floating tensor, got int64",
               porta_histc(x.labels.get(), 4, 0, 1, out.p()));
     }},
};

}  // namespace

std::vector<Case> statistics_cases() { return {std::begin(kCases), std::end(kCases)}; }

}  // namespace porta_bad_args
