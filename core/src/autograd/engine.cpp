// The backward engine: topological order by dependency counts, gradients
// summed per node, saved tensors released as nodes finish.
#include <algorithm>
#include <cctype>
#include <string>
#include <unordered_map>
#include <utility>

#include "runtime/error.hpp"
#include "runtime/dispatch.hpp"
#include "ops/ops.hpp"
#include "ops/ag.hpp"
#include "autograd/node.hpp"

namespace porta::autograd {
namespace {
thread_local bool t_grad_enabled = true;
thread_local const Node* t_running = nullptr;  // the node whose apply() runs on this thread
thread_local std::weak_ptr<Node> t_running_node;  // the same, for a saved output's history (create_graph)

// Marks `node` as running for SavedTensor's message and history.
class Running {
 public:
  explicit Running(const std::shared_ptr<Node>& node)
      : previous_(std::exchange(t_running, node.get())), previous_node_(std::exchange(t_running_node, node)) {}
  ~Running() { t_running = previous_, t_running_node = std::move(previous_node_); }
  Running(const Running&) = delete;
  Running& operator=(const Running&) = delete;

 private:
  const Node* previous_;
  std::weak_ptr<Node> previous_node_;
};
}  // namespace

SavedTensor::SavedTensor(const TensorPtr& t)
    : t_(t ? make_view(*t, t->shape, t->strides, t->byte_offset) : TensorPtr()),
      version_(t_ ? t_->storage->version.load(std::memory_order_acquire) : 0),
      edge_(t && t->requires_grad ? gradient_edge(t) : nullptr) {}

SavedTensor SavedTensor::output(const TensorPtr& t) {
  SavedTensor s(t);
  s.edge_.reset();
  s.output_ = true;
  return s;
}

const TensorPtr& SavedTensor::checked() const {
  if (t_) {
    const uint64_t now = t_->storage->version.load(std::memory_order_acquire);
    if (now != version_)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "backward: one of the tensors needed for gradient computation has been "
           "modified by an in-place operation: a ", dtype_name(t_->dtype), " ", t_->shape.str(), " tensor saved by ",
           t_running ? t_running->name() : "a backward node", " is at version ", now, "; expected version ", version_,
           " instead (an in-place op, a write through a view, detach() or .data, or an optimizer step wrote into it "
           "after the forward pass). Make that write out of place, or clone() the tensor before writing into it");
  }
  return t_;
}

TensorPtr SavedTensor::get() const {
  const TensorPtr& t = checked();
  if (!t || !t_grad_enabled) return t;
  // create_graph: a handle whose gradient goes where the saved tensor's went.
  std::shared_ptr<Node> edge = output_ ? t_running_node.lock() : edge_;
  if (!edge) return t;
  TensorPtr h = make_view(*t, t->shape, t->strides, t->byte_offset);
  h->requires_grad = true;
  if (dynamic_cast<AccumulateGrad*>(edge.get()))
    h->grad_accumulator = edge;  // a leaf's: gradient_edge(h) finds the leaf's accumulator, which edge_ keeps
  else
    h->grad_fn = std::move(edge);
  return h;
}

Node::~Node() {
  // Detach the children this node alone keeps alive, then free them one by
  // one with their own children detached first: no recursion.
  std::vector<std::shared_ptr<Node>> doomed;
  auto take = [&doomed](std::vector<std::shared_ptr<Node>>& edges) {
    for (std::shared_ptr<Node>& e : edges)
      if (e && e.use_count() == 1) doomed.push_back(std::move(e));
    edges.clear();
  };
  take(next);
  while (!doomed.empty()) {
    std::shared_ptr<Node> n = std::move(doomed.back());
    doomed.pop_back();
    n->release_saved();  // its saved data goes first, while the nodes it came from are still held
    take(n->next);
  }  // n dies here with no edges left
}

const char* backward_name(porta_op op) {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (int i = 0; i < PORTA_OP_COUNT; ++i) {
      std::string n = op_name(static_cast<porta_op>(i));
      bool upper = true;
      std::string camel;
      for (char c : n) {
        if (c == '_') { upper = true; continue; }
        camel += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
      }
      v.push_back(camel + "Backward");
    }
    return v;
  }();
  const int i = static_cast<int>(op);
  return i >= 0 && i < PORTA_OP_COUNT ? names[static_cast<size_t>(i)].c_str() : "UnknownBackward";
}

bool grad_enabled() { return t_grad_enabled; }
void set_grad_enabled(bool enabled) { t_grad_enabled = enabled; }

TensorPtr grad_of(const porta_tensor& t) {
  std::lock_guard<std::mutex> lock(grad_mutex());
  return t.grad ? TensorPtr::borrow(t.grad) : TensorPtr();
}

void set_grad(porta_tensor& t, TensorPtr grad) {
  porta_tensor* old;
  {
    std::lock_guard<std::mutex> lock(grad_mutex());
    old = std::exchange(t.grad, grad.release());
  }
  release_handle(old);  // outside the lock: freeing may reach the device
}

bool needs_grad(std::initializer_list<const TensorPtr*> inputs) {
  if (!t_grad_enabled) return false;
  bool any = false;
  for (const TensorPtr* t : inputs) {
    if (!t || !*t) continue;
    if ((*t)->view_base) refresh_view(**t);
    any = any || (*t)->requires_grad;
  }
  return any;
}

std::shared_ptr<Node> gradient_edge(const TensorPtr& t) {
  if (t->view_base) refresh_view(*t);
  if (!t->requires_grad) return nullptr;
  if (t->grad_fn) return t->grad_fn;
  // Threads may record graphs through the same leaf at once: its one
  // AccumulateGrad is found or made under a lock.
  static std::mutex accumulator_mu;
  std::lock_guard<std::mutex> lock(accumulator_mu);
  std::shared_ptr<Node> acc = t->grad_accumulator.lock();
  if (!acc) {
    acc = std::make_shared<AccumulateGrad>(t);
    t->grad_accumulator = acc;
  }
  return acc;
}

std::vector<TensorPtr> AccumulateGrad::apply(const TensorPtr& grad) {
  std::lock_guard<std::mutex> lock(grad_mutex());
  commit(accumulated(grad));
  return {};
}

namespace {
// t's next .grad: its current one plus `grad` (recorded under create_graph).
TensorPtr accumulated_grad(const porta_tensor& t, const TensorPtr& grad) {
  TensorPtr g = grad;
  if (g->device != t.device) g = ops::to(g, *t.device);  // never happens for graphs Porta built
  if (g->dtype != t.dtype) g = ag::cast(g, t.dtype);
  if (g->shape != t.shape)
    fail(PORTA_ERROR_INTERNAL, "backward: gradient of shape ", g->shape.str(), " for a tensor of shape ",
         t.shape.str());
  if (t.grad) return ag::binary(PORTA_OP_ADD, TensorPtr::borrow(t.grad), g);
  if (!g->requires_grad && g->is_contiguous() && g->refcount.load(std::memory_order_acquire) <= 2 &&
      g->storage.use_count() == 1) {
    // Nobody but this call (`g`) and the engine (`grad`) holds the gradient
    // and no view shares its memory: take it, as PyTorch does, instead of
    // copying a possibly large tensor.
    return g;
  }
  return g->requires_grad ? g : ops::clone(g);  // shared: the tensor gets its own copy
}
}  // namespace

TensorPtr AccumulateGrad::accumulated(const TensorPtr& grad) const { return accumulated_grad(*leaf, grad); }

void AccumulateGrad::commit(TensorPtr next_grad) noexcept {
  release_handle(leaf->grad);
  leaf->grad = next_grad.release();
}

TensorPtr sum_to(const TensorPtr& g, const Dims& shape) {
  if (g->shape == shape) return g;
  const int32_t lead = g->ndim() - shape.n;
  int32_t dims[PORTA_MAX_DIMS];
  int32_t n = 0;
  for (int32_t i = 0; i < g->ndim(); ++i)
    if (i < lead || (shape[i - lead] == 1 && g->shape[i] != 1)) dims[n++] = i;
  TensorPtr r = n ? ag::reduce(PORTA_OP_SUM, g, dims, n, true) : g;
  return ag::reshape(r, shape);
}

namespace {

// Sets grad mode for the pass (create_graph records it) and restores it.
class GradModeGuard {
 public:
  explicit GradModeGuard(bool enabled) : previous_(grad_enabled()) { set_grad_enabled(enabled); }
  ~GradModeGuard() { set_grad_enabled(previous_); }
  GradModeGuard(const GradModeGuard&) = delete;
  GradModeGuard& operator=(const GradModeGuard&) = delete;

 private:
  bool previous_;
};

// dL/droot for each root: given (same device and shape) or implied (ones).
std::vector<TensorPtr> root_grads(const std::vector<TensorPtr>& roots, std::vector<TensorPtr> grads) {
  if (roots.empty()) fail(PORTA_ERROR_INVALID_ARGUMENT, "backward: no tensors to differentiate");
  grads.resize(roots.size());
  for (size_t i = 0; i < roots.size(); ++i) {
    const TensorPtr& root = roots[i];
    if (root->view_base) refresh_view(*root);
    if (!root->requires_grad)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "backward: the tensor ",
           roots.size() > 1 ? cat("(element ", i, " of tensors) ") : std::string(), "does not require grad and has no grad_fn (did every input have requires_grad off, or was it computed "
           "under no-grad?)");
    if (!grads[i]) {
      if (root->numel() != 1)
        fail(PORTA_ERROR_INVALID_ARGUMENT, "backward: a gradient can be implied only for a one-element tensor, this "
             "one has shape ", root->shape.str(), "; pass the gradient explicitly");
      grads[i] = ops::full(*root->device, root->shape, 1.0, root->dtype);
    } else {
      check_same_device("backward", {root.get(), grads[i].get()});
      if (grads[i]->shape != root->shape)
        fail(PORTA_ERROR_SHAPE_MISMATCH, "backward: gradient shape ", grads[i]->shape.str(),
             " does not match the tensor's ", root->shape.str());
    }
  }
  return grads;
}

// The graph the roots reach: every node with the number of edges into it.
using Dependencies = std::unordered_map<Node*, int>;

Dependencies discover(const std::vector<std::shared_ptr<Node>>& starts) {
  Dependencies deps;
  std::vector<Node*> stack;
  for (const auto& s : starts)
    if (deps.emplace(s.get(), 0).second) stack.push_back(s.get());
  while (!stack.empty()) {
    Node* n = stack.back();
    stack.pop_back();
    for (auto& nx : n->next) {
      if (!nx) continue;
      if (deps.emplace(nx.get(), 0).second) stack.push_back(nx.get());
      ++deps[nx.get()];
    }
  }
  return deps;
}

// Whether each node leads to one of `targets` (backward(inputs=) / grad): a
// node's answer follows from its successors', so nodes are decided in reverse
// topological order.
std::unordered_map<Node*, bool> leading_to(const std::vector<std::shared_ptr<Node>>& starts, Dependencies left,
                                           const std::unordered_map<Node*, std::vector<size_t>>& targets) {
  std::vector<Node*> order, ready;
  for (const auto& s : starts)
    if (left[s.get()] == 0 && std::find(ready.begin(), ready.end(), s.get()) == ready.end()) ready.push_back(s.get());
  while (!ready.empty()) {
    Node* n = ready.back();
    ready.pop_back();
    order.push_back(n);
    for (auto& nx : n->next)
      if (nx && --left[nx.get()] == 0) ready.push_back(nx.get());
  }
  std::unordered_map<Node*, bool> leads;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    Node* n = *it;
    bool lead = targets.count(n) > 0;
    for (auto& nx : n->next) lead = lead || (nx && leads[nx.get()]);
    leads[n] = lead;
  }
  return leads;
}

// The gradient after t's hooks (each may replace it, keeping its geometry);
// `grad_written` tells whether one of them put it into the leaf's .grad.
TensorPtr run_hooks(Node& node, TensorPtr g, bool& grad_written) {
  grad_written = false;
  for (const std::shared_ptr<GradHook>& hook : hooks_of(node)) {
    TensorPtr r = hook->fn(g);
    if (!r) continue;
    grad_written = grad_written || hook->writes_grad;
    if (r->shape != g->shape || r->dtype != g->dtype || r->device != g->device)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "backward: a hook returned a gradient ", dtype_name(r->dtype), " ",
           r->shape.str(), " on ", r->device->name, " where the gradient is ", dtype_name(g->dtype), " ",
           g->shape.str(), " on ", g->device->name, "; a hook may only return a gradient like the one it got");
    g = std::move(r);
  }
  return g;
}

// A non-leaf tensor that takes a gradient into .grad: retain_grad(), or an input of backward(inputs=).
struct NonLeafGrad {
  porta_tensor* tensor;             // alive: held by `keep` or under the slot's lock
  TensorPtr keep;                   // an input's handle
  std::shared_ptr<RetainedGrad> slot;
  TensorPtr grad;
};

// The callbacks queued by hooks of the backward running on this thread (a
// backward inside a hook has its own list).
thread_local std::vector<std::function<void()>>* t_callbacks = nullptr;

// Runs the queued callbacks, in order, including those they queue.
void run_callbacks(std::vector<std::function<void()>>& callbacks) {
  for (size_t i = 0; i < callbacks.size(); ++i) {
    std::function<void()> fn = std::move(callbacks[i]);
    fn();
  }
  callbacks.clear();
}

// While a backward on this thread may hand gradient destinations out
// (gradient_destination): its edge counts (those still to come into each
// node) and the gradients already summed for nodes.
struct DestinationScope {
  const Dependencies* deps = nullptr;
  const std::unordered_map<Node*, TensorPtr>* pending = nullptr;
};
thread_local const DestinationScope* t_destinations = nullptr;

}  // namespace

GradDestination gradient_destination(const std::shared_ptr<Node>& next, const Dims& shape, Dtype dtype,
                                     const DeviceState& dev) {
  const DestinationScope* scope = t_destinations;
  auto* acc = dynamic_cast<AccumulateGrad*>(next.get());
  if (!scope || !acc) return {};
  const auto d = scope->deps->find(acc);
  if (d == scope->deps->end() || d->second != 1 || scope->pending->count(acc)) return {};
  const HookList hooks = hooks_of(*acc);
  if (hooks.size() != 1 || !hooks[0]->destination) return {};
  GradDestination dst = hooks[0]->destination();
  if (dst.out &&
      (dst.out->shape != shape || dst.out->dtype != dtype || dst.out->device != &dev || !dst.out->is_contiguous()))
    fail(PORTA_ERROR_INTERNAL, "backward: a hook offered a gradient destination ", dtype_name(dst.out->dtype), " ",
         dst.out->shape.str(), " on ", dst.out->device->name, " for a gradient ", dtype_name(dtype), " ", shape.str(),
         " on ", dev.name);
  return dst;
}

void queue_callback(std::function<void()> fn) {
  if (!t_callbacks)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "queue_callback: only a hook running inside backward may queue a callback");
  t_callbacks->push_back(std::move(fn));
}

std::vector<TensorPtr> run_backward(const std::vector<TensorPtr>& roots, std::vector<TensorPtr> grads,
                                    const BackwardOptions& options) {
  grads = root_grads(roots, std::move(grads));
  const bool select = !options.inputs.empty();
  if (!options.accumulate && !select)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "grad: no inputs to differentiate with respect to");
  std::unordered_map<Node*, std::vector<size_t>> input_at;  // the inputs whose gradient arrives at a node
  for (size_t i = 0; i < options.inputs.size(); ++i) {
    const TensorPtr& x = options.inputs[i];
    if (x->view_base) refresh_view(*x);
    if (!x->requires_grad)
      fail(PORTA_ERROR_INVALID_ARGUMENT, options.accumulate ? "backward" : "grad", ": input ", i,
           " does not require grad (one of the differentiated tensors does not require grad)");
    input_at[gradient_edge(x).get()].push_back(i);
  }

  GradModeGuard mode(options.create_graph);
  std::vector<std::shared_ptr<Node>> starts;
  for (const TensorPtr& root : roots) starts.push_back(gradient_edge(root));
  Dependencies deps = discover(starts);
  // Where inputs are given, only the nodes that lead to one run.
  const std::unordered_map<Node*, bool> leads = select ? leading_to(starts, deps, input_at)
                                                       : std::unordered_map<Node*, bool>();
  auto needed = [&](Node* n) { return !select || leads.at(n); };

  std::unordered_map<Node*, TensorPtr> pending;
  auto add_to = [&](Node* n, const TensorPtr& g) {
    TensorPtr& slot = pending[n];
    slot = slot ? ag::binary(PORTA_OP_ADD, slot, g) : g;
  };
  for (size_t i = 0; i < roots.size(); ++i) add_to(starts[i].get(), grads[i]);

  std::vector<std::function<void()>> callbacks;
  std::vector<std::function<void()>>* outer_callbacks = std::exchange(t_callbacks, &callbacks);
  struct RestoreCallbacks {
    std::vector<std::function<void()>>* outer;
    ~RestoreCallbacks() { t_callbacks = outer; }
  } restore{outer_callbacks};
  // Destinations only where every gradient reaches its .grad and nothing is recorded.
  const DestinationScope destinations{&deps, &pending};
  const DestinationScope* outer_destinations =
      std::exchange(t_destinations, options.accumulate && !select && !options.create_graph ? &destinations : nullptr);
  struct RestoreDestinations {
    const DestinationScope* outer;
    ~RestoreDestinations() { t_destinations = outer; }
  } restore_destinations{outer_destinations};
  std::vector<TensorPtr> captured(options.inputs.size());
  std::vector<std::pair<AccumulateGrad*, TensorPtr>> leaf_grads;  // accumulated together at the end
  std::vector<NonLeafGrad> non_leaf_grads;
  std::vector<std::shared_ptr<Node>> ready;
  for (const auto& s : starts)
    if (deps[s.get()] == 0 && std::find(ready.begin(), ready.end(), s) == ready.end()) ready.push_back(s);
  while (!ready.empty()) {
    std::shared_ptr<Node> node = ready.back();
    ready.pop_back();
    auto it = pending.find(node.get());
    TensorPtr g = it == pending.end() ? TensorPtr() : std::move(it->second);
    if (it != pending.end()) pending.erase(it);
    std::vector<TensorPtr> out;
    auto* leaf = dynamic_cast<AccumulateGrad*>(node.get());
    if (g && needed(node.get())) {  // a node on a path that carries no gradient still releases its successors
      bool grad_written = false;
      g = run_hooks(*node, std::move(g), grad_written);
      if (std::shared_ptr<RetainedGrad> slot = node->retained.lock(); slot && options.accumulate)
        non_leaf_grads.push_back({nullptr, TensorPtr(), std::move(slot), g});
      auto at = input_at.find(node.get());
      if (at != input_at.end()) {
        for (size_t i : at->second) {
          if (!options.accumulate) captured[i] = g;
          else if (!leaf) non_leaf_grads.push_back({options.inputs[i].get(), options.inputs[i], nullptr, g});
        }
        if (leaf && options.accumulate && !grad_written) leaf_grads.emplace_back(leaf, g);
      } else if (leaf && !select && !grad_written) {
        leaf_grads.emplace_back(leaf, std::move(g));
      }
      if (!leaf && g) {
        if (options.create_graph && !node->differentiable_twice())
          fail(PORTA_ERROR_NOT_IMPLEMENTED, "backward: create_graph=True: double backward through ", node->name(),
               " is not supported by Porta yet (its gradient formula is not itself recorded); docs/autograd.md "
               "lists the ops that have it");
        if (node->released)
          fail(PORTA_ERROR_INVALID_ARGUMENT, "backward: trying to go through the graph a second time (",
               node->name(), " already ran and freed its saved tensors); pass retain_graph=True to the first "
               "backward, or recompute the forward pass");
        Running running(node);
        out = node->apply(g);
        if (anomaly_enabled()) check_for_nan(*node, out);
        if (!options.retain_graph) {
          node->release_saved();
          node->released = true;
        }
      }
    }
    for (size_t i = 0; i < node->next.size(); ++i) {
      const std::shared_ptr<Node>& nx = node->next[i];
      if (!nx) continue;
      if (i < out.size() && out[i] && needed(nx.get())) add_to(nx.get(), out[i]);
      if (--deps[nx.get()] == 0) ready.push_back(nx);
    }
  }

  run_callbacks(callbacks);
  if (!options.accumulate) {
    for (size_t i = 0; i < captured.size(); ++i)
      if (!captured[i] && !options.allow_unused)
        fail(PORTA_ERROR_INVALID_ARGUMENT, "grad: input ", i, " was not used in the graph of the outputs; pass "
             "allow_unused=True if this is what you want (its gradient is then None)");
    return captured;
  }
  // Every new .grad is computed before any is installed.
  std::vector<std::pair<porta_tensor*, TensorPtr>> commits;
  // Retained tensors stay alive while their slots are locked (in one order: no deadlock between threads).
  std::sort(non_leaf_grads.begin(), non_leaf_grads.end(),
            [](const NonLeafGrad& a, const NonLeafGrad& b) { return a.slot.get() < b.slot.get(); });
  std::vector<std::unique_lock<std::mutex>> slot_locks;
  for (NonLeafGrad& n : non_leaf_grads)
    if (n.slot) {
      slot_locks.emplace_back(n.slot->mu);
      n.tensor = n.slot->tensor;
    }
  std::lock_guard<std::mutex> lock(grad_mutex());
  for (auto& [leaf, g] : leaf_grads) g = leaf->accumulated(std::exchange(g, TensorPtr()));
  for (NonLeafGrad& n : non_leaf_grads)
    if (n.tensor) commits.emplace_back(n.tensor, accumulated_grad(*n.tensor, n.grad));
  for (auto& [leaf, next_grad] : leaf_grads) leaf->commit(std::move(next_grad));
  for (auto& [t, next_grad] : commits) {
    release_handle(t->grad);
    t->grad = next_grad.release();
  }
  return {};
}

void backward(const TensorPtr& root, TensorPtr grad) { run_backward({root}, {std::move(grad)}, BackwardOptions{}); }

}  // namespace porta::autograd
