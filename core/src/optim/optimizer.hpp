// Optimizers: SGD, Adam, AdamW (one fused plugin kernel per parameter per
// step), RMSprop, Adagrad and amsgrad (composed_steps.hpp); state tensors live on the parameter's device and follow it when it
// moves.
#pragma once

#include <porta/porta.h>

#include <mutex>
#include <vector>

#include "runtime/tensor.hpp"

inline constexpr uint32_t kPortaOptimizerMagic = porta::HandleKind<porta_optimizer>::live;

struct porta_optimizer {
  enum class Kind { Sgd, Adam, AdamW, RMSprop, Adagrad };
  uint32_t magic = kPortaOptimizerMagic;
  Kind kind = Kind::Sgd;
  porta_sgd_options sgd{};
  porta_adam_options adam{};
  porta_rmsprop_options rmsprop{};
  porta_adagrad_options adagrad{};
  std::vector<porta::TensorPtr> params;
  std::vector<std::vector<porta::TensorPtr>> state;  // per parameter
  std::vector<int64_t> steps;                        // per parameter
  // porta_optimizer_set_master_weights: float16/bfloat16 parameters step a
  // float32 copy (and float32 state), then take its rounding. The copy is
  // made again from the parameter when something else wrote the parameter
  // (its storage version moved on since the step wrote it).
  bool master_weights = false;
  bool maximize = false;  // porta_optimizer_set_maximize: step with the negated gradient
  std::vector<porta::TensorPtr> master;  // per parameter (null until its first step)
  std::vector<uint64_t> master_version;  // the parameter's version right after that write
  std::mutex mu;
};

namespace porta::optim {

porta_optimizer* create_sgd(porta_tensor* const* params, int32_t n, const porta_sgd_options& o);
porta_optimizer* create_adam(porta_tensor* const* params, int32_t n, const porta_adam_options& o, bool decoupled);
porta_optimizer* create_rmsprop(porta_tensor* const* params, int32_t n, const porta_rmsprop_options& o);
porta_optimizer* create_adagrad(porta_tensor* const* params, int32_t n, const porta_adagrad_options& o);
// The learning rate, whichever the kind; set_lr sets it.
double lr(const porta_optimizer& opt);
void set_lr(porta_optimizer& opt, double lr);
// State tensors per parameter (porta_optimizer_state_slots).
int32_t state_slots(const porta_optimizer& opt);
void step(porta_optimizer& opt);
// Turns float32 master weights for float16/bfloat16 parameters on or off
// (off drops the copies; the parameters keep their values).
void set_master_weights(porta_optimizer& opt, bool enabled);
// The dtype parameter i's state (and update) is kept in: float32 for a
// float16/bfloat16 parameter with master weights, else the parameter's.
Dtype working_dtype(const porta_optimizer& opt, size_t i);
// Parameter i's master copy while it is current (the parameter not written
// since), else null.
TensorPtr current_master(const porta_optimizer& opt, size_t i);
// Makes `master` (float32, the parameter's shape and device) parameter i's
// master copy, current for the parameter as it is now.
void set_master(porta_optimizer& opt, size_t i, TensorPtr master);
void zero_grad(porta_optimizer& opt);
porta_optimizer& check_optimizer(const porta_optimizer* opt);

}  // namespace porta::optim
