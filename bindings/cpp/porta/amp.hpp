// porta/amp.hpp — mixed precision, as torch.amp and libtorch's autocast:
// an Autocast scope (porta_autocast_enter / exit) and GradScaler.
//
//   porta::amp::GradScaler scaler;
//   for (auto& batch : loader) {
//     opt.zero_grad();
//     porta::Tensor loss;
//     {
//       porta::amp::Autocast region("cpu", porta::kBFloat16);
//       loss = porta::nn::functional::cross_entropy(model(batch.x), batch.y);
//     }
//     scaler.scale(loss).backward();
//     scaler.step(opt);
//     scaler.update();
//   }
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "porta/optim.hpp"
#include "porta/porta.hpp"

namespace porta::amp {

/// An autocast region of this thread on device type `device_type` ("cpu",
/// "cuda"), from construction to destruction, as torch.autocast: PyTorch's
/// autocast lists run in `dtype` (float16 or bfloat16) or in float32
/// (docs/api.md lists them); enabled = false opens a region without autocast.
class Autocast {
 public:
  explicit Autocast(std::string device_type, DLDataType dtype, bool enabled = true) : type_(std::move(device_type)) {
    detail::check(porta_autocast_enter(type_.c_str(), dtype, enabled ? 1 : 0));
  }
  /// The device type's default dtype: bfloat16 on the CPU, float16 elsewhere (torch's).
  explicit Autocast(const std::string& device_type) : Autocast(device_type, default_dtype(device_type)) {}
  ~Autocast() { porta_autocast_exit(type_.c_str()); }
  Autocast(const Autocast&) = delete;
  Autocast& operator=(const Autocast&) = delete;

  static DLDataType default_dtype(const std::string& device_type) {
    return device_type == "cpu" ? kBFloat16 : kFloat16;
  }

 private:
  std::string type_;
};

/// Whether this thread is in an enabled autocast region for `device_type`.
inline bool is_autocast_enabled(const std::string& device_type) {
  int32_t on = 0;
  detail::check(porta_autocast_state(device_type.c_str(), &on, nullptr));
  return on != 0;
}

/// GradScaler's options, torch.amp.GradScaler's defaults.
struct GradScalerOptions {
  double init_scale = 65536.0;  ///< 2^16
  double growth_factor = 2.0;
  double backoff_factor = 0.5;
  int32_t growth_interval = 2000;
  bool enabled = true;
};

/// torch.amp.GradScaler: scale(loss).backward(); step(optimizer); update().
/// The scale lives on the device of the first scaled output; a step whose
/// gradients hold an infinity or NaN is skipped and the scale backs off.
class GradScaler {
 public:
  explicit GradScaler(GradScalerOptions o = {}) : o_(o) {
    if (!(o_.growth_factor > 1.0) || !(o_.backoff_factor > 0.0 && o_.backoff_factor < 1.0) || o_.growth_interval < 1)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                  detail::cat("[GradScaler] needs growth_factor > 1, 0 < backoff_factor < 1 and growth_interval "
                              ">= 1, got ",
                              o_.growth_factor, ", ", o_.backoff_factor, " and ", o_.growth_interval));
  }

  /// `output` times the scale.
  Tensor scale(const Tensor& output) {
    if (!o_.enabled) return output;
    if (!scale_.defined()) {
      scale_ = Tensor::full({}, o_.init_scale, output.device(), kFloat32);
      tracker_ = Tensor::full({}, 0.0, output.device(), kInt32);
    }
    return output * scale_.to(output.device());
  }

  /// Divides `optimizer`'s gradients by the scale, in place, noting infinities and NaNs per device.
  void unscale_(const optim::Optimizer& optimizer) {
    if (!o_.enabled) return;
    check_scale("unscale_");
    State& s = states_[&optimizer];
    if (s.stage == Stage::Unscaled)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                  "[GradScaler] unscale_() has already been called on this optimizer since the last update()");
    if (s.stage == Stage::Stepped)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, "[GradScaler] unscale_() is being called after step()");
    const Tensor inv = (1.0 / scale_.cast(kFloat64)).cast(kFloat32);  // as torch: in double, then rounded
    std::map<std::string, std::vector<porta_tensor*>> by_device;
    std::vector<Tensor> grads;  // keeps the handles alive
    for (const Tensor& p : optimizer.parameters()) {
      Tensor g = p.grad();
      if (!g.defined()) continue;
      by_device[g.device().str()].push_back(g.handle());
      grads.push_back(std::move(g));
    }
    for (auto& [device, handles] : by_device) {
      Tensor found = Tensor::full({}, 0.0, Device(device), kFloat32);
      detail::check(
          porta_amp_unscale_(handles.data(), detail::count(handles), found.handle(), inv.to(Device(device)).handle()));
      s.found_inf.push_back(found);
    }
    s.stage = Stage::Unscaled;
  }

  /// Unscales (unless unscale_ ran) and steps `optimizer` unless a gradient held an infinity or NaN;
  /// returns whether it stepped.
  bool step(optim::Optimizer& optimizer) {
    if (!o_.enabled) {
      optimizer.step();
      return true;
    }
    check_scale("step");
    State& s = states_[&optimizer];
    if (s.stage == Stage::Stepped)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, "[GradScaler] step() has already been called since the last update()");
    if (s.stage == Stage::Ready) unscale_(optimizer);
    double found = 0;
    for (const Tensor& f : s.found_inf) found += f.item<double>();
    s.stage = Stage::Stepped;
    if (found != 0) return false;
    optimizer.step();
    return true;
  }

  /// Backs the scale off after a skipped step, grows it after growth_interval good ones.
  void update() {
    if (!o_.enabled) return;
    check_scale("update");
    Tensor total;
    for (auto& [opt, s] : states_)
      for (const Tensor& f : s.found_inf)
        total = total.defined() ? total + f.to(scale_.device()) : f.to(scale_.device());
    if (!total.defined())
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, "[GradScaler] no inf checks were recorded prior to update()");
    detail::check(porta_amp_update_scale_(scale_.handle(), tracker_.handle(), total.handle(), o_.growth_factor,
                                          o_.backoff_factor, o_.growth_interval));
    states_.clear();
  }

  /// The current scale (init_scale before the first scale(); 1 when disabled).
  double get_scale() const {
    if (!o_.enabled) return 1.0;
    return scale_.defined() ? scale_.item<double>() : o_.init_scale;
  }
  bool is_enabled() const { return o_.enabled; }

 private:
  enum class Stage { Ready, Unscaled, Stepped };
  struct State {
    Stage stage = Stage::Ready;
    std::vector<Tensor> found_inf;
  };
  void check_scale(const char* what) const {
    if (!scale_.defined())
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, detail::cat("[GradScaler] ", what,
                                                            "() before scale(): scale the "
                                                            "loss (scaler.scale(loss).backward()) first"));
  }
  GradScalerOptions o_;
  Tensor scale_, tracker_;
  std::map<const optim::Optimizer*, State> states_;
};

}  // namespace porta::amp
