#include "optim/optimizer.hpp"

#include <cmath>

#include "autograd/node.hpp"
#include "optim/composed_steps.hpp"
#include "runtime/error.hpp"
#include "ops/ops.hpp"

namespace porta::optim {
namespace {

std::vector<TensorPtr> checked_params(porta_tensor* const* params, int32_t n, const char* who) {
  if (n < 0) fail(PORTA_ERROR_INVALID_ARGUMENT, who, ": parameter count ", n, " is negative");
  if (n == 0) fail(PORTA_ERROR_INVALID_ARGUMENT, who, ": got an empty parameter list (as PyTorch, an optimizer needs "
                   "at least one parameter)");
  require(params, "params");
  std::vector<TensorPtr> out;
  for (int32_t i = 0; i < n; ++i) {
    check_handle(params[i], "params[i]");
    for (int32_t j = 0; j < i; ++j)
      if (params[j] == params[i])
        fail(PORTA_ERROR_INVALID_ARGUMENT, who, ": parameter ", i, " is parameter ", j, " again, which would be "
             "updated twice per step (a module used twice lists its parameters twice; Module.parameters() "
             "gives each once)");
    TensorPtr p = TensorPtr::borrow(params[i]);
    if (!is_floating(p->dtype))
      fail(PORTA_ERROR_UNSUPPORTED_DTYPE, who, ": parameter ", i, " is ", dtype_name(p->dtype), "; parameters must be float");
    require_writable(*p, who);
    if (p->grad_fn)
      fail(PORTA_ERROR_INVALID_ARGUMENT, who, ": parameter ", i, " is not a leaf (it was computed by an op); "
           "optimize the tensors you created, or detach() this one");
    out.push_back(std::move(p));
  }
  return out;
}

void check_nonnegative(const char* who, const char* what, double v) {
  if (!(v >= 0.0) || !std::isfinite(v)) fail(PORTA_ERROR_INVALID_ARGUMENT, who, ": ", what, " must be >= 0, got ", v);
}

// Brings a parameter's state to the parameter's device (after a move).
void follow(std::vector<TensorPtr>& state, DeviceState& dev) {
  for (TensorPtr& s : state)
    if (s && s->device != &dev) s = ops::to(s, dev);
}

// A new optimizer of `kind` over `params`, with no state and no steps yet.
porta_optimizer* make_optimizer(porta_optimizer::Kind kind, std::vector<TensorPtr> params) {
  auto* opt = new porta_optimizer();
  opt->kind = kind;
  opt->params = std::move(params);
  opt->state.resize(opt->params.size());
  opt->steps.assign(opt->params.size(), 0);
  opt->master.resize(opt->params.size());
  opt->master_version.assign(opt->params.size(), 0);
  return opt;
}

}  // namespace

porta_optimizer& check_optimizer(const porta_optimizer* opt) {
  if (opt == nullptr) fail(PORTA_ERROR_INVALID_HANDLE, "optimizer is NULL");
  if (opt->magic != kPortaOptimizerMagic)
    fail(PORTA_ERROR_INVALID_HANDLE, "optimizer is not a live porta_optimizer (already released?)");
  return *const_cast<porta_optimizer*>(opt);
}

porta_optimizer* create_sgd(porta_tensor* const* params, int32_t n, const porta_sgd_options& o) {
  auto ps = checked_params(params, n, "SGD");
  check_nonnegative("SGD", "lr", o.lr);
  check_nonnegative("SGD", "momentum", o.momentum);
  check_nonnegative("SGD", "weight_decay", o.weight_decay);
  if (o.nesterov && (o.momentum <= 0 || o.dampening != 0))
    fail(PORTA_ERROR_INVALID_ARGUMENT, "SGD: Nesterov momentum requires momentum > 0 and dampening 0");
  porta_optimizer* opt = make_optimizer(porta_optimizer::Kind::Sgd, std::move(ps));
  opt->sgd = o;
  return opt;
}

porta_optimizer* create_adam(porta_tensor* const* params, int32_t n, const porta_adam_options& o, bool decoupled) {
  const char* who = decoupled ? "AdamW" : "Adam";
  auto ps = checked_params(params, n, who);
  check_nonnegative(who, "lr", o.lr);
  check_nonnegative(who, "eps", o.eps);
  check_nonnegative(who, "weight_decay", o.weight_decay);
  if (!(o.beta1 >= 0 && o.beta1 < 1 && o.beta2 >= 0 && o.beta2 < 1))
    fail(PORTA_ERROR_INVALID_ARGUMENT, who, ": betas must be in [0, 1), got (", o.beta1, ", ", o.beta2, ")");
  const auto kind = decoupled ? porta_optimizer::Kind::AdamW : porta_optimizer::Kind::Adam;
  porta_optimizer* opt = make_optimizer(kind, std::move(ps));
  opt->adam = o;
  return opt;
}

porta_optimizer* create_rmsprop(porta_tensor* const* params, int32_t n, const porta_rmsprop_options& o) {
  auto ps = checked_params(params, n, "RMSprop");
  check_nonnegative("RMSprop", "lr", o.lr);
  check_nonnegative("RMSprop", "alpha", o.alpha);
  check_nonnegative("RMSprop", "eps", o.eps);
  check_nonnegative("RMSprop", "momentum", o.momentum);
  check_nonnegative("RMSprop", "weight_decay", o.weight_decay);
  porta_optimizer* opt = make_optimizer(porta_optimizer::Kind::RMSprop, std::move(ps));
  opt->rmsprop = o;
  return opt;
}

porta_optimizer* create_adagrad(porta_tensor* const* params, int32_t n, const porta_adagrad_options& o) {
  auto ps = checked_params(params, n, "Adagrad");
  check_nonnegative("Adagrad", "lr", o.lr);
  check_nonnegative("Adagrad", "lr_decay", o.lr_decay);
  check_nonnegative("Adagrad", "weight_decay", o.weight_decay);
  check_nonnegative("Adagrad", "initial_accumulator_value", o.initial_accumulator_value);
  check_nonnegative("Adagrad", "eps", o.eps);
  porta_optimizer* opt = make_optimizer(porta_optimizer::Kind::Adagrad, std::move(ps));
  opt->adagrad = o;
  return opt;
}

double lr(const porta_optimizer& opt) {
  switch (opt.kind) {
    case porta_optimizer::Kind::Sgd: return opt.sgd.lr;
    case porta_optimizer::Kind::Adam:
    case porta_optimizer::Kind::AdamW: return opt.adam.lr;
    case porta_optimizer::Kind::RMSprop: return opt.rmsprop.lr;
    case porta_optimizer::Kind::Adagrad: return opt.adagrad.lr;
  }
  return 0;
}

void set_lr(porta_optimizer& opt, double lr) { opt.sgd.lr = opt.adam.lr = opt.rmsprop.lr = opt.adagrad.lr = lr; }

int32_t state_slots(const porta_optimizer& o) {
  switch (o.kind) {
    case porta_optimizer::Kind::Sgd: return o.sgd.momentum != 0 ? 1 : 0;
    case porta_optimizer::Kind::Adam:
    case porta_optimizer::Kind::AdamW: return o.adam.amsgrad ? 3 : 2;
    case porta_optimizer::Kind::RMSprop: return 1 + (o.rmsprop.momentum > 0) + (o.rmsprop.centered != 0);
    case porta_optimizer::Kind::Adagrad: return 1;
  }
  return 0;
}

// The update of the kinds without a fused kernel, written only when all of it was computed.
static void composed_step(porta_optimizer& opt, size_t i, const TensorPtr& p, const TensorPtr& g) {
  const int64_t step = opt.steps[i] + 1;
  const bool decoupled = opt.kind == porta_optimizer::Kind::AdamW;
  Update u = opt.kind == porta_optimizer::Kind::RMSprop ? rmsprop_update(opt.rmsprop, p, g, opt.state[i])
             : opt.kind == porta_optimizer::Kind::Adagrad ? adagrad_update(opt.adagrad, p, g, opt.state[i], step)
                                                          : amsgrad_update(opt.adam, decoupled, p, g, opt.state[i], step);
  begin_write(*p, "optimizer step");
  if (p->numel() > 0) ops::copy_into(p, u.param);
  opt.state[i] = std::move(u.state);
  ++opt.steps[i];
}

// Steps parameter (or master copy) p of parameter i with gradient `grad`.
static void step_one_on(porta_optimizer& opt, size_t i, const TensorPtr& p, const TensorPtr& grad) {
  DeviceState& dev = *p->device;
  TensorPtr g = ops::contiguous(ops::cast(grad, p->dtype));
  if (opt.maximize) g = ops::unary(PORTA_OP_NEG, g);  // PyTorch's maximize=: ascent, before weight decay
  if (g->device != &dev) g = ops::to(g, dev);
  follow(opt.state[i], dev);
  for (const TensorPtr& st : opt.state[i])
    if (st->shape != p->shape || st->dtype != p->dtype)
      fail(PORTA_ERROR_SHAPE_MISMATCH, "optimizer step: parameter ", i, " is now ", dtype_name(p->dtype), " ",
           p->shape.str(), " but its optimizer state is ", dtype_name(st->dtype), " ", st->shape.str(),
           " (its data was replaced after a step); make a new optimizer");
  const bool fused = opt.kind == porta_optimizer::Kind::Sgd ||
                     ((opt.kind == porta_optimizer::Kind::Adam || opt.kind == porta_optimizer::Kind::AdamW) &&
                      !opt.adam.amsgrad);
  if (!fused) return composed_step(opt, i, p, g);
  // New state is committed only after the kernel ran, so a failed step
  // leaves (parameter, state, step count) as they were before it.
  std::vector<TensorPtr> st = opt.state[i];
  KernelArg args[4] = {KernelArg(*p), KernelArg(*g)};
  int32_t n_in = 2;
  porta_op op;
  porta_sgd_params sp{};
  porta_adam_params ap{};
  const void* params = nullptr;
  if (opt.kind == porta_optimizer::Kind::Sgd) {
    op = PORTA_OP_SGD_STEP;
    sp = porta_sgd_params{sizeof(sp), opt.sgd.lr, opt.sgd.momentum, opt.sgd.dampening, opt.sgd.weight_decay,
                          opt.sgd.nesterov, 0};
    if (opt.sgd.momentum != 0) {
      if (st.empty()) st.push_back(empty(dev, p->dtype, p->shape)), sp.first_step = 1;
      args[n_in++] = KernelArg(*st[0]);
    }
    params = &sp;
  } else {
    op = PORTA_OP_ADAM_STEP;
    if (st.empty()) st = {ops::full(dev, p->shape, 0.0, p->dtype), ops::full(dev, p->shape, 0.0, p->dtype)};
    ap = porta_adam_params{sizeof(ap), opt.adam.lr, opt.adam.beta1, opt.adam.beta2, opt.adam.eps,
                           opt.adam.weight_decay, opt.steps[i] + 1, opt.kind == porta_optimizer::Kind::AdamW};
    args[n_in++] = KernelArg(*st[0]);
    args[n_in++] = KernelArg(*st[1]);
    params = &ap;
  }
  begin_write(*p, "optimizer step");
  if (p->numel() > 0) launch(dev, op, p->dtype, args, n_in, KernelArg(*p), params);
  opt.state[i] = std::move(st);
  ++opt.steps[i];
}

// Whether parameter i steps a float32 master copy (a float16/bfloat16
// parameter with master weights on).
static bool has_master(const porta_optimizer& opt, size_t i) {
  return opt.master_weights && is_storage(opt.params[i]->dtype);
}

Dtype working_dtype(const porta_optimizer& opt, size_t i) {
  return has_master(opt, i) ? Dtype::Float32 : opt.params[i]->dtype;
}

TensorPtr current_master(const porta_optimizer& opt, size_t i) {
  const TensorPtr& param = opt.params[i];
  const TensorPtr& m = opt.master[i];
  if (!has_master(opt, i) || !m) return TensorPtr();
  const uint64_t version = param->storage->version.load(std::memory_order_acquire);
  if (m->device != param->device || m->shape != param->shape || opt.master_version[i] != version) return TensorPtr();
  return m;
}

void set_master(porta_optimizer& opt, size_t i, TensorPtr master) {
  opt.master[i] = std::move(master);
  opt.master_version[i] = opt.params[i]->storage->version.load(std::memory_order_acquire);
}

// What parameter i's update is computed on: the parameter, or with master
// weights for a float16/bfloat16 parameter, its float32 copy (made again
// when the parameter was written since this optimizer wrote it).
static TensorPtr working_copy(porta_optimizer& opt, size_t i) {
  if (!has_master(opt, i)) return opt.params[i];
  if (TensorPtr m = current_master(opt, i)) return m;
  opt.master[i] = ops::clone(ops::cast(opt.params[i], Dtype::Float32));
  return opt.master[i];
}

// Updates parameter i with its state; commits nothing when it throws.
static void step_one(porta_optimizer& opt, size_t i) {
  const TensorPtr& param = opt.params[i];
  TensorPtr grad = autograd::grad_of(*param);
  if (!grad) return;
  if (!param->is_contiguous())
    fail(PORTA_ERROR_INVALID_ARGUMENT, "optimizer step: parameter ", i, " is not contiguous");
  const TensorPtr p = working_copy(opt, i);
  if (p.get() != param.get()) {  // step the float32 copy, then round it into the parameter
    step_one_on(opt, i, p, grad);
    ops::copy_into(param, p);
    set_master(opt, i, p);  // current for the parameter as this write left it
    return;
  }
  step_one_on(opt, i, p, grad);
}

void set_master_weights(porta_optimizer& opt, bool enabled) {
  std::lock_guard<std::mutex> lock(opt.mu);
  autograd::NoGradGuard no_grad;
  if (opt.master_weights == enabled) return;
  opt.master_weights = enabled;
  for (size_t i = 0; i < opt.params.size(); ++i) {
    const TensorPtr& param = opt.params[i];
    if (!is_storage(param->dtype)) continue;
    opt.master[i] = TensorPtr();  // made from the parameter at the next step
    for (TensorPtr& st : opt.state[i]) st = ops::cast(st, enabled ? Dtype::Float32 : param->dtype);
  }
}

void step(porta_optimizer& opt) {
  std::lock_guard<std::mutex> lock(opt.mu);
  autograd::NoGradGuard no_grad;
  for (size_t i = 0; i < opt.params.size(); ++i) {
    try {
      step_one(opt, i);
    } catch (const Error& e) {
      // Parameters are updated one at a time: say where the step stopped.
      fail(e.status(), e.what(), " (optimizer step stopped at parameter ", i, " of ", opt.params.size(),
           ": the parameters before it were updated together with their state, it and those after it "
           "were left as they were)");
    }
  }
}

void zero_grad(porta_optimizer& opt) {
  std::lock_guard<std::mutex> lock(opt.mu);
  for (const TensorPtr& p : opt.params) autograd::set_grad(*p, TensorPtr());
}

}  // namespace porta::optim
