// Optimizers: SGD, Adam, AdamW. One fused plugin kernel per parameter per
// step; state tensors live on the parameter's device and follow it when it
// moves.
#pragma once

#include <porta/porta.h>

#include <mutex>
#include <vector>

#include "runtime/tensor.hpp"

inline constexpr uint32_t kPortaOptimizerMagic = 0x4f505449u;  // "OPTI"

struct porta_optimizer {
  enum class Kind { Sgd, Adam, AdamW };
  uint32_t magic = kPortaOptimizerMagic;
  Kind kind = Kind::Sgd;
  porta_sgd_options sgd{};
  porta_adam_options adam{};
  std::vector<porta::TensorPtr> params;
  std::vector<std::vector<porta::TensorPtr>> state;  // per parameter
  std::vector<int64_t> steps;                        // per parameter
  std::mutex mu;
};

namespace porta::optim {

porta_optimizer* create_sgd(porta_tensor* const* params, int32_t n, const porta_sgd_options& o);
porta_optimizer* create_adam(porta_tensor* const* params, int32_t n, const porta_adam_options& o, bool decoupled);
void step(porta_optimizer& opt);
void zero_grad(porta_optimizer& opt);
porta_optimizer& check_optimizer(const porta_optimizer* opt);

}  // namespace porta::optim
