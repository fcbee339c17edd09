// Bad-argument cases, part 3: neural-network ops, initializers and
// optimizers (porta.h's sections after autograd, in its order).
#include <cmath>
#include <string>

#include "c_api_bad_args.hpp"

namespace porta_bad_args {
namespace {

// Options whose struct_size was never set.
template <typename Options>
Options unsized() {
  Options o{};
  o.struct_size = 0;
  return o;
}
// An SGD optimizer over one fresh leaf, and one that was already released.
struct Optimizers {
  Tensor param;
  porta_optimizer* live = nullptr;
  porta_optimizer* released = nullptr;
  explicit Optimizers(Fixture& x) : param(x.leaf()) {
    porta_tensor* p = param.get();
    const porta_sgd_options o{sizeof o, 0.1, 0, 0, 0, 0};
    EXPECT_EQ(porta_sgd_create(&p, 1, &o, &live), PORTA_OK) << porta_last_error();
    EXPECT_EQ(porta_sgd_create(&p, 1, &o, &released), PORTA_OK) << porta_last_error();
    porta_optimizer_release(released);
  }
  ~Optimizers() { porta_optimizer_release(live); }
};

// The NULL / released / foreign optimizer checks of f(opt).
template <typename Call>
void expect_optimizer_handle_checked(Fixture& x, Call call) {
  Optimizers o(x);
  REFUSED(PORTA_ERROR_INVALID_HANDLE, "optimizer is NULL", call(nullptr));
  REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", call(o.released));
  REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a live porta_optimizer", call(foreign_handle<porta_optimizer>()));
}
const Case kCases[] = {
    // ---- neural-network ops
    {"porta_linear",
     [](Fixture& x) {
       Tensor w = make({4, 3}, x.cpu), b = make({4}, x.cpu), w2 = make({4, 2}, x.cpu), b3 = make({3}, x.cpu);
       expect_handle_and_out_checked(
           x, [&](porta_tensor* t, porta_tensor** o) { return porta_linear(t, w.get(), b.get(), o); });
       expect_handle_and_out_checked(
           x, [&](porta_tensor* t, porta_tensor** o) { return porta_linear(x.f.get(), t, b.get(), o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released",
               porta_linear(x.f.get(), w.get(), Fixture::released(), out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "linear: input must be floating (float16, bfloat16, float32 or float64)",
               porta_linear(x.labels.get(), w.get(), nullptr, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "weight must be 2-D", porta_linear(x.f.get(), x.f4.get(), nullptr, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "has 3 features", porta_linear(x.f.get(), w2.get(), nullptr, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "bias of shape [3]", porta_linear(x.f.get(), w.get(), b3.get(), out.p()));
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1", porta_linear(x.other.get(), w.get(), nullptr, out.p()));
     }},
    {"porta_conv2d",
     [](Fixture& x) {
       porta_tensor *img = x.image.get(), *k = x.kernel.get();
       expect_handle_and_out_checked(
           x, [&](porta_tensor* t, porta_tensor** o) { return porta_conv2d(t, k, nullptr, nullptr, o); });
       expect_handle_and_out_checked(
           x, [&](porta_tensor* t, porta_tensor** o) { return porta_conv2d(img, t, nullptr, nullptr, o); });
       Untouched<porta_tensor*> out;
       const porta_conv2d_options no_size = unsized<porta_conv2d_options>();
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "struct_size must be set",
               porta_conv2d(img, k, nullptr, &no_size, out.p()));
       const porta_conv2d_options zero_stride{sizeof(porta_conv2d_options), {0, 1}, {0, 0}, {1, 1}, 1};
       const porta_conv2d_options negative_padding{sizeof(porta_conv2d_options), {1, 1}, {-1, 0}, {1, 1}, 1};
       const porta_conv2d_options zero_dilation{sizeof(porta_conv2d_options), {1, 1}, {0, 0}, {1, 0}, 1};
       const porta_conv2d_options huge_padding{sizeof(porta_conv2d_options), {1, 1}, {INT32_MAX, INT32_MAX}, {1, 1}, 1};
       const porta_conv2d_options large_padding{sizeof(porta_conv2d_options), {1, 1}, {1 << 30, 1 << 30}, {1, 1}, 1};
       const porta_conv2d_options huge_dilation{sizeof(porta_conv2d_options), {1, 1}, {0, 0}, {INT32_MAX, INT32_MAX}, 1};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "stride and dilation must be >= 1",
               porta_conv2d(img, k, nullptr, &zero_stride, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "padding >= 0", porta_conv2d(img, k, nullptr, &negative_padding, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dilation must be >= 1",
               porta_conv2d(img, k, nullptr, &zero_dilation, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "int64", porta_conv2d(img, k, nullptr, &huge_padding, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "more elements than int64",
               porta_conv2d(img, k, nullptr, &large_padding, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "smaller than the 2x2 kernel",
               porta_conv2d(img, k, nullptr, &huge_dilation, out.p()));
       Tensor k3 = make({1, 3, 2, 2}, x.cpu), big = make({1, 1, 5, 5}, x.cpu), bias2 = make({2}, x.cpu);
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "input must be 4-D", porta_conv2d(x.f.get(), k, nullptr, nullptr, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "weight must be 4-D",
               porta_conv2d(img, x.f.get(), nullptr, nullptr, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "input has 1 channels",
               porta_conv2d(img, k3.get(), nullptr, nullptr, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "smaller than the 5x5 kernel",
               porta_conv2d(img, big.get(), nullptr, nullptr, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "bias of shape [2]", porta_conv2d(img, k, bias2.get(), nullptr, out.p()));
       Tensor int_img = make({1, 1, 4, 4}, x.cpu, porta_int32);
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "conv2d: input must be floating (float16, bfloat16, float32 or float64)",
               porta_conv2d(int_img.get(), k, nullptr, nullptr, out.p()));
       porta_conv2d_options grouped{sizeof(porta_conv2d_options), {1, 1}, {0, 0}, {1, 1}, -2};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "groups must be >= 1 (0 means 1), got -2",
               porta_conv2d(img, k, nullptr, &grouped, out.p()));
       grouped.groups = 2;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "in_channels (1) and out_channels (1) must both be divisible by groups (2)",
               porta_conv2d(img, k, nullptr, &grouped, out.p()));
       Tensor img4 = make({1, 4, 4, 4}, x.cpu), k4 = make({2, 4, 2, 2}, x.cpu);
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "with groups 2 the weight must be [2, 2, KH, KW]",
               porta_conv2d(img4.get(), k4.get(), nullptr, &grouped, out.p()));
     }},
    {"porta_conv1d",
     [](Fixture& x) {
       // x.f [2, 3] is an unbatched [C 2, L 3]: its weight is [F, 2, K] (w2); w expects 3 channels.
       Tensor w = make({2, 3, 2}, x.cpu), w2 = make({2, 2, 2}, x.cpu);
       expect_handle_and_out_checked(
           x, [&](porta_tensor* t, porta_tensor** o) { return porta_conv1d(t, w2.get(), nullptr, 1, 0, 1, 1, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "weight is NULL", porta_conv1d(x.f.get(), nullptr, nullptr, 1, 0, 1, 1, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "expected input [N, C, L] or [C, L], got [1, 1, 4, 4]",
               porta_conv1d(x.image.get(), w2.get(), nullptr, 1, 0, 1, 1, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "weight must be 3-D", porta_conv1d(x.f.get(), x.f.get(), nullptr, 1, 0, 1, 1, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "input has 2 channels", porta_conv1d(x.f.get(), w.get(), nullptr, 1, 0, 1, 1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "stride and dilation must be >= 1",
               porta_conv1d(x.f.get(), w2.get(), nullptr, 0, 0, 1, 1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "conv1d: groups must be >= 1 (0 means 1), got -1",
               porta_conv1d(x.f.get(), w2.get(), nullptr, 1, 0, 1, -1, out.p()));
     }},
    {"porta_conv_transpose2d",
     [](Fixture& x) {
       // x.image [1, 1, 4, 4] with weight [C 1, F 2, 3, 3].
       Tensor w = make({1, 2, 3, 3}, x.cpu), bias = make({2}, x.cpu);
       porta_tensor* img = x.image.get();
       expect_each_handle_checked<3>(
           {img, w.get(), bias.get()}, {"x", "weight", "bias"},
           [](auto t, porta_tensor** o) { return porta_conv_transpose2d(t[0], t[1], t[2], nullptr, nullptr, o); }, 2);
       Untouched<porta_tensor*> out;
       const porta_conv2d_options no_size = unsized<porta_conv2d_options>();
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "struct_size must be set",
               porta_conv_transpose2d(img, w.get(), nullptr, &no_size, nullptr, out.p()));
       const porta_conv2d_options zero_stride{sizeof(porta_conv2d_options), {0, 1}, {0, 0}, {1, 1}, 1};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "conv_transpose2d: stride and dilation must be >= 1",
               porta_conv_transpose2d(img, w.get(), nullptr, &zero_stride, nullptr, out.p()));
       const porta_conv2d_options stride2{sizeof(porta_conv2d_options), {2, 2}, {0, 0}, {1, 1}, 1};
       const int32_t two[2] = {2, 0}, one_ok[2] = {1, 1}, negative[2] = {0, -1};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "output padding must be smaller than either stride or dilation",
               porta_conv_transpose2d(img, w.get(), nullptr, &stride2, two, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "output padding must be smaller",
               porta_conv_transpose2d(img, w.get(), nullptr, &stride2, negative, out.p()));
       const porta_conv2d_options dilated{sizeof(porta_conv2d_options), {1, 1}, {0, 0}, {3, 3}, 1};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "output_padding 1 >= stride 1 (allowed by PyTorch below the dilation)",
               porta_conv_transpose2d(img, w.get(), nullptr, &dilated, one_ok, out.p()));
       const porta_conv2d_options padded{sizeof(porta_conv2d_options), {1, 1}, {4, 4}, {1, 1}, 1};
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "gives a non-positive output size -2",
               porta_conv_transpose2d(img, w.get(), nullptr, &padded, nullptr, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "input must be [N, C, H, W] or [C, H, W], got [2, 3]",
               porta_conv_transpose2d(x.f.get(), w.get(), nullptr, nullptr, nullptr, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "weight must be 4-D",
               porta_conv_transpose2d(img, x.f.get(), nullptr, nullptr, nullptr, out.p()));
       Tensor w3 = make({3, 2, 3, 3}, x.cpu), bias3 = make({3}, x.cpu);
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "conv_transpose2d: input has 1 channels but the weight [3, 2, 3, 3]",
               porta_conv_transpose2d(img, w3.get(), nullptr, nullptr, nullptr, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "bias of shape [3] does not match 2 output channels",
               porta_conv_transpose2d(img, w.get(), bias3.get(), nullptr, nullptr, out.p()));
       porta_conv2d_options grouped{sizeof(porta_conv2d_options), {1, 1}, {0, 0}, {1, 1}, -1};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "conv_transpose2d: groups must be >= 1 (0 means 1), got -1",
               porta_conv_transpose2d(img, w.get(), nullptr, &grouped, nullptr, out.p()));
       grouped.groups = 2;
       Tensor w1 = make({1, 1, 3, 3}, x.cpu);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "in_channels (1) must be divisible by groups (2)",
               porta_conv_transpose2d(img, w1.get(), nullptr, &grouped, nullptr, out.p()));
       Tensor int_img = make({1, 1, 4, 4}, x.cpu, porta_int32);
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE,
               "conv_transpose2d: input must be floating (float16, bfloat16, float32 or float64)",
               porta_conv_transpose2d(int_img.get(), w.get(), nullptr, nullptr, nullptr, out.p()));
       Tensor there = make({1, 2, 3, 3}, x.mock);
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1",
               porta_conv_transpose2d(img, there.get(), nullptr, nullptr, nullptr, out.p()));
     }},
    {"porta_conv_transpose1d",
     [](Fixture& x) {
       // x.f [2, 3] is an unbatched [C 2, L 3]: its weight is [2, F, K].
       Tensor w = make({2, 1, 2}, x.cpu), w3 = make({3, 1, 2}, x.cpu);
       expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) {
         return porta_conv_transpose1d(t, w.get(), nullptr, 1, 0, 0, 1, 1, o);
       });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "weight is NULL",
               porta_conv_transpose1d(x.f.get(), nullptr, nullptr, 1, 0, 0, 1, 1, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "conv_transpose1d: expected input [N, C, L] or [C, L], got [1, 1, 4, 4]",
               porta_conv_transpose1d(x.image.get(), w.get(), nullptr, 1, 0, 0, 1, 1, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "weight must be 3-D",
               porta_conv_transpose1d(x.f.get(), x.f.get(), nullptr, 1, 0, 0, 1, 1, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "input has 2 channels",
               porta_conv_transpose1d(x.f.get(), w3.get(), nullptr, 1, 0, 0, 1, 1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "output padding must be smaller than either stride or dilation",
               porta_conv_transpose1d(x.f.get(), w.get(), nullptr, 2, 0, 2, 1, 1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "groups must be >= 1 (0 means 1), got -1",
               porta_conv_transpose1d(x.f.get(), w.get(), nullptr, 1, 0, 0, 1, -1, out.p()));
     }},
    {"porta_max_pool2d",
     [](Fixture& x) {
       const porta_pool2d_options two{sizeof(porta_pool2d_options), {2, 2}, {0, 0}, {0, 0}, {0, 0}, 1, 0, 0};
       expect_handle_and_out_checked(x,
                                     [&](porta_tensor* t, porta_tensor** o) { return porta_max_pool2d(t, &two, o); });
       Untouched<porta_tensor*> out;
       porta_tensor* img = x.image.get();
       const porta_pool2d_options no_size = unsized<porta_pool2d_options>();
       const porta_pool2d_options zero_kernel{sizeof(porta_pool2d_options), {0, 2}, {0, 0}, {0, 0}, {0, 0}, 1, 0, 0};
       const porta_pool2d_options wide_padding{sizeof(porta_pool2d_options), {2, 2}, {0, 0}, {2, 0}, {0, 0}, 1, 0, 0};
       const porta_pool2d_options huge_window{
           sizeof(porta_pool2d_options), {INT32_MAX, 2}, {1, 1}, {0, 0}, {3, 1}, 1, 0, 0};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "options (the kernel size at least) must not be NULL",
               porta_max_pool2d(img, nullptr, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "struct_size must be set", porta_max_pool2d(img, &no_size, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "kernel, stride and dilation must be >= 1",
               porta_max_pool2d(img, &zero_kernel, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "at most half the kernel size",
               porta_max_pool2d(img, &wide_padding, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "smaller than the", porta_max_pool2d(img, &huge_window, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "input must be 4-D", porta_max_pool2d(x.f.get(), &two, out.p()));
       // ceil_mode checks the same geometry (and ignores the reserved field older callers left unset)
       const porta_pool2d_options ceil_wide{sizeof(porta_pool2d_options), {2, 2}, {0, 0}, {2, 0}, {0, 0}, 1, -7, 1};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "at most half the kernel size",
               porta_max_pool2d(img, &ceil_wide, out.p()));
       const porta_pool2d_options ceil_huge{
           sizeof(porta_pool2d_options), {INT32_MAX, 2}, {1, 1}, {0, 0}, {3, 1}, 1, 0, 1};
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "smaller than the", porta_max_pool2d(img, &ceil_huge, out.p()));
     }},
    {"porta_max_pool2d_with_indices",
     [](Fixture& x) {
       const porta_pool2d_options two{sizeof(porta_pool2d_options), {2, 2}, {0, 0}, {0, 0}, {0, 0}, 1, 0, 0};
       Untouched<porta_tensor*> indices;
       expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) {
         return porta_max_pool2d_with_indices(t, &two, o, indices.p());
       });
       Untouched<porta_tensor*> out;
       porta_tensor* img = x.image.get();
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "indices must not be NULL",
               porta_max_pool2d_with_indices(img, &two, out.p(), nullptr));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "input must be 4-D",
               porta_max_pool2d_with_indices(x.f.get(), &two, out.p(), indices.p()));
     }},
    {"porta_avg_pool2d",
     [](Fixture& x) {
       const porta_pool2d_options two{sizeof(porta_pool2d_options), {2, 2}, {0, 0}, {0, 0}, {0, 0}, 1, 0, 0};
       expect_handle_and_out_checked(x,
                                     [&](porta_tensor* t, porta_tensor** o) { return porta_avg_pool2d(t, &two, o); });
       Untouched<porta_tensor*> out;
       porta_tensor* img = x.image.get();
       const porta_pool2d_options dilated{sizeof(porta_pool2d_options), {2, 2}, {0, 0}, {0, 0}, {2, 2}, 1, 0, 0};
       const porta_pool2d_options negative_stride{
           sizeof(porta_pool2d_options), {2, 2}, {-1, 1}, {0, 0}, {0, 0}, 1, 0, 0};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "must not be NULL", porta_avg_pool2d(img, nullptr, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dilation is not supported", porta_avg_pool2d(img, &dilated, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "must be >= 1", porta_avg_pool2d(img, &negative_stride, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "float32 or float64", porta_avg_pool2d(x.labels.get(), &two, out.p()));
       const porta_pool2d_options ceil_dilated{sizeof(porta_pool2d_options), {2, 2}, {0, 0}, {0, 0}, {2, 2}, 1, 0, 1};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dilation is not supported",
               porta_avg_pool2d(img, &ceil_dilated, out.p()));
     }},
    {"porta_softmax",
     [](Fixture& x) {
       expect_handle_and_out_checked(x, [](porta_tensor* t, porta_tensor** o) { return porta_softmax(t, 1, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dimension 2 is out of range", porta_softmax(x.f.get(), 2, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out of range", porta_softmax(x.f.get(), INT32_MIN, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "softmax: input must be floating (float16, bfloat16, float32 or float64)",
               porta_softmax(x.labels.get(), 0, out.p()));
     }},
    {"porta_log_softmax",
     [](Fixture& x) {
       expect_handle_and_out_checked(x, [](porta_tensor* t, porta_tensor** o) { return porta_log_softmax(t, 1, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dimension -3 is out of range", porta_log_softmax(x.f.get(), -3, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "log_softmax", porta_log_softmax(x.mask.get(), 0, out.p()));
     }},
    {"porta_cross_entropy",
     [](Fixture& x) {
       porta_tensor *logits = x.f.get(), *target = x.labels.get();
       expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) {
         return porta_cross_entropy(t, target, PORTA_REDUCTION_MEAN, o);
       });
       expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) {
         return porta_cross_entropy(logits, t, PORTA_REDUCTION_MEAN, o);
       });
       Untouched<porta_tensor*> out;
       const auto mean = PORTA_REDUCTION_MEAN;
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "input must be 2-D", porta_cross_entropy(x.f4.get(), target, mean, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "target must be a 1-D int64 (or uint8) tensor of class indices",
               porta_cross_entropy(logits, x.f4.get(), mean, out.p()));
       Tensor three = make({3}, x.cpu, porta_int64);
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "to match target batch size (3)",
               porta_cross_entropy(logits, three.get(), mean, out.p()));
       Tensor one_class = make({2, 1}, x.cpu);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "target[1] = 1 is outside [0, 1)",
               porta_cross_entropy(one_class.get(), target, mean, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "unknown reduction 3",
               porta_cross_entropy(logits, target, static_cast<porta_reduction>(3), out.p()));
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1", porta_cross_entropy(x.other.get(), target, mean, out.p()));
     }},
    {"porta_cross_entropy_ignore",
     [](Fixture& x) {
       porta_tensor *logits = x.f.get(), *target = x.labels.get();
       expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) {
         return porta_cross_entropy_ignore(t, target, PORTA_REDUCTION_MEAN, 0, o);
       });
       expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) {
         return porta_cross_entropy_ignore(logits, t, PORTA_REDUCTION_MEAN, 0, o);
       });
       Untouched<porta_tensor*> out;
       Tensor one_class = make({2, 1}, x.cpu);
       // Ignoring class 0 leaves target[1] = 1, outside one class.
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "target[1] = 1 is outside [0, 1)",
               porta_cross_entropy_ignore(one_class.get(), target, PORTA_REDUCTION_SUM, 0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "unknown reduction 3",
               porta_cross_entropy_ignore(logits, target, static_cast<porta_reduction>(3), 0, out.p()));
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1",
               porta_cross_entropy_ignore(x.other.get(), target, PORTA_REDUCTION_MEAN, 0, out.p()));
     }},
    {"porta_mse_loss",
     [](Fixture& x) {
       porta_tensor* f = x.f.get();
       expect_handle_and_out_checked(
           x, [&](porta_tensor* t, porta_tensor** o) { return porta_mse_loss(t, f, PORTA_REDUCTION_SUM, o); });
       expect_handle_and_out_checked(
           x, [&](porta_tensor* t, porta_tensor** o) { return porta_mse_loss(f, t, PORTA_REDUCTION_SUM, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "differ", porta_mse_loss(f, x.f4.get(), PORTA_REDUCTION_SUM, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE,
               "mse_loss: input must be floating (float16, bfloat16, float32 or float64)",
               porta_mse_loss(x.labels.get(), x.labels.get(), PORTA_REDUCTION_SUM, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "unknown reduction 3",
               porta_mse_loss(f, f, static_cast<porta_reduction>(3), out.p()));
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1", porta_mse_loss(f, x.other.get(), PORTA_REDUCTION_SUM, out.p()));
     }},
    {"porta_dropout",
     [](Fixture& x) {
       expect_handle_and_out_checked(x, [](porta_tensor* t, porta_tensor** o) { return porta_dropout(t, 0.5, 1, o); });
       Untouched<porta_tensor*> out;
       for (double p : {-0.1, 1.5, double(NAN), double(INFINITY)})
         REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "p must be in [0, 1]", porta_dropout(x.f.get(), p, 1, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "dropout: input must be floating (float16, bfloat16, float32 or float64)",
               porta_dropout(x.labels.get(), 0.5, 1, out.p()));
     }},
    {"porta_flatten",
     [](Fixture& x) {
       expect_handle_and_out_checked(x, [](porta_tensor* t, porta_tensor** o) { return porta_flatten(t, 0, -1, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "start_dim 1 comes after end_dim 0",
               porta_flatten(x.f.get(), 1, 0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dimension 2 is out of range", porta_flatten(x.f.get(), 0, 2, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out of range", porta_flatten(x.f.get(), INT32_MIN, 0, out.p()));
     }},
    {"porta_pad",
     [](Fixture& x) {
       const int64_t one[2] = {1, 1}, odd[3] = {1, 1, 1}, three_dims[6] = {1, 1, 1, 1, 1, 1}, big[2] = {3, 0};
       expect_handle_and_out_checked(
           x, [&](porta_tensor* t, porta_tensor** o) { return porta_pad(t, one, 2, PORTA_PAD_CONSTANT, 0.0, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "pad must not be NULL",
               porta_pad(x.f.get(), nullptr, 2, PORTA_PAD_CONSTANT, 0.0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "n must be non-negative, got -2",
               porta_pad(x.f.get(), one, -2, PORTA_PAD_CONSTANT, 0.0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "padding length must be even, got 3",
               porta_pad(x.f.get(), odd, 3, PORTA_PAD_CONSTANT, 0.0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "pads more dimensions than the input's 2",
               porta_pad(x.f.get(), three_dims, 6, PORTA_PAD_CONSTANT, 0.0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "unknown mode 9",
               porta_pad(x.f.get(), one, 2, porta_pad_mode(9), 0.0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "reflect padding of (3, 0) does not fit dimension 1 of size 3",
               porta_pad(x.f.get(), big, 2, PORTA_PAD_REFLECT, 0.0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "value is for the constant mode only",
               porta_pad(x.f.get(), one, 2, PORTA_PAD_REPLICATE, 1.0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "int64", porta_pad(x.labels.get(), one, 2, PORTA_PAD_CONSTANT, INFINITY, out.p()));
     }},
    {"porta_adaptive_avg_pool2d",
     [](Fixture& x) {
       expect_handle_and_out_checked(
           x, [](porta_tensor* t, porta_tensor** o) { return porta_adaptive_avg_pool2d(t, 2, 2, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "expected input [N, C, H, W] or [C, H, W], got [2, 3]",
               porta_adaptive_avg_pool2d(x.f.get(), 1, 1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "output size must be at least 1x1, got 0x2",
               porta_adaptive_avg_pool2d(x.image.get(), 0, 2, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "at least 1x1",
               porta_adaptive_avg_pool2d(x.image.get(), 1, INT64_MIN, out.p()));
     }},
    {"porta_feature_dropout",
     [](Fixture& x) {
       expect_handle_and_out_checked(
           x, [](porta_tensor* t, porta_tensor** o) { return porta_feature_dropout(t, 0.5, 1, 1, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "p must be in [0, 1], got nan",
               porta_feature_dropout(x.image.get(), NAN, 1, 2, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "spatial_dims must be 1, 2 or 3",
               porta_feature_dropout(x.image.get(), 0.5, 1, 0, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "expected 5-D [N, C, ...] or 4-D [C, ...] input for 3 spatial dims",
               porta_feature_dropout(x.f.get(), 0.5, 1, 3, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE,
               "feature_dropout: input must be floating (float16, bfloat16, float32 or float64)",
               porta_feature_dropout(x.mask.get(), 0.5, 1, 1, out.p()));
     }},
    {"porta_interpolate",
     [](Fixture& x) {
       const auto bilinear = PORTA_INTERPOLATE_BILINEAR, nearest = PORTA_INTERPOLATE_NEAREST;
       expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) {
         return porta_interpolate(t, 2, 2, NAN, NAN, nearest, 0, o);
       });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "expected input [N, C, H, W], got [2, 3]",
               porta_interpolate(x.f.get(), 2, 2, NAN, NAN, nearest, 0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "unknown mode 5",
               porta_interpolate(x.image.get(), 2, 2, NAN, NAN, porta_interpolate_mode(5), 0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "align_corners is for the bilinear mode only",
               porta_interpolate(x.image.get(), 2, 2, NAN, NAN, nearest, 1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "output size must be at least 1x1, got 2x0",
               porta_interpolate(x.image.get(), 2, 0, NAN, NAN, bilinear, 0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "a scale factor must be positive and finite",
               porta_interpolate(x.image.get(), 2, 2, -1.0, NAN, bilinear, 0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "a scale factor must be positive and finite",
               porta_interpolate(x.image.get(), 2, 2, 1.0, INFINITY, bilinear, 0, out.p()));
     }},
    {"porta_rnn_cell",
     [](Fixture& x) {
       // x.f [2, 3]: N 2, input 3; an LSTM cell of hidden size 2 (8 gate rows).
       Tensor w_ih = make({8, 3}, x.cpu), w_hh = make({8, 2}, x.cpu), h = make({2, 2}, x.cpu), c = make({2, 2}, x.cpu);
       Tensor narrow = make({8, 4}, x.cpu), h3 = make({3, 2}, x.cpu), b = make({8}, x.cpu);
       Untouched<porta_tensor*> h1, c1;
       auto cell = [&](porta_rnn_mode m, porta_tensor* in, porta_tensor* hh, porta_tensor* cc, porta_tensor* wi,
                       porta_tensor* wh, porta_tensor* bi, porta_tensor* bh, porta_tensor** ho, porta_tensor** co) {
         return porta_rnn_cell(m, in, hh, cc, wi, wh, bi, bh, ho, co);
       };
       const auto lstm = PORTA_RNN_LSTM;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "x is NULL",
               cell(lstm, nullptr, h.get(), c.get(), w_ih.get(), w_hh.get(), nullptr, nullptr, h1.p(), c1.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released",
               cell(lstm, x.f.get(), Fixture::released(), c.get(), w_ih.get(), w_hh.get(), nullptr, nullptr, h1.p(),
                    c1.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "w_hh is NULL",
               cell(lstm, x.f.get(), h.get(), c.get(), w_ih.get(), nullptr, nullptr, nullptr, h1.p(), c1.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "h_out must not be NULL",
               cell(lstm, x.f.get(), h.get(), c.get(), w_ih.get(), w_hh.get(), nullptr, nullptr, nullptr, c1.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "c_out must not be NULL",
               cell(lstm, x.f.get(), h.get(), c.get(), w_ih.get(), w_hh.get(), nullptr, nullptr, h1.p(), nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "unknown mode 7",
               cell(porta_rnn_mode(7), x.f.get(), h.get(), c.get(), w_ih.get(), w_hh.get(), nullptr, nullptr, h1.p(),
                    c1.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "both h and c, or neither",
               cell(lstm, x.f.get(), h.get(), nullptr, w_ih.get(), w_hh.get(), nullptr, nullptr, h1.p(), c1.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "c is the LSTM's cell state",
               cell(PORTA_RNN_GRU, x.f.get(), h.get(), c.get(), w_ih.get(), w_hh.get(), nullptr, nullptr, h1.p(),
                    c1.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "w_ih must be [8, 3]",
               cell(lstm, x.f.get(), h.get(), c.get(), narrow.get(), w_hh.get(), nullptr, nullptr, h1.p(), c1.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "w_hh must be [4 * hidden_size, hidden_size]",
               cell(lstm, x.f.get(), h.get(), c.get(), w_ih.get(), w_ih.get(), nullptr, nullptr, h1.p(), c1.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "expected h of shape [2, 2], got [3, 2]",
               cell(lstm, x.f.get(), h3.get(), c.get(), w_ih.get(), w_hh.get(), nullptr, nullptr, h1.p(), c1.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "give b_ih and b_hh, or neither",
               cell(lstm, x.f.get(), h.get(), c.get(), w_ih.get(), w_hh.get(), b.get(), nullptr, h1.p(), c1.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE,
               "rnn_cell: input must be floating (float16, bfloat16, float32 or float64)",
               cell(lstm, x.labels.get(), h.get(), c.get(), w_ih.get(), w_hh.get(), nullptr, nullptr, h1.p(), c1.p()));
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "",
               cell(lstm, x.other.get(), nullptr, nullptr, w_ih.get(), w_hh.get(), nullptr, nullptr, h1.p(), c1.p()));
     }},
    {"porta_rnn",
     [](Fixture& x) {
       // input [T 2, N 1, I 3]; a GRU of hidden size 2 (6 gate rows), no biases.
       Tensor input = make({2, 1, 3}, x.cpu), w_ih = make({6, 3}, x.cpu), w_hh = make({6, 2}, x.cpu);
       Tensor h0 = make({1, 1, 2}, x.cpu), empty = make({0, 1, 3}, x.cpu);
       porta_tensor* weights[2] = {w_ih.get(), w_hh.get()};
       porta_tensor* with_null[2] = {w_ih.get(), nullptr};
       const porta_rnn_options gru{sizeof(porta_rnn_options), PORTA_RNN_GRU, 1, 0, 0, 0, 0, 0.0};
       Untouched<porta_tensor*> out, hn, cn;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "input is NULL",
               porta_rnn(nullptr, nullptr, nullptr, weights, 2, &gru, out.p(), hn.p(), cn.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "h0",
               porta_rnn(input.get(), Fixture::foreign(), nullptr, weights, 2, &gru, out.p(), hn.p(), cn.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "params[1] is NULL",
               porta_rnn(input.get(), nullptr, nullptr, with_null, 2, &gru, out.p(), hn.p(), cn.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "params must not be NULL",
               porta_rnn(input.get(), nullptr, nullptr, nullptr, 2, &gru, out.p(), hn.p(), cn.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "num_params must be non-negative, got -1",
               porta_rnn(input.get(), nullptr, nullptr, weights, -1, &gru, out.p(), hn.p(), cn.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "expected 2 weights (1 layers x 1 directions x 2), got 1",
               porta_rnn(input.get(), nullptr, nullptr, weights, 1, &gru, out.p(), hn.p(), cn.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "output must not be NULL",
               porta_rnn(input.get(), nullptr, nullptr, weights, 2, &gru, nullptr, hn.p(), cn.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "h_n must not be NULL",
               porta_rnn(input.get(), nullptr, nullptr, weights, 2, &gru, out.p(), nullptr, cn.p()));
       porta_rnn_options bad = gru;
       bad.struct_size = 0;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "struct_size must be set",
               porta_rnn(input.get(), nullptr, nullptr, weights, 2, &bad, out.p(), hn.p(), cn.p()));
       bad = gru, bad.num_layers = 0;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "num_layers must be at least 1, got 0",
               porta_rnn(input.get(), nullptr, nullptr, weights, 2, &bad, out.p(), hn.p(), cn.p()));
       bad = gru, bad.dropout = NAN;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dropout must be in [0, 1]",
               porta_rnn(input.get(), nullptr, nullptr, weights, 2, &bad, out.p(), hn.p(), cn.p()));
       bad = gru, bad.mode = -1;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "unknown mode -1",
               porta_rnn(input.get(), nullptr, nullptr, weights, 2, &bad, out.p(), hn.p(), cn.p()));
       bad = gru, bad.mode = PORTA_RNN_LSTM;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "c_n must not be NULL",
               porta_rnn(input.get(), nullptr, nullptr, weights, 2, &bad, out.p(), hn.p(), nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "c0 is the LSTM's cell state",
               porta_rnn(input.get(), h0.get(), h0.get(), weights, 2, &gru, out.p(), hn.p(), cn.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "expected input [T, N, input_size]",
               porta_rnn(x.image.get(), nullptr, nullptr, weights, 2, &gru, out.p(), hn.p(), cn.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "the sequence is empty (T = 0)",
               porta_rnn(empty.get(), nullptr, nullptr, weights, 2, &gru, out.p(), hn.p(), cn.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "expected h0 of shape [1, 1, 2], got [2, 3]",
               porta_rnn(input.get(), x.f.get(), nullptr, weights, 2, &gru, out.p(), hn.p(), cn.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "rnn: input must be floating (float16, bfloat16, float32 or float64)",
               porta_rnn(x.labels.get(), nullptr, nullptr, weights, 2, &gru, out.p(), hn.p(), cn.p()));
     }},

    // ---- initializers
    {"porta_init_uniform_",
     [](Fixture& x) {
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_init_uniform_(nullptr, 0, 1));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_init_uniform_(Fixture::released(), 0, 1));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE,
               "init_uniform_: tensor must be floating (float16, bfloat16, float32 or float64)",
               porta_init_uniform_(x.labels.get(), 0, 1));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "low 2 exceeds high 1", porta_init_uniform_(x.f.get(), 2, 1));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "must be finite", porta_init_uniform_(x.f.get(), -INFINITY, INFINITY));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "must be finite", porta_init_uniform_(x.f.get(), NAN, 1));
       EXPECT_EQ(porta_test::values(x.f.get()), (std::vector<float>{1, 2, 3, 4, 5, 6})) << "a refused init wrote";
     }},
    {"porta_init_normal_",
     [](Fixture& x) {
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_init_normal_(nullptr, 0, 1));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "init_normal_", porta_init_normal_(x.mask.get(), 0, 1));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "std -1", porta_init_normal_(x.f.get(), 0, -1));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "std nan", porta_init_normal_(x.f.get(), 0, NAN));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "mean inf", porta_init_normal_(x.f.get(), INFINITY, 1));
       EXPECT_EQ(porta_test::values(x.f.get()), (std::vector<float>{1, 2, 3, 4, 5, 6})) << "a refused init wrote";
     }},
    {"porta_init_kaiming_uniform_",
     [](Fixture& x) {
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_init_kaiming_uniform_(nullptr, 1));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a tensor at all", porta_init_kaiming_uniform_(Fixture::foreign(), 1));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "at least 2 dimensions", porta_init_kaiming_uniform_(x.f4.get(), 1));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "must be finite", porta_init_kaiming_uniform_(x.f.get(), NAN));
       Tensor ints = make({2, 3}, x.cpu, porta_int32);
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "float32 or float64", porta_init_kaiming_uniform_(ints.get(), 1));
     }},
    {"porta_init_layer_default_",
     [](Fixture& x) {
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "weight is NULL", porta_init_layer_default_(nullptr, x.f4.get()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released",
               porta_init_layer_default_(x.f.get(), Fixture::released()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "at least 2 dimensions", porta_init_layer_default_(x.f4.get(), nullptr));
       Tensor ints = make({3}, x.cpu, porta_int32);
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "bias", porta_init_layer_default_(x.f.get(), ints.get()));
       EXPECT_EQ(porta_test::values(x.f.get()), (std::vector<float>{1, 2, 3, 4, 5, 6})) << "a refused init wrote";
     }},
    {"porta_init_fan_in",
     [](Fixture& x) {
       Untouched<int64_t> out;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_init_fan_in(nullptr, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_init_fan_in(x.f.get(), nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "at least 2 dimensions", porta_init_fan_in(x.f4.get(), out.p()));
     }},

    // ---- optimizers
    {"porta_sgd_create",
     [](Fixture& x) {
       Tensor p = x.leaf();
       porta_tensor* params[1] = {p.get()};
       Untouched<porta_optimizer*> out;
       const porta_sgd_options ok{sizeof(porta_sgd_options), 0.1, 0, 0, 0, 0};
       auto with = [&](double lr, double momentum, double dampening, double wd, int32_t nesterov) {
         return porta_sgd_options{sizeof(porta_sgd_options), lr, momentum, dampening, wd, nesterov};
       };
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_sgd_create(params, 1, &ok, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "options (the learning rate at least)",
               porta_sgd_create(params, 1, nullptr, out.p()));
       const porta_sgd_options no_size = unsized<porta_sgd_options>();
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "struct_size must be set", porta_sgd_create(params, 1, &no_size, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "parameter count -1 is negative",
               porta_sgd_create(params, -1, &ok, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "params must not be NULL", porta_sgd_create(nullptr, 1, &ok, out.p()));
       porta_tensor* null_param[1] = {nullptr};
       porta_tensor* released_param[1] = {Fixture::released()};
       porta_tensor* int_param[1] = {x.labels.get()};
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "is NULL", porta_sgd_create(null_param, 1, &ok, out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_sgd_create(released_param, 1, &ok, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "parameters must be float", porta_sgd_create(int_param, 1, &ok, out.p()));
       porta_tensor* y = nullptr;
       ASSERT_EQ(porta_mul_scalar(p.get(), 2, &y), PORTA_OK);
       Tensor owned(y);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "is not a leaf", porta_sgd_create(&y, 1, &ok, out.p()));
       const porta_sgd_options nan_lr = with(NAN, 0, 0, 0, 0), negative_lr = with(-1, 0, 0, 0, 0);
       const porta_sgd_options inf_decay = with(0.1, 0, 0, INFINITY, 0), nesterov = with(0.1, 0, 0, 0, 1);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "lr must be >= 0", porta_sgd_create(params, 1, &nan_lr, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "lr must be >= 0", porta_sgd_create(params, 1, &negative_lr, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "weight_decay must be >= 0",
               porta_sgd_create(params, 1, &inf_decay, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "Nesterov momentum requires",
               porta_sgd_create(params, 1, &nesterov, out.p()));
     }},
    {"porta_adam_create",
     [](Fixture& x) {
       Tensor p = x.leaf();
       porta_tensor* params[1] = {p.get()};
       Untouched<porta_optimizer*> out;
       const porta_adam_options beta_one{sizeof(porta_adam_options), 1e-3, 1.0, 0.999, 1e-8, 0, 0};
       const porta_adam_options negative_eps{sizeof(porta_adam_options), 1e-3, 0.9, 0.999, -1, 0, 0};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_adam_create(params, 1, nullptr, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "Adam: betas must be in [0, 1)",
               porta_adam_create(params, 1, &beta_one, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "Adam: eps must be >= 0",
               porta_adam_create(params, 1, &negative_eps, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "Adam: parameter count -5",
               porta_adam_create(params, -5, nullptr, out.p()));
       porta_tensor* released_param[1] = {Fixture::released()};
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_adam_create(released_param, 1, nullptr, out.p()));
     }},
    {"porta_adamw_create",
     [](Fixture& x) {
       Tensor p = x.leaf();
       porta_tensor* params[1] = {p.get()};
       Untouched<porta_optimizer*> out;
       const porta_adam_options nan_beta{sizeof(porta_adam_options), 1e-3, 0.9, NAN, 1e-8, 0, 0};
       const porta_adam_options no_size = unsized<porta_adam_options>();
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_adamw_create(params, 1, nullptr, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "AdamW: betas must be in [0, 1)",
               porta_adamw_create(params, 1, &nan_beta, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "struct_size must be set",
               porta_adamw_create(params, 1, &no_size, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "params must not be NULL",
               porta_adamw_create(nullptr, 2, nullptr, out.p()));
     }},
    {"porta_rmsprop_create",
     [](Fixture& x) {
       Tensor p = x.leaf();
       porta_tensor* params[1] = {p.get()};
       Untouched<porta_optimizer*> out;
       const porta_rmsprop_options bad_alpha{sizeof(porta_rmsprop_options), 1e-2, -0.5, 1e-8, 0, 0, 0};
       const porta_rmsprop_options nan_momentum{sizeof(porta_rmsprop_options), 1e-2, 0.99, 1e-8, 0, NAN, 0};
       const porta_rmsprop_options no_size = unsized<porta_rmsprop_options>();
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_rmsprop_create(params, 1, nullptr, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "RMSprop: alpha must be >= 0, got -0.5",
               porta_rmsprop_create(params, 1, &bad_alpha, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "RMSprop: momentum must be >= 0",
               porta_rmsprop_create(params, 1, &nan_momentum, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "struct_size must be set",
               porta_rmsprop_create(params, 1, &no_size, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "params must not be NULL",
               porta_rmsprop_create(nullptr, 2, nullptr, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "empty parameter list", porta_rmsprop_create(params, 0, nullptr, out.p()));
     }},
    {"porta_adagrad_create",
     [](Fixture& x) {
       Tensor p = x.leaf();
       porta_tensor* params[1] = {p.get()};
       Untouched<porta_optimizer*> out;
       const porta_adagrad_options bad_decay{sizeof(porta_adagrad_options), 1e-2, -1, 0, 0, 1e-10};
       const porta_adagrad_options no_size = unsized<porta_adagrad_options>();
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_adagrad_create(params, 1, nullptr, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "Adagrad: lr_decay must be >= 0, got -1",
               porta_adagrad_create(params, 1, &bad_decay, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "struct_size must be set",
               porta_adagrad_create(params, 1, &no_size, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "params must not be NULL",
               porta_adagrad_create(nullptr, 2, nullptr, out.p()));
     }},
    {"porta_optimizer_step", [](Fixture& x) { expect_optimizer_handle_checked(x, porta_optimizer_step); }},
    {"porta_optimizer_zero_grad", [](Fixture& x) { expect_optimizer_handle_checked(x, porta_optimizer_zero_grad); }},
    {"porta_optimizer_set_lr",
     [](Fixture& x) {
       expect_optimizer_handle_checked(x, [](porta_optimizer* o) { return porta_optimizer_set_lr(o, 0.5); });
       Optimizers o(x);
       for (double lr : {-1.0, double(NAN), double(INFINITY)})
         REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "lr must be finite and >= 0", porta_optimizer_set_lr(o.live, lr));
       double lr = 0;
       EXPECT_EQ(porta_optimizer_get_lr(o.live, &lr), PORTA_OK);
       EXPECT_EQ(lr, 0.1) << "a refused set_lr changed the rate";
     }},
    {"porta_optimizer_get_lr",
     [](Fixture& x) {
       Untouched<double> lr;
       expect_optimizer_handle_checked(x, [&](porta_optimizer* o) { return porta_optimizer_get_lr(o, lr.p()); });
       Optimizers o(x);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_optimizer_get_lr(o.live, nullptr));
     }},
    {"porta_optimizer_state_slots",
     [](Fixture& x) {
       Untouched<int32_t> n;
       expect_optimizer_handle_checked(x, [&](porta_optimizer* o) { return porta_optimizer_state_slots(o, n.p()); });
       Optimizers o(x);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_optimizer_state_slots(o.live, nullptr));
     }},
    {"porta_optimizer_get_state",
     [](Fixture& x) {
       Untouched<porta_tensor*> out;
       expect_optimizer_handle_checked(x, [&](porta_optimizer* o) { return porta_optimizer_get_state(o, 0, 0, out.p()); });
       Optimizers o(x);  // SGD without momentum: no state slots
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_optimizer_get_state(o.live, 0, 0, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "parameter 1 is out of range", porta_optimizer_get_state(o.live, 1, 0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "state slot 0 is out of range (this optimizer keeps 0",
               porta_optimizer_get_state(o.live, 0, 0, out.p()));
     }},
    {"porta_optimizer_set_state",
     [](Fixture& x) {
       expect_optimizer_handle_checked(x, [&](porta_optimizer* o) { return porta_optimizer_set_state(o, 0, 0, x.f.get()); });
       Tensor param = x.leaf();
       porta_tensor* p = param.get();
       const porta_adam_options ao{sizeof ao, 1e-3, 0.9, 0.999, 1e-8, 0, 0};
       porta_optimizer* adam = nullptr;
       ASSERT_EQ(porta_adam_create(&p, 1, &ao, &adam), PORTA_OK) << porta_last_error();
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "state is NULL", porta_optimizer_set_state(adam, 0, 0, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "parameter -1 is out of range", porta_optimizer_set_state(adam, -1, 0, x.f.get()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "state slot 2 is out of range", porta_optimizer_set_state(adam, 0, 2, x.f.get()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "state of shape [4] for parameter 0 of shape [2, 3]",
               porta_optimizer_set_state(adam, 0, 0, x.f4.get()));
       Tensor ints = make({2, 3}, x.cpu, porta_int64);
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "must be float", porta_optimizer_set_state(adam, 0, 1, ints.get()));
       porta_tensor* st = nullptr;
       EXPECT_EQ(porta_optimizer_get_state(adam, 0, 0, &st), PORTA_OK);
       EXPECT_EQ(st, nullptr) << "a refused set_state created state";
       porta_optimizer_release(adam);
     }},
    {"porta_optimizer_get_step",
     [](Fixture& x) {
       Untouched<int64_t> n;
       expect_optimizer_handle_checked(x, [&](porta_optimizer* o) { return porta_optimizer_get_step(o, 0, n.p()); });
       Optimizers o(x);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_optimizer_get_step(o.live, 0, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "parameter 5 is out of range", porta_optimizer_get_step(o.live, 5, n.p()));
     }},
    {"porta_optimizer_set_step",
     [](Fixture& x) {
       expect_optimizer_handle_checked(x, [&](porta_optimizer* o) { return porta_optimizer_set_step(o, 0, 1); });
       Optimizers o(x);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "step -1 is negative", porta_optimizer_set_step(o.live, 0, -1));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "parameter 1 is out of range", porta_optimizer_set_step(o.live, 1, 1));
       int64_t steps = -1;
       EXPECT_EQ(porta_optimizer_get_step(o.live, 0, &steps), PORTA_OK);
       EXPECT_EQ(steps, 0) << "a refused set_step changed the count";
     }},
    {"porta_optimizer_set_master_weights",
     [](Fixture& x) {
       // Every value of `enabled` is valid (nonzero: on); only the handle is checked.
       expect_optimizer_handle_checked(x, [&](porta_optimizer* o) { return porta_optimizer_set_master_weights(o, 1); });
     }},
    {"porta_optimizer_get_master_weight",
     [](Fixture& x) {
       Untouched<porta_tensor*> out;
       expect_optimizer_handle_checked(x, [&](porta_optimizer* o) { return porta_optimizer_get_master_weight(o, 0, out.p()); });
       Optimizers o(x);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_optimizer_get_master_weight(o.live, 0, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "parameter 1 is out of range",
               porta_optimizer_get_master_weight(o.live, 1, out.p()));
     }},
    {"porta_optimizer_set_master_weight",
     [](Fixture& x) {
       expect_optimizer_handle_checked(x, [&](porta_optimizer* o) { return porta_optimizer_set_master_weight(o, 0, x.f.get()); });
       Optimizers o(x);
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "master is NULL", porta_optimizer_set_master_weight(o.live, 0, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "parameter -1 is out of range",
               porta_optimizer_set_master_weight(o.live, -1, x.f.get()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "of shape [4] for parameter 0 of shape [2, 3]",
               porta_optimizer_set_master_weight(o.live, 0, x.f4.get()));
       Tensor ints = make({2, 3}, x.cpu, porta_int64);
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "must be float", porta_optimizer_set_master_weight(o.live, 0, ints.get()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "master weights are off",
               porta_optimizer_set_master_weight(o.live, 0, x.f.get()));
       ASSERT_EQ(porta_optimizer_set_master_weights(o.live, 1), PORTA_OK);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "only float16 and bfloat16 parameters have master weights",
               porta_optimizer_set_master_weight(o.live, 0, x.f.get()));
     }},
    {"porta_optimizer_set_maximize",
     [](Fixture& x) {
       // Every value of `enabled` is valid (nonzero: on); only the handle is checked.
       expect_optimizer_handle_checked(x, [&](porta_optimizer* o) { return porta_optimizer_set_maximize(o, 1); });
     }},
    {"porta_optimizer_release",
     [](Fixture& x) {
       porta_optimizer_release(nullptr);  // documented no-op
       Optimizers o(x);
       mark_last_error();
       porta_optimizer_release(o.released);  // a double release: no double free
       EXPECT_NE(std::string(porta_last_error()).find("already released"), std::string::npos) << porta_last_error();
       mark_last_error();
       porta_optimizer_release(foreign_handle<porta_optimizer>());
       EXPECT_NE(std::string(porta_last_error()).find("not a live porta_optimizer"), std::string::npos);
     }},
};

}  // namespace

std::vector<Case> nn_cases() {
  std::vector<Case> cases;
  for (const Case& c : kCases) {
    if (c.entry == "porta_dropout")  // porta.h's losses, normalization and attention come before it
      for (const Case& l : nn_loss_cases()) cases.push_back(l);
    cases.push_back(c);
  }
  return cases;
}

}  // namespace porta_bad_args
