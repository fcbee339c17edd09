// porta::nn — modules over porta.h, ported from torch.nn: Module with named
// parameters and children, in-place to(device), train/eval, state_dict saved
// to and loaded from safetensors; Sequential, Linear, Conv2d, ReLU, GELU,
// SiLU, Softplus, LeakyReLU, ELU, Hardtanh, MaxPool2d, AvgPool2d, Flatten,
// Dropout, LayerNorm, GroupNorm, BatchNorm1d/2d/3d (with module buffers);
// the losses.
#pragma once

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "porta/porta.hpp"

namespace porta::detail {
/// A double as Python's repr writes a float in a module's repr: "1.0", "0.01", "-1.0".
inline std::string py_float(double v) {
  std::string s = cat(v);
  if (std::isfinite(v) && s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}
/// A conv layer's groups must divide both channel counts (PyTorch's check, at construction).
inline void check_groups(const char* layer, int64_t in, int64_t out, int groups) {
  if (groups < 1 || in % groups != 0 || out % groups != 0)
    throw Error(PORTA_ERROR_INVALID_ARGUMENT, cat("[", layer, "] in_channels (", in, ") and out_channels (", out,
                                                  ") must be divisible by groups (", groups, ")"));
}
}  // namespace porta::detail

namespace porta::nn {

/// Named tensors in registration order ("conv1.weight", ...).
using StateDict = std::vector<std::pair<std::string, Tensor>>;

/// Functional forms of the layers (differentiable).
namespace functional {
/// x @ weight^T + bias (bias may be undefined).
inline Tensor linear(const Tensor& x, const Tensor& weight, const Tensor& bias = {}) {
  return detail::call(porta_linear, x.checked_handle(), weight.checked_handle(), bias.handle());
}
/// 2-D convolution of [N, C, H, W] or [C, H, W]; {stride, padding, dilation} apply to both dims; weight
/// [F, C / groups, KH, KW].
inline Tensor conv2d(const Tensor& x, const Tensor& weight, const Tensor& bias = {}, int stride = 1, int padding = 0,
                     int dilation = 1, int groups = 1) {
  if (groups < 1) throw Error(PORTA_ERROR_INVALID_ARGUMENT, detail::cat("[conv2d] groups must be >= 1, got ", groups));
  const porta_conv2d_options o{sizeof(o), {stride, stride}, {padding, padding}, {dilation, dilation}, groups};
  return detail::call(porta_conv2d, x.checked_handle(), weight.checked_handle(), bias.handle(), &o);
}
/// 1-D convolution of [N, C, L] or [C, L] with weight [F, C / groups, K].
inline Tensor conv1d(const Tensor& x, const Tensor& weight, const Tensor& bias = {}, int stride = 1, int padding = 0,
                     int dilation = 1, int groups = 1) {
  if (groups < 1) throw Error(PORTA_ERROR_INVALID_ARGUMENT, detail::cat("[conv1d] groups must be >= 1, got ", groups));
  return detail::call(porta_conv1d, x.checked_handle(), weight.checked_handle(), bias.handle(), int32_t(stride),
                      int32_t(padding), int32_t(dilation), int32_t(groups));
}
/// The adjoint of conv2d: x [N, C, H, W] or [C, H, W], weight [C, F / groups, KH, KW]; output_padding below stride.
inline Tensor conv_transpose2d(const Tensor& x, const Tensor& weight, const Tensor& bias = {}, int stride = 1,
                               int padding = 0, int output_padding = 0, int groups = 1, int dilation = 1) {
  if (groups < 1)
    throw Error(PORTA_ERROR_INVALID_ARGUMENT, detail::cat("[conv_transpose2d] groups must be >= 1, got ", groups));
  const porta_conv2d_options o{sizeof(o), {stride, stride}, {padding, padding}, {dilation, dilation}, groups};
  const int32_t extra[2] = {output_padding, output_padding};
  return detail::call(porta_conv_transpose2d, x.checked_handle(), weight.checked_handle(), bias.handle(), &o, extra);
}
/// The adjoint of conv1d: x [N, C, L] or [C, L], weight [C, F / groups, K].
inline Tensor conv_transpose1d(const Tensor& x, const Tensor& weight, const Tensor& bias = {}, int stride = 1,
                               int padding = 0, int output_padding = 0, int groups = 1, int dilation = 1) {
  if (groups < 1)
    throw Error(PORTA_ERROR_INVALID_ARGUMENT, detail::cat("[conv_transpose1d] groups must be >= 1, got ", groups));
  return detail::call(porta_conv_transpose1d, x.checked_handle(), weight.checked_handle(), bias.handle(),
                      int32_t(stride), int32_t(padding), int32_t(output_padding), int32_t(dilation), int32_t(groups));
}
/// Max pooling (stride 0 means "= kernel"); ceil_mode keeps a last window that runs past the end.
inline Tensor max_pool2d(const Tensor& x, int kernel, int stride = 0, int padding = 0, int dilation = 1,
                         bool ceil_mode = false) {
  const porta_pool2d_options o{
      sizeof(o), {kernel, kernel}, {stride, stride}, {padding, padding}, {dilation, dilation}, 1, 0, int{ceil_mode}};
  return detail::call(porta_max_pool2d, x.checked_handle(), &o);
}
/// max_pool2d and where each maximum is (h * W + w in its plane: PyTorch's return_indices=True).
inline std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& x, int kernel, int stride = 0, int padding = 0,
                                                          int dilation = 1, bool ceil_mode = false) {
  const porta_pool2d_options o{
      sizeof(o), {kernel, kernel}, {stride, stride}, {padding, padding}, {dilation, dilation}, 1, 0, int{ceil_mode}};
  porta_tensor *out = nullptr, *indices = nullptr;
  detail::check(porta_max_pool2d_with_indices(x.checked_handle(), &o, &out, &indices));
  return {Tensor::adopt(out), Tensor::adopt(indices)};
}
/// Average pooling (stride 0 means "= kernel"); ceil_mode as max_pool2d's, its windows divided as PyTorch's.
inline Tensor avg_pool2d(const Tensor& x, int kernel, int stride = 0, int padding = 0, bool count_include_pad = true,
                         bool ceil_mode = false) {
  const int include_pad = count_include_pad, ceil = ceil_mode;
  const porta_pool2d_options o{
      sizeof(o), {kernel, kernel}, {stride, stride}, {padding, padding}, {1, 1}, include_pad, 0, ceil};
  return detail::call(porta_avg_pool2d, x.checked_handle(), &o);
}
/// Rows of weight [num_embeddings, dim] at int64 (or int32) indices of any
/// shape; rows equal to padding_idx get no gradient.
inline Tensor embedding(const Tensor& indices, const Tensor& weight, std::optional<int64_t> padding_idx = std::nullopt) {
  return detail::call(porta_embedding, weight.checked_handle(), indices.checked_handle(),
                      padding_idx.value_or(std::numeric_limits<int64_t>::min()));
}
/// Negative log likelihood of log-probabilities [N, C], [N, C, d...] or [C] at class indices.
inline Tensor nll_loss(const Tensor& input, const Tensor& target, const Tensor& weight = {}, int64_t ignore_index = -100,
                       porta_reduction r = PORTA_REDUCTION_MEAN) {
  return detail::call(porta_nll_loss, input.checked_handle(), target.checked_handle(), weight.handle(), ignore_index, r);
}
/// Cross entropy in full: class indices or probabilities, class weights, label smoothing, [N, C, d...] inputs.
inline Tensor cross_entropy_loss(const Tensor& logits, const Tensor& target, const Tensor& weight = {},
                                 int64_t ignore_index = -100, porta_reduction r = PORTA_REDUCTION_MEAN,
                                 double label_smoothing = 0.0) {
  return detail::call(porta_cross_entropy_loss, logits.checked_handle(), target.checked_handle(), weight.handle(),
                      ignore_index, r, label_smoothing);
}
/// Binary cross entropy of probabilities in [0, 1].
inline Tensor binary_cross_entropy(const Tensor& input, const Tensor& target, const Tensor& weight = {},
                                   porta_reduction r = PORTA_REDUCTION_MEAN) {
  return detail::call(porta_binary_cross_entropy, input.checked_handle(), target.checked_handle(), weight.handle(), r);
}
/// Binary cross entropy of logits.
inline Tensor binary_cross_entropy_with_logits(const Tensor& input, const Tensor& target, const Tensor& weight = {},
                                               const Tensor& pos_weight = {}, porta_reduction r = PORTA_REDUCTION_MEAN) {
  return detail::call(porta_binary_cross_entropy_with_logits, input.checked_handle(), target.checked_handle(),
                      weight.handle(), pos_weight.handle(), r);
}
inline Tensor l1_loss(const Tensor& input, const Tensor& target, porta_reduction r = PORTA_REDUCTION_MEAN) {
  return detail::call(porta_l1_loss, input.checked_handle(), target.checked_handle(), r);
}
inline Tensor smooth_l1_loss(const Tensor& input, const Tensor& target, porta_reduction r = PORTA_REDUCTION_MEAN,
                             double beta = 1.0) {
  return detail::call(porta_smooth_l1_loss, input.checked_handle(), target.checked_handle(), r, beta);
}
inline Tensor huber_loss(const Tensor& input, const Tensor& target, porta_reduction r = PORTA_REDUCTION_MEAN,
                         double delta = 1.0) {
  return detail::call(porta_huber_loss, input.checked_handle(), target.checked_handle(), r, delta);
}
/// KL divergence; r may be PORTA_REDUCTION_BATCHMEAN.
inline Tensor kl_div(const Tensor& input, const Tensor& target, porta_reduction r = PORTA_REDUCTION_MEAN,
                     bool log_target = false) {
  return detail::call(porta_kl_div, input.checked_handle(), target.checked_handle(), r, int{log_target});
}
/// Normalizes over the last normalized_shape.size() dims.
inline Tensor layer_norm(const Tensor& x, const Shape& normalized_shape, const Tensor& weight = {},
                         const Tensor& bias = {}, double eps = 1e-5) {
  return detail::call(porta_layer_norm, x.checked_handle(), normalized_shape.data(), detail::count(normalized_shape),
                      weight.handle(), bias.handle(), eps);
}
inline Tensor group_norm(const Tensor& x, int64_t groups, const Tensor& weight = {}, const Tensor& bias = {},
                         double eps = 1e-5) {
  return detail::call(porta_group_norm, x.checked_handle(), groups, weight.handle(), bias.handle(), eps);
}
/// Batch normalization; while training, running_mean / running_var (both or neither) are updated in place.
inline Tensor batch_norm(const Tensor& x, const Tensor& running_mean, const Tensor& running_var,
                         const Tensor& weight = {}, const Tensor& bias = {}, bool training = false,
                         double momentum = 0.1, double eps = 1e-5) {
  return detail::call(porta_batch_norm, x.checked_handle(), running_mean.handle(), running_var.handle(),
                      weight.handle(), bias.handle(), int{training}, momentum, eps);
}
/// softmax along dim.
inline Tensor softmax(const Tensor& x, int dim) { return detail::call(porta_softmax, x.checked_handle(), int32_t(dim)); }
/// log_softmax along dim.
inline Tensor log_softmax(const Tensor& x, int dim) { return detail::call(porta_log_softmax, x.checked_handle(), int32_t(dim)); }
/// Cross entropy of logits [N, C] against class indices [N].
/// Samples whose target is `ignore_index` (PyTorch's default -100) are left out.
inline Tensor cross_entropy(const Tensor& logits, const Tensor& target, porta_reduction r = PORTA_REDUCTION_MEAN,
                            int64_t ignore_index = -100) {
  return detail::call(porta_cross_entropy_ignore, logits.checked_handle(), target.checked_handle(), r, ignore_index);
}
/// Mean squared error.
inline Tensor mse_loss(const Tensor& input, const Tensor& target, porta_reduction r = PORTA_REDUCTION_MEAN) {
  return detail::call(porta_mse_loss, input.checked_handle(), target.checked_handle(), r);
}
/// Dropout with probability p while training.
inline Tensor dropout(const Tensor& x, double p, bool training) {
  return detail::call(porta_dropout, x.checked_handle(), p, int{training});
}
/// torch::nn::functional::scaled_dot_product_attention: softmax(q k^T * scale + mask) v for q [..., L, E],
/// k [..., S, E], v [..., S, Ev]. attn_mask (undefined: none) is bool (false: excluded) or added to the
/// scores; is_causal masks the keys after each query; scale defaults to 1/sqrt(E); dropout_p applies to
/// the weights whenever it is given, as libtorch's function does (pass 0 in eval).
inline Tensor scaled_dot_product_attention(const Tensor& q, const Tensor& k, const Tensor& v,
                                           const Tensor& attn_mask = {}, double dropout_p = 0.0,
                                           bool is_causal = false, std::optional<double> scale = std::nullopt) {
  return detail::call(porta_scaled_dot_product_attention, q.checked_handle(), k.checked_handle(),
                      v.checked_handle(), attn_mask.handle(), dropout_p, int{is_causal}, scale.value_or(NAN), 1);
}
/// torch.nn.functional.pad's modes (libtorch's torch::kConstant, kReflect, kReplicate, kCircular).
enum class PadMode { Constant = PORTA_PAD_CONSTANT, Reflect = PORTA_PAD_REFLECT, Replicate = PORTA_PAD_REPLICATE,
                     Circular = PORTA_PAD_CIRCULAR };
/// Pads by (left, right) pairs, the last dimension first; constant mode fills `value` (a negative pad crops).
inline Tensor pad(const Tensor& x, const std::vector<int64_t>& pad, PadMode mode = PadMode::Constant,
                  double value = 0.0) {
  return detail::call(porta_pad, x.checked_handle(), pad.data(), detail::count(pad), porta_pad_mode(mode), value);
}
/// Average pooling of [N, C, H, W] or [C, H, W] to out_h x out_w (PyTorch's bins).
inline Tensor adaptive_avg_pool2d(const Tensor& x, int64_t out_h, int64_t out_w) {
  return detail::call(porta_adaptive_avg_pool2d, x.checked_handle(), out_h, out_w);
}
/// torch.nn.functional.interpolate's modes.
enum class InterpolateMode { Nearest = PORTA_INTERPOLATE_NEAREST, NearestExact = PORTA_INTERPOLATE_NEAREST_EXACT,
                             Bilinear = PORTA_INTERPOLATE_BILINEAR };
/// Resizes [N, C, H, W] to out_h x out_w with PyTorch's source positions; scale_h / scale_w are the
/// scale_factor a caller computed the size from (NaN: none), as PyTorch passes them.
inline Tensor interpolate(const Tensor& x, int64_t out_h, int64_t out_w,
                          InterpolateMode mode = InterpolateMode::Nearest, bool align_corners = false,
                          double scale_h = NAN, double scale_w = NAN) {
  return detail::call(porta_interpolate, x.checked_handle(), out_h, out_w, scale_h, scale_w,
                      porta_interpolate_mode(mode), int{align_corners});
}
/// Zeroes whole channels with probability p while training: dropout1d / 2d / 3d (spatial_dims 1, 2, 3).
inline Tensor feature_dropout(const Tensor& x, double p, bool training, int spatial_dims) {
  return detail::call(porta_feature_dropout, x.checked_handle(), p, int{training}, int32_t(spatial_dims));
}
inline Tensor dropout1d(const Tensor& x, double p, bool training) { return feature_dropout(x, p, training, 1); }
inline Tensor dropout2d(const Tensor& x, double p, bool training) { return feature_dropout(x, p, training, 2); }
inline Tensor dropout3d(const Tensor& x, double p, bool training) { return feature_dropout(x, p, training, 3); }

/// Merges dims start..end.
inline Tensor flatten(const Tensor& x, int start = 1, int end = -1) {
  return detail::call(porta_flatten, x.checked_handle(), int32_t(start), int32_t(end));
}

// Activations (floating tensors only, as in PyTorch; UNSUPPORTED_DTYPE otherwise).

/// torch::nn::functional::gelu: x/2 (1 + erf(x / sqrt 2)) for approximate
/// "none", the tanh approximation for "tanh"; any other string is refused
/// (porta::Error, INVALID_ARGUMENT), as PyTorch refuses it.
inline Tensor gelu(const Tensor& x, const std::string& approximate = "none") {
  porta_gelu_approximation a;
  if (approximate == "none") a = PORTA_GELU_NONE;
  else if (approximate == "tanh") a = PORTA_GELU_TANH;
  else
    throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                detail::cat("[gelu] approximate must be \"none\" or \"tanh\", got \"", approximate, "\""));
  return detail::call(porta_gelu, x.checked_handle(), int32_t{a});
}
/// torch::nn::functional::silu: x * sigmoid(x).
inline Tensor silu(const Tensor& x) { return detail::call(porta_silu, x.checked_handle()); }
/// torch::nn::functional::softplus: log(1 + e^(beta x)) / beta, and x where beta x > threshold.
inline Tensor softplus(const Tensor& x, double beta = 1.0, double threshold = 20.0) {
  return detail::call(porta_softplus, x.checked_handle(), beta, threshold);
}
/// torch::nn::functional::leaky_relu: x where x > 0, else negative_slope * x.
inline Tensor leaky_relu(const Tensor& x, double negative_slope = 0.01) {
  return detail::call(porta_leaky_relu, x.checked_handle(), negative_slope);
}
/// torch::nn::functional::elu: x where x > 0, else alpha (e^x - 1).
inline Tensor elu(const Tensor& x, double alpha = 1.0) { return detail::call(porta_elu, x.checked_handle(), alpha); }
/// torch::nn::functional::hardtanh: x clamped to [min_val, max_val] (min_val > max_val is refused).
inline Tensor hardtanh(const Tensor& x, double min_val = -1.0, double max_val = 1.0) {
  return detail::call(porta_hardtanh, x.checked_handle(), min_val, max_val);
}
/// torch::nn::functional::normalize: x / max(||x||_p, eps) along dim.
inline Tensor normalize(const Tensor& x, double p = 2.0, int32_t dim = 1, double eps = 1e-12) {
  return detail::call(porta_normalize, x.checked_handle(), p, dim, eps);
}
/// torch::nn::functional::cosine_similarity along dim (x1 and x2 broadcast), each norm clamped to eps.
inline Tensor cosine_similarity(const Tensor& x1, const Tensor& x2, int32_t dim = 1, double eps = 1e-8) {
  return detail::call(porta_cosine_similarity, x1.checked_handle(), x2.checked_handle(), dim, eps);
}
}  // namespace functional

class Module;

/// What one clone() has copied so far, so that a module used twice (or a
/// tensor tied between two layers) is copied once and stays shared in the
/// copy, as copy.deepcopy keeps it in PyTorch.
struct CloneMemo {
  std::vector<std::pair<const Module*, std::shared_ptr<Module>>> modules;
  std::vector<std::pair<porta_tensor*, Tensor>> tensors;
};

/// Base of every layer: parameters and child modules by name, device moves,
/// train/eval, state dicts.
///
/// Copies: a copy of a module is another handle to the same module (as
/// `b = a` in Python, or a libtorch module holder): parameters, children and
/// the training flag are shared, so `copy.eval()` puts both in eval mode and
/// both say so. clone() makes an independent deep copy. A moved-from module
/// holds nothing: using it throws naming the call.
class Module : public std::enable_shared_from_this<Module> {
 public:
  Module() = default;
  Module(const Module&) = default;
  Module(Module&&) noexcept = default;
  Module& operator=(const Module&) = default;
  Module& operator=(Module&&) noexcept = default;
  virtual ~Module() = default;
  /// The layer's computation; most layers take one input and override this.
  /// Layers whose forward takes or returns more (LSTM's (output, (h_n, c_n)),
  /// as in libtorch) declare their own and leave this one throwing.
  virtual Tensor forward(const Tensor& x) {
    (void)x;
    throw Error(PORTA_ERROR_NOT_IMPLEMENTED,
                detail::cat(describe(), " has no single-tensor forward(x): call its own forward (it takes or returns ",
                            "more than one tensor), so it cannot sit in a Sequential"));
  }
  /// forward(x).
  Tensor operator()(const Tensor& x) { return forward(x); }
  /// "Linear(in_features=10, out_features=1)".
  virtual std::string describe() const = 0;

  /// An independent deep copy: parameters cloned (values, requires_grad),
  /// children cloned, the training flag copied; what is shared within this
  /// module stays shared within the copy. Every Porta layer implements it; a
  /// module of your own overrides clone_with(CloneMemo&) (see Linear's), else this
  /// throws naming it.
  std::shared_ptr<Module> clone() const {
    CloneMemo memo;
    return clone_with(memo);
  }
  /// clone() within one copy (CloneMemo): what a module overrides.
  virtual std::shared_ptr<Module> clone_with(CloneMemo&) const {
    throw Error(PORTA_ERROR_NOT_IMPLEMENTED,
                detail::cat("[Module::clone] ", describe(), " does not implement clone_with(CloneMemo&): override it, "
                            "copying the layers it holds with clone_module(memo, layer) (see porta::nn::Linear)"));
  }

  /// Parameters of this module and its children, prefixed by their path;
  /// each tensor once, under its first name (a module used twice, or a tied
  /// weight, is not listed twice), as PyTorch's named_parameters().
  StateDict named_parameters() const {
    StateDict all;
    collect("", all, Kinds::Parameters);
    return first_names(std::move(all));
  }
  /// The parameters, in registration order (what optimizers take).
  std::vector<Tensor> parameters() const {
    std::vector<Tensor> v;
    for (auto& [name, t] : named_parameters()) v.push_back(t);
    return v;
  }
  /// Buffers (state that is not trained, such as BatchNorm's running statistics) of this module and its
  /// children, prefixed by their path, each tensor once, as PyTorch's named_buffers().
  StateDict named_buffers() const {
    StateDict all;
    collect("", all, Kinds::Buffers);
    return first_names(std::move(all));
  }
  /// The buffers, in registration order.
  std::vector<Tensor> buffers() const {
    std::vector<Tensor> v;
    for (auto& [name, t] : named_buffers()) v.push_back(t);
    return v;
  }
  /// Moves every parameter and buffer to `device` in place: each keeps its
  /// identity, so optimizers built earlier still hold the same tensors.
  Module& to(const Device& device) {
    for (auto& [name, t] : named_parameters()) detail::check(porta_tensor_move_to(t.handle(), device.dl()));
    for (auto& [name, t] : named_buffers()) detail::check(porta_tensor_move_to(t.handle(), device.dl()));
    return *this;
  }
  /// Casts every floating parameter (and its gradient) and floating buffer to the floating `dtype` in
  /// place, as libtorch's module->to(torch::kFloat64): each keeps its identity (porta_tensor_set_data), and
  /// an optimizer that has already stepped refuses a parameter whose dtype changed (make the optimizer
  /// after the cast).
  Module& to(DLDataType dtype) {
    if (dtype.code != kDLFloat)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                  detail::cat("[Module::to] ", describe(), ": a module casts to floating dtypes only, got ",
                              dtype_name(dtype)));
    StateDict all = named_parameters();
    for (auto& entry : named_buffers()) all.push_back(std::move(entry));
    for (auto& [name, t] : all) {
      if (t.dtype().code != kDLFloat || t.dtype() == dtype) continue;
      const Tensor grad = t.grad();
      t.set_data(t.detach().cast(dtype));
      if (grad.defined()) t.set_grad(grad.cast(dtype));
    }
    return *this;
  }
  /// to(device) then to(dtype).
  Module& to(const Device& device, DLDataType dtype) { return to(device).to(dtype); }
  /// Training mode (affects Dropout), recursively.
  Module& train(bool on = true) {
    State& s = state("train");
    s.training = on;
    for (auto& [name, child] : s.children) child->train(on);
    return *this;
  }
  /// Evaluation mode.
  Module& eval() { return train(false); }
  /// True in training mode.
  bool is_training() const { return state("is_training").training; }
  /// The device of the first parameter (cpu when there are none).
  Device device() const {
    auto p = named_parameters();
    return p.empty() ? Device() : p.front().second.device();
  }
  /// The parameters and buffers by name, each module's parameters then its
  /// buffers then its children's, a tied one under each of its names, as
  /// PyTorch's state_dict().
  StateDict state_dict() const {
    StateDict all;
    collect("", all, Kinds::Both);
    return all;
  }
  /// Copies values from `dict` (any device) into the parameters and buffers;
  /// every name must match and shapes must agree.
  void load_state_dict(const StateDict& dict) {
    StateDict mine;
    collect("", mine, Kinds::Both);  // every name, as state_dict() writes them
    for (auto& [name, t] : mine) {
      const Tensor* src = nullptr;
      for (auto& [n, v] : dict)
        if (n == name) src = &v;
      if (!src) throw Error(PORTA_ERROR_INVALID_ARGUMENT, "load_state_dict: missing parameter '" + name + "'");
      if (src->shape() != t.shape())
        throw Error(PORTA_ERROR_SHAPE_MISMATCH, "load_state_dict: '" + name + "' has shape " +
                                                    detail::join(src->shape(), "[", "]") + " in the file but " +
                                                    detail::join(t.shape(), "[", "]") + " in the model");
      NoGradGuard no_grad;
      t.copy_(*src);
    }
    if (dict.size() != mine.size())
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, "load_state_dict: the file has " + std::to_string(dict.size()) +
                                                    " tensors but the model has " + std::to_string(mine.size()));
  }
  /// Writes the state dict to a safetensors file.
  void save(const std::string& path) const {
    StateDict d = state_dict();
    std::vector<const char*> names;
    std::vector<porta_tensor*> tensors;
    for (auto& [n, t] : d) names.push_back(n.c_str()), tensors.push_back(t.handle());
    detail::check(porta_safetensors_save(path.c_str(), names.data(), tensors.data(), detail::count(names)));
  }
  /// Loads a safetensors file written by save() (from any device).
  void load(const std::string& path) { load_state_dict(read_safetensors(path, device())); }

  /// Reads every tensor of a safetensors file onto `device`.
  static StateDict read_safetensors(const std::string& path, const Device& device = {}) {
    porta_tensor_list* list = nullptr;
    detail::check(porta_safetensors_load(path.c_str(), device.dl(), &list));
    std::unique_ptr<porta_tensor_list, void (*)(porta_tensor_list*)> guard(list, porta_tensor_list_release);
    int32_t n = 0;
    detail::check(porta_tensor_list_size(list, &n));
    StateDict d;
    for (int32_t i = 0; i < n; ++i) {
      const char* name = nullptr;
      porta_tensor* t = nullptr;
      detail::check(porta_tensor_list_get(list, i, &name, &t));
      d.emplace_back(name, Tensor::adopt(t));
    }
    return d;
  }

  /// The dotted path this module was registered under ("" for the root).
  const std::string& path() const { return state("path").path; }

  /// `layer` cloned within `memo`: the copy made earlier in this clone() when
  /// `layer` was met before (a module used twice stays one module).
  template <class M>
  static std::shared_ptr<M> clone_module(CloneMemo& memo, const std::shared_ptr<M>& layer) {
    if (!layer) return nullptr;
    for (auto& [from, to] : memo.modules)
      if (from == layer.get()) return std::static_pointer_cast<M>(to);
    auto copy = std::dynamic_pointer_cast<M>(layer->clone_with(memo));
    if (!copy)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                  detail::cat("[Module::clone] ", layer->describe(), "'s clone_with() returned another type"));
    return copy;
  }

 protected:
  /// Registers a parameter (it becomes a leaf that requires grad).
  Tensor register_parameter(const std::string& name, Tensor t) {
    t.requires_grad_(true);
    state("register_parameter").params.emplace_back(name, t);
    return t;
  }
  /// Registers a buffer: a tensor the module keeps and saves but does not train (no gradient).
  Tensor register_buffer(const std::string& name, Tensor t) {
    state("register_buffer").buffers.emplace_back(name, t);
    return t;
  }
  /// Registers a child module under `name`.
  template <class M>
  std::shared_ptr<M> register_module(const std::string& name, std::shared_ptr<M> m) {
    const std::string& p = path();
    m->set_path(p.empty() ? name : p + "." + name);
    state("register_module").children.emplace_back(name, m);
    return m;
  }
  /// The registered parameter `name` (what a clone re-points its members to).
  Tensor parameter(const std::string& name) const {
    for (auto& [n, t] : state("parameter").params)
      if (n == name) return t;
    return Tensor();
  }
  /// The registered buffer `name` (what a clone re-points its members to).
  Tensor buffer(const std::string& name) const {
    for (auto& [n, t] : state("buffer").buffers)
      if (n == name) return t;
    return Tensor();
  }
  /// For clone_with(CloneMemo&): a copy of `self` (its members copied as C++
  /// copies them) with a state of its own: each parameter and buffer cloned
  /// (values and requires_grad, outside autograd), each child cloned within
  /// `memo`, the training flag and path copied. The caller re-points its
  /// members to the copies (parameter(name), buffer(name), clone_module).
  template <class M>
  static std::shared_ptr<M> copy_of(const M& self, CloneMemo& memo) {
    if (typeid(self) != typeid(M))  // a subclass that did not override clone_with: copying M would slice it
      throw Error(PORTA_ERROR_NOT_IMPLEMENTED,
                  detail::cat("[Module::clone] ", self.describe(), " (", typeid(self).name(), ") derives from a layer "
                              "but does not override clone_with(CloneMemo&): override it with copy_of(*this, memo)"));
    auto copy = std::make_shared<M>(self);
    memo.modules.emplace_back(&self, copy);
    const State& from = self.state("clone");
    auto fresh = std::make_shared<State>();
    fresh->training = from.training;
    fresh->path = from.path;
    for (auto& [name, t] : from.params) fresh->params.emplace_back(name, clone_tensor(memo, t));
    for (auto& [name, t] : from.buffers) fresh->buffers.emplace_back(name, clone_tensor(memo, t));
    for (auto& [name, child] : from.children) fresh->children.emplace_back(name, clone_module(memo, child));
    static_cast<Module&>(*copy).state_ = std::move(fresh);
    return copy;
  }
  /// Fails with DEVICE_MISMATCH naming this layer, both devices and the fix
  /// when `x` is not where the parameters are.
  void check_device(const Tensor& x) const {
    const State& s = state("forward");
    if (s.params.empty()) return;
    const Device mine = s.params.front().second.device(), theirs = x.device();
    if (mine == theirs) return;
    throw Error(PORTA_ERROR_DEVICE_MISMATCH,
                detail::cat(describe(), s.path.empty() ? "" : " '" + s.path + "'", ": the input is on ", theirs,
                            " but the layer's parameters are on ", mine, ". Data and model must share a device: ",
                            "move the input with x.to(", mine, ") or the model with model.to(", theirs, ")"));
  }

 private:
  // What copies of a module share.
  struct State {
    StateDict params, buffers;
    std::vector<std::pair<std::string, std::shared_ptr<Module>>> children;
    bool training = true;
    std::string path;
  };

  static Tensor clone_tensor(CloneMemo& memo, const Tensor& t) {
    if (!t.defined()) return t;
    for (auto& [from, to] : memo.tensors)
      if (from == t.handle()) return to;
    Tensor c;
    {
      NoGradGuard no_grad;
      c = t.detach().clone();
    }
    c.requires_grad_(t.requires_grad());
    memo.tensors.emplace_back(t.handle(), c);
    return c;
  }

  const State& state(const char* call) const {
    if (!state_)
      throw Error(PORTA_ERROR_INVALID_HANDLE,
                  detail::cat("[Module::", call, "] this module was moved from: it holds no parameters or layers any "
                              "more; use the module it was moved to"));
    return *state_;
  }
  State& state(const char* call) { return const_cast<State&>(std::as_const(*this).state(call)); }

  void set_path(const std::string& p) {
    State& s = state("set_path");
    s.path = p;
    for (auto& [name, child] : s.children) child->set_path(p + "." + name);
  }
  enum class Kinds { Parameters, Buffers, Both };
  /// Every tensor of those kinds under its path: each module's parameters, then its buffers, then its
  /// children's (PyTorch's state_dict order).
  void collect(const std::string& prefix, StateDict& out, Kinds kinds) const {
    const State& s = state("parameters");
    if (kinds != Kinds::Buffers)
      for (auto& [name, t] : s.params) out.emplace_back(prefix + name, t);
    if (kinds != Kinds::Parameters)
      for (auto& [name, t] : s.buffers) out.emplace_back(prefix + name, t);
    for (auto& [name, child] : s.children) child->collect(prefix + name + ".", out, kinds);
  }
  /// Each tensor once, under its first name (a module used twice, or a tied weight).
  static StateDict first_names(StateDict all) {
    StateDict out;
    for (auto& entry : all) {
      bool seen = false;
      for (auto& [name, t] : out) seen = seen || t.handle() == entry.second.handle();
      if (!seen) out.push_back(std::move(entry));
    }
    return out;
  }

  std::shared_ptr<State> state_ = std::make_shared<State>();
};

/// Modules applied in order.
class Sequential : public Module {
 public:
  /// Sequential({std::make_shared<Linear>(3, 1), ...}).
  Sequential(std::initializer_list<std::shared_ptr<Module>> modules) {
    for (auto& m : modules) push_back(m);
  }
  /// Sequential(std::make_shared<Linear>(3, 1), std::make_shared<ReLU>(), ...).
  template <class... M>
  explicit Sequential(std::shared_ptr<M>... modules) {
    (push_back(std::move(modules)), ...);
  }
  /// Appends a module (named by its index, as in PyTorch).
  void push_back(std::shared_ptr<Module> m) { layers_.push_back(register_module(std::to_string(layers_.size()), m)); }
  Tensor forward(const Tensor& x) override {
    Tensor y = x;
    for (auto& m : layers_) y = m->forward(y);
    return y;
  }
  std::string describe() const override { return "Sequential(" + std::to_string(layers_.size()) + " layers)"; }
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override {
    auto copy = copy_of(*this, memo);
    for (auto& layer : copy->layers_) layer = clone_module(memo, layer);
    return copy;
  }

 private:
  std::vector<std::shared_ptr<Module>> layers_;
};

/// y = x W^T + b, initialized as torch.nn.Linear (kaiming-uniform weight, uniform bias).
class Linear : public Module {
 public:
  Linear(int64_t in_features, int64_t out_features, bool bias = true) : in_(in_features), out_(out_features) {
    weight = register_parameter("weight", Tensor::empty({out_features, in_features}));
    if (bias) this->bias = register_parameter("bias", Tensor::empty({out_features}));
    detail::check(porta_init_layer_default_(weight.handle(), bias ? this->bias.handle() : nullptr));
  }
  Tensor forward(const Tensor& x) override {
    check_device(x);
    return functional::linear(x, weight, bias);
  }
  std::string describe() const override {
    return detail::cat("Linear(in_features=", in_, ", out_features=", out_, ", bias=", bias.defined(), ")");
  }
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override {
    auto copy = copy_of(*this, memo);
    copy->weight = copy->parameter("weight");
    copy->bias = copy->parameter("bias");
    return copy;
  }
  Tensor weight, bias;

 private:
  int64_t in_, out_;
};

/// What Conv1d and Conv2d share (libtorch's ConvNdImpl): weight [out, in /
/// groups, kernel...] and bias with PyTorch's initialization, the
/// hyperparameters, clone_with.
template <class Derived>
class ConvNd : public Module {
 public:
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override {
    auto copy = copy_of(static_cast<const Derived&>(*this), memo);
    copy->weight = copy->parameter("weight");
    copy->bias = copy->parameter("bias");
    return copy;
  }
  Tensor weight, bias;

 protected:
  // transposed: ConvTranspose's weight [in, out / groups, kernel...].
  ConvNd(const char* layer, int spatial_dims, int64_t in_channels, int64_t out_channels, int kernel_size, int stride,
         int padding, int dilation, bool bias, int groups, bool transposed = false)
      : in_(in_channels),
        out_(out_channels),
        k_(kernel_size),
        stride_(stride),
        padding_(padding),
        dilation_(dilation),
        groups_(groups) {
    detail::check_groups(layer, in_channels, out_channels, groups);
    Shape shape = transposed ? Shape{in_channels, out_channels / groups} : Shape{out_channels, in_channels / groups};
    shape.insert(shape.end(), static_cast<size_t>(spatial_dims), kernel_size);
    weight = register_parameter("weight", Tensor::empty(shape));
    if (bias) this->bias = register_parameter("bias", Tensor::empty({out_channels}));
    detail::check(porta_init_layer_default_(weight.handle(), bias ? this->bias.handle() : nullptr));
  }
  int64_t in_, out_;
  int k_, stride_, padding_, dilation_, groups_;
};

/// 2-D convolution layer, initialized as torch.nn.Conv2d.
class Conv2d : public ConvNd<Conv2d> {
 public:
  Conv2d(int64_t in_channels, int64_t out_channels, int kernel_size, int stride = 1, int padding = 0, int dilation = 1,
         bool bias = true, int groups = 1)
      : ConvNd("Conv2d", 2, in_channels, out_channels, kernel_size, stride, padding, dilation, bias, groups) {}
  Tensor forward(const Tensor& x) override {
    check_device(x);
    return functional::conv2d(x, weight, bias, stride_, padding_, dilation_, groups_);
  }
  std::string describe() const override {
    return detail::cat("Conv2d(", in_, ", ", out_, ", kernel_size=", k_, ", stride=", stride_, ", padding=", padding_,
                       groups_ != 1 ? detail::cat(", groups=", groups_) : "", ")");
  }
};

/// 1-D convolution layer, initialized as torch.nn.Conv1d.
class Conv1d : public ConvNd<Conv1d> {
 public:
  Conv1d(int64_t in_channels, int64_t out_channels, int kernel_size, int stride = 1, int padding = 0, int dilation = 1,
         bool bias = true, int groups = 1)
      : ConvNd("Conv1d", 1, in_channels, out_channels, kernel_size, stride, padding, dilation, bias, groups) {}
  Tensor forward(const Tensor& x) override {
    check_device(x);
    return functional::conv1d(x, weight, bias, stride_, padding_, dilation_, groups_);
  }
  std::string describe() const override {
    return detail::cat("Conv1d(", in_, ", ", out_, ", kernel_size=(", k_, ",), stride=(", stride_, ",)",
                       padding_ ? detail::cat(", padding=(", padding_, ",)") : "",
                       groups_ != 1 ? detail::cat(", groups=", groups_) : "", ")");
  }
};

/// 2-D transposed convolution layer (libtorch's ConvTranspose2d), initialized as torch.nn.ConvTranspose2d.
class ConvTranspose2d : public ConvNd<ConvTranspose2d> {
 public:
  ConvTranspose2d(int64_t in_channels, int64_t out_channels, int kernel_size, int stride = 1, int padding = 0,
                  int output_padding = 0, int groups = 1, bool bias = true, int dilation = 1)
      : ConvNd("ConvTranspose2d", 2, in_channels, out_channels, kernel_size, stride, padding, dilation, bias, groups,
               true),
        output_padding_(output_padding) {}
  Tensor forward(const Tensor& x) override {
    check_device(x);
    return functional::conv_transpose2d(x, weight, bias, stride_, padding_, output_padding_, groups_, dilation_);
  }
  std::string describe() const override {
    return detail::cat("ConvTranspose2d(", in_, ", ", out_, ", kernel_size=", k_, ", stride=", stride_,
                       ", padding=", padding_, output_padding_ ? detail::cat(", output_padding=", output_padding_) : "",
                       groups_ != 1 ? detail::cat(", groups=", groups_) : "", ")");
  }

 private:
  int output_padding_;
};

/// 1-D transposed convolution layer, initialized as torch.nn.ConvTranspose1d.
class ConvTranspose1d : public ConvNd<ConvTranspose1d> {
 public:
  ConvTranspose1d(int64_t in_channels, int64_t out_channels, int kernel_size, int stride = 1, int padding = 0,
                  int output_padding = 0, int groups = 1, bool bias = true, int dilation = 1)
      : ConvNd("ConvTranspose1d", 1, in_channels, out_channels, kernel_size, stride, padding, dilation, bias, groups,
               true),
        output_padding_(output_padding) {}
  Tensor forward(const Tensor& x) override {
    check_device(x);
    return functional::conv_transpose1d(x, weight, bias, stride_, padding_, output_padding_, groups_, dilation_);
  }
  std::string describe() const override {
    return detail::cat("ConvTranspose1d(", in_, ", ", out_, ", kernel_size=(", k_, ",), stride=(", stride_, ",)",
                       padding_ ? detail::cat(", padding=(", padding_, ",)") : "",
                       output_padding_ ? detail::cat(", output_padding=(", output_padding_, ",)") : "",
                       groups_ != 1 ? detail::cat(", groups=", groups_) : "", ")");
  }

 private:
  int output_padding_;
};

/// max(x, 0).
class ReLU : public Module {
 public:
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override { return copy_of(*this, memo); }
  Tensor forward(const Tensor& x) override { return x.relu(); }
  std::string describe() const override { return "ReLU()"; }
};

/// GELU(approximate): functional::gelu; approximate "none" (default) or "tanh", checked here.
class GELU : public Module {
 public:
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override { return copy_of(*this, memo); }
  explicit GELU(std::string approximate = "none") : approximate_(std::move(approximate)) {
    if (approximate_ != "none" && approximate_ != "tanh")
      throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                  detail::cat("[GELU] approximate must be \"none\" or \"tanh\", got \"", approximate_, "\""));
  }
  Tensor forward(const Tensor& x) override { return functional::gelu(x, approximate_); }
  std::string describe() const override { return "GELU(approximate='" + approximate_ + "')"; }

 private:
  std::string approximate_;
};

/// x * sigmoid(x).
class SiLU : public Module {
 public:
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override { return copy_of(*this, memo); }
  Tensor forward(const Tensor& x) override { return functional::silu(x); }
  std::string describe() const override { return "SiLU()"; }
};

/// Softplus(beta, threshold): functional::softplus.
class Softplus : public Module {
 public:
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override { return copy_of(*this, memo); }
  explicit Softplus(double beta = 1.0, double threshold = 20.0) : beta_(beta), threshold_(threshold) {}
  Tensor forward(const Tensor& x) override { return functional::softplus(x, beta_, threshold_); }
  std::string describe() const override {
    return "Softplus(beta=" + detail::py_float(beta_) + ", threshold=" + detail::py_float(threshold_) + ")";
  }

 private:
  double beta_, threshold_;
};

/// LeakyReLU(negative_slope): functional::leaky_relu.
class LeakyReLU : public Module {
 public:
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override { return copy_of(*this, memo); }
  explicit LeakyReLU(double negative_slope = 0.01) : slope_(negative_slope) {}
  Tensor forward(const Tensor& x) override { return functional::leaky_relu(x, slope_); }
  std::string describe() const override { return "LeakyReLU(negative_slope=" + detail::py_float(slope_) + ")"; }

 private:
  double slope_;
};

/// ELU(alpha): functional::elu.
class ELU : public Module {
 public:
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override { return copy_of(*this, memo); }
  explicit ELU(double alpha = 1.0) : alpha_(alpha) {}
  Tensor forward(const Tensor& x) override { return functional::elu(x, alpha_); }
  std::string describe() const override { return "ELU(alpha=" + detail::py_float(alpha_) + ")"; }

 private:
  double alpha_;
};

/// Hardtanh(min_val, max_val): functional::hardtanh; min_val > max_val is refused here, as PyTorch does.
class Hardtanh : public Module {
 public:
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override { return copy_of(*this, memo); }
  explicit Hardtanh(double min_val = -1.0, double max_val = 1.0) : min_(min_val), max_(max_val) {
    if (!(min_val <= max_val))
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, detail::cat("[Hardtanh] min_val (", min_val,
                                                                   ") must not exceed max_val (", max_val, ")"));
  }
  Tensor forward(const Tensor& x) override { return functional::hardtanh(x, min_, max_); }
  std::string describe() const override {
    return "Hardtanh(min_val=" + detail::py_float(min_) + ", max_val=" + detail::py_float(max_) + ")";
  }

 private:
  double min_, max_;
};

/// Max pooling layer (stride 0 means "= kernel").
class MaxPool2d : public Module {
 public:
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override { return copy_of(*this, memo); }
  explicit MaxPool2d(int kernel_size, int stride = 0, int padding = 0, bool ceil_mode = false)
      : k_(kernel_size), s_(stride), p_(padding), ceil_(ceil_mode) {}
  Tensor forward(const Tensor& x) override { return functional::max_pool2d(x, k_, s_, p_, 1, ceil_); }
  std::string describe() const override { return detail::cat("MaxPool2d(kernel_size=", k_, ", stride=", s_ ? s_ : k_, ")"); }

 private:
  int k_, s_, p_;
  bool ceil_;
};

/// Average pooling layer (stride 0 means "= kernel").
class AvgPool2d : public Module {
 public:
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override { return copy_of(*this, memo); }
  explicit AvgPool2d(int kernel_size, int stride = 0, int padding = 0, bool ceil_mode = false)
      : k_(kernel_size), s_(stride), p_(padding), ceil_(ceil_mode) {}
  Tensor forward(const Tensor& x) override { return functional::avg_pool2d(x, k_, s_, p_, true, ceil_); }
  std::string describe() const override { return detail::cat("AvgPool2d(kernel_size=", k_, ", stride=", s_ ? s_ : k_, ")"); }

 private:
  int k_, s_, p_;
  bool ceil_;
};

/// Flattens dims start..end (default: all but the batch dim).
class Flatten : public Module {
 public:
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override { return copy_of(*this, memo); }
  explicit Flatten(int start_dim = 1, int end_dim = -1) : start_(start_dim), end_(end_dim) {}
  Tensor forward(const Tensor& x) override { return functional::flatten(x, start_, end_); }
  std::string describe() const override { return "Flatten()"; }

 private:
  int start_, end_;
};

/// A lookup table of num_embeddings rows of embedding_dim, initialized N(0, 1)
/// as torch.nn.Embedding (the padding_idx row zeroed, and given no gradient).
class Embedding : public Module {
 public:
  Embedding(int64_t num_embeddings, int64_t embedding_dim, std::optional<int64_t> padding_idx = std::nullopt)
      : num_(num_embeddings), dim_(embedding_dim) {
    if (padding_idx && (*padding_idx < -num_embeddings || *padding_idx >= num_embeddings))
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, detail::cat("[Embedding] padding_idx ", *padding_idx,
                                                            " must be within num_embeddings (", num_embeddings, ")"));
    if (padding_idx) padding_idx_ = *padding_idx < 0 ? *padding_idx + num_embeddings : *padding_idx;
    weight = register_parameter("weight", Tensor::empty({num_embeddings, embedding_dim}));
    detail::check(porta_init_normal_(weight.handle(), 0.0, 1.0));
    if (padding_idx_) {
      NoGradGuard no_grad;
      weight.select(0, *padding_idx_).fill_(0.0);
    }
  }
  Tensor forward(const Tensor& indices) override {
    check_device(indices);
    return functional::embedding(indices, weight, padding_idx_);
  }
  std::string describe() const override {
    return detail::cat("Embedding(", num_, ", ", dim_, padding_idx_ ? detail::cat(", padding_idx=", *padding_idx_) : "", ")");
  }
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override {
    auto copy = copy_of(*this, memo);
    copy->weight = copy->parameter("weight");
    return copy;
  }
  Tensor weight;

 private:
  int64_t num_, dim_;
  std::optional<int64_t> padding_idx_;
};

/// LayerNorm over the last dims; weight ones and bias zeros, as torch.nn.LayerNorm.
class LayerNorm : public Module {
 public:
  explicit LayerNorm(Shape normalized_shape, double eps = 1e-5, bool elementwise_affine = true)
      : shape_(std::move(normalized_shape)), eps_(eps) {
    if (elementwise_affine) {
      weight = register_parameter("weight", Tensor::full(shape_, 1.0));
      bias = register_parameter("bias", Tensor::zeros(shape_));
    }
  }
  Tensor forward(const Tensor& x) override {
    check_device(x);
    return functional::layer_norm(x, shape_, weight, bias, eps_);
  }
  std::string describe() const override {
    std::string dims;
    for (int64_t d : shape_) dims += (dims.empty() ? "" : ", ") + std::to_string(d);
    return detail::cat("LayerNorm([", dims, "], eps=", eps_, ")");
  }
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override {
    auto copy = copy_of(*this, memo);
    copy->weight = copy->parameter("weight");
    copy->bias = copy->parameter("bias");
    return copy;
  }
  Tensor weight, bias;

 private:
  Shape shape_;
  double eps_;
};

/// GroupNorm(num_groups, num_channels), as torch.nn.GroupNorm.
class GroupNorm : public Module {
 public:
  GroupNorm(int64_t num_groups, int64_t num_channels, double eps = 1e-5, bool affine = true)
      : groups_(num_groups), channels_(num_channels), eps_(eps) {
    if (num_groups <= 0 || num_channels % num_groups != 0)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, "[GroupNorm] num_channels must be divisible by num_groups");
    if (affine) {
      weight = register_parameter("weight", Tensor::full({num_channels}, 1.0));
      bias = register_parameter("bias", Tensor::zeros({num_channels}));
    }
  }
  Tensor forward(const Tensor& x) override {
    check_device(x);
    return functional::group_norm(x, groups_, weight, bias, eps_);
  }
  std::string describe() const override { return detail::cat("GroupNorm(", groups_, ", ", channels_, ", eps=", eps_, ")"); }
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override {
    auto copy = copy_of(*this, memo);
    copy->weight = copy->parameter("weight");
    copy->bias = copy->parameter("bias");
    return copy;
  }
  Tensor weight, bias;

 private:
  int64_t groups_, channels_;
  double eps_;
};

/// BatchNorm's options (libtorch's BatchNormOptions(64).momentum(0.01)).
struct BatchNormOptions {
  BatchNormOptions(int64_t num_features) : num_features_(num_features) {}  // NOLINT: implicit, as libtorch's
  BatchNormOptions& eps(double v) { return eps_ = v, *this; }
  BatchNormOptions& momentum(double v) { return momentum_ = v, *this; }
  BatchNormOptions& affine(bool v) { return affine_ = v, *this; }
  BatchNormOptions& track_running_stats(bool v) { return track_running_stats_ = v, *this; }
  int64_t num_features_;
  double eps_ = 1e-5, momentum_ = 0.1;
  bool affine_ = true, track_running_stats_ = true;
};

/// BatchNorm1d ([N, C] or [N, C, L]), BatchNorm2d ([N, C, H, W]), BatchNorm3d ([N, C, D, H, W]), as
/// torch.nn's: weight ones and bias zeros (affine), buffers running_mean (zeros), running_var (ones) and
/// num_batches_tracked (int64) when tracking; training normalizes by the batch's statistics and updates
/// the running ones by momentum (the variance unbiased), eval by the running ones.
template <int SpatialDims>
class BatchNorm : public Module {
 public:
  explicit BatchNorm(const BatchNormOptions& o) : o_(o) {
    const int64_t c = o.num_features_;
    if (o.affine_) {
      weight = register_parameter("weight", Tensor::full({c}, 1.0));
      bias = register_parameter("bias", Tensor::zeros({c}));
    }
    if (o.track_running_stats_) {
      running_mean = register_buffer("running_mean", Tensor::zeros({c}));
      running_var = register_buffer("running_var", Tensor::full({c}, 1.0));
      num_batches_tracked = register_buffer("num_batches_tracked", Tensor::zeros({}, {}, kInt64));
    }
  }
  Tensor forward(const Tensor& x) override {
    const int n = x.ndim();
    if (SpatialDims == 1 ? (n != 2 && n != 3) : n != SpatialDims + 2)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                  detail::cat("[", name(), "] expected ", SpatialDims == 1 ? "2D or 3D" : detail::cat(SpatialDims + 2, "D"),
                              " input (got ", n, "D input)"));
    check_device(x);
    if (is_training() && o_.track_running_stats_) {
      NoGradGuard no_grad;
      num_batches_tracked += 1;
    }
    return functional::batch_norm(x, running_mean, running_var, weight, bias,
                                  is_training() || !running_mean.defined(), o_.momentum_, o_.eps_);
  }
  std::string describe() const override {
    return detail::cat(name(), "(", o_.num_features_, ", eps=", o_.eps_, ", momentum=", o_.momentum_,
                       ", affine=", o_.affine_ ? "True" : "False",
                       ", track_running_stats=", o_.track_running_stats_ ? "True" : "False", ")");
  }
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override {
    auto copy = copy_of(*this, memo);
    copy->weight = copy->parameter("weight");
    copy->bias = copy->parameter("bias");
    copy->running_mean = copy->buffer("running_mean");
    copy->running_var = copy->buffer("running_var");
    copy->num_batches_tracked = copy->buffer("num_batches_tracked");
    return copy;
  }
  /// Zeroes running_mean and num_batches_tracked and sets running_var to ones.
  void reset_running_stats() {
    if (!o_.track_running_stats_) return;
    NoGradGuard no_grad;
    running_mean.fill_(0.0);
    running_var.fill_(1.0);
    num_batches_tracked.fill_(0.0);
  }
  const BatchNormOptions& options() const { return o_; }
  Tensor weight, bias, running_mean, running_var, num_batches_tracked;

 private:
  static std::string name() { return detail::cat("BatchNorm", SpatialDims, "d"); }
  BatchNormOptions o_;
};
using BatchNorm1d = BatchNorm<1>;
using BatchNorm2d = BatchNorm<2>;
using BatchNorm3d = BatchNorm<3>;

/// Dropout(p): active in training mode only.
class Dropout : public Module {
 public:
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override { return copy_of(*this, memo); }
  explicit Dropout(double p = 0.5) : p_(p) {}
  Tensor forward(const Tensor& x) override { return functional::dropout(x, p_, is_training()); }
  std::string describe() const override { return detail::cat("Dropout(p=", p_, ")"); }

 private:
  double p_;
};

/// Dropout1d / Dropout2d / Dropout3d(p): whole channels, in training mode only.
template <int SpatialDims>
class ChannelDropout : public Module {
 public:
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override { return copy_of(*this, memo); }
  explicit ChannelDropout(double p = 0.5) : p_(p) {}
  Tensor forward(const Tensor& x) override { return functional::feature_dropout(x, p_, is_training(), SpatialDims); }
  std::string describe() const override { return detail::cat("Dropout", SpatialDims, "d(p=", p_, ")"); }

 private:
  double p_;
};
using Dropout1d = ChannelDropout<1>;
using Dropout2d = ChannelDropout<2>;
using Dropout3d = ChannelDropout<3>;

/// AdaptiveAvgPool2d(output_size): average pooling to a fixed size.
class AdaptiveAvgPool2d : public Module {
 public:
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override { return copy_of(*this, memo); }
  explicit AdaptiveAvgPool2d(int64_t size) : AdaptiveAvgPool2d(size, size) {}
  AdaptiveAvgPool2d(int64_t out_h, int64_t out_w) : h_(out_h), w_(out_w) {}
  Tensor forward(const Tensor& x) override { return functional::adaptive_avg_pool2d(x, h_, w_); }
  std::string describe() const override { return detail::cat("AdaptiveAvgPool2d(output_size=(", h_, ", ", w_, "))"); }

 private:
  int64_t h_, w_;
};

/// Upsample(scale_factor, mode): interpolate to floor(size * scale_factor), as torch.nn.Upsample.
class Upsample : public Module {
 public:
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override { return copy_of(*this, memo); }
  explicit Upsample(double scale_factor, functional::InterpolateMode mode = functional::InterpolateMode::Nearest,
                    bool align_corners = false)
      : scale_(scale_factor), mode_(mode), align_(align_corners) {}
  Tensor forward(const Tensor& x) override {
    const Shape s = x.shape();
    if (s.size() != 4) throw Error(PORTA_ERROR_SHAPE_MISMATCH, "[Upsample] expected input [N, C, H, W]");
    return functional::interpolate(x, static_cast<int64_t>(std::floor(static_cast<double>(s[2]) * scale_)),
                                   static_cast<int64_t>(std::floor(static_cast<double>(s[3]) * scale_)), mode_, align_,
                                   scale_, scale_);
  }
  std::string describe() const override { return detail::cat("Upsample(scale_factor=", detail::py_float(scale_), ")"); }

 private:
  double scale_;
  functional::InterpolateMode mode_;
  bool align_;
};

/// ZeroPad2d / ReflectionPad2d / ReplicationPad2d(padding): {left, right, top, bottom} (or one value for all).
template <functional::PadMode Mode>
class Pad2d : public Module {
 public:
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override { return copy_of(*this, memo); }
  explicit Pad2d(int64_t all) : pad_(4, all) {}
  explicit Pad2d(std::vector<int64_t> pad) : pad_(std::move(pad)) {
    if (pad_.size() != 4)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, detail::cat("[Pad2d] padding needs 4 values, got ", pad_.size()));
  }
  Tensor forward(const Tensor& x) override { return functional::pad(x, pad_, Mode); }
  std::string describe() const override {
    return detail::cat("Pad2d(", pad_[0], ", ", pad_[1], ", ", pad_[2], ", ", pad_[3], ")");
  }

 private:
  std::vector<int64_t> pad_;
};
using ZeroPad2d = Pad2d<functional::PadMode::Constant>;
using ReflectionPad2d = Pad2d<functional::PadMode::Reflect>;
using ReplicationPad2d = Pad2d<functional::PadMode::Replicate>;

/// Loss modules hold no state; to(device) exists so tutorial code that moves
/// them keeps working, and does nothing.
template <class Derived>
class Loss {
 public:
  /// Returns the loss itself (a loss has no parameters to move).
  Derived& to(const Device&) { return static_cast<Derived&>(*this); }
};

/// Mean squared error loss.
class MSELoss : public Loss<MSELoss> {
 public:
  explicit MSELoss(porta_reduction reduction = PORTA_REDUCTION_MEAN) : r_(reduction) {}
  /// The loss of `input` against `target`.
  Tensor operator()(const Tensor& input, const Tensor& target) const {
    return functional::mse_loss(input, target, r_);
  }

 private:
  porta_reduction r_;
};

/// Cross-entropy loss on logits and class indices.
class CrossEntropyLoss : public Loss<CrossEntropyLoss> {
 public:
  explicit CrossEntropyLoss(porta_reduction reduction = PORTA_REDUCTION_MEAN, int64_t ignore_index = -100)
      : r_(reduction), ignore_(ignore_index) {}
  /// The loss of `logits` [N, C] against `target` [N], leaving out targets equal to ignore_index.
  Tensor operator()(const Tensor& logits, const Tensor& target) const {
    return functional::cross_entropy(logits, target, r_, ignore_);
  }

 private:
  porta_reduction r_;
  int64_t ignore_;
};

/// The losses of nn::functional as modules (class weights as undefined-or-given tensors).
class NLLLoss : public Loss<NLLLoss> {
 public:
  explicit NLLLoss(Tensor weight = {}, int64_t ignore_index = -100, porta_reduction r = PORTA_REDUCTION_MEAN)
      : weight_(std::move(weight)), ignore_(ignore_index), r_(r) {}
  Tensor operator()(const Tensor& input, const Tensor& target) const {
    return functional::nll_loss(input, target, weight_, ignore_, r_);
  }

 private:
  Tensor weight_;
  int64_t ignore_;
  porta_reduction r_;
};

class BCELoss : public Loss<BCELoss> {
 public:
  explicit BCELoss(Tensor weight = {}, porta_reduction r = PORTA_REDUCTION_MEAN) : weight_(std::move(weight)), r_(r) {}
  Tensor operator()(const Tensor& input, const Tensor& target) const {
    return functional::binary_cross_entropy(input, target, weight_, r_);
  }

 private:
  Tensor weight_;
  porta_reduction r_;
};

class BCEWithLogitsLoss : public Loss<BCEWithLogitsLoss> {
 public:
  explicit BCEWithLogitsLoss(Tensor weight = {}, porta_reduction r = PORTA_REDUCTION_MEAN, Tensor pos_weight = {})
      : weight_(std::move(weight)), pos_weight_(std::move(pos_weight)), r_(r) {}
  Tensor operator()(const Tensor& input, const Tensor& target) const {
    return functional::binary_cross_entropy_with_logits(input, target, weight_, pos_weight_, r_);
  }

 private:
  Tensor weight_, pos_weight_;
  porta_reduction r_;
};

class L1Loss : public Loss<L1Loss> {
 public:
  explicit L1Loss(porta_reduction r = PORTA_REDUCTION_MEAN) : r_(r) {}
  Tensor operator()(const Tensor& input, const Tensor& target) const { return functional::l1_loss(input, target, r_); }

 private:
  porta_reduction r_;
};

class SmoothL1Loss : public Loss<SmoothL1Loss> {
 public:
  explicit SmoothL1Loss(porta_reduction r = PORTA_REDUCTION_MEAN, double beta = 1.0) : r_(r), beta_(beta) {}
  Tensor operator()(const Tensor& input, const Tensor& target) const {
    return functional::smooth_l1_loss(input, target, r_, beta_);
  }

 private:
  porta_reduction r_;
  double beta_;
};

class HuberLoss : public Loss<HuberLoss> {
 public:
  explicit HuberLoss(porta_reduction r = PORTA_REDUCTION_MEAN, double delta = 1.0) : r_(r), delta_(delta) {}
  Tensor operator()(const Tensor& input, const Tensor& target) const {
    return functional::huber_loss(input, target, r_, delta_);
  }

 private:
  porta_reduction r_;
  double delta_;
};

class KLDivLoss : public Loss<KLDivLoss> {
 public:
  explicit KLDivLoss(porta_reduction r = PORTA_REDUCTION_MEAN, bool log_target = false) : r_(r), log_target_(log_target) {}
  Tensor operator()(const Tensor& input, const Tensor& target) const {
    return functional::kl_div(input, target, r_, log_target_);
  }

 private:
  porta_reduction r_;
  bool log_target_;
};

}  // namespace porta::nn

#include "porta/nn_containers.hpp"  // ModuleList, ModuleDict, ParameterList, ParameterDict
#include "porta/nn_utils.hpp"       // porta::nn::utils::clip_grad_norm_, parameters_to_vector, ...
#include "porta/nn_recurrent.hpp"   // RNN, LSTM, GRU, RNNCell, LSTMCell, GRUCell
#include "porta/nn_transformer.hpp"  // MultiheadAttention, TransformerEncoderLayer
