// C API: mixed precision, autocast regions and GradScaler's device side.
#include "amp/autocast.hpp"
#include "amp/grad_scaling.hpp"
#include "c_api/c_api.hpp"

using namespace porta;

PORTA_API porta_status porta_autocast_enter(const char* device_type, DLDataType dtype, int32_t enabled) {
  return guard([&] { amp::enter(device_type, checked_dtype(dtype), enabled != 0); });
}

PORTA_API porta_status porta_autocast_exit(const char* device_type) {
  return guard([&] { amp::exit(device_type); });
}

PORTA_API porta_status porta_autocast_state(const char* device_type, int32_t* enabled, DLDataType* dtype) {
  return guard([&] {
    Dtype d = Dtype::BFloat16;
    const bool on = amp::enabled(device_type, &d);
    if (enabled) *enabled = on ? 1 : 0;
    if (dtype) *dtype = to_dl(d);
  });
}

PORTA_API porta_status porta_amp_unscale_(porta_tensor* const* grads, int32_t num_grads, porta_tensor* found_inf,
                                          porta_tensor* inv_scale) {
  return guard([&] {
    if (num_grads < 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "amp_unscale_: num_grads must be >= 0, got ", num_grads);
    if (num_grads > 0) require(grads, "grads");
    std::vector<TensorPtr> gs;
    for (int32_t i = 0; i < num_grads; ++i) gs.push_back(optional_arg(grads[i], cat("grads[", i, "]").c_str()));
    amp::unscale_(gs, arg(found_inf, "found_inf"), arg(inv_scale, "inv_scale"));
  });
}

PORTA_API porta_status porta_amp_update_scale_(porta_tensor* scale, porta_tensor* growth_tracker,
                                               porta_tensor* found_inf, double growth_factor, double backoff_factor,
                                               int32_t growth_interval) {
  return guard([&] {
    amp::update_scale_(arg(scale, "scale"), arg(growth_tracker, "growth_tracker"), arg(found_inf, "found_inf"),
                       growth_factor, backoff_factor, growth_interval);
  });
}
