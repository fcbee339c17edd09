// C API: autograd, in-place device moves, pinned host memory.
#include <cstring>

#include "ops/ag.hpp"
#include "autograd/node.hpp"
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
