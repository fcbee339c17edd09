// Normalization layers composed from reductions, differentiated through
// their parts: layer_norm, group_norm and batch_norm (batch statistics while
// training, with PyTorch's running-statistics update: the mean and the
// unbiased variance, weighted by momentum; the running statistics in eval).
#include "runtime/error.hpp"
#include "nn/nn.hpp"
#include "nn/norm_kernels.hpp"
#include "autograd/node.hpp"

namespace porta::nn {
namespace {

// (x - mean) / sqrt(var + eps) over `dims` (population variance); `mean`
// and `var` (keepdim) are handed back for the running statistics.
TensorPtr normalize(const TensorPtr& x, const std::vector<int32_t>& dims, double eps, TensorPtr* mean_out = nullptr,
                    TensorPtr* var_out = nullptr) {
  const auto n = static_cast<int32_t>(dims.size());
  TensorPtr mean = ag::reduce(PORTA_OP_MEAN, x, dims.data(), n, true);
  TensorPtr d = ag::binary(PORTA_OP_SUB, x, mean);
  TensorPtr var = ag::reduce(PORTA_OP_MEAN, ag::binary(PORTA_OP_MUL, d, d), dims.data(), n, true);
  if (mean_out) *mean_out = mean, *var_out = var;
  return ag::binary(PORTA_OP_DIV, d, ag::unary(PORTA_OP_SQRT, ag::binary_scalar(PORTA_OP_ADD, var, eps)));
}

// A per-channel tensor [C] viewed as [1, C, 1, ...] beside x.
TensorPtr per_channel(const TensorPtr& t, const porta_tensor& x) {
  Dims shape;
  for (int32_t i = 0; i < x.ndim(); ++i) shape.push_back(i == 1 ? x.shape[1] : 1);
  return ag::reshape(t, shape);
}

void check_param(const char* op, const char* what, const TensorPtr& p, const Dims& shape, const porta_tensor& x) {
  if (!p) return;
  check_same_device(op, {&x, p.get()});
  if (p->shape != shape)
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": ", what, " must have shape ", shape.str(), ", got ", p->shape.str());
  if (p->dtype != x.dtype)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op, ": ", what, " is ", dtype_name(p->dtype), " but the input is ",
         dtype_name(x.dtype));
}

// PyTorch's update of the running statistics from the batch's mean and
// population variance [C] over `count` values a channel: the mean and the
// unbiased variance, weighted by momentum; in place, not recorded (as
// PyTorch's update of the buffers).
void update_running_stats(const TensorPtr& running_mean, const TensorPtr& running_var, const TensorPtr& mean,
                          const TensorPtr& var, double momentum, int64_t count) {
  autograd::NoGradGuard no_grad;
  const double n = static_cast<double>(count);
  TensorPtr new_mean = ops::binary(PORTA_OP_ADD, ops::binary_scalar(PORTA_OP_MUL, running_mean, 1.0 - momentum),
                                   ops::binary_scalar(PORTA_OP_MUL, mean, momentum));
  TensorPtr new_var = ops::binary(PORTA_OP_ADD, ops::binary_scalar(PORTA_OP_MUL, running_var, 1.0 - momentum),
                                  ops::binary_scalar(PORTA_OP_MUL, var, momentum * n / (n - 1.0)));
  ag::copy_(running_mean, new_mean, "batch_norm");
  ag::copy_(running_var, new_var, "batch_norm");
}

// y * weight + bias, each optional, `view` shaping them beside y.
template <class View>
TensorPtr affine(TensorPtr y, const TensorPtr& weight, const TensorPtr& bias, View view) {
  if (weight) y = ag::binary(PORTA_OP_MUL, y, view(weight));
  if (bias) y = ag::binary(PORTA_OP_ADD, y, view(bias));
  return y;
}

}  // namespace

TensorPtr layer_norm(const TensorPtr& x, const Dims& normalized_shape, const TensorPtr& weight, const TensorPtr& bias,
                     double eps) {
  check_float("layer_norm", "input", *x);
  const int32_t k = normalized_shape.n, nd = x->ndim();
  bool matches = k >= 1 && k <= nd;
  for (int32_t i = 0; matches && i < k; ++i) matches = x->shape[nd - k + i] == normalized_shape[i];
  if (!matches)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "layer_norm: given normalized_shape=", normalized_shape.str(),
         ", expected input with shape [*, ", normalized_shape.str().substr(1), " but got input of size ",
         x->shape.str());
  check_param("layer_norm", "weight", weight, normalized_shape, *x);
  check_param("layer_norm", "bias", bias, normalized_shape, *x);
  if (layer_norm_has_kernel(*x)) return layer_norm_fused(x, normalized_shape, weight, bias, eps);
  std::vector<int32_t> dims;
  for (int32_t i = nd - k; i < nd; ++i) dims.push_back(i);
  return affine(normalize(x, dims, eps), weight, bias, [](const TensorPtr& p) { return p; });
}

TensorPtr group_norm(const TensorPtr& x, int64_t groups, const TensorPtr& weight, const TensorPtr& bias, double eps) {
  check_float("group_norm", "input", *x);
  if (x->ndim() < 2) fail(PORTA_ERROR_SHAPE_MISMATCH, "group_norm: expected input [N, C, *], got ", x->shape.str());
  const int64_t channels = x->shape[1];
  if (groups <= 0 || channels % groups != 0)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "group_norm: expected the number of channels (", channels,
         ") to be divisible by num_groups (", groups, ")");
  int64_t spatial = 1;
  for (int32_t i = 2; i < x->ndim(); ++i) spatial *= x->shape[i];
  if (spatial == 0 && x->shape[0] * channels > 0)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "group_norm: expected HxW to be greater than 0, got 0 (input ", x->shape.str(),
         ")");
  check_param("group_norm", "weight", weight, Dims{channels}, *x);
  check_param("group_norm", "bias", bias, Dims{channels}, *x);
  if (is_low_precision(x->dtype))  // one rounding (ag::in_opmath)
    return ag::cast(group_norm(ag::opmath(x), groups, ag::opmath(weight), ag::opmath(bias), eps), x->dtype);
  TensorPtr grouped = ag::reshape(x, Dims{x->shape[0], groups, x->numel() / std::max<int64_t>(x->shape[0] * groups, 1)});
  TensorPtr y = ag::reshape(normalize(grouped, {2}, eps), x->shape);
  return affine(y, weight, bias, [&](const TensorPtr& p) { return per_channel(p, *x); });
}

TensorPtr batch_norm(const TensorPtr& x, const TensorPtr& running_mean, const TensorPtr& running_var,
                     const TensorPtr& weight, const TensorPtr& bias, bool training, double momentum, double eps) {
  check_float("batch_norm", "input", *x);
  if (x->ndim() < 2) fail(PORTA_ERROR_SHAPE_MISMATCH, "batch_norm: expected input [N, C, *], got ", x->shape.str());
  const int64_t channels = x->shape[1];
  if (static_cast<bool>(running_mean) != static_cast<bool>(running_var))
    fail(PORTA_ERROR_INVALID_ARGUMENT, "batch_norm: give both running_mean and running_var, or neither");
  check_param("batch_norm", "running_mean", running_mean, Dims{channels}, *x);
  check_param("batch_norm", "running_var", running_var, Dims{channels}, *x);
  check_param("batch_norm", "weight", weight, Dims{channels}, *x);
  check_param("batch_norm", "bias", bias, Dims{channels}, *x);
  const auto view = [&](const TensorPtr& p) { return per_channel(p, *x); };
  if (!training) {
    if (!running_mean) fail(PORTA_ERROR_INVALID_ARGUMENT, "batch_norm: eval mode needs running_mean and running_var");
    TensorPtr d = ag::binary(PORTA_OP_SUB, x, view(running_mean));
    TensorPtr y = ag::binary(PORTA_OP_DIV, d, ag::unary(PORTA_OP_SQRT, ag::binary_scalar(PORTA_OP_ADD, view(running_var), eps)));
    return affine(y, weight, bias, view);
  }
  const int64_t per_channel_count = x->numel() / std::max<int64_t>(channels, 1);
  if (per_channel_count <= 1)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "batch_norm: expected more than 1 value per channel when training, got input ",
         "size ", x->shape.str());
  if (batch_norm_has_kernel(*x)) {
    BatchNormResult r = batch_norm_fused(x, weight, bias, eps);
    if (running_mean) update_running_stats(running_mean, running_var, r.mean, r.var, momentum, per_channel_count);
    return r.y;
  }
  std::vector<int32_t> dims{0};
  for (int32_t i = 2; i < x->ndim(); ++i) dims.push_back(i);
  TensorPtr mean, var;
  TensorPtr y = normalize(x, dims, eps, &mean, &var);
  if (running_mean)
    update_running_stats(running_mean, running_var, ops::reshape(mean, Dims{channels}), ops::reshape(var, Dims{channels}),
                         momentum, per_channel_count);
  return affine(y, weight, bias, view);
}

}  // namespace porta::nn
