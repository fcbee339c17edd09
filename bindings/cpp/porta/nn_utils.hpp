// porta/nn_utils.hpp — torch::nn::utils' gradient clipping and parameter vectors over porta::Tensor:
// clip_grad_norm_, clip_grad_value_, parameters_to_vector, vector_to_parameters, with libtorch's
// signatures and the numbers of PyTorch's Python functions (each gradient's norm on its own device, the
// norm of those norms on the first gradient's device, and every gradient scaled on its device).
#pragma once

#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "porta/porta.hpp"

namespace porta::detail {
/// Throws naming `op` when the parameters are not all on one device.
inline void check_one_device(const char* op, const std::vector<Tensor>& parameters) {
  for (const Tensor& p : parameters)
    if (!(p.device() == parameters.front().device()))
      throw Error(PORTA_ERROR_DEVICE_MISMATCH,
                  cat("[", op, "] found parameters on two devices (", parameters.front().device(), " and ", p.device(),
                      "), which is not supported; move the model to one device"));
}
}  // namespace porta::detail

namespace porta::nn::utils {

/// Scales the parameters' gradients in place so that their total norm (of order norm_type, INFINITY for
/// the largest |g|) is at most max_norm; returns the total norm before clipping (0 when no parameter has
/// a gradient). Reading the norm back (and error_if_nonfinite's check) are its host syncs, as in libtorch.
inline double clip_grad_norm_(const std::vector<Tensor>& parameters, double max_norm, double norm_type = 2.0,
                              bool error_if_nonfinite = false) {
  NoGradGuard no_grad;
  std::vector<Tensor> grads;
  for (const Tensor& p : parameters)
    if (Tensor g = p.grad(); g.defined()) grads.push_back(std::move(g));
  if (grads.empty()) return 0.0;
  const Device first = grads.front().device();
  std::vector<Tensor> norms;
  for (const Tensor& g : grads) norms.push_back(g.norm(norm_type).to(first));
  const Tensor total = stack(norms).norm(norm_type);
  if (error_if_nonfinite && !total.isfinite().item<bool>())
    throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                detail::cat("[clip_grad_norm_] the total norm of order ", norm_type,
                            " of the gradients is non-finite, so it cannot be clipped; pass "
                            "error_if_nonfinite=false to scale the gradients by it anyway"));
  const Tensor coef = (max_norm / (total + 1e-6)).clamp(std::nullopt, 1.0);
  for (const Tensor& g : grads) g.mul_(g.device() == first ? coef : coef.to(g.device()));
  return total.item<double>();
}

/// clip_grad_norm_ of one parameter.
inline double clip_grad_norm_(const Tensor& parameter, double max_norm, double norm_type = 2.0,
                              bool error_if_nonfinite = false) {
  return clip_grad_norm_(std::vector<Tensor>{parameter}, max_norm, norm_type, error_if_nonfinite);
}

/// Clamps every gradient to [-clip_value, clip_value] in place.
inline void clip_grad_value_(const std::vector<Tensor>& parameters, double clip_value) {
  NoGradGuard no_grad;
  for (const Tensor& p : parameters)
    if (Tensor g = p.grad(); g.defined()) g.copy_(g.clamp(-clip_value, clip_value));
}

/// clip_grad_value_ of one parameter.
inline void clip_grad_value_(const Tensor& parameter, double clip_value) {
  clip_grad_value_(std::vector<Tensor>{parameter}, clip_value);
}

/// One 1-D tensor of every parameter's values, in order (differentiable, as libtorch's).
inline Tensor parameters_to_vector(const std::vector<Tensor>& parameters) {
  detail::check_one_device("parameters_to_vector", parameters);
  std::vector<Tensor> parts;
  for (const Tensor& p : parameters) parts.push_back(p.view({-1}));
  return cat(parts);
}

/// Points each parameter's data at its slice of vec, in order (they then share vec's memory, as libtorch's).
inline void vector_to_parameters(const Tensor& vec, const std::vector<Tensor>& parameters) {
  detail::check_one_device("vector_to_parameters", parameters);
  int64_t start = 0;
  for (const Tensor& p : parameters) {
    const int64_t n = p.numel();
    p.set_data(vec.slice(0, start, start + n).view(p.shape()).detach());
    start += n;
  }
}

}  // namespace porta::nn::utils
