// porta/lr_scheduler.hpp — torch.optim.lr_scheduler's schedulers over porta::optim::Optimizer's lr()
// and set_lr() (a C++ optimizer has one parameter group). Named as libtorch names them where it has them
// (StepLR, ReduceLROnPlateauScheduler), else as PyTorch's Python schedulers.
//
// The numbers are those of PyTorch's Python schedulers: the same formulas in the same order of operations
// (recursive where PyTorch's are), so each lr is the double torch computes. As there, a scheduler takes
// its first step when it is made (last_epoch 0), and step() after each epoch advances it. libtorch's own
// StepLR counts from its first step() instead, so its decays come one step later than Python's and these.
//
// initial_lr is kept per optimizer as PyTorch keeps param_groups[0]["initial_lr"]: the lr when the first
// scheduler was made on it, shared by every scheduler made while one of them lives (what SequentialLR
// and ChainedScheduler need to reproduce PyTorch's numbers). There is no state_dict: to resume, make the
// scheduler on an optimizer at its initial lr and call step() once per epoch already done.
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "porta/optim.hpp"

namespace porta::detail {

/// The optimizer's shared initial_lr (see the file comment): created at its current lr when no living
/// scheduler holds one.
inline std::shared_ptr<double> scheduler_initial_lr(const optim::Optimizer& optimizer) {
  static std::mutex mu;
  static std::map<const optim::Optimizer*, std::weak_ptr<double>> records;
  std::lock_guard<std::mutex> lock(mu);
  std::erase_if(records, [](const auto& r) { return r.second.expired(); });
  std::weak_ptr<double>& slot = records[&optimizer];
  std::shared_ptr<double> record = slot.lock();
  if (!record) slot = record = std::make_shared<double>(optimizer.lr());
  return record;
}

/// Throws INVALID_ARGUMENT as "[name] why".
[[noreturn]] inline void refuse_schedule(const char* name, const std::string& why) {
  throw Error(PORTA_ERROR_INVALID_ARGUMENT, cat("[", name, "] ", why));
}

}  // namespace porta::detail

namespace porta::optim {

/// Base of the schedulers: step() advances last_epoch and sets the optimizer's lr from get_lr().
class LRScheduler {
 public:
  virtual ~LRScheduler() = default;
  LRScheduler(const LRScheduler&) = delete;             ///< a scheduler drives one optimizer
  LRScheduler& operator=(const LRScheduler&) = delete;  ///< and is not copied

  /// Advances one epoch and sets the optimizer's lr; call it after optimizer.step().
  virtual void step() {
    ++step_count_;
    update_lr(std::nullopt);
  }
  /// The lr the last step() set (PyTorch's get_last_lr()[0]).
  double get_last_lr() const { return last_lr_; }
  /// Epochs stepped: 0 after construction.
  int64_t last_epoch() const { return last_epoch_; }
  /// The optimizer's initial_lr when this scheduler was made (PyTorch's base_lrs[0]).
  double base_lr() const { return base_lr_; }

 protected:
  /// For a scheduler of its own: shares the optimizer's initial_lr. The derived constructor ends with
  /// initial_step() (a virtual get_lr() cannot run from here).
  explicit LRScheduler(Optimizer& optimizer)
      : optimizer_(&optimizer), initial_lr_(detail::scheduler_initial_lr(optimizer)), base_lr_(*initial_lr_) {}
  /// For one that only drives others (SequentialLR, ChainedScheduler).
  struct Driver {};
  LRScheduler(Optimizer& optimizer, Driver) : optimizer_(&optimizer), base_lr_(optimizer.lr()) {}

  /// The lr for last_epoch_ (PyTorch's get_lr: mostly from the current lr).
  virtual double get_lr() = 0;
  /// The lr for last_epoch_ from base_lr_ alone, where the schedule has a closed form.
  virtual std::optional<double> closed_form_lr() const { return std::nullopt; }
  /// Takes back the first step (SequentialLR's recursive_undo).
  virtual void undo_first_step() { --last_epoch_; }

  /// The step made at construction.
  void initial_step() {
    step_count_ = 0;
    is_initial_ = true;
    struct Reset {
      bool& flag;
      ~Reset() { flag = false; }
    } reset{is_initial_};
    step();
  }
  /// Moves to the next epoch (nullopt) or to `epoch` (by the closed form where there is one).
  void update_lr(std::optional<int64_t> epoch) {
    double lr = 0;
    if (!epoch) {
      ++last_epoch_;
      lr = get_lr();
    } else {
      last_epoch_ = *epoch;
      const std::optional<double> closed = closed_form_lr();
      lr = closed ? *closed : get_lr();
    }
    optimizer_->set_lr(lr);
    last_lr_ = optimizer_->lr();
  }
  /// The optimizer's current lr (PyTorch's group["lr"]).
  double lr() const { return optimizer_->lr(); }
  Optimizer& optimizer() const { return *optimizer_; }

  int64_t last_epoch_ = -1;
  int64_t step_count_ = 0;
  bool is_initial_ = false;

 private:
  friend class SequentialLR;
  friend class ChainedScheduler;
  friend class OneCycleLR;
  Optimizer* optimizer_;
  std::shared_ptr<double> initial_lr_;  // null for drivers

 protected:
  double base_lr_;
  double last_lr_ = 0;
};

/// lr = initial_lr * lr_lambda(epoch).
class LambdaLR : public LRScheduler {
 public:
  LambdaLR(Optimizer& optimizer, std::function<double(int64_t)> lr_lambda)
      : LRScheduler(optimizer), lr_lambda_(std::move(lr_lambda)) {
    if (!lr_lambda_) detail::refuse_schedule("LambdaLR", "lr_lambda is empty");
    initial_step();
  }

 protected:
  double get_lr() override { return base_lr_ * lr_lambda_(last_epoch_); }

 private:
  std::function<double(int64_t)> lr_lambda_;
};

/// lr *= lr_lambda(epoch) at every step after the first.
class MultiplicativeLR : public LRScheduler {
 public:
  MultiplicativeLR(Optimizer& optimizer, std::function<double(int64_t)> lr_lambda)
      : LRScheduler(optimizer), lr_lambda_(std::move(lr_lambda)) {
    if (!lr_lambda_) detail::refuse_schedule("MultiplicativeLR", "lr_lambda is empty");
    initial_step();
  }

 protected:
  double get_lr() override { return is_initial_ ? lr() : lr() * lr_lambda_(last_epoch_); }

 private:
  std::function<double(int64_t)> lr_lambda_;
};

/// lr *= gamma every step_size epochs (libtorch's name and arguments; Python's step numbering).
class StepLR : public LRScheduler {
 public:
  StepLR(Optimizer& optimizer, int64_t step_size, double gamma = 0.1)
      : LRScheduler(optimizer), step_size_(step_size), gamma_(gamma) {
    if (step_size <= 0) detail::refuse_schedule("StepLR", detail::cat("step_size must be positive, got ", step_size));
    initial_step();
  }

 protected:
  double get_lr() override {
    if (last_epoch_ == 0 || last_epoch_ % step_size_ != 0) return lr();
    return lr() * gamma_;
  }
  std::optional<double> closed_form_lr() const override {
    const int64_t decays = last_epoch_ / step_size_;  // epochs are >= 0 here: Python's // alike
    return base_lr_ * std::pow(gamma_, static_cast<double>(decays));
  }

 private:
  int64_t step_size_;
  double gamma_;
};

/// lr *= gamma at each milestone (gamma^k at one listed k times).
class MultiStepLR : public LRScheduler {
 public:
  MultiStepLR(Optimizer& optimizer, std::vector<int64_t> milestones, double gamma = 0.1)
      : LRScheduler(optimizer), milestones_(std::move(milestones)), gamma_(gamma) {
    std::sort(milestones_.begin(), milestones_.end());
    initial_step();
  }

 protected:
  double get_lr() override {
    const auto n = std::count(milestones_.begin(), milestones_.end(), last_epoch_);
    return n == 0 ? lr() : lr() * std::pow(gamma_, static_cast<double>(n));
  }
  std::optional<double> closed_form_lr() const override {
    const auto passed = std::upper_bound(milestones_.begin(), milestones_.end(), last_epoch_) - milestones_.begin();
    return base_lr_ * std::pow(gamma_, static_cast<double>(passed));
  }

 private:
  std::vector<int64_t> milestones_;
  double gamma_;
};

/// lr * factor until total_iters, then lr.
class ConstantLR : public LRScheduler {
 public:
  explicit ConstantLR(Optimizer& optimizer, double factor = 1.0 / 3, int64_t total_iters = 5)
      : LRScheduler(optimizer), factor_(factor), total_iters_(total_iters) {
    if (factor > 1.0 || factor < 0)
      detail::refuse_schedule("ConstantLR", detail::cat("factor must be between 0 and 1, got ", factor));
    initial_step();
  }

 protected:
  double get_lr() override {
    if (last_epoch_ == 0) return lr() * factor_;
    if (last_epoch_ != total_iters_) return lr();
    return lr() * (1.0 / factor_);
  }
  std::optional<double> closed_form_lr() const override {
    const double done = last_epoch_ >= total_iters_ ? 1.0 : 0.0;
    return base_lr_ * (factor_ + done * (1 - factor_));
  }

 private:
  double factor_;
  int64_t total_iters_;
};

/// lr * a factor going linearly from start_factor to end_factor over total_iters epochs.
class LinearLR : public LRScheduler {
 public:
  explicit LinearLR(Optimizer& optimizer, double start_factor = 1.0 / 3, double end_factor = 1.0,
                    int64_t total_iters = 5)
      : LRScheduler(optimizer), start_(start_factor), end_(end_factor), total_iters_(total_iters) {
    if (start_factor > 1.0 || start_factor <= 0)
      detail::refuse_schedule("LinearLR", detail::cat("start_factor must be in (0, 1], got ", start_factor));
    if (end_factor > 1.0 || end_factor < 0)
      detail::refuse_schedule("LinearLR", detail::cat("end_factor must be in [0, 1], got ", end_factor));
    initial_step();
  }

 protected:
  double get_lr() override {
    if (last_epoch_ == 0) return lr() * start_;
    if (is_initial_ || last_epoch_ > total_iters_) return lr();
    const double delta = end_ - start_;
    return lr() *
           (1.0 + delta / (static_cast<double>(total_iters_) * start_ + static_cast<double>(last_epoch_ - 1) * delta));
  }
  std::optional<double> closed_form_lr() const override {
    const double done = static_cast<double>(std::min(total_iters_, last_epoch_));
    return base_lr_ * (start_ + (end_ - start_) * done / static_cast<double>(total_iters_));
  }

 private:
  double start_, end_;
  int64_t total_iters_;
};

/// lr *= gamma every epoch.
class ExponentialLR : public LRScheduler {
 public:
  ExponentialLR(Optimizer& optimizer, double gamma) : LRScheduler(optimizer), gamma_(gamma) { initial_step(); }

 protected:
  double get_lr() override { return is_initial_ ? lr() : lr() * gamma_; }
  std::optional<double> closed_form_lr() const override {
    return base_lr_ * std::pow(gamma_, static_cast<double>(last_epoch_));
  }

 private:
  double gamma_;
};

/// Cosine annealing from initial_lr to eta_min over T_max epochs and back, in PyTorch's recursive form.
class CosineAnnealingLR : public LRScheduler {
 public:
  CosineAnnealingLR(Optimizer& optimizer, int64_t T_max, double eta_min = 0.0)  // NOLINT: PyTorch's name
      : LRScheduler(optimizer), T_max_(T_max), eta_min_(eta_min) {
    if (T_max <= 0) detail::refuse_schedule("CosineAnnealingLR", detail::cat("T_max must be positive, got ", T_max));
    initial_step();
  }

 protected:
  double get_lr() override {
    constexpr double pi = std::numbers::pi;
    const double t = static_cast<double>(last_epoch_), T = static_cast<double>(T_max_), lo = eta_min_;
    if (is_initial_) return lr();
    if (step_count_ == 1 && last_epoch_ > 0) return lo + (base_lr_ - lo) * (1 + std::cos(t * pi / T)) / 2;
    if ((last_epoch_ - 1 - T_max_) % (2 * T_max_) == 0) return lr() + (base_lr_ - lo) * (1 - std::cos(pi / T)) / 2;
    return (1 + std::cos(pi * t / T)) / (1 + std::cos(pi * (t - 1) / T)) * (lr() - lo) + lo;
  }
  std::optional<double> closed_form_lr() const override {
    const double t = static_cast<double>(last_epoch_), T = static_cast<double>(T_max_);
    return eta_min_ + (base_lr_ - eta_min_) * (1 + std::cos(std::numbers::pi * t / T)) / 2;
  }

 private:
  int64_t T_max_;  // NOLINT: PyTorch's name
  double eta_min_;
};

/// OneCycleLR's annealing between two lrs.
enum class AnnealStrategy { cos, linear };

/// torch.optim.lr_scheduler.OneCycleLR's arguments. Give max_lr and total_steps (or epochs and
/// steps_per_epoch). cycle_momentum is true by default as in PyTorch, and refused: Porta's optimizers fix
/// momentum and betas at creation, so set .cycle_momentum = false.
struct OneCycleLROptions {
  double max_lr = 0;                                      ///< the peak lr
  std::optional<int64_t> total_steps = std::nullopt;      ///< steps in the cycle
  std::optional<int64_t> epochs = std::nullopt;           ///< or epochs * steps_per_epoch
  std::optional<int64_t> steps_per_epoch = std::nullopt;  ///< (used when total_steps is not given)
  double pct_start = 0.3;                                 ///< share of the steps spent increasing the lr
  AnnealStrategy anneal_strategy = AnnealStrategy::cos;
  bool cycle_momentum = true;     ///< refused when true (see above)
  double base_momentum = 0.85;    ///< unused: cycle_momentum is refused
  double max_momentum = 0.95;     ///< unused: cycle_momentum is refused
  double div_factor = 25.0;       ///< initial_lr = max_lr / div_factor
  double final_div_factor = 1e4;  ///< min_lr = initial_lr / final_div_factor
  bool three_phase = false;       ///< back to initial_lr before annealing to min_lr
};

/// The 1cycle policy: lr from max_lr / div_factor up to max_lr over pct_start of the steps, then down to
/// min_lr (three_phase: back to initial_lr first). Stepping past total_steps throws, and so does a step
/// whose lr is negative (PyTorch's linear three_phase at step total_steps): Porta's optimizers refuse one.
class OneCycleLR : public LRScheduler {
 public:
  OneCycleLR(Optimizer& optimizer, const OneCycleLROptions& o)
      : LRScheduler(optimizer), cos_(o.anneal_strategy == AnnealStrategy::cos) {
    constexpr const char* name = "OneCycleLR";
    if (o.total_steps) {
      if (*o.total_steps <= 0)
        detail::refuse_schedule(name, detail::cat("expected a positive total_steps, got ", *o.total_steps));
      total_steps_ = *o.total_steps;
    } else if (o.epochs && o.steps_per_epoch) {
      if (*o.epochs <= 0) detail::refuse_schedule(name, detail::cat("expected positive epochs, got ", *o.epochs));
      if (*o.steps_per_epoch <= 0)
        detail::refuse_schedule(name, detail::cat("expected positive steps_per_epoch, got ", *o.steps_per_epoch));
      total_steps_ = *o.epochs * *o.steps_per_epoch;
    } else {
      detail::refuse_schedule(name, "give either total_steps or both epochs and steps_per_epoch");
    }
    if (!(o.pct_start >= 0 && o.pct_start <= 1))
      detail::refuse_schedule(name, detail::cat("expected pct_start between 0 and 1, got ", o.pct_start));
    if (o.cycle_momentum)
      throw Error(PORTA_ERROR_NOT_IMPLEMENTED,
                  "[OneCycleLR] cycle_momentum=true (PyTorch's default) is not supported by Porta: an optimizer's "
                  "momentum and betas are fixed when it is created; set .cycle_momentum = false (the lr still "
                  "follows the one-cycle schedule)");
    const double n = static_cast<double>(total_steps_), up = o.pct_start * n;
    initial_ = o.max_lr / o.div_factor;
    max_ = o.max_lr;
    min_ = initial_ / o.final_div_factor;
    if (o.three_phase)
      phases_ = {{up - 1, initial_, max_}, {2 * o.pct_start * n - 2, max_, initial_}, {n - 1, initial_, min_}};
    else
      phases_ = {{up - 1, initial_, max_}, {n - 1, max_, min_}};
    *initial_lr_ = base_lr_ = initial_;  // PyTorch sets group["initial_lr"] itself
    initial_step();
  }

 protected:
  double get_lr() override {
    if (last_epoch_ > total_steps_)
      detail::refuse_schedule(
          "OneCycleLR",
          detail::cat("tried to step ", last_epoch_, " times; the specified number of total steps is ", total_steps_));
    const double step = static_cast<double>(last_epoch_);
    double start = 0;
    for (size_t i = 0; i < phases_.size(); ++i) {
      const Phase& p = phases_[i];
      if (step <= p.end_step || i + 1 == phases_.size())
        return anneal(p.from, p.to, (step - start) / (p.end_step - start));
      start = p.end_step;
    }
    return lr();  // unreachable: the last phase always answers
  }

 private:
  struct Phase {
    double end_step, from, to;
  };
  double anneal(double from, double to, double pct) const {
    if (cos_) return to + (from - to) / 2.0 * (std::cos(std::numbers::pi * pct) + 1);
    return (to - from) * pct + from;
  }
  bool cos_;
  int64_t total_steps_ = 0;
  double initial_ = 0, max_ = 0, min_ = 0;
  std::vector<Phase> phases_;
};

/// schedulers[i] runs from milestones[i - 1] on; at each milestone the next starts at its epoch 0.
class SequentialLR : public LRScheduler {
 public:
  SequentialLR(Optimizer& optimizer, std::vector<std::shared_ptr<LRScheduler>> schedulers,
               std::vector<int64_t> milestones)
      : LRScheduler(optimizer, Driver{}), schedulers_(std::move(schedulers)), milestones_(std::move(milestones)) {
    check(optimizer, schedulers_, "SequentialLR");
    if (milestones_.size() + 1 != schedulers_.size())
      detail::refuse_schedule("SequentialLR",
                              detail::cat("expects one milestone fewer than schedulers, got ", schedulers_.size(),
                                          " schedulers and ", milestones_.size(), " milestones"));
    last_epoch_ = 0;
    optimizer.set_lr(*detail::scheduler_initial_lr(optimizer));  // undo what the schedulers' first steps did
    undo_first_step();
    LRScheduler& first = *schedulers_[active(0)];
    first.initial_step();
    last_lr_ = first.get_last_lr();
  }

  void step() override {
    ++last_epoch_;
    const size_t i = active(last_epoch_);
    LRScheduler& s = *schedulers_[i];
    if (i > 0 && milestones_[i - 1] == last_epoch_)
      s.update_lr(0);
    else
      s.step();
    last_lr_ = s.get_last_lr();
  }

 protected:
  double get_lr() override {
    throw Error(PORTA_ERROR_NOT_IMPLEMENTED, "[SequentialLR] has no get_lr of its own: it steps its schedulers");
  }
  void undo_first_step() override {
    for (auto& s : schedulers_) s->undo_first_step();
  }

 private:
  friend class ChainedScheduler;
  static void check(const Optimizer& optimizer, const std::vector<std::shared_ptr<LRScheduler>>& schedulers,
                    const char* name) {
    if (schedulers.empty()) detail::refuse_schedule(name, "expects at least one scheduler, got none");
    for (size_t i = 0; i < schedulers.size(); ++i) {
      if (!schedulers[i]) detail::refuse_schedule(name, detail::cat("scheduler ", i, " is null"));
      if (schedulers[i]->optimizer_ != &optimizer)
        detail::refuse_schedule(name, detail::cat("expects all schedulers to belong to the same "
                                                  "optimizer, but scheduler ",
                                                  i, " has another"));
    }
  }
  size_t active(int64_t epoch) const {
    return static_cast<size_t>(std::upper_bound(milestones_.begin(), milestones_.end(), epoch) - milestones_.begin());
  }
  std::vector<std::shared_ptr<LRScheduler>> schedulers_;
  std::vector<int64_t> milestones_;
};

/// Steps every scheduler in order at each step().
class ChainedScheduler : public LRScheduler {
 public:
  explicit ChainedScheduler(std::vector<std::shared_ptr<LRScheduler>> schedulers)
      : LRScheduler(first_optimizer(schedulers), Driver{}), schedulers_(std::move(schedulers)) {
    SequentialLR::check(optimizer(), schedulers_, "ChainedScheduler");
    last_lr_ = lr();
  }

  void step() override {
    for (auto& s : schedulers_) s->step();
    last_lr_ = lr();
  }

 protected:
  double get_lr() override {
    throw Error(PORTA_ERROR_NOT_IMPLEMENTED, "[ChainedScheduler] has no get_lr of its own: it steps its schedulers");
  }
  void undo_first_step() override {
    for (auto& s : schedulers_) s->undo_first_step();
  }

 private:
  static Optimizer& first_optimizer(const std::vector<std::shared_ptr<LRScheduler>>& schedulers) {
    if (schedulers.empty() || !schedulers.front())
      detail::refuse_schedule("ChainedScheduler", "expects at least one scheduler, got none");
    return *schedulers.front()->optimizer_;
  }
  std::vector<std::shared_ptr<LRScheduler>> schedulers_;
};

/// libtorch's ReduceLROnPlateauScheduler (torch.optim.lr_scheduler.ReduceLROnPlateau): lr =
/// max(lr * factor, min_lr) when the metric given to step() has not improved by threshold (relative or
/// absolute) for more than patience epochs, then cooldown epochs of rest; changes below eps are skipped.
/// Doubles throughout, as Python's (libtorch's takes float factor and metric).
class ReduceLROnPlateauScheduler {
 public:
  enum SchedulerMode { min, max };
  enum ThresholdMode { rel, abs };

  explicit ReduceLROnPlateauScheduler(Optimizer& optimizer, SchedulerMode mode = min, double factor = 0.1,
                                      int64_t patience = 10, double threshold = 1e-4,
                                      ThresholdMode threshold_mode = rel, int64_t cooldown = 0, double min_lr = 0,
                                      double eps = 1e-8)
      : optimizer_(&optimizer),
        mode_(mode),
        threshold_mode_(threshold_mode),
        factor_(factor),
        threshold_(threshold),
        min_lr_(min_lr),
        eps_(eps),
        patience_(patience),
        cooldown_(cooldown),
        last_lr_(optimizer.lr()) {
    if (factor >= 1.0)
      detail::refuse_schedule("ReduceLROnPlateauScheduler", detail::cat("factor must be < 1.0, got ", factor));
    best_ = worse();
  }
  virtual ~ReduceLROnPlateauScheduler() = default;

  /// Records this epoch's metric and reduces the lr on a plateau.
  void step(double metric) {
    ++last_epoch_;
    if (is_better(metric)) {
      best_ = metric;
      num_bad_epochs_ = 0;
    } else {
      ++num_bad_epochs_;
    }
    if (cooldown_counter_ > 0) {
      --cooldown_counter_;
      num_bad_epochs_ = 0;  // bad epochs in cooldown do not count
    }
    if (num_bad_epochs_ > patience_) {
      const double old_lr = optimizer_->lr(), new_lr = std::max(old_lr * factor_, min_lr_);
      if (old_lr - new_lr > eps_) optimizer_->set_lr(new_lr);
      cooldown_counter_ = cooldown_;
      num_bad_epochs_ = 0;
    }
    last_lr_ = optimizer_->lr();
  }
  /// The lr after the last step().
  double get_last_lr() const { return last_lr_; }
  /// Epochs stepped.
  int64_t last_epoch() const { return last_epoch_; }
  /// The best metric so far (inf for min, -inf for max before the first step).
  double best() const { return best_; }
  /// Epochs without improvement since the last one or the last reduction.
  int64_t num_bad_epochs() const { return num_bad_epochs_; }
  /// Whether the scheduler is resting after a reduction.
  bool in_cooldown() const { return cooldown_counter_ > 0; }

 private:
  double worse() const {
    return mode_ == min ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
  }
  bool is_better(double a) const {
    if (mode_ == min && threshold_mode_ == rel) return a < best_ * (1.0 - threshold_);
    if (mode_ == min) return a < best_ - threshold_;
    if (threshold_mode_ == rel) return a > best_ * (threshold_ + 1.0);
    return a > best_ + threshold_;
  }
  Optimizer* optimizer_;
  SchedulerMode mode_;
  ThresholdMode threshold_mode_;
  double factor_, threshold_, min_lr_, eps_;
  int64_t patience_, cooldown_;
  double best_ = 0;
  int64_t last_epoch_ = 0, num_bad_epochs_ = 0, cooldown_counter_ = 0;
  double last_lr_;
};

}  // namespace porta::optim
