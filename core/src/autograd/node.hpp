// Reverse-mode autograd: graph nodes and the grad-mode switch.
//
// Every differentiable op that sees an input requiring grad (while grad mode
// is on) attaches a Node to its output. A Node knows, for each input, the
// node that produced it (`next`; AccumulateGrad for leaves, null where no
// gradient is needed) and how to map the gradient of its output to
// gradients of its inputs (`apply`), written with Porta ops so it runs on
// every plugin.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/grad_lock.hpp"
#include "runtime/tensor.hpp"

namespace porta::autograd {

struct Node;

// A tensor a node keeps for its backward formula. It keeps the data: a fresh
// handle on the same memory, without the tensor's history or the base it
// views (so a graph never holds itself: h.mul_(h[0]) saves a view of h,
// whose base is h, whose grad_fn is this node). It remembers the version of
// that memory; reading it back after an in-place write into it (directly,
// through a view, a detach()ed handle or .data, under no-grad or not) throws
// PyTorch's error naming the node, instead of computing a gradient from the
// changed values.
//
// For double backward it also keeps where the tensor's gradient goes: the
// edge of an input (its grad_fn or its leaf's accumulator: nodes the graph
// holds anyway, never this node), or, for the node's own output (`output`),
// nothing, as PyTorch's SavedVariable keeps an output's grad_fn weakly: read
// while create_graph runs this node, an output gets the node as grad_fn.
// Read with grad mode on (create_graph), get() hands back a handle with that
// history, so formulas written with ag:: ops record their own backward.
class SavedTensor {
 public:
  SavedTensor() = default;
  SavedTensor(const TensorPtr& t);  // NOLINT: saving is assignment
  // A node's own output, saved before the node is attached to it.
  static SavedTensor output(const TensorPtr& t);
  // The saved tensor; throws INVALID_ARGUMENT when its memory was written since.
  TensorPtr get() const;
  operator TensorPtr() const { return get(); }  // NOLINT: reads like the TensorPtr it was
  // The saved data itself (version checked), for its shape, dtype, device.
  porta_tensor* operator->() const { return checked().get(); }
  porta_tensor& operator*() const { return *checked(); }
  explicit operator bool() const { return static_cast<bool>(t_); }
  void reset() { t_.reset(), edge_.reset(); }

 private:
  TensorPtr t_;  // a handle of its own on the saved memory
  uint64_t version_ = 0;
  std::shared_ptr<Node> edge_;  // where its gradient goes (inputs that require grad)
  bool output_ = false;
  const TensorPtr& checked() const;  // t_, after the version check
};

// Where the node computing a leaf's whole gradient may write it, instead
// of into a tensor of its own that a hook then copies (DistributedDataParallel:
// a parameter's place in its bucket, divided by the world size on the way):
// `out` becomes scale * gradient + keep * out. Empty `out`: none offered.
//
// `factored`, where offered, is for a gradient that is a product of row
// factors, g_rows^T x_rows (a linear layer's weight: g_rows [M, out],
// x_rows [M, in]). Given the factors, the offerer may take them and return
// true: it then writes `out` itself before backward ends (DistributedDataParallel
// gathers every rank's rows, which for a wide layer and a small batch moves
// far less than all-reducing the product), and the node returns `out` as
// computed; false: the node computes the product into `out` as usual.
struct GradDestination {
  TensorPtr out;
  double scale = 1.0, keep = 0.0;
  std::function<bool(const TensorPtr& g_rows, const TensorPtr& x_rows)> factored;
};

// A gradient hook (Tensor.register_hook): sees the gradient flowing into a
// tensor and may return a replacement (an empty TensorPtr keeps it).
struct GradHook {
  uint64_t id = 0;
  std::function<TensorPtr(const TensorPtr&)> fn;
  // A leaf's hook that puts the gradient into the leaf's .grad itself
  // (DistributedDataParallel's gradient_as_bucket_view: .grad is a view of
  // the bucket): when it returns a gradient, backward writes no .grad there.
  bool writes_grad = false;
  // A leaf's hook (the core's own) that offers a GradDestination; the
  // gradient written there is what the hook then gets (gradient_destination).
  std::function<GradDestination()> destination;
};
using HookList = std::vector<std::shared_ptr<GradHook>>;

// Where retain_grad() puts a non-leaf's gradient: the tensor owns the slot,
// its grad_fn node points at it weakly; the tensor's death clears `tensor`.
struct RetainedGrad {
  std::mutex mu;
  porta_tensor* tensor = nullptr;
};

// A node must never hold its own output with grad_fn attached (that is a
// reference cycle: output -> grad_fn -> node -> output); tensors a node
// needs are SavedTensors, which hold the data only.
struct Node {
  // Releases the graph behind this node without recursion: a chain of a
  // million nodes is freed in a loop, not a million nested destructors.
  virtual ~Node();
  // Gradients for each input (an empty TensorPtr where none is needed).
  virtual std::vector<TensorPtr> apply(const TensorPtr& grad_output) = 0;
  // Drops saved tensors once the node has run (the graph is single-use).
  virtual void release_saved() {}
  virtual const char* name() const = 0;
  // Whether apply() writes its formula with ag:: ops and SavedTensors, so
  // that with grad mode on (create_graph) it records its own backward.
  // Others are refused by create_graph rather than giving a gradient
  // that silently lacks terms.
  virtual bool differentiable_twice() const { return false; }

  std::vector<std::shared_ptr<Node>> next;
  bool released = false;
  HookList pre_hooks;                   // hooks of the non-leaf tensor this node produced
  std::weak_ptr<RetainedGrad> retained;  // its retain_grad() slot
};

// "AddBackward", "ReluBackward", ...: the node name of an op's backward.
const char* backward_name(porta_op op);

// Sums incoming gradients into a leaf's .grad.
struct AccumulateGrad final : Node {
  explicit AccumulateGrad(TensorPtr leaf_) : leaf(std::move(leaf_)) {}
  std::vector<TensorPtr> apply(const TensorPtr& grad) override;
  const char* name() const override { return "AccumulateGrad"; }
  // The leaf's next .grad (its current one plus `grad`), computed without
  // touching the leaf; commit() installs it and cannot fail. backward()
  // computes and commits every leaf only after the whole graph ran (holding
  // grad_mutex()), so a failure part way leaves every .grad as it was.
  TensorPtr accumulated(const TensorPtr& grad) const;
  void commit(TensorPtr next_grad) noexcept;
  TensorPtr leaf;
};

bool grad_enabled();
void set_grad_enabled(bool enabled);

// torch.autograd.set_detect_anomaly: process-wide, as PyTorch's. While on,
// backward checks every node's gradients for NaN (a device read per
// gradient) and fails naming the first node that produced one.
bool anomaly_enabled();
void set_anomaly_enabled(bool enabled);
// Fails (INVALID_ARGUMENT) when one of `node`'s gradients `grads` has a NaN.
void check_for_nan(const Node& node, const std::vector<TensorPtr>& grads);

// grad_mutex(): the lock over every .grad slot (runtime/grad_lock.hpp).
using porta::grad_mutex;
// A new reference to t's .grad (empty when it has none).
TensorPtr grad_of(const porta_tensor& t);
// Replaces t's .grad (empty clears it).
void set_grad(porta_tensor& t, TensorPtr grad);

// Restores the previous grad mode on destruction.
class NoGradGuard {
 public:
  NoGradGuard() : previous_(grad_enabled()) { set_grad_enabled(false); }
  ~NoGradGuard() { set_grad_enabled(previous_); }
  NoGradGuard(const NoGradGuard&) = delete;
  NoGradGuard& operator=(const NoGradGuard&) = delete;

 private:
  bool previous_;
};

// True when grad mode is on and any input requires grad.
bool needs_grad(std::initializer_list<const TensorPtr*> inputs);

// The node that receives gradients for `t`: its grad_fn, its leaf
// accumulator, or null when it does not require grad.
std::shared_ptr<Node> gradient_edge(const TensorPtr& t);

// Attaches `node` to `out` with one edge per input.
template <typename N>
void record(const TensorPtr& out, std::shared_ptr<N> node, std::initializer_list<const TensorPtr*> inputs) {
  for (const TensorPtr* in : inputs) node->next.push_back(in ? gradient_edge(*in) : nullptr);
  out->grad_fn = std::move(node);
  out->requires_grad = true;
}

// ---- in-place writes (inplace.cpp)
// Re-derives a view's grad_fn from its base when the base's history was
// rebased by an in-place write since the view was made.
void refresh_view(porta_tensor& t);
// The tensor whose memory `t` views (its view_base), or null; drops a link
// the base broke by moving to another device in place.
porta_tensor* base_of(porta_tensor& t);
// True when an in-place write into `t` (from `src`, if any) would be
// recorded: grad mode on and t, the base it views, or src requires grad.
bool records_write(porta_tensor& t, const porta_tensor* src = nullptr);
// Writes `src` into `dst`'s memory and records the write (op names it in
// errors): PyTorch's copy_. `src_from_dst`: src was computed from a clone of
// dst, so dst's old history already reaches it through src.
void assign(const TensorPtr& dst, const TensorPtr& src, const char* op, bool src_from_dst);
// Writes an in-place op's out-of-place result into `t`: the result must keep
// t's shape and be castable to its dtype (PyTorch's rule).
void write_result(const TensorPtr& t, const TensorPtr& result, const char* op);

// Makes `node` the history of `t` (an op or an in-place write produced t
// now): t requires grad, and its retain_grad() slot moves to the node.
void set_history(porta_tensor& t, std::shared_ptr<Node> node);

// What a backward pass does (torch.autograd.backward / torch.autograd.grad).
struct BackwardOptions {
  bool retain_graph = false;  // keep the saved tensors: the graph can be run again
  bool create_graph = false;  // record the pass: the gradients can be differentiated again
  // Empty: every leaf the roots reach. Else only these tensors' gradients,
  // and only the part of the graph that leads to them runs.
  std::vector<TensorPtr> inputs;
  bool accumulate = true;     // into .grad; false: returned instead (autograd.grad)
  bool allow_unused = false;  // !accumulate: an input the roots do not reach gets no gradient, not an error
};

// Runs the backward pass from `roots` with dL/droot = `grads` (a null
// gradient: ones, and that root must have one element). Returns the inputs'
// gradients when !options.accumulate (empty where unused), else nothing.
std::vector<TensorPtr> run_backward(const std::vector<TensorPtr>& roots, std::vector<TensorPtr> grads,
                                    const BackwardOptions& options);
// run_backward of one root with the default options.
void backward(const TensorPtr& root, TensorPtr grad);
// Asked by a node's apply() for its gradient along `next` (an edge of
// its own) of `shape`, `dtype` and device `dev`: the destination the leaf's
// hook offers (GradDestination), or none. Offered only while this thread's
// backward accumulates into .grad over the whole graph without
// create_graph, to a leaf whose accumulator takes this one gradient alone
// (no other edge into it, nothing arrived there before), and whose only
// hook offers one: contiguous, of that shape, dtype and device. A node
// that gets one must write its gradient there and return that tensor.
GradDestination gradient_destination(const std::shared_ptr<Node>& next, const Dims& shape, Dtype dtype,
                                     const DeviceState& dev);
// Called from a hook while backward runs (torch's
// Variable._execution_engine.queue_callback): `fn` runs on the thread of
// that backward after the graph is traversed and before any .grad is
// written, so it may finish what hooks started (DistributedDataParallel
// waits for its all-reduces there). Throws INVALID_ARGUMENT outside backward.
void queue_callback(std::function<void()> fn);

// ---- hooks (hooks.cpp)
// Registers `fn` on t's gradient; returns its id for remove_hook.
// With `writes_grad` (leaves only, the core's own hooks): GradHook's.
// With `destination` (leaves only): GradHook's.
uint64_t register_hook(porta_tensor& t, std::function<TensorPtr(const TensorPtr&)> fn, bool writes_grad = false,
                       std::function<GradDestination()> destination = {});
// False when t has no hook with that id (removed already, or another tensor's).
bool remove_hook(porta_tensor& t, uint64_t id);
// Tensor.retain_grad(): a non-leaf keeps its gradient in .grad (a leaf does already).
void retain_grad(porta_tensor& t);
bool retains_grad(const porta_tensor& t);
// The hooks that see t's gradient before it reaches `node` (t's edge), a copy.
HookList hooks_of(Node& node);
// Clears what t's hooks and retain_grad slot hold (t is dying).
void drop_hooks(porta_tensor& t) noexcept;

// Sums `g` over broadcast dimensions so it has `shape`.
TensorPtr sum_to(const TensorPtr& g, const Dims& shape);

}  // namespace porta::autograd
