// C API: optimizers.
#include <cmath>

#include "c_api/c_api.hpp"
#include "runtime/handle_kinds.hpp"
#include "runtime/log.hpp"
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
    const porta_adam_options defaults{sizeof(porta_adam_options), 1e-3, 0.9, 0.999, 1e-8, decoupled ? 1e-2 : 0.0, 0};
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

PORTA_API porta_status porta_rmsprop_create(porta_tensor* const* params, int32_t n,
                                            const porta_rmsprop_options* options, porta_optimizer** out) {
  return guard([&] {
    require(out, "out");
    const porta_rmsprop_options defaults{sizeof(porta_rmsprop_options), 1e-2, 0.99, 1e-8, 0, 0, 0};
    *out = optim::create_rmsprop(params, n, copy_in(options, defaults, "porta_rmsprop_options"));
  });
}

PORTA_API porta_status porta_adagrad_create(porta_tensor* const* params, int32_t n,
                                            const porta_adagrad_options* options, porta_optimizer** out) {
  return guard([&] {
    require(out, "out");
    const porta_adagrad_options defaults{sizeof(porta_adagrad_options), 1e-2, 0, 0, 0, 1e-10};
    *out = optim::create_adagrad(params, n, copy_in(options, defaults, "porta_adagrad_options"));
  });
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
    optim::set_lr(o, lr);
  });
}

PORTA_API porta_status porta_optimizer_get_lr(const porta_optimizer* opt, double* out) {
  return guard([&] {
    porta_optimizer& o = optim::check_optimizer(opt);
    require(out, "out");
    *out = optim::lr(o);
  });
}

static size_t checked_param(const porta_optimizer& o, int32_t param, const char* who) {
  if (param < 0 || static_cast<size_t>(param) >= o.params.size())
    fail(PORTA_ERROR_INVALID_ARGUMENT, who, ": parameter ", param, " is out of range (the optimizer has ",
         o.params.size(), ")");
  return static_cast<size_t>(param);
}

static size_t checked_slot(const porta_optimizer& o, int32_t slot, const char* who) {
  const int32_t n = optim::state_slots(o);
  if (slot < 0 || slot >= n)
    fail(PORTA_ERROR_INVALID_ARGUMENT, who, ": state slot ", slot, " is out of range (this optimizer keeps ", n,
         " per parameter)");
  return static_cast<size_t>(slot);
}

PORTA_API porta_status porta_optimizer_state_slots(const porta_optimizer* opt, int32_t* out) {
  return guard([&] {
    porta_optimizer& o = optim::check_optimizer(opt);
    require(out, "out");
    *out = optim::state_slots(o);
  });
}

PORTA_API porta_status porta_optimizer_get_state(const porta_optimizer* opt, int32_t param, int32_t slot,
                                                 porta_tensor** out) {
  return guard([&] {
    porta_optimizer& o = optim::check_optimizer(opt);
    require(out, "out");
    const size_t i = checked_param(o, param, "get_state"), k = checked_slot(o, slot, "get_state");
    std::lock_guard<std::mutex> lock(o.mu);
    const std::vector<TensorPtr>& st = o.state[i];
    *out = k < st.size() && st[k] ? ops::clone(st[k]).release() : nullptr;
  });
}

PORTA_API porta_status porta_optimizer_set_state(porta_optimizer* opt, int32_t param, int32_t slot,
                                                 porta_tensor* state) {
  return guard([&] {
    porta_optimizer& o = optim::check_optimizer(opt);
    const size_t i = checked_param(o, param, "set_state"), k = checked_slot(o, slot, "set_state");
    TensorPtr s = arg(state, "state");
    const TensorPtr& p = o.params[i];
    if (s->shape != p->shape)
      fail(PORTA_ERROR_SHAPE_MISMATCH, "set_state: state of shape ", s->shape.str(), " for parameter ", param,
           " of shape ", p->shape.str());
    if (!is_floating(s->dtype))
      fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "set_state: optimizer state must be float, got ", dtype_name(s->dtype));
    std::lock_guard<std::mutex> lock(o.mu);
    const Dtype kept = optim::working_dtype(o, i);  // float32 under master weights: nothing rounded on resume
    TensorPtr copy = ops::clone(ops::cast(ops::to(s, *p->device), kept));  // shares nothing with the caller
    std::vector<TensorPtr>& st = o.state[i];
    const size_t n = static_cast<size_t>(optim::state_slots(o));
    if (st.size() < n) {
      st.resize(n);
      for (TensorPtr& t : st)
        if (!t) t = ops::full(*p->device, p->shape, 0.0, kept);
    }
    st[k] = std::move(copy);
  });
}

PORTA_API porta_status porta_optimizer_get_step(const porta_optimizer* opt, int32_t param, int64_t* out) {
  return guard([&] {
    porta_optimizer& o = optim::check_optimizer(opt);
    require(out, "out");
    const size_t i = checked_param(o, param, "get_step");
    std::lock_guard<std::mutex> lock(o.mu);
    *out = o.steps[i];
  });
}

PORTA_API porta_status porta_optimizer_set_step(porta_optimizer* opt, int32_t param, int64_t step) {
  return guard([&] {
    porta_optimizer& o = optim::check_optimizer(opt);
    const size_t i = checked_param(o, param, "set_step");
    if (step < 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "set_step: step ", step, " is negative");
    std::lock_guard<std::mutex> lock(o.mu);
    o.steps[i] = step;
  });
}

PORTA_API porta_status porta_optimizer_set_master_weights(porta_optimizer* opt, int32_t enabled) {
  return guard([&] { optim::set_master_weights(optim::check_optimizer(opt), enabled != 0); });
}

PORTA_API porta_status porta_optimizer_get_master_weight(const porta_optimizer* opt, int32_t param,
                                                         porta_tensor** out) {
  return guard([&] {
    porta_optimizer& o = optim::check_optimizer(opt);
    require(out, "out");
    const size_t i = checked_param(o, param, "get_master_weight");
    std::lock_guard<std::mutex> lock(o.mu);
    const TensorPtr m = optim::current_master(o, i);
    *out = m ? ops::clone(m).release() : nullptr;
  });
}

PORTA_API porta_status porta_optimizer_set_master_weight(porta_optimizer* opt, int32_t param, porta_tensor* master) {
  return guard([&] {
    porta_optimizer& o = optim::check_optimizer(opt);
    const size_t i = checked_param(o, param, "set_master_weight");
    TensorPtr m = arg(master, "master");
    const TensorPtr& p = o.params[i];
    if (m->shape != p->shape)
      fail(PORTA_ERROR_SHAPE_MISMATCH, "set_master_weight: a master weight of shape ", m->shape.str(),
           " for parameter ", param, " of shape ", p->shape.str());
    if (!is_floating(m->dtype))
      fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "set_master_weight: a master weight must be float, got ",
           dtype_name(m->dtype));
    TensorPtr copy = ops::clone(ops::cast(ops::to(m, *p->device), Dtype::Float32));
    std::lock_guard<std::mutex> lock(o.mu);
    if (!o.master_weights)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "set_master_weight: master weights are off for this optimizer; call "
           "set_master_weights(true) before restoring them");
    if (!is_storage(p->dtype))
      fail(PORTA_ERROR_INVALID_ARGUMENT, "set_master_weight: parameter ", param, " is ", dtype_name(p->dtype),
           "; only float16 and bfloat16 parameters have master weights");
    optim::set_master(o, i, std::move(copy));
  });
}

PORTA_API porta_status porta_optimizer_set_maximize(porta_optimizer* opt, int32_t enabled) {
  return guard([&] {
    porta_optimizer& o = optim::check_optimizer(opt);
    std::lock_guard<std::mutex> lock(o.mu);
    o.maximize = enabled != 0;
  });
}

PORTA_API void porta_optimizer_release(porta_optimizer* opt) {
  if (opt == nullptr) return;
  if (opt->magic != kPortaOptimizerMagic) {
    guard([&] { optim::check_optimizer(opt); });
    log_line(PORTA_LOG_WARN, cat("porta_optimizer_release ignored a dead handle: ", last_error()));
    return;
  }
  // Free the parameters' references and the state, then tag it dead; the
  // shell waits in its kind's quarantine so later uses of `opt` fail cleanly.
  std::vector<TensorPtr>().swap(opt->params);
  std::vector<std::vector<TensorPtr>>().swap(opt->state);
  retire_handle(opt);
}
