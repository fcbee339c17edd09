// In-place writes under autograd: x.add_(y), x.relu_(), x.copy_(y), x[i] = v.
//
// As in PyTorch, the write changes x's memory (every view of it sees the new
// values) and rebases x's history: x's grad_fn becomes the node of the write.
// When x is a view, the history rebased is its base's (CopySlices: the
// gradient inside the written window goes to the source, the rest to the
// base's old history), x becomes an AsStrided view of the new base history,
// and views of the base made before the write re-derive their grad_fn from
// the base on their next use (refresh_view).
//
// An in-place op computes out of place and then writes; while autograd
// records, it computes from a clone of x, so a formula that needs x's old
// values (mul_, pow_, div_) keeps them. Other nodes that saved x's memory
// see its version counter move and refuse to run backward.
#include "runtime/error.hpp"
#include "ops/ag.hpp"
#include "autograd/function.hpp"
#include "autograd/node.hpp"

namespace porta::autograd {
namespace {

// Where a view lies in its base's contiguous memory, in elements.
struct Window {
  Dims shape, strides;
  int64_t offset = 0;
  Dims base_shape;
};

Window window_of(const porta_tensor& view, const porta_tensor& base, const char* op) {
  if (!base.is_contiguous())
    fail(PORTA_ERROR_NOT_IMPLEMENTED, op, ": autograd cannot record an in-place write into a view of a "
         "non-contiguous tensor (one imported through DLPack with its own strides); clone() that tensor first");
  Window w;
  w.shape = view.shape, w.strides = view.strides, w.base_shape = base.shape;
  w.offset = static_cast<int64_t>((view.byte_offset - base.byte_offset) / view.itemsize());
  return w;
}

// The window's elements inside `whole`, a contiguous tensor of the base's shape.
TensorPtr in_window(const TensorPtr& whole, const Window& w) {
  return make_view(*whole, w.shape, w.strides, whole->byte_offset + static_cast<uint64_t>(w.offset) * whole->itemsize());
}

// The gradient of a source written into a window: summed over the
// dimensions it was broadcast along, in the source's dtype.
TensorPtr source_grad(const TensorPtr& g, const Dims& src_shape, Dtype src_dtype) {
  return ag::cast(sum_to(g, src_shape), src_dtype);
}

// dst.copy_(src) on a tensor that is not a view: next = {dst's old history, src}.
struct CopyNode final : Node {
  Dims src_shape;
  Dtype src_dtype;
  CopyNode(Dims s, Dtype d) : src_shape(s), src_dtype(d) {}
  const char* name() const override { return "CopyBackward"; }
  bool differentiable_twice() const override { return true; }
  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    TensorPtr old = next[0] ? ops::full(*g->device, g->shape, 0.0, g->dtype) : TensorPtr();  // overwritten: no gradient
    return {old, next[1] ? source_grad(g, src_shape, src_dtype) : TensorPtr()};
  }
};

// A write into a window of the base: next = {the base's old history, src}.
struct CopySlicesNode final : Node {
  Window w;
  Dims src_shape;
  Dtype src_dtype;
  const char* name() const override { return "CopySlices"; }
  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    TensorPtr outside, inside;
    if (next[0]) {
      outside = ops::clone(g);
      ops::copy_into(in_window(outside, w), ops::full(*g->device, Dims{}, 0.0, g->dtype));
    }
    if (next[1]) inside = source_grad(ops::contiguous(in_window(ops::contiguous(g), w)), src_shape, src_dtype);
    return {outside, inside};
  }
};

// A view re-derived from its base's history: zeros with g in the window.
struct AsStridedNode final : Node {
  Window w;
  explicit AsStridedNode(Window w_) : w(std::move(w_)) {}
  const char* name() const override { return "AsStridedBackward"; }
  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    TensorPtr base = ops::full(*g->device, w.base_shape, 0.0, g->dtype);
    ops::copy_into(in_window(base, w), g);
    return {base};
  }
};

void rebase_view_on(porta_tensor& view, porta_tensor& base, const Window& w) {
  auto node = std::make_shared<AsStridedNode>(w);
  node->next.push_back(gradient_edge(TensorPtr::borrow(&base)));
  set_history(view, std::move(node));
  view.base_history_seen = base.history.load(std::memory_order_acquire);
}

// Can an op's result of dtype `from` be written into a tensor of dtype `to`?
// PyTorch's rule: not float into an integer, not a number into bool.
bool can_cast(Dtype from, Dtype to) {
  if (is_floating(from) && !is_floating(to)) return false;
  if (from != Dtype::Bool && to == Dtype::Bool) return false;
  return true;
}

}  // namespace

porta_tensor* base_of(porta_tensor& t) {
  porta_tensor* b = t.view_base;
  if (b && b->storage != t.storage) {
    release_handle(std::exchange(t.view_base, nullptr));
    return nullptr;
  }
  return b;
}

bool records_write(porta_tensor& t, const porta_tensor* src) {
  if (!grad_enabled()) return false;
  porta_tensor* base = base_of(t);
  return t.requires_grad || (base && base->requires_grad) || (src && src->requires_grad);
}

void refresh_view(porta_tensor& t) {
  porta_tensor* base = base_of(t);
  if (!base) return;
  const uint64_t h = base->history.load(std::memory_order_acquire);
  if (h == t.base_history_seen) return;
  if (base->requires_grad) rebase_view_on(t, *base, window_of(t, *base, "autograd"));
  t.base_history_seen = h;
}

void assign(const TensorPtr& dst, const TensorPtr& src, const char* op, bool src_from_dst) {
  porta_tensor& d = *dst;
  refresh_view(d);
  porta_tensor* base = base_of(d);
  const bool recording = is_floating(d.dtype) && records_write(d, src.get());
  if (recording) {
    if (d.requires_grad && !d.grad_fn)
      fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": a leaf tensor that requires grad is being used in an in-place "
           "operation; write it under no-grad mode (porta_set_grad_enabled(0), `with porta.no_grad():`, "
           "porta::NoGradGuard) as an optimizer does, or write into a clone()");
    if (d.multi_output_view)
      fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": this view is one of several outputs of split/chunk/unbind and is "
           "being modified in-place, which autograd cannot record; clone() the output first (as PyTorch), or write "
           "under no-grad mode");
    if (base && base->requires_grad && !base->grad_fn)
      fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": a view of a leaf tensor that requires grad is being used in an "
           "in-place operation; write it under no-grad mode, or write into a clone() of the leaf");
  }
  const Window w = recording && base ? window_of(d, *base, op) : Window{};
  ops::copy_into(dst, src);  // checks shapes and overlap, bumps the version
  if (!recording) return;
  if (!base) {
    auto node = std::make_shared<CopyNode>(src->shape, src->dtype);
    node->next.push_back(src_from_dst ? nullptr : gradient_edge(dst));
    node->next.push_back(gradient_edge(src));
    set_history(d, std::move(node));
    d.history.fetch_add(1, std::memory_order_acq_rel);  // its views re-derive their grad_fn
    return;
  }
  TensorPtr b = TensorPtr::borrow(base);
  auto node = std::make_shared<CopySlicesNode>();
  node->w = w, node->src_shape = src->shape, node->src_dtype = src->dtype;
  node->next.push_back(gradient_edge(b));
  node->next.push_back(gradient_edge(src));
  set_history(*b, std::move(node));
  b->history.fetch_add(1, std::memory_order_acq_rel);
  rebase_view_on(d, *b, w);
}

void write_result(const TensorPtr& t, const TensorPtr& result, const char* op) {
  if (!can_cast(result->dtype, t->dtype))
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op, ": result type ", dtype_name(result->dtype),
         " can't be cast to the desired output type ", dtype_name(t->dtype),
         " (an in-place op keeps the tensor's dtype); use the out-of-place op");
  if (result->shape != t->shape)
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": output with shape ", t->shape.str(),
         " doesn't match the broadcast shape ", result->shape.str(), " (an in-place op keeps the tensor's shape)");
  assign(t, result, op, /*src_from_dst=*/true);
}

}  // namespace porta::autograd

namespace porta::ag {

namespace {
// t = compute(x) for an in-place op, x being t itself or, while autograd
// records the write, a clone of it (so the op's node keeps the values from
// before the write).
template <typename Compute>
void write_inplace(porta_op op, const TensorPtr& t, const TensorPtr* other, Compute&& compute) {
  const std::string name = porta::cat(op_name(op), "_");
  check_writable_memory(*t, name.c_str());
  const bool recording = autograd::records_write(*t, other ? other->get() : nullptr);
  const TensorPtr x = recording ? clone(t) : t;
  TensorPtr result = compute(x);
  if (recording && !result->requires_grad && is_floating(t->dtype) &&
      autograd::can_cast(result->dtype, t->dtype))
    result = autograd::attach_zero_gradients(cast(result, t->dtype), {x, other ? *other : TensorPtr()},
                                             "ConstantBackward");  // as PyTorch's in-place comparisons (eq_)
  autograd::write_result(t, result, name.c_str());
}
}  // namespace

void unary_(porta_op op, const TensorPtr& t) {
  write_inplace(op, t, nullptr, [&](const TensorPtr& x) { return unary(op, x); });
}

void binary_(porta_op op, const TensorPtr& t, const TensorPtr& other) {
  write_inplace(op, t, &other, [&](const TensorPtr& x) { return binary(op, x, other); });
}

void binary_scalar_(porta_op op, const TensorPtr& t, double s) {
  write_inplace(op, t, nullptr, [&](const TensorPtr& x) { return binary_scalar(op, x, s); });
}

void copy_(const TensorPtr& dst, const TensorPtr& src, const char* op) {
  check_writable_memory(*dst, op);
  autograd::assign(dst, src, op, false);
}

}  // namespace porta::ag
