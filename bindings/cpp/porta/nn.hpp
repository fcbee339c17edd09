// porta::nn — modules over porta.h, ported from torch.nn: Module with named
// parameters and children, in-place to(device), train/eval, state_dict saved
// to and loaded from safetensors; Sequential, Linear, Conv2d, ReLU, MaxPool2d,
// AvgPool2d, Flatten, Dropout; MSELoss, CrossEntropyLoss.
#pragma once

#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "porta/porta.hpp"

namespace porta::nn {

/// Named tensors in registration order ("conv1.weight", ...).
using StateDict = std::vector<std::pair<std::string, Tensor>>;

/// Functional forms of the layers (differentiable).
namespace functional {
/// x @ weight^T + bias (bias may be undefined).
inline Tensor linear(const Tensor& x, const Tensor& weight, const Tensor& bias = {}) {
  return detail::call(porta_linear, x.handle(), weight.handle(), bias.handle());
}
/// 2-D convolution; {stride, padding, dilation} apply to both dims.
inline Tensor conv2d(const Tensor& x, const Tensor& weight, const Tensor& bias = {}, int stride = 1, int padding = 0,
                     int dilation = 1) {
  const porta_conv2d_options o{sizeof(o), {stride, stride}, {padding, padding}, {dilation, dilation}};
  return detail::call(porta_conv2d, x.handle(), weight.handle(), bias.handle(), &o);
}
/// Max pooling (stride 0 means "= kernel").
inline Tensor max_pool2d(const Tensor& x, int kernel, int stride = 0, int padding = 0, int dilation = 1) {
  const porta_pool2d_options o{sizeof(o), {kernel, kernel}, {stride, stride}, {padding, padding}, {dilation, dilation}, 1};
  return detail::call(porta_max_pool2d, x.handle(), &o);
}
/// Average pooling (stride 0 means "= kernel").
inline Tensor avg_pool2d(const Tensor& x, int kernel, int stride = 0, int padding = 0, bool count_include_pad = true) {
  const porta_pool2d_options o{sizeof(o), {kernel, kernel}, {stride, stride}, {padding, padding}, {1, 1},
                               int{count_include_pad}};
  return detail::call(porta_avg_pool2d, x.handle(), &o);
}
/// softmax along dim.
inline Tensor softmax(const Tensor& x, int dim) { return detail::call(porta_softmax, x.handle(), int32_t(dim)); }
/// log_softmax along dim.
inline Tensor log_softmax(const Tensor& x, int dim) { return detail::call(porta_log_softmax, x.handle(), int32_t(dim)); }
/// Cross entropy of logits [N, C] against class indices [N].
/// Samples whose target is `ignore_index` (PyTorch's default -100) are left out.
inline Tensor cross_entropy(const Tensor& logits, const Tensor& target, porta_reduction r = PORTA_REDUCTION_MEAN,
                            int64_t ignore_index = -100) {
  return detail::call(porta_cross_entropy_ignore, logits.handle(), target.handle(), r, ignore_index);
}
/// Mean squared error.
inline Tensor mse_loss(const Tensor& input, const Tensor& target, porta_reduction r = PORTA_REDUCTION_MEAN) {
  return detail::call(porta_mse_loss, input.handle(), target.handle(), r);
}
/// Dropout with probability p while training.
inline Tensor dropout(const Tensor& x, double p, bool training) {
  return detail::call(porta_dropout, x.handle(), p, int{training});
}
/// Merges dims start..end.
inline Tensor flatten(const Tensor& x, int start = 1, int end = -1) {
  return detail::call(porta_flatten, x.handle(), int32_t(start), int32_t(end));
}
}  // namespace functional

/// Base of every layer: parameters and child modules by name, device moves,
/// train/eval, state dicts.
class Module : public std::enable_shared_from_this<Module> {
 public:
  virtual ~Module() = default;
  /// The layer's computation; most layers take one input.
  virtual Tensor forward(const Tensor& x) = 0;
  /// forward(x).
  Tensor operator()(const Tensor& x) { return forward(x); }
  /// "Linear(in_features=10, out_features=1)".
  virtual std::string describe() const = 0;

  /// Parameters of this module and its children, prefixed by their path;
  /// each tensor once, under its first name (a module used twice, or a tied
  /// weight, is not listed twice), as PyTorch's named_parameters().
  StateDict named_parameters() const {
    StateDict all, out;
    collect("", all);
    for (auto& entry : all) {
      bool seen = false;
      for (auto& [name, t] : out) seen = seen || t.handle() == entry.second.handle();
      if (!seen) out.push_back(std::move(entry));
    }
    return out;
  }
  /// The parameters, in registration order (what optimizers take).
  std::vector<Tensor> parameters() const {
    std::vector<Tensor> v;
    for (auto& [name, t] : named_parameters()) v.push_back(t);
    return v;
  }
  /// Moves every parameter to `device` in place: each keeps its identity, so
  /// optimizers built earlier still hold the same tensors.
  Module& to(const Device& device) {
    for (auto& [name, t] : named_parameters()) detail::check(porta_tensor_move_to(t.handle(), device.dl()));
    return *this;
  }
  /// Training mode (affects Dropout), recursively.
  Module& train(bool on = true) {
    training_ = on;
    for (auto& [name, child] : children_) child->train(on);
    return *this;
  }
  /// Evaluation mode.
  Module& eval() { return train(false); }
  /// True in training mode.
  bool is_training() const { return training_; }
  /// The device of the first parameter (cpu when there are none).
  Device device() const {
    auto p = named_parameters();
    return p.empty() ? Device() : p.front().second.device();
  }
  /// The parameters by name (Porta modules have no buffers), a tied one under
  /// each of its names, as PyTorch's state_dict().
  StateDict state_dict() const {
    StateDict all;
    collect("", all);
    return all;
  }
  /// Copies values from `dict` (any device) into the parameters; every name
  /// must match and shapes must agree.
  void load_state_dict(const StateDict& dict) {
    StateDict mine;
    collect("", mine);  // every name, as state_dict() writes them
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
  const std::string& path() const { return path_; }

 protected:
  /// Registers a parameter (it becomes a leaf that requires grad).
  Tensor register_parameter(const std::string& name, Tensor t) {
    t.requires_grad_(true);
    params_.emplace_back(name, t);
    return t;
  }
  /// Registers a child module under `name`.
  template <class M>
  std::shared_ptr<M> register_module(const std::string& name, std::shared_ptr<M> m) {
    m->set_path(path_.empty() ? name : path_ + "." + name);
    children_.emplace_back(name, m);
    return m;
  }
  /// Fails with DEVICE_MISMATCH naming this layer, both devices and the fix
  /// when `x` is not where the parameters are.
  void check_device(const Tensor& x) const {
    if (params_.empty()) return;
    const Device mine = params_.front().second.device(), theirs = x.device();
    if (mine == theirs) return;
    throw Error(PORTA_ERROR_DEVICE_MISMATCH,
                detail::cat(describe(), path_.empty() ? "" : " '" + path_ + "'", ": the input is on ", theirs,
                            " but the layer's parameters are on ", mine, ". Data and model must share a device: ",
                            "move the input with x.to(", mine, ") or the model with model.to(", theirs, ")"));
  }

 private:
  void set_path(const std::string& p) {
    path_ = p;
    for (auto& [name, child] : children_) child->set_path(p + "." + name);
  }
  void collect(const std::string& prefix, StateDict& out) const {
    for (auto& [name, t] : params_) out.emplace_back(prefix + name, t);
    for (auto& [name, child] : children_) child->collect(prefix + name + ".", out);
  }

  StateDict params_;
  std::vector<std::pair<std::string, std::shared_ptr<Module>>> children_;
  bool training_ = true;
  std::string path_;
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

 private:
  std::vector<std::shared_ptr<Module>> layers_;
};

/// y = x W^T + b, initialized as torch.nn.Linear (kaiming-uniform weight, uniform bias).
class Linear : public Module {
 public:
  Linear(int64_t in_features, int64_t out_features, bool bias = true) : in_(in_features), out_(out_features) {
    weight = register_parameter("weight", Tensor::empty({out_features, in_features}));
    detail::check(porta_init_kaiming_uniform_(weight.handle(), std::sqrt(5.0)));
    if (bias) {
      this->bias = register_parameter("bias", Tensor::empty({out_features}));
      const double bound = in_features > 0 ? 1.0 / std::sqrt(double(in_features)) : 0.0;
      detail::check(porta_init_uniform_(this->bias.handle(), -bound, bound));
    }
  }
  Tensor forward(const Tensor& x) override {
    check_device(x);
    return functional::linear(x, weight, bias);
  }
  std::string describe() const override {
    return detail::cat("Linear(in_features=", in_, ", out_features=", out_, ", bias=", bias.defined(), ")");
  }
  Tensor weight, bias;

 private:
  int64_t in_, out_;
};

/// 2-D convolution layer, initialized as torch.nn.Conv2d.
class Conv2d : public Module {
 public:
  Conv2d(int64_t in_channels, int64_t out_channels, int kernel_size, int stride = 1, int padding = 0, int dilation = 1,
         bool bias = true)
      : in_(in_channels), out_(out_channels), k_(kernel_size), stride_(stride), padding_(padding), dilation_(dilation) {
    weight = register_parameter("weight", Tensor::empty({out_channels, in_channels, kernel_size, kernel_size}));
    detail::check(porta_init_kaiming_uniform_(weight.handle(), std::sqrt(5.0)));
    if (bias) {
      this->bias = register_parameter("bias", Tensor::empty({out_channels}));
      const double fan_in = double(in_channels) * kernel_size * kernel_size;
      const double bound = fan_in > 0 ? 1.0 / std::sqrt(fan_in) : 0.0;
      detail::check(porta_init_uniform_(this->bias.handle(), -bound, bound));
    }
  }
  Tensor forward(const Tensor& x) override {
    check_device(x);
    return functional::conv2d(x, weight, bias, stride_, padding_, dilation_);
  }
  std::string describe() const override {
    return detail::cat("Conv2d(", in_, ", ", out_, ", kernel_size=", k_, ", stride=", stride_, ", padding=", padding_,
                       ")");
  }
  Tensor weight, bias;

 private:
  int64_t in_, out_;
  int k_, stride_, padding_, dilation_;
};

/// max(x, 0).
class ReLU : public Module {
 public:
  Tensor forward(const Tensor& x) override { return x.relu(); }
  std::string describe() const override { return "ReLU()"; }
};

/// Max pooling layer (stride 0 means "= kernel").
class MaxPool2d : public Module {
 public:
  explicit MaxPool2d(int kernel_size, int stride = 0, int padding = 0) : k_(kernel_size), s_(stride), p_(padding) {}
  Tensor forward(const Tensor& x) override { return functional::max_pool2d(x, k_, s_, p_); }
  std::string describe() const override { return detail::cat("MaxPool2d(kernel_size=", k_, ", stride=", s_ ? s_ : k_, ")"); }

 private:
  int k_, s_, p_;
};

/// Average pooling layer (stride 0 means "= kernel").
class AvgPool2d : public Module {
 public:
  explicit AvgPool2d(int kernel_size, int stride = 0, int padding = 0) : k_(kernel_size), s_(stride), p_(padding) {}
  Tensor forward(const Tensor& x) override { return functional::avg_pool2d(x, k_, s_, p_); }
  std::string describe() const override { return detail::cat("AvgPool2d(kernel_size=", k_, ", stride=", s_ ? s_ : k_, ")"); }

 private:
  int k_, s_, p_;
};

/// Flattens dims start..end (default: all but the batch dim).
class Flatten : public Module {
 public:
  explicit Flatten(int start_dim = 1, int end_dim = -1) : start_(start_dim), end_(end_dim) {}
  Tensor forward(const Tensor& x) override { return functional::flatten(x, start_, end_); }
  std::string describe() const override { return "Flatten()"; }

 private:
  int start_, end_;
};

/// Dropout(p): active in training mode only.
class Dropout : public Module {
 public:
  explicit Dropout(double p = 0.5) : p_(p) {}
  Tensor forward(const Tensor& x) override { return functional::dropout(x, p_, is_training()); }
  std::string describe() const override { return detail::cat("Dropout(p=", p_, ")"); }

 private:
  double p_;
};

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

}  // namespace porta::nn
