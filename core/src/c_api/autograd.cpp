// C API: autograd, in-place device moves, pinned host memory.
#include <cstring>
#include <memory>
#include <vector>

#include "ops/ag.hpp"
#include "autograd/node.hpp"
#include "autograd/function.hpp"
#include "c_api/c_api.hpp"

using namespace porta;

PORTA_API porta_status porta_tensor_set_requires_grad(porta_tensor* t, int requires_grad) {
  return guard([&] {
    TensorPtr x = arg(t, "t");
    if (x->grad_fn)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "set_requires_grad: only leaf tensors can be changed; this one was computed by ",
           x->grad_fn->name(), " (use porta_detach to get a leaf)");
    if (requires_grad && !is_floating(x->dtype))
      fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "set_requires_grad: only float tensors can require gradients, this one is ",
           dtype_name(x->dtype));
    x->requires_grad = requires_grad != 0;
  });
}

PORTA_API porta_status porta_tensor_requires_grad(const porta_tensor* t, int* out) {
  return guard([&] {
    const porta_tensor& x = check_handle(t, "t");
    require(out, "out");
    *out = x.requires_grad ? 1 : 0;
  });
}

PORTA_API porta_status porta_tensor_is_leaf(const porta_tensor* t, int* out) {
  return guard([&] {
    const porta_tensor& x = check_handle(t, "t");
    require(out, "out");
    *out = x.grad_fn ? 0 : 1;
  });
}

PORTA_API porta_status porta_tensor_grad(const porta_tensor* t, porta_tensor** out) {
  return guard([&] {
    const porta_tensor& x = check_handle(t, "t");
    require(out, "out");
    *out = autograd::grad_of(x).release();
  });
}

PORTA_API porta_status porta_tensor_set_grad(porta_tensor* t, porta_tensor* grad) {
  return guard([&] {
    TensorPtr x = arg(t, "t");
    TensorPtr g = optional_arg(grad, "grad");
    if (g) {
      check_same_device("set_grad", {x.get(), g.get()});
      if (g->shape != x->shape || g->dtype != x->dtype)
        fail(PORTA_ERROR_SHAPE_MISMATCH, "set_grad: gradient ", g->shape.str(), " ", dtype_name(g->dtype),
             " does not match the tensor ", x->shape.str(), " ", dtype_name(x->dtype));
    }
    autograd::set_grad(*x, std::move(g));
  });
}

PORTA_API porta_status porta_backward(porta_tensor* t, porta_tensor* grad) {
  return guard([&] { autograd::backward(arg(t, "t"), optional_arg(grad, "grad")); });
}

namespace {

// The tensors of a C array (`what` names it in errors); NULL entries allowed where `nullable`.
std::vector<TensorPtr> tensor_array(porta_tensor* const* ts, int32_t n, const char* what, bool nullable) {
  if (n < 0) fail(PORTA_ERROR_INVALID_ARGUMENT, what, ": a count of ", n, " must be >= 0");
  if (n > 0) require(ts, what);
  std::vector<TensorPtr> v;
  for (int32_t i = 0; i < n; ++i) {
    const std::string name = cat(what, "[", i, "]");
    v.push_back(nullable ? optional_arg(ts[i], name.c_str()) : arg(ts[i], name.c_str()));
  }
  return v;
}

// A caller's user_data, released (once) when the last copy of the callback that uses it goes.
struct UserData {
  void* user = nullptr;
  porta_release_callback release = nullptr;
  ~UserData() {
    if (release) release(user);
  }
};

// A callback's status as an error of the pass (its message: the status and who returned it).
void check_callback(porta_status status, const char* who) {
  if (status != PORTA_OK)
    fail(status, "backward: ", who, " returned ", porta_status_name(status));
}

}  // namespace

PORTA_API porta_status porta_backward_ex(porta_tensor* const* roots, porta_tensor* const* grads, int32_t num_roots,
                                         const porta_backward_options* options) {
  return guard([&] {
    const porta_backward_options o = copy_in(options, porta_backward_options{}, "options");
    if (num_roots < 1) fail(PORTA_ERROR_INVALID_ARGUMENT, "backward: num_roots must be >= 1, got ", num_roots);
    std::vector<TensorPtr> rs = tensor_array(roots, num_roots, "roots", false);
    std::vector<TensorPtr> gs = grads ? tensor_array(grads, num_roots, "grads", true) : std::vector<TensorPtr>();
    autograd::BackwardOptions b;
    b.retain_graph = o.retain_graph != 0;
    b.create_graph = o.create_graph != 0;
    b.inputs = tensor_array(o.inputs, o.num_inputs, "options->inputs", false);
    b.accumulate = o.grads_out == nullptr;
    b.allow_unused = o.allow_unused != 0;
    if (!b.accumulate && b.inputs.empty())
      fail(PORTA_ERROR_INVALID_ARGUMENT, "backward: options->grads_out needs options->inputs (num_inputs >= 1)");
    std::vector<TensorPtr> out = autograd::run_backward(rs, std::move(gs), b);
    for (size_t i = 0; i < out.size(); ++i) o.grads_out[i] = out[i].release();
  });
}

PORTA_API porta_status porta_tensor_register_hook(porta_tensor* t, porta_grad_hook hook, void* user_data,
                                                  porta_release_callback release, uint64_t* handle) {
  auto data = std::make_shared<UserData>();  // released even when registering fails
  data->user = user_data, data->release = release;
  return guard([&] {
    TensorPtr x = arg(t, "t");
    require(hook, "hook");
    require(handle, "handle");
    *handle = autograd::register_hook(*x, [hook, data](const TensorPtr& g) {
      porta_tensor* replacement = nullptr;
      check_callback(hook(data->user, g.get(), &replacement), "a gradient hook (porta_tensor_register_hook)");
      return replacement ? TensorPtr::adopt(replacement) : TensorPtr();
    });
  });
}

PORTA_API porta_status porta_tensor_remove_hook(porta_tensor* t, uint64_t handle) {
  return guard([&] {
    TensorPtr x = arg(t, "t");
    if (!autograd::remove_hook(*x, handle))
      fail(PORTA_ERROR_INVALID_ARGUMENT, "remove_hook: the tensor has no hook with handle ", handle,
           " (removed already, or registered on another tensor)");
  });
}

PORTA_API porta_status porta_tensor_version(const porta_tensor* t, uint64_t* out) {
  return guard([&] {
    const porta_tensor& x = check_handle(t, "t");
    require(out, "out");
    *out = x.storage->version.load(std::memory_order_acquire);
  });
}

PORTA_API porta_status porta_tensor_retain_grad(porta_tensor* t) {
  return guard([&] { autograd::retain_grad(*arg(t, "t")); });
}

PORTA_API porta_status porta_tensor_retains_grad(const porta_tensor* t, int* out) {
  return guard([&] {
    const porta_tensor& x = check_handle(t, "t");
    require(out, "out");
    *out = autograd::retains_grad(x) ? 1 : 0;
  });
}

// Runs a user backward callback `call(raw)` that fills raw[0..n) with new
// references (NULL: no gradient) and returns them owned, even when it failed.
template <class Call>
static std::vector<TensorPtr> call_backward(int32_t n, const std::string& label, Call call) {
  std::vector<porta_tensor*> raw(static_cast<size_t>(n), nullptr);
  const porta_status status = call(raw.data());
  std::vector<TensorPtr> grads;
  for (porta_tensor* r : raw) grads.push_back(r ? TensorPtr::adopt(r) : TensorPtr());
  check_callback(status, label.c_str());
  return grads;
}

PORTA_API porta_status porta_function_attach(porta_tensor* output, porta_tensor* const* inputs, int32_t num_inputs,
                                             porta_function_backward backward, void* user_data,
                                             porta_release_callback release, const char* name, porta_tensor** out) {
  auto data = std::make_shared<UserData>();  // released even when attaching fails
  data->user = user_data, data->release = release;
  return produce(out, [&] {
    TensorPtr y = arg(output, "output");
    std::vector<TensorPtr> xs = tensor_array(inputs, num_inputs, "inputs", true);
    require(backward, "backward");
    const std::string label = name ? name : "FunctionBackward";
    const int32_t n = num_inputs;
    auto run = [backward, data, n, label](const TensorPtr& g) {
      return call_backward(n, label, [&](porta_tensor** raw) { return backward(data->user, g.get(), raw, n); });
    };
    return autograd::attach_function(y, xs, std::move(run), label);
  });
}

PORTA_API porta_status porta_function_attach_outputs(porta_tensor* const* outputs, int32_t num_outputs,
                                                     porta_tensor* const* inputs, int32_t num_inputs,
                                                     porta_function_backward_outputs backward, void* user_data,
                                                     porta_release_callback release, const char* name,
                                                     porta_tensor** out) {
  auto data = std::make_shared<UserData>();  // released even when attaching fails
  data->user = user_data, data->release = release;
  return guard([&] {
    require(out, "out");
    if (num_outputs < 1)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "function_attach_outputs: num_outputs must be >= 1, got ", num_outputs);
    std::vector<TensorPtr> ys = tensor_array(outputs, num_outputs, "outputs", false);
    std::vector<TensorPtr> xs = tensor_array(inputs, num_inputs, "inputs", true);
    require(backward, "backward");
    const std::string label = name ? name : "FunctionBackward";
    const int32_t n = num_inputs;
    auto run = [backward, data, n, label](const std::vector<TensorPtr>& gs) {
      std::vector<porta_tensor*> given;
      for (const TensorPtr& g : gs) given.push_back(g.get());
      return call_backward(n, label, [&](porta_tensor** raw) {
        return backward(data->user, given.data(), static_cast<int32_t>(given.size()), raw, n);
      });
    };
    std::vector<TensorPtr> made = autograd::attach_function_outputs(ys, xs, std::move(run), label);
    for (size_t i = 0; i < made.size(); ++i) out[i] = made[i].release();
  });
}

PORTA_API porta_status porta_detach(porta_tensor* t, porta_tensor** out) {
  return produce(out, [&] { return ag::detach(arg(t, "t")); });
}

PORTA_API porta_status porta_set_grad_enabled(int enabled) {
  autograd::set_grad_enabled(enabled != 0);
  return PORTA_OK;
}

PORTA_API porta_status porta_is_grad_enabled(int* out) {
  return guard([&] {
    require(out, "out");
    *out = autograd::grad_enabled() ? 1 : 0;
  });
}

// Leaf `x` takes `src`'s memory and geometry, keeping its handle, grad and
// requires_grad (move_to, set_data); it no longer views its old base.
static void take_memory_of(porta_tensor& x, const porta_tensor& src) {
  x.storage = src.storage;
  x.dtype = src.dtype;
  x.shape = src.shape;
  x.strides = src.strides;
  x.byte_offset = src.byte_offset;
  x.device = src.device;
  release_handle(std::exchange(x.view_base, nullptr));
}

PORTA_API porta_status porta_tensor_move_to(porta_tensor* t, DLDevice device) {
  return guard([&] {
    TensorPtr x = arg(t, "t");
    DeviceState& dev = device_of(device);
    if (x->grad_fn)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "move_to: only leaf tensors move in place; use porta_tensor_to for a copy");
    if (x->device == &dev) return;
    TensorPtr moved = ops::to(x, dev);
    TensorPtr grad = autograd::grad_of(*x);
    if (grad) grad = ops::to(grad, dev);
    take_memory_of(*x, *moved);
    autograd::set_grad(*x, std::move(grad));
  });
}

PORTA_API porta_status porta_tensor_set_data(porta_tensor* t, porta_tensor* src) {
  return guard([&] {
    TensorPtr x = arg(t, "t");
    TensorPtr s = arg(src, "src");
    if (x->grad_fn)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "set_data: only a leaf's data can be replaced; this tensor was computed by ",
           x->grad_fn->name(), " (detach() it first)");
    if (x->requires_grad && !is_floating(s->dtype))
      fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "set_data: the tensor requires grad, so its data must be float, got ",
           dtype_name(s->dtype));
    if (x.get() == s.get()) return;
    TensorPtr grad = autograd::grad_of(*x);
    const bool grad_fits = grad && grad->shape == s->shape && grad->dtype == s->dtype && grad->device == s->device;
    take_memory_of(*x, *s);
    if (grad && !grad_fits) autograd::set_grad(*x, TensorPtr());
  });
}

namespace {
void free_pinned(void* api, void* handle) { static_cast<const porta_plugin_api*>(api)->free_pinned_host(handle); }
}  // namespace

PORTA_API porta_status porta_tensor_empty_pinned(DLDataType dtype, const int64_t* shape, int32_t ndim,
                                                 DLDevice for_device, porta_tensor** out) {
  return produce(out, [&] {
    const Dtype dt = checked_dtype(dtype);
    const Dims dims = Dims::from(shape, ndim, "shape");
    DeviceState& target = device_of(for_device);
    DeviceState& cpu = device_of(DLDevice{kDLCPU, 0});
    const porta_plugin_api& api = target.backend->api;
    const int64_t n = checked_numel(dims);
    if (!api.alloc_pinned_host || n == 0) return empty(cpu, dt, dims);
    void* p = nullptr;
    check_plugin(api.alloc_pinned_host(static_cast<size_t>(n) * dtype_size(dt), &p), *target.backend,
                 cat("pinned host allocation for ", target.name));
    auto storage = std::make_shared<Storage>();
    storage->device = &cpu;
    storage->block = Block{p, static_cast<size_t>(n) * dtype_size(dt)};
    storage->release = free_pinned;
    storage->release_context = const_cast<porta_plugin_api*>(&api);
    storage->pinned = true;
    auto* t = new porta_tensor();
    t->dtype = dt;
    t->shape = dims;
    t->strides = contiguous_strides(dims);
    t->device = &cpu;
    t->storage = std::move(storage);
    return TensorPtr::adopt(t);
  });
}

PORTA_API porta_status porta_tensor_is_pinned(const porta_tensor* t, int* out) {
  return guard([&] {
    const porta_tensor& x = check_handle(t, "t");
    require(out, "out");
    *out = x.storage->pinned ? 1 : 0;
  });
}

PORTA_API porta_status porta_set_anomaly_enabled(int enabled) {
  autograd::set_anomaly_enabled(enabled != 0);
  return PORTA_OK;
}

PORTA_API porta_status porta_is_anomaly_enabled(int* out) {
  return guard([&] {
    require(out, "out");
    *out = autograd::anomaly_enabled() ? 1 : 0;
  });
}
