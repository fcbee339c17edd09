// The backward engine: topological order by dependency counts, gradients
// summed per node, saved tensors released as nodes finish.
#include <cctype>
#include <string>
#include <unordered_map>
#include <utility>

#include "runtime/error.hpp"
#include "runtime/dispatch.hpp"
#include "ops/ops.hpp"
#include "autograd/node.hpp"

namespace porta::autograd {
namespace {
thread_local bool t_grad_enabled = true;
thread_local const Node* t_running = nullptr;  // the node whose apply() runs on this thread

// Marks `node` as running for SavedTensor's message.
class Running {
 public:
  explicit Running(const Node* node) : previous_(std::exchange(t_running, node)) {}
  ~Running() { t_running = previous_; }
  Running(const Running&) = delete;
  Running& operator=(const Running&) = delete;

 private:
  const Node* previous_;
};
}  // namespace

const TensorPtr& SavedTensor::get() const {
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

std::mutex& grad_mutex() {
  static std::mutex mu;
  return mu;
}

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

TensorPtr AccumulateGrad::accumulated(const TensorPtr& grad) const {
  TensorPtr g = grad;
  if (g->device != leaf->device) g = ops::to(g, *leaf->device);  // never happens for graphs Porta built
  if (g->dtype != leaf->dtype) g = ops::cast(g, leaf->dtype);
  if (g->shape != leaf->shape)
    fail(PORTA_ERROR_INTERNAL, "backward: gradient of shape ", g->shape.str(), " for a leaf of shape ",
         leaf->shape.str());
  if (leaf->grad) return ops::binary(PORTA_OP_ADD, TensorPtr::borrow(leaf->grad), g);
  if (g->is_contiguous() && g->refcount.load(std::memory_order_acquire) <= 2 && g->storage.use_count() == 1) {
    // Nobody but this call (`g`) and the engine (`grad`) holds the gradient
    // and no view shares its memory: take it, as PyTorch does, instead of
    // copying a possibly large tensor.
    return g;
  }
  return ops::clone(g);  // shared (by another leaf, a view, or the caller): the leaf gets its own copy
}

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
  TensorPtr r = n ? ops::reduce(PORTA_OP_SUM, g, dims, n, true) : g;
  return ops::reshape(r, shape);
}

void backward(const TensorPtr& root, TensorPtr grad) {
  if (root->view_base) refresh_view(*root);
  if (!root->requires_grad)
    fail(PORTA_ERROR_INVALID_ARGUMENT,
         "backward: the tensor does not require grad and has no grad_fn (did every input have requires_grad "
         "off, or was it computed under no-grad?)");
  if (!grad) {
    if (root->numel() != 1)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "backward: a gradient can be implied only for a one-element tensor, this one "
                                         "has shape ", root->shape.str(), "; pass the gradient explicitly");
    grad = ops::full(*root->device, root->shape, 1.0, root->dtype);
  } else {
    check_same_device("backward", {root.get(), grad.get()});
    if (grad->shape != root->shape)
      fail(PORTA_ERROR_SHAPE_MISMATCH, "backward: gradient shape ", grad->shape.str(), " does not match the tensor's ",
           root->shape.str());
  }
  NoGradGuard no_grad;
  std::shared_ptr<Node> start = gradient_edge(root);

  // Dependency counts: how many edges point at each node.
  std::unordered_map<Node*, int> deps;
  std::vector<Node*> stack{start.get()};
  deps[start.get()] = 0;
  while (!stack.empty()) {
    Node* n = stack.back();
    stack.pop_back();
    if (n->released)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "backward: trying to go through the graph a second time (", n->name(),
           " already ran and freed its saved tensors); recompute the forward pass");
    for (auto& nx : n->next) {
      if (!nx) continue;
      if (deps.emplace(nx.get(), 0).second) stack.push_back(nx.get());
      ++deps[nx.get()];
    }
  }

  std::unordered_map<Node*, TensorPtr> pending;
  std::vector<std::pair<AccumulateGrad*, TensorPtr>> leaf_grads;  // accumulated together at the end
  pending[start.get()] = grad;
  std::vector<std::shared_ptr<Node>> ready{start};
  while (!ready.empty()) {
    std::shared_ptr<Node> node = ready.back();
    ready.pop_back();
    auto it = pending.find(node.get());
    TensorPtr g = it == pending.end() ? TensorPtr() : std::move(it->second);
    if (it != pending.end()) pending.erase(it);
    std::vector<TensorPtr> grads;
    if (g) {  // a node on a path that carries no gradient still releases its successors
      if (auto* leaf = dynamic_cast<AccumulateGrad*>(node.get())) {
        leaf_grads.emplace_back(leaf, std::move(g));
      } else {
        Running running(node.get());
        grads = node->apply(g);
        node->release_saved();
        node->released = true;
      }
    }
    for (size_t i = 0; i < node->next.size(); ++i) {
      const std::shared_ptr<Node>& nx = node->next[i];
      if (!nx) continue;
      if (i < grads.size() && grads[i]) {
        TensorPtr& slot = pending[nx.get()];
        slot = slot ? ops::binary(PORTA_OP_ADD, slot, grads[i]) : grads[i];
      }
      if (--deps[nx.get()] == 0) ready.push_back(nx);
    }
  }
  // Every leaf's new .grad is computed before any is installed.
  std::lock_guard<std::mutex> lock(grad_mutex());
  for (auto& [leaf, g] : leaf_grads) g = leaf->accumulated(std::exchange(g, TensorPtr()));
  for (auto& [leaf, next_grad] : leaf_grads) leaf->commit(std::move(next_grad));
}

}  // namespace porta::autograd
