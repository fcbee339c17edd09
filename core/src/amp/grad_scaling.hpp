// The device side of GradScaler (torch.amp.GradScaler): unscaling a device's
// gradients while noting an infinity or NaN among them, and updating the
// scale from that note, both on the device (no host synchronization), as
// torch._amp_foreach_non_finite_check_and_unscale_ and _amp_update_scale_.
#pragma once

#include <vector>

#include "runtime/tensor.hpp"

namespace porta::amp {

// Every g of `grads` *= inv_scale (computed in float32 and rounded once for
// float16 and bfloat16); found_inf := 1 when any g held an infinity or NaN.
// found_inf and inv_scale: one float32 element each, on the grads' device.
void unscale_(const std::vector<TensorPtr>& grads, const TensorPtr& found_inf, const TensorPtr& inv_scale);

// scale *= backoff_factor and growth_tracker := 0 after a found infinity;
// else growth_tracker += 1, and at growth_interval scale *= growth_factor
// (when that stays finite) and growth_tracker := 0.
void update_scale_(const TensorPtr& scale, const TensorPtr& growth_tracker, const TensorPtr& found_inf,
                   double growth_factor, double backoff_factor, int32_t growth_interval);

}  // namespace porta::amp
