// C API: optimizers.
#include <cmath>

#include "c_api.hpp"
#include "handle_quarantine.hpp"
#include "log.hpp"
#include "optim/optimizer.hpp"

using namespace porta;

PORTA_API porta_status porta_sgd_create(porta_tensor* const* params, int32_t n, const porta_sgd_options* options,
                                        porta_optimizer** out) {
  return guard([&] {
    require(out, "out");
    if (options == nullptr) fail(PORTA_ERROR_INVALID_ARGUMENT, "SGD: options (the learning rate at least) must not be NULL");
    const porta_sgd_options o = copy_in(options, porta_sgd_options{sizeof(porta_sgd_options), 0, 0, 0, 0, 0},
                                        "porta_sgd_options");
    *out = optim::create_sgd(params, n, o);
  });
}

static porta_status create_adam(porta_tensor* const* params, int32_t n, const porta_adam_options* options,
                                porta_optimizer** out, bool decoupled) {
  return guard([&] {
    require(out, "out");
    const porta_adam_options defaults{sizeof(porta_adam_options), 1e-3, 0.9, 0.999, 1e-8, decoupled ? 1e-2 : 0.0};
    *out = optim::create_adam(params, n, copy_in(options, defaults, "porta_adam_options"), decoupled);
  });
}

PORTA_API porta_status porta_adam_create(porta_tensor* const* params, int32_t n, const porta_adam_options* options,
                                         porta_optimizer** out) {
  return create_adam(params, n, options, out, false);
}

PORTA_API porta_status porta_adamw_create(porta_tensor* const* params, int32_t n, const porta_adam_options* options,
                                          porta_optimizer** out) {
  return create_adam(params, n, options, out, true);
}

PORTA_API porta_status porta_optimizer_step(porta_optimizer* opt) {
  return guard([&] { optim::step(optim::check_optimizer(opt)); });
}

PORTA_API porta_status porta_optimizer_zero_grad(porta_optimizer* opt) {
  return guard([&] { optim::zero_grad(optim::check_optimizer(opt)); });
}

PORTA_API porta_status porta_optimizer_set_lr(porta_optimizer* opt, double lr) {
  return guard([&] {
    porta_optimizer& o = optim::check_optimizer(opt);
    if (!(lr >= 0) || !std::isfinite(lr))
      fail(PORTA_ERROR_INVALID_ARGUMENT, "set_lr: lr must be finite and >= 0, got ", lr);
    std::lock_guard<std::mutex> lock(o.mu);
    o.sgd.lr = o.adam.lr = lr;
  });
}

PORTA_API porta_status porta_optimizer_get_lr(const porta_optimizer* opt, double* out) {
  return guard([&] {
    porta_optimizer& o = optim::check_optimizer(opt);
    require(out, "out");
    *out = o.kind == porta_optimizer::Kind::Sgd ? o.sgd.lr : o.adam.lr;
  });
}

namespace {
constinit HandleQuarantine<porta_optimizer> g_released_optimizers;
}  // namespace

PORTA_API void porta_optimizer_release(porta_optimizer* opt) {
  if (opt == nullptr) return;
  if (opt->magic != kPortaOptimizerMagic) {
    guard([&] { optim::check_optimizer(opt); });
    log_line(PORTA_LOG_WARN, cat("porta_optimizer_release ignored a dead handle: ", last_error()));
    return;
  }
  // Dead first, then free the parameters' references and the state; the
  // shell waits in quarantine so later uses of `opt` fail cleanly.
  opt->magic = 0;
  std::vector<TensorPtr>().swap(opt->params);
  std::vector<std::vector<TensorPtr>>().swap(opt->state);
  g_released_optimizers.retire(opt);
}
