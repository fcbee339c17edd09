// porta::optim — SGD, Adam, AdamW, RMSprop, Adagrad over porta.h. State lives on each
// parameter's device and follows it; there is no optimizer.to().
//
// Parameter groups as libtorch's (OptimizerParamGroup): each group is its own porta_optimizer with its
// own options; step() and zero_grad() run over every group, parameters are numbered across the groups
// in order (the state accessors' `param`), and a parameter may be in one group only.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <unordered_set>
#include <utility>
#include <vector>

#include "porta/porta.hpp"

namespace porta::optim {

/// One parameter group: its parameters and its options (nullopt: the defaults given to the optimizer).
template <class Options>
struct ParamGroup {
  std::vector<Tensor> params;
  std::optional<Options> options = std::nullopt;
};

/// All of `params` in one group with the optimizer's defaults.
template <class Options>
std::vector<ParamGroup<Options>> one_group(const std::vector<Tensor>& params) {
  return {ParamGroup<Options>{params, std::nullopt}};
}

/// Common interface: step() and zero_grad().
class Optimizer {
 public:
  virtual ~Optimizer() = default;
  Optimizer(Optimizer&&) noexcept = default;             ///< an optimizer moves (its state with it)
  Optimizer& operator=(Optimizer&&) noexcept = default;  ///< and is never copied (it owns its state)
  /// One update of every parameter that has a gradient, group by group.
  void step() {
    for (size_t i = 0; i < std::max<size_t>(groups_.size(), 1); ++i) detail::check(porta_optimizer_step(group_at(i)));
  }
  /// Float32 master weights for float16/bfloat16 parameters (porta_optimizer_set_master_weights): each
  /// steps a float32 copy with float32 state and takes its rounding. Off by default, as PyTorch.
  void set_master_weights(bool enabled = true) {
    for (size_t i = 0; i < std::max<size_t>(groups_.size(), 1); ++i)
      detail::check(porta_optimizer_set_master_weights(group_at(i), enabled ? 1 : 0));
  }
  /// Clears the gradients (set to none, as PyTorch does by default).
  void zero_grad() {
    for (size_t i = 0; i < std::max<size_t>(groups_.size(), 1); ++i)
      detail::check(porta_optimizer_zero_grad(group_at(i)));
  }
  /// The parameter groups.
  size_t num_param_groups() const { return groups_.size(); }
  /// Every parameter, group by group (the handles given at creation).
  std::vector<Tensor> parameters() const {
    std::vector<Tensor> all;
    for (const Group& g : groups_) all.insert(all.end(), g.params.begin(), g.params.end());
    return all;
  }
  /// The learning rate; with several groups, the one they share (refused when they differ: use group_lr).
  double lr() const {
    const double first = group_lr(0);
    for (size_t i = 1; i < groups_.size(); ++i)
      if (group_lr(i) != first)
        throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                    detail::cat("[Optimizer::lr] the parameter groups have different learning rates (group 0: ",
                                first, ", group ", i, ": ", group_lr(i), "); read each with group_lr(i)"));
    return first;
  }
  /// Sets the learning rate of every group (what a scheduler does).
  void set_lr(double lr) {
    for (size_t i = 0; i < groups_.size(); ++i) set_group_lr(i, lr);
  }
  /// The learning rate of group `group`.
  double group_lr(size_t group) const {
    double v = 0;
    detail::check(porta_optimizer_get_lr(group_at(group), &v));
    return v;
  }
  /// Sets the learning rate of group `group`.
  void set_group_lr(size_t group, double lr) { detail::check(porta_optimizer_set_lr(group_at(group), lr)); }

  // ---- state, for checkpoints (porta_optimizer_get_state and friends); `param` counts across the groups
  /// State tensors per parameter: SGD 1 with momentum else 0; Adam/AdamW 2 (exp_avg, exp_avg_sq).
  int32_t state_slots() const {
    int32_t n = 0;
    detail::check(porta_optimizer_state_slots(group_at(0), &n));
    return n;
  }
  /// A copy of state `slot` of parameter `param` (its index in the lists given at creation, across the
  /// groups); undefined before the parameter's first step.
  Tensor state(int32_t param, int32_t slot) const {
    const auto [opt, local] = locate(param);
    porta_tensor* out = nullptr;
    detail::check(porta_optimizer_get_state(opt, local, slot, &out));
    return Tensor::adopt(out);
  }
  /// Replaces state `slot` of parameter `param` with a copy of `value`.
  void set_state(int32_t param, int32_t slot, const Tensor& value) {
    const auto [opt, local] = locate(param);
    detail::check(porta_optimizer_set_state(opt, local, slot, value.handle()));
  }
  /// A copy of parameter `param`'s float32 master weight (set_master_weights), for checkpoints; undefined
  /// when it has none (master weights off, not float16/bfloat16, no step yet, written since).
  Tensor master_weight(int32_t param) const {
    const auto [opt, local] = locate(param);
    porta_tensor* out = nullptr;
    detail::check(porta_optimizer_get_master_weight(opt, local, &out));
    return Tensor::adopt(out);
  }
  /// Restores it from a copy of `value` (master weights on, a float16/bfloat16 parameter).
  void set_master_weight(int32_t param, const Tensor& value) {
    const auto [opt, local] = locate(param);
    detail::check(porta_optimizer_set_master_weight(opt, local, value.handle()));
  }
  /// Steps parameter `param` has taken (Adam's bias correction).
  int64_t step_count(int32_t param) const {
    const auto [opt, local] = locate(param);
    int64_t n = 0;
    detail::check(porta_optimizer_get_step(opt, local, &n));
    return n;
  }
  /// Sets it, when restoring a checkpoint.
  void set_step_count(int32_t param, int64_t n) {
    const auto [opt, local] = locate(param);
    detail::check(porta_optimizer_set_step(opt, local, n));
  }

 protected:
  Optimizer() = default;
  /// One porta_optimizer per group, from `convert(options)` (the C struct) and `f` (its create function).
  template <class Options, class Convert, class F>
  void create(F f, const std::vector<ParamGroup<Options>>& groups, const Options& defaults, Convert convert) {
    if (groups.empty())
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, "[optim] the optimizer got an empty list of parameter groups");
    std::unordered_set<const porta_tensor*> taken;
    for (size_t gi = 0; gi < groups.size(); ++gi) {
      std::vector<porta_tensor*> handles;
      for (const Tensor& p : groups[gi].params) {  // a repeat within a group: the C call names both places
        handles.push_back(p.checked_handle());
        if (taken.count(handles.back()))
          throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                      detail::cat("[optim] parameter ", handles.size() - 1, " of group ", gi,
                                  " is also in an earlier group: a parameter may be in one group only"));
      }
      taken.insert(handles.begin(), handles.end());
      const auto c = convert(groups[gi].options.value_or(defaults));
      porta_optimizer* raw = nullptr;
      detail::check(f(handles.data(), detail::count(handles), &c, &raw));
      groups_.push_back({std::unique_ptr<porta_optimizer, Release>(raw), int32_t(handles.size()), groups[gi].params});
      if (groups[gi].options.value_or(defaults).maximize) detail::check(porta_optimizer_set_maximize(raw, 1));
    }
  }

 private:
  struct Release {
    void operator()(porta_optimizer* o) const { porta_optimizer_release(o); }
  };
  struct Group {
    std::unique_ptr<porta_optimizer, Release> opt;
    int32_t size;
    std::vector<Tensor> params;
  };
  porta_optimizer* group_at(size_t group) const {
    if (groups_.empty())
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, "[optim] this optimizer was moved from: it holds no parameters");
    if (group >= groups_.size())
      throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                  detail::cat("[optim] group ", group, " is out of range: the optimizer has ", groups_.size()));
    return groups_[group].opt.get();
  }
  /// The group's optimizer and the index within it of parameter `param`; an index out of range goes to
  /// the last group, whose porta_optimizer refuses it with the count.
  std::pair<porta_optimizer*, int32_t> locate(int32_t param) const {
    size_t group = 0;
    for (; group + 1 < groups_.size() && param >= groups_[group].size; ++group) param -= groups_[group].size;
    return {group_at(group), param};
  }
  std::vector<Group> groups_;
};

/// torch.optim.SGD options.
struct SGDOptions {
  double lr = 0.01;           ///< learning rate
  double momentum = 0;        ///< momentum factor
  double dampening = 0;       ///< dampening for momentum
  double weight_decay = 0;    ///< L2 penalty
  bool nesterov = false;      ///< Nesterov momentum
  bool maximize = false;      ///< ascend: step with the negated gradient (porta_optimizer_set_maximize)
};

/// Stochastic gradient descent (with momentum, dampening, Nesterov, weight decay).
class SGD : public Optimizer {
 public:
  SGD(const std::vector<Tensor>& params, const SGDOptions& o) : SGD(one_group<SGDOptions>(params), o) {}
  /// Parameter groups, each with its options or `defaults`.
  SGD(const std::vector<ParamGroup<SGDOptions>>& groups, const SGDOptions& defaults) {
    create(porta_sgd_create, groups, defaults, [](const SGDOptions& o) {
      return porta_sgd_options{sizeof(porta_sgd_options), o.lr, o.momentum, o.dampening, o.weight_decay,
                               int{o.nesterov}};
    });
  }
};

/// torch.optim.Adam / AdamW options.
struct AdamOptions {
  double lr = 1e-3;           ///< learning rate
  double beta1 = 0.9;         ///< first moment decay
  double beta2 = 0.999;       ///< second moment decay
  double eps = 1e-8;          ///< denominator term
  double weight_decay = 0;    ///< L2 (Adam) or decoupled (AdamW; PyTorch's AdamW default is 1e-2)
  bool amsgrad = false;       ///< the maximum of past second moments (composed from elementwise ops)
  bool maximize = false;      ///< ascend: step with the negated gradient
};

/// Adam's and AdamW's C options.
inline porta_adam_options adam_c_options(const AdamOptions& o) {
  return porta_adam_options{sizeof(porta_adam_options), o.lr, o.beta1, o.beta2, o.eps, o.weight_decay,
                            int{o.amsgrad}};
}

/// Adam.
class Adam : public Optimizer {
 public:
  explicit Adam(const std::vector<Tensor>& params, const AdamOptions& o = {})
      : Adam(one_group<AdamOptions>(params), o) {}
  /// Parameter groups, each with its options or `defaults`.
  explicit Adam(const std::vector<ParamGroup<AdamOptions>>& groups, const AdamOptions& defaults = {}) {
    create(porta_adam_create, groups, defaults, adam_c_options);
  }
};

/// AdamW (decoupled weight decay).
class AdamW : public Optimizer {
 public:
  explicit AdamW(const std::vector<Tensor>& params, const AdamOptions& o = {.weight_decay = 1e-2})
      : AdamW(one_group<AdamOptions>(params), o) {}
  /// Parameter groups, each with its options or `defaults` (nanoGPT's: matrices decay, the rest not).
  explicit AdamW(const std::vector<ParamGroup<AdamOptions>>& groups,
                 const AdamOptions& defaults = {.weight_decay = 1e-2}) {
    create(porta_adamw_create, groups, defaults, adam_c_options);
  }
};

/// torch.optim.RMSprop options.
struct RMSpropOptions {
  double lr = 1e-2;          ///< learning rate
  double alpha = 0.99;       ///< smoothing constant
  double eps = 1e-8;         ///< denominator term
  double weight_decay = 0;   ///< L2 penalty
  double momentum = 0;       ///< momentum factor
  bool centered = false;     ///< normalize by the estimated variance of the gradient
  bool maximize = false;     ///< ascend: step with the negated gradient
};

/// RMSprop (state: square_avg, then momentum_buffer with momentum, then grad_avg when centered).
class RMSprop : public Optimizer {
 public:
  explicit RMSprop(const std::vector<Tensor>& params, const RMSpropOptions& o = {})
      : RMSprop(one_group<RMSpropOptions>(params), o) {}
  /// Parameter groups, each with its options or `defaults`.
  explicit RMSprop(const std::vector<ParamGroup<RMSpropOptions>>& groups, const RMSpropOptions& defaults = {}) {
    create(porta_rmsprop_create, groups, defaults, [](const RMSpropOptions& o) {
      return porta_rmsprop_options{sizeof(porta_rmsprop_options), o.lr, o.alpha, o.eps, o.weight_decay, o.momentum,
                                   int{o.centered}};
    });
  }
};

/// torch.optim.Adagrad options.
struct AdagradOptions {
  double lr = 1e-2;                       ///< learning rate
  double lr_decay = 0;                    ///< learning-rate decay per step
  double weight_decay = 0;                ///< L2 penalty
  double initial_accumulator_value = 0;   ///< the sum's start
  double eps = 1e-10;                     ///< denominator term
  bool maximize = false;                  ///< ascend: step with the negated gradient
};

/// Adagrad (state: sum).
class Adagrad : public Optimizer {
 public:
  explicit Adagrad(const std::vector<Tensor>& params, const AdagradOptions& o = {})
      : Adagrad(one_group<AdagradOptions>(params), o) {}
  /// Parameter groups, each with its options or `defaults`.
  explicit Adagrad(const std::vector<ParamGroup<AdagradOptions>>& groups, const AdagradOptions& defaults = {}) {
    create(porta_adagrad_create, groups, defaults, [](const AdagradOptions& o) {
      return porta_adagrad_options{sizeof(porta_adagrad_options), o.lr, o.lr_decay, o.weight_decay,
                                   o.initial_accumulator_value, o.eps};
    });
  }
};

}  // namespace porta::optim

#include "porta/lr_scheduler.hpp"  // the schedulers over Optimizer::lr() (porta::optim::StepLR, ...)
