// Tensor.register_hook and retain_grad: where a tensor's gradient hooks live
// and how a non-leaf keeps its gradient.
//
// A leaf's hooks live on the leaf (its accumulator comes and goes with the
// graphs it is in); a non-leaf's on the node that produced it, as PyTorch's
// pre-hooks of grad_fn, so a hook registered before an in-place write sees
// the gradient of the value it was registered on.
#include <atomic>

#include "runtime/error.hpp"
#include "autograd/node.hpp"

namespace porta::autograd {
namespace {

// Hook lists are read by backward on any thread while others may register.
std::mutex& hooks_mutex() {
  static std::mutex mu;
  return mu;
}

HookList& hook_list(porta_tensor& t) { return t.grad_fn ? t.grad_fn->pre_hooks : t.hooks; }

}  // namespace

uint64_t register_hook(porta_tensor& t, std::function<TensorPtr(const TensorPtr&)> fn, bool writes_grad,
                       std::function<GradDestination()> destination) {
  if (t.view_base) refresh_view(t);
  if (!t.requires_grad)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "register_hook: cannot register a hook on a tensor that doesn't require "
         "gradient (set requires_grad on the leaf, or register the hook on a tensor computed from one)");
  static std::atomic<uint64_t> next_id{1};
  auto hook = std::make_shared<GradHook>();
  hook->id = next_id.fetch_add(1, std::memory_order_relaxed);
  hook->fn = std::move(fn);
  hook->writes_grad = writes_grad && !t.grad_fn;
  if (!t.grad_fn) hook->destination = std::move(destination);
  std::lock_guard<std::mutex> lock(hooks_mutex());
  hook_list(t).push_back(hook);
  return hook->id;
}

bool remove_hook(porta_tensor& t, uint64_t id) {
  std::shared_ptr<GradHook> removed;  // destroyed outside the lock: its release may call back
  std::lock_guard<std::mutex> lock(hooks_mutex());
  for (HookList* list : {&t.hooks, t.grad_fn ? &t.grad_fn->pre_hooks : nullptr}) {
    if (!list) continue;
    for (auto it = list->begin(); it != list->end(); ++it)
      if ((*it)->id == id) {
        removed = std::move(*it);
        list->erase(it);
        return true;
      }
  }
  return false;
}

HookList hooks_of(Node& node) {
  std::lock_guard<std::mutex> lock(hooks_mutex());
  if (auto* acc = dynamic_cast<AccumulateGrad*>(&node)) return acc->leaf->hooks;
  return node.pre_hooks;
}

void retain_grad(porta_tensor& t) {
  if (t.view_base) refresh_view(t);
  if (!t.requires_grad)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "retain_grad: can't retain_grad on a tensor that has requires_grad=False");
  if (!t.grad_fn || t.retained_grad) return;  // a leaf keeps its gradient anyway
  t.retained_grad = std::make_shared<RetainedGrad>();
  t.retained_grad->tensor = &t;
  t.grad_fn->retained = t.retained_grad;
}

bool retains_grad(const porta_tensor& t) { return t.grad_fn && t.retained_grad; }

void set_history(porta_tensor& t, std::shared_ptr<Node> node) {
  if (t.retained_grad) {
    if (t.grad_fn) t.grad_fn->retained.reset();
    node->retained = t.retained_grad;
  }
  t.grad_fn = std::move(node);
  t.requires_grad = true;
}

void drop_hooks(porta_tensor& t) noexcept {
  if (t.retained_grad) {
    std::lock_guard<std::mutex> lock(t.retained_grad->mu);
    t.retained_grad->tensor = nullptr;
  }
  t.retained_grad.reset();
  HookList hooks;
  {
    std::lock_guard<std::mutex> lock(hooks_mutex());
    hooks.swap(t.hooks);
  }
}

}  // namespace porta::autograd
