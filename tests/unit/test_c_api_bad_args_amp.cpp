// Bad-argument cases, part 6: mixed precision (porta.h's last section, in its
// order): autocast regions and GradScaler's device side.
#include "c_api_bad_args.hpp"

namespace porta_bad_args {
namespace {

// A one-element tensor of `dtype` on the cpu.
Tensor one(DLDataType dtype, double value) {
  porta_tensor* t = nullptr;
  const int64_t shape[1] = {1};
  EXPECT_EQ(porta_full(shape, 1, value, dtype, DLDevice{kDLCPU, 0}, &t), PORTA_OK);
  return Tensor(t);
}

const Case kCases[] = {
    {"porta_autocast_enter",
     [](Fixture&) {
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "device_type must not be NULL",
               porta_autocast_enter(nullptr, porta_bfloat16, 1));
       REFUSED(PORTA_ERROR_NO_SUCH_DEVICE, "unknown device type 'gpu'", porta_autocast_enter("gpu", porta_bfloat16, 1));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "float32 is not a lower-precision dtype",
               porta_autocast_enter("cpu", porta_float32, 1));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "unsupported dtype",
               porta_autocast_enter("cpu", DLDataType{kDLFloat, 8, 1}, 1));
       int32_t on = -1;
       EXPECT_EQ(porta_autocast_state("cpu", &on, nullptr), PORTA_OK);
       EXPECT_EQ(on, 0) << "a refused enter opened a region";
     }},
    {"porta_autocast_exit",
     [](Fixture&) {
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "device_type must not be NULL", porta_autocast_exit(nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "no autocast region is open on 'cpu'", porta_autocast_exit("cpu"));
       REFUSED(PORTA_ERROR_NO_SUCH_DEVICE, "unknown device type 'gpu'", porta_autocast_exit("gpu"));
     }},
    {"porta_autocast_state",
     [](Fixture&) {
       Untouched<int32_t> on;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "device_type must not be NULL",
               porta_autocast_state(nullptr, on.p(), nullptr));
       REFUSED(PORTA_ERROR_NO_SUCH_DEVICE, "unknown device type 'gpu'", porta_autocast_state("gpu", on.p(), nullptr));
     }},
    {"porta_amp_unscale_",
     [](Fixture& x) {
       Tensor found = one(porta_float32, 0), inv = one(porta_float32, 0.5), wrong = one(porta_int32, 0);
       porta_tensor* grads[] = {x.f.get()};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "grads must not be NULL",
               porta_amp_unscale_(nullptr, 1, found.get(), inv.get()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "num_grads must be >= 0",
               porta_amp_unscale_(grads, -1, found.get(), inv.get()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "found_inf", porta_amp_unscale_(grads, 1, nullptr, inv.get()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "inv_scale", porta_amp_unscale_(grads, 1, found.get(), Fixture::foreign()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "found_inf must be one float32 element",
               porta_amp_unscale_(grads, 1, wrong.get(), inv.get()));
       porta_tensor* integers[] = {x.labels.get()};
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "gradients must be floating",
               porta_amp_unscale_(integers, 1, found.get(), inv.get()));
       porta_tensor* elsewhere[] = {x.other.get()};
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1", porta_amp_unscale_(elsewhere, 1, found.get(), inv.get()));
       porta_tensor* dead[] = {Fixture::released()};
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "grads[0]", porta_amp_unscale_(dead, 1, found.get(), inv.get()));
     }},
    {"porta_amp_update_scale_",
     [](Fixture&) {
       Tensor scale = one(porta_float32, 65536), tracker = one(porta_int32, 0), found = one(porta_float32, 0);
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "scale",
               porta_amp_update_scale_(nullptr, tracker.get(), found.get(), 2, 0.5, 2000));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "growth_tracker must be one int32 element",
               porta_amp_update_scale_(scale.get(), found.get(), found.get(), 2, 0.5, 2000));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "growth_factor > 1",
               porta_amp_update_scale_(scale.get(), tracker.get(), found.get(), 1, 0.5, 2000));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "0 < backoff_factor < 1",
               porta_amp_update_scale_(scale.get(), tracker.get(), found.get(), 2, 1.5, 2000));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "growth_interval",
               porta_amp_update_scale_(scale.get(), tracker.get(), found.get(), 2, 0.5, 0));
       float s = 0;
       EXPECT_EQ(porta_tensor_to_host(scale.get(), &s, sizeof s), PORTA_OK);
       EXPECT_EQ(s, 65536.0f) << "a refused update changed the scale";
     }},
};

}  // namespace

std::vector<Case> amp_cases() { return {std::begin(kCases), std::end(kCases)}; }

}  // namespace porta_bad_args
