// Bad-argument cases, part 2c: statistics, shapes and products (porta.h's
// section of that name, after indexing and before autograd, in its order).
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
};

}  // namespace

std::vector<Case> statistics_cases() { return {std::begin(kCases), std::end(kCases)}; }

}  // namespace porta_bad_args
