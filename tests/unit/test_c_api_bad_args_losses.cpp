// Bad-argument cases, part 3b: losses, normalization and attention (porta.h's
// nn section from porta_nll_loss to porta_scaled_dot_product_attention, before
// porta_dropout, in its order).
#include <cmath>
#include <string>

#include "c_api_bad_args.hpp"

namespace porta_bad_args {
namespace {

const auto kBadReduction = static_cast<porta_reduction>(7);

// t * scale as a new tensor.
Tensor scaled(porta_tensor* t, double scale) {
  porta_tensor* r = nullptr;
  EXPECT_EQ(porta_mul_scalar(t, scale, &r), PORTA_OK) << porta_last_error();
  return Tensor(r);
}

// An elementwise loss f(input, target, out) with the others bound: handles,
// shape, dtype and device mismatches, an unknown reduction.
template <typename Loss>
void check_pair_loss(Fixture& x, const char* op, Loss f) {
  porta_tensor* p = x.f.get();
  expect_each_handle_checked<2>({p, p}, {"input", "target"},
                                [&](auto t, porta_tensor** o) { return f(t[0], t[1], PORTA_REDUCTION_MEAN, o); });
  Untouched<porta_tensor*> out;
  REFUSED(PORTA_ERROR_SHAPE_MISMATCH,
          (std::string(op) + ": input shape [2, 3] and target shape [4] differ").c_str(),
          f(p, x.f4.get(), PORTA_REDUCTION_MEAN, out.p()));
  Tensor f64 = make({2, 3}, x.cpu, porta_float64);
  REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, (std::string(op) + ": target is float64 but input is float32").c_str(),
          f(p, f64.get(), PORTA_REDUCTION_MEAN, out.p()));
  REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE,
          (std::string(op) + ": input must be floating (float16, bfloat16, float32 or float64), got int64").c_str(),
          f(x.labels.get(), x.labels.get(), PORTA_REDUCTION_MEAN, out.p()));
  REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1", f(p, x.other.get(), PORTA_REDUCTION_MEAN, out.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, (std::string(op) + ": unknown reduction 7").c_str(),
          f(p, p, kBadReduction, out.p()));
  if (std::string(op) != "kl_div")  // batchmean is kl_div's alone
    REFUSED(PORTA_ERROR_INVALID_ARGUMENT, (std::string(op) + ": unknown reduction 3").c_str(),
            f(p, p, PORTA_REDUCTION_BATCHMEAN, out.p()));
}

const Case kCases[] = {
    {"porta_nll_loss",
     [](Fixture& x) {
       Tensor w = make({3}, x.cpu);
       expect_each_handle_checked<3>(
           {x.f.get(), x.labels.get(), w.get()}, {"input", "target", "weight"},
           [](auto t, porta_tensor** o) { return porta_nll_loss(t[0], t[1], t[2], -100, PORTA_REDUCTION_MEAN, o); }, 2);
       Untouched<porta_tensor*> out;
       porta_tensor *f = x.f.get(), *labels = x.labels.get();
       for (auto r : {kBadReduction, PORTA_REDUCTION_BATCHMEAN})
         REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "nll_loss: unknown reduction", porta_nll_loss(f, labels, nullptr, -100, r, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "nll_loss: expected target dtype to be Long or Byte, but got float32",
               porta_nll_loss(f, x.f4.get(), nullptr, -100, PORTA_REDUCTION_MEAN, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE,
               "nll_loss: input must be floating (float16, bfloat16, float32 or float64), got int64",
               porta_nll_loss(labels, labels, nullptr, -100, PORTA_REDUCTION_MEAN, out.p()));
       Tensor three = make({3}, x.cpu, porta_int64);
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "nll_loss: expected target of shape [2] for input [2, 3], got [3]",
               porta_nll_loss(f, three.get(), nullptr, -100, PORTA_REDUCTION_MEAN, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "nll_loss: weight must be a float32 tensor of shape [3] (one per class), got float32 [4]",
               porta_nll_loss(f, labels, x.f4.get(), -100, PORTA_REDUCTION_MEAN, out.p()));
       Tensor w64 = make({3}, x.cpu, porta_float64);
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "got float64 [3]",
               porta_nll_loss(f, labels, w64.get(), -100, PORTA_REDUCTION_MEAN, out.p()));
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1",
               porta_nll_loss(x.other.get(), labels, nullptr, -100, PORTA_REDUCTION_MEAN, out.p()));
       Tensor far = make({2}, x.cpu, porta_int64);  // ones: class 1, fine; 5 is out of bounds
       Tensor five = scaled(far.get(), 5);
       REFUSED(kAnyError, "out of bounds", porta_nll_loss(f, five.get(), nullptr, -100, PORTA_REDUCTION_MEAN, out.p()));
     }},
    {"porta_cross_entropy_loss",
     [](Fixture& x) {
       Tensor w = make({3}, x.cpu);
       expect_each_handle_checked<3>({x.f.get(), x.labels.get(), w.get()}, {"logits", "target", "weight"},
                                     [](auto t, porta_tensor** o) {
                                       return porta_cross_entropy_loss(t[0], t[1], t[2], -100, PORTA_REDUCTION_MEAN, 0.1, o);
                                     }, 2);
       Untouched<porta_tensor*> out;
       porta_tensor *f = x.f.get(), *labels = x.labels.get();
       for (double eps : {-0.1, 1.5, double(NAN)})
         REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "cross_entropy: label_smoothing must be between 0.0 and 1.0",
                 porta_cross_entropy_loss(f, labels, nullptr, -100, PORTA_REDUCTION_MEAN, eps, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "cross_entropy: unknown reduction 7",
               porta_cross_entropy_loss(f, labels, nullptr, -100, kBadReduction, 0.0, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE,
               "cross_entropy: input must be floating (float16, bfloat16, float32 or float64), got int64",
               porta_cross_entropy_loss(labels, labels, nullptr, -100, PORTA_REDUCTION_MEAN, 0.0, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "cross_entropy: expected target dtype to be Long or Byte, but got bool",
               porta_cross_entropy_loss(f, x.mask.get(), nullptr, -100, PORTA_REDUCTION_MEAN, 0.0, out.p()));
       Tensor scalar = make({}, x.cpu);
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "cross_entropy: input must have a class dimension, got a 0-d tensor",
               porta_cross_entropy_loss(scalar.get(), labels, nullptr, -100, PORTA_REDUCTION_MEAN, 0.0, out.p()));
       // probability targets: the logits' shape and dtype
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "cross_entropy: input shape [2, 3] and target shape [4] differ",
               porta_cross_entropy_loss(f, x.f4.get(), nullptr, -100, PORTA_REDUCTION_MEAN, 0.0, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "cross_entropy: weight must be a float32 tensor of shape [3]",
               porta_cross_entropy_loss(f, f, x.f4.get(), -100, PORTA_REDUCTION_MEAN, 0.0, out.p()));
       Tensor three = make({3}, x.cpu, porta_int64);
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "cross_entropy: expected target of shape [2] for input [2, 3], got [3]",
               porta_cross_entropy_loss(f, three.get(), nullptr, -100, PORTA_REDUCTION_MEAN, 0.0, out.p()));
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1",
               porta_cross_entropy_loss(f, x.other.get(), nullptr, -100, PORTA_REDUCTION_MEAN, 0.0, out.p()));
     }},
    {"porta_binary_cross_entropy",
     [](Fixture& x) {
       Tensor p = scaled(x.f.get(), 0.1);
       check_pair_loss(x, "binary_cross_entropy", [&](porta_tensor* a, porta_tensor* b, porta_reduction r, porta_tensor** o) {
         return porta_binary_cross_entropy(a == x.f.get() ? p.get() : a, b, nullptr, r, o);
       });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT,
               "binary_cross_entropy: all elements of input should be between 0 and 1 (got values in [1, 6])",
               porta_binary_cross_entropy(x.f.get(), p.get(), nullptr, PORTA_REDUCTION_MEAN, out.p()));
       Tensor negative = scaled(x.f.get(), -0.1);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "binary_cross_entropy: all elements of input should be between 0 and 1",
               porta_binary_cross_entropy(negative.get(), p.get(), nullptr, PORTA_REDUCTION_MEAN, out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "weight is not a live porta_tensor",
               porta_binary_cross_entropy(p.get(), p.get(), Fixture::foreign(), PORTA_REDUCTION_MEAN, out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released",
               porta_binary_cross_entropy(p.get(), p.get(), Fixture::released(), PORTA_REDUCTION_MEAN, out.p()));
     }},
    {"porta_binary_cross_entropy_with_logits",
     [](Fixture& x) {
       check_pair_loss(x, "binary_cross_entropy_with_logits",
                       [](porta_tensor* a, porta_tensor* b, porta_reduction r, porta_tensor** o) {
                         return porta_binary_cross_entropy_with_logits(a, b, nullptr, nullptr, r, o);
                       });
       Untouched<porta_tensor*> out;
       porta_tensor* f = x.f.get();
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "weight is not a live porta_tensor",
               porta_binary_cross_entropy_with_logits(f, f, Fixture::foreign(), nullptr, PORTA_REDUCTION_MEAN, out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "pos_weight is not a live porta_tensor",
               porta_binary_cross_entropy_with_logits(f, f, nullptr, Fixture::foreign(), PORTA_REDUCTION_MEAN, out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released",
               porta_binary_cross_entropy_with_logits(f, f, nullptr, Fixture::released(), PORTA_REDUCTION_MEAN, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "",
               porta_binary_cross_entropy_with_logits(f, f, nullptr, x.f4.get(), PORTA_REDUCTION_MEAN, out.p()));
     }},
    {"porta_l1_loss", [](Fixture& x) { check_pair_loss(x, "l1_loss", porta_l1_loss); }},
    {"porta_smooth_l1_loss",
     [](Fixture& x) {
       check_pair_loss(x, "smooth_l1_loss", [](porta_tensor* a, porta_tensor* b, porta_reduction r, porta_tensor** o) {
         return porta_smooth_l1_loss(a, b, r, 1.0, o);
       });
       Untouched<porta_tensor*> out;
       for (double beta : {-1.0, double(NAN)})
         REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "smooth_l1_loss: beta must be non-negative",
                 porta_smooth_l1_loss(x.f.get(), x.f.get(), PORTA_REDUCTION_MEAN, beta, out.p()));
     }},
    {"porta_huber_loss",
     [](Fixture& x) {
       check_pair_loss(x, "huber_loss", [](porta_tensor* a, porta_tensor* b, porta_reduction r, porta_tensor** o) {
         return porta_huber_loss(a, b, r, 1.0, o);
       });
       Untouched<porta_tensor*> out;
       for (double delta : {0.0, -1.0, double(NAN)})
         REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "huber_loss: delta must be positive",
                 porta_huber_loss(x.f.get(), x.f.get(), PORTA_REDUCTION_MEAN, delta, out.p()));
     }},
    {"porta_kl_div",
     [](Fixture& x) {
       check_pair_loss(x, "kl_div", [](porta_tensor* a, porta_tensor* b, porta_reduction r, porta_tensor** o) {
         return porta_kl_div(a, b, r, 0, o);
       });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "kl_div: unknown reduction 4",
               porta_kl_div(x.f.get(), x.f.get(), static_cast<porta_reduction>(4), 1, out.p()));
     }},
    {"porta_layer_norm",
     [](Fixture& x) {
       Tensor w = make({3}, x.cpu);
       const int64_t last[1] = {3};
       expect_each_handle_checked<3>({x.f.get(), w.get(), w.get()}, {"x", "weight", "bias"},
                                     [&](auto t, porta_tensor** o) { return porta_layer_norm(t[0], last, 1, t[1], t[2], 1e-5, o); }, 1);
       Untouched<porta_tensor*> out;
       const int64_t wrong[1] = {2}, too_many[3] = {1, 2, 3};
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "layer_norm: given normalized_shape=[2], expected input with shape [*, 2] but got input of size [2, 3]",
               porta_layer_norm(x.f.get(), wrong, 1, nullptr, nullptr, 1e-5, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "layer_norm: given normalized_shape=[1, 2, 3]",
               porta_layer_norm(x.f.get(), too_many, 3, nullptr, nullptr, 1e-5, out.p()));
       for (int32_t n : {0, -1, PORTA_MAX_DIMS + 1})
         REFUSED(PORTA_ERROR_INVALID_ARGUMENT,
                 ("layer_norm: n (the length of normalized_shape) must be in [1, " + std::to_string(PORTA_MAX_DIMS) +
                  "], got " + std::to_string(n)).c_str(),
                 porta_layer_norm(x.f.get(), last, n, nullptr, nullptr, 1e-5, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "normalized_shape must not be NULL",
               porta_layer_norm(x.f.get(), nullptr, 1, nullptr, nullptr, 1e-5, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "layer_norm: weight must have shape [3], got [4]",
               porta_layer_norm(x.f.get(), last, 1, x.f4.get(), nullptr, 1e-5, out.p()));
       Tensor w64 = make({3}, x.cpu, porta_float64);
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "layer_norm: bias is float64 but the input is float32",
               porta_layer_norm(x.f.get(), last, 1, nullptr, w64.get(), 1e-5, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE,
               "layer_norm: input must be floating (float16, bfloat16, float32 or float64), got int64",
               porta_layer_norm(x.labels.get(), wrong, 1, nullptr, nullptr, 1e-5, out.p()));
     }},
    {"porta_group_norm",
     [](Fixture& x) {
       Tensor in = make({2, 4, 3}, x.cpu), w = make({4}, x.cpu), w3 = make({3}, x.cpu);
       expect_each_handle_checked<3>({in.get(), w.get(), w.get()}, {"x", "weight", "bias"},
                                     [](auto t, porta_tensor** o) { return porta_group_norm(t[0], 2, t[1], t[2], 1e-5, o); }, 1);
       Untouched<porta_tensor*> out;
       for (int64_t groups : {int64_t{3}, int64_t{0}, int64_t{-2}})
         REFUSED(PORTA_ERROR_INVALID_ARGUMENT,
                 ("group_norm: expected the number of channels (4) to be divisible by num_groups (" +
                  std::to_string(groups) + ")").c_str(),
                 porta_group_norm(in.get(), groups, nullptr, nullptr, 1e-5, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "group_norm: expected input [N, C, *], got [4]",
               porta_group_norm(x.f4.get(), 1, nullptr, nullptr, 1e-5, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "group_norm: bias must have shape [4], got [3]",
               porta_group_norm(in.get(), 2, nullptr, w3.get(), 1e-5, out.p()));
     }},
    {"porta_batch_norm",
     [](Fixture& x) {
       Tensor w = make({3}, x.cpu), rm = make({3}, x.cpu), rv = make({3}, x.cpu);
       expect_each_handle_checked<5>({x.f.get(), rm.get(), rv.get(), w.get(), w.get()},
                                     {"x", "running_mean", "running_var", "weight", "bias"}, [](auto t, porta_tensor** o) {
                                       return porta_batch_norm(t[0], t[1], t[2], t[3], t[4], 1, 0.1, 1e-5, o);
                                     }, 1);
       Untouched<porta_tensor*> out;
       porta_tensor* f = x.f.get();
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "batch_norm: eval mode needs running_mean and running_var",
               porta_batch_norm(f, nullptr, nullptr, w.get(), w.get(), 0, 0.1, 1e-5, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "batch_norm: give both running_mean and running_var, or neither",
               porta_batch_norm(f, rm.get(), nullptr, nullptr, nullptr, 1, 0.1, 1e-5, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "batch_norm: give both running_mean and running_var, or neither",
               porta_batch_norm(f, nullptr, rv.get(), nullptr, nullptr, 0, 0.1, 1e-5, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "batch_norm: running_var must have shape [3], got [4]",
               porta_batch_norm(f, rm.get(), x.f4.get(), nullptr, nullptr, 1, 0.1, 1e-5, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "batch_norm: expected input [N, C, *], got [4]",
               porta_batch_norm(x.f4.get(), nullptr, nullptr, nullptr, nullptr, 1, 0.1, 1e-5, out.p()));
       Tensor single = make({1, 3}, x.cpu);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "batch_norm: expected more than 1 value per channel when training, got input size [1, 3]",
               porta_batch_norm(single.get(), nullptr, nullptr, nullptr, nullptr, 1, 0.1, 1e-5, out.p()));
       Tensor there = make({3}, x.mock);
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1",
               porta_batch_norm(f, nullptr, nullptr, there.get(), nullptr, 1, 0.1, 1e-5, out.p()));
       // A refused call leaves the running statistics as they were.
       EXPECT_EQ(porta_test::values(rm.get()), (std::vector<float>{1, 1, 1}));
       EXPECT_EQ(porta_test::values(rv.get()), (std::vector<float>{1, 1, 1}));
     }},
    {"porta_scaled_dot_product_attention",
     [](Fixture& x) {
       Tensor q = make({2, 4, 3}, x.cpu), k = make({2, 5, 3}, x.cpu), v = make({2, 5, 2}, x.cpu);
       Tensor mask = make({4, 5}, x.cpu);
       expect_each_handle_checked<4>({q.get(), k.get(), v.get(), mask.get()}, {"q", "k", "v", "attn_mask"},
                                     [](auto t, porta_tensor** o) {
                                       return porta_scaled_dot_product_attention(t[0], t[1], t[2], t[3], 0.0, 0, NAN, 0, o);
                                     }, 3);
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "scaled_dot_product_attention: give attn_mask or is_causal, not both",
               porta_scaled_dot_product_attention(q.get(), k.get(), v.get(), mask.get(), 0.0, 1, NAN, 0, out.p()));
       for (double p : {-0.5, 1.5, double(NAN)})
         REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "scaled_dot_product_attention: dropout_p must be in [0, 1]",
                 porta_scaled_dot_product_attention(q.get(), k.get(), v.get(), nullptr, p, 0, NAN, 1, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "scaled_dot_product_attention: expected key [..., S, 3] and value [..., S, Ev]",
               porta_scaled_dot_product_attention(q.get(), v.get(), v.get(), nullptr, 0.0, 0, NAN, 0, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "got key [2, 5, 3] and value [2, 4, 3]",
               porta_scaled_dot_product_attention(q.get(), k.get(), q.get(), nullptr, 0.0, 0, NAN, 0, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "scaled_dot_product_attention: query, key and value must be at least 2-D",
               porta_scaled_dot_product_attention(x.f4.get(), k.get(), v.get(), nullptr, 0.0, 0, NAN, 0, out.p()));
       REFUSED(
           PORTA_ERROR_UNSUPPORTED_DTYPE,
           "scaled_dot_product_attention: query must be floating (float16, bfloat16, float32 or float64), got int64",
           porta_scaled_dot_product_attention(x.labels.get(), k.get(), v.get(), nullptr, 0.0, 0, NAN, 0, out.p()));
       Tensor there = make({2, 5, 3}, x.mock);
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1",
               porta_scaled_dot_product_attention(q.get(), there.get(), v.get(), nullptr, 0.0, 0, NAN, 0, out.p()));
       Tensor far_mask = make({4, 5}, x.mock);
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1",
               porta_scaled_dot_product_attention(q.get(), k.get(), v.get(), far_mask.get(), 0.0, 0, NAN, 0, out.p()));
       Tensor wrong_mask = make({3, 3}, x.cpu);
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "",
               porta_scaled_dot_product_attention(q.get(), k.get(), v.get(), wrong_mask.get(), 0.0, 0, NAN, 0, out.p()));
     }},
};

}  // namespace

std::vector<Case> nn_loss_cases() { return {std::begin(kCases), std::end(kCases)}; }

}  // namespace porta_bad_args
