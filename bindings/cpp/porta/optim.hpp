// porta::optim — SGD, Adam, AdamW, RMSprop, Adagrad over porta.h. State lives on each
// parameter's device and follows it; there is no optimizer.to().
#pragma once

#include <memory>
#include <vector>

#include "porta/porta.hpp"

namespace porta::optim {

/// Common interface: step() and zero_grad().
class Optimizer {
 public:
  virtual ~Optimizer() = default;
  Optimizer(Optimizer&&) noexcept = default;             ///< an optimizer moves (its state with it)
  Optimizer& operator=(Optimizer&&) noexcept = default;  ///< and is never copied (it owns its state)
  /// One update of every parameter that has a gradient.
  void step() { detail::check(porta_optimizer_step(opt_.get())); }
  /// Clears the gradients (set to none, as PyTorch does by default).
  void zero_grad() { detail::check(porta_optimizer_zero_grad(opt_.get())); }
  /// The learning rate.
  double lr() const {
    double v = 0;
    detail::check(porta_optimizer_get_lr(opt_.get(), &v));
    return v;
  }
  /// Changes the learning rate.
  void set_lr(double lr) { detail::check(porta_optimizer_set_lr(opt_.get(), lr)); }

  // ---- state, for checkpoints (porta_optimizer_get_state and friends)
  /// State tensors per parameter: SGD 1 with momentum else 0; Adam/AdamW 2 (exp_avg, exp_avg_sq).
  int32_t state_slots() const {
    int32_t n = 0;
    detail::check(porta_optimizer_state_slots(opt_.get(), &n));
    return n;
  }
  /// A copy of state `slot` of parameter `param` (its index in the list given at creation);
  /// undefined before the parameter's first step.
  Tensor state(int32_t param, int32_t slot) const {
    porta_tensor* out = nullptr;
    detail::check(porta_optimizer_get_state(opt_.get(), param, slot, &out));
    return Tensor::adopt(out);
  }
  /// Replaces state `slot` of parameter `param` with a copy of `value`.
  void set_state(int32_t param, int32_t slot, const Tensor& value) {
    detail::check(porta_optimizer_set_state(opt_.get(), param, slot, value.handle()));
  }
  /// Steps parameter `param` has taken (Adam's bias correction).
  int64_t step_count(int32_t param) const {
    int64_t n = 0;
    detail::check(porta_optimizer_get_step(opt_.get(), param, &n));
    return n;
  }
  /// Sets it, when restoring a checkpoint.
  void set_step_count(int32_t param, int64_t n) { detail::check(porta_optimizer_set_step(opt_.get(), param, n)); }

 protected:
  Optimizer() = default;
  template <class Options, class F>
  void create(F f, const std::vector<Tensor>& params, const Options& o) {
    std::vector<porta_tensor*> handles;
    for (const Tensor& p : params) handles.push_back(p.checked_handle());
    porta_optimizer* raw = nullptr;
    detail::check(f(handles.data(), detail::count(handles), &o, &raw));
    opt_.reset(raw);
  }

 private:
  struct Release {
    void operator()(porta_optimizer* o) const { porta_optimizer_release(o); }
  };
  std::unique_ptr<porta_optimizer, Release> opt_;
};

/// torch.optim.SGD options.
struct SGDOptions {
  double lr = 0.01;           ///< learning rate
  double momentum = 0;        ///< momentum factor
  double dampening = 0;       ///< dampening for momentum
  double weight_decay = 0;    ///< L2 penalty
  bool nesterov = false;      ///< Nesterov momentum
};

/// Stochastic gradient descent (with momentum, dampening, Nesterov, weight decay).
class SGD : public Optimizer {
 public:
  SGD(const std::vector<Tensor>& params, const SGDOptions& o) {
    const porta_sgd_options c{sizeof(c), o.lr, o.momentum, o.dampening, o.weight_decay, int{o.nesterov}};
    create(porta_sgd_create, params, c);
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
};

/// Adam.
class Adam : public Optimizer {
 public:
  explicit Adam(const std::vector<Tensor>& params, const AdamOptions& o = {}) {
    const porta_adam_options c{sizeof(c), o.lr, o.beta1, o.beta2, o.eps, o.weight_decay, int{o.amsgrad}};
    create(porta_adam_create, params, c);
  }
};

/// AdamW (decoupled weight decay).
class AdamW : public Optimizer {
 public:
  explicit AdamW(const std::vector<Tensor>& params, const AdamOptions& o = {.weight_decay = 1e-2}) {
    const porta_adam_options c{sizeof(c), o.lr, o.beta1, o.beta2, o.eps, o.weight_decay, int{o.amsgrad}};
    create(porta_adamw_create, params, c);
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
};

/// RMSprop (state: square_avg, then momentum_buffer with momentum, then grad_avg when centered).
class RMSprop : public Optimizer {
 public:
  explicit RMSprop(const std::vector<Tensor>& params, const RMSpropOptions& o = {}) {
    const porta_rmsprop_options c{sizeof(c), o.lr, o.alpha, o.eps, o.weight_decay, o.momentum, int{o.centered}};
    create(porta_rmsprop_create, params, c);
  }
};

/// torch.optim.Adagrad options.
struct AdagradOptions {
  double lr = 1e-2;                       ///< learning rate
  double lr_decay = 0;                    ///< learning-rate decay per step
  double weight_decay = 0;                ///< L2 penalty
  double initial_accumulator_value = 0;   ///< the sum's start
  double eps = 1e-10;                     ///< denominator term
};

/// Adagrad (state: sum).
class Adagrad : public Optimizer {
 public:
  explicit Adagrad(const std::vector<Tensor>& params, const AdagradOptions& o = {}) {
    const porta_adagrad_options c{sizeof(c), o.lr, o.lr_decay, o.weight_decay, o.initial_accumulator_value, o.eps};
    create(porta_adagrad_create, params, c);
  }
};

}  // namespace porta::optim

#include "porta/lr_scheduler.hpp"  // the schedulers over Optimizer::lr() (porta::optim::StepLR, ...)
