// Backward formulas of views, copies and device moves. Gradients of views
// flow back to the viewed tensor; a move's gradient moves back, so every
// leaf's .grad lands on the leaf's own device.
#include "runtime/error.hpp"
#include "ops/ag.hpp"
#include "autograd/node.hpp"
#include "ops/composite/composite.hpp"

namespace porta::ag {
namespace {

using autograd::Node;

// Reshape back (view, reshape, flatten, unsqueeze, squeeze).
struct ReshapeNode final : Node {
  Dims in_shape;
  explicit ReshapeNode(Dims s) : in_shape(s) {}
  const char* name() const override { return "ReshapeBackward"; }
  bool differentiable_twice() const override { return true; }
  std::vector<TensorPtr> apply(const TensorPtr& g) override { return {reshape(g, in_shape)}; }
};

struct PermuteNode final : Node {
  std::vector<int32_t> inverse;
  const char* name() const override { return "PermuteBackward"; }
  bool differentiable_twice() const override { return true; }
  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    return {permute(g, inverse.data(), static_cast<int32_t>(inverse.size()))};
  }
};

struct ExpandNode final : Node {
  Dims in_shape;
  explicit ExpandNode(Dims s) : in_shape(s) {}
  const char* name() const override { return "ExpandBackward"; }
  bool differentiable_twice() const override { return true; }
  std::vector<TensorPtr> apply(const TensorPtr& g) override { return {autograd::sum_to(g, in_shape)}; }
};

// slice / select: the gradient is zeros with g written into the same view.
struct IndexNode final : Node {
  Dims in_shape;
  Dtype dtype;
  bool is_select;
  int32_t dim;
  int64_t start, stop, step;
  const char* name() const override { return is_select ? "SelectBackward" : "SliceBackward"; }
  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    TensorPtr zeros = ops::full(*g->device, in_shape, 0.0, g->dtype);
    TensorPtr window = is_select ? ops::select(zeros, dim, start) : ops::slice(zeros, dim, start, stop, step);
    ops::copy_into(window, g);
    return {zeros};
  }
};

// diagonal: zeros with g written into the same diagonal.
struct DiagonalNode final : Node {
  Dims in_shape;
  int64_t offset;
  int32_t dim1, dim2;
  const char* name() const override { return "DiagonalBackward"; }
  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    TensorPtr zeros = ops::full(*g->device, in_shape, 0.0, g->dtype);
    ops::copy_into(ops::diagonal(zeros, offset, dim1, dim2), g);
    return {zeros};
  }
};

// unfold: each window's gradient summed into the positions it covers (windows overlap when step < size).
struct UnfoldNode final : Node {
  Dims in_shape;
  int32_t dim;
  int64_t size, step;
  const char* name() const override { return "UnfoldBackward"; }
  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    return {composite::unfold_backward(g, in_shape, dim, size, step)};
  }
};

struct IdentityNode final : Node {
  const char* name() const override { return "IdentityBackward"; }
  bool differentiable_twice() const override { return true; }
  std::vector<TensorPtr> apply(const TensorPtr& g) override { return {g}; }
};

struct ToNode final : Node {
  DeviceState* from;
  explicit ToNode(DeviceState* f) : from(f) {}
  const char* name() const override { return "ToBackward"; }
  bool differentiable_twice() const override { return true; }
  std::vector<TensorPtr> apply(const TensorPtr& g) override { return {to(g, *from)}; }
};

// A view's link to the tensor whose memory it shares (the first tensor
// of a chain of views), so that an in-place write into the view rebases
// that tensor's history (inplace.cpp). Copies (a reshape that had to copy,
// contiguous() of a strided tensor, clone, to) get none.
void link_view(const TensorPtr& in, const TensorPtr& out) {
  if (out.get() == in.get() || out->storage != in->storage) return;
  porta_tensor* base = autograd::base_of(*in);
  porta_tensor* root = base ? base : in.get();
  root->refcount.fetch_add(1, std::memory_order_relaxed);
  release_handle(std::exchange(out->view_base, root));
  out->base_history_seen = root->history.load(std::memory_order_acquire);
}

// Records `node` for a view-like op whose output is `out`.
template <typename N>
TensorPtr track(const TensorPtr& in, TensorPtr out, std::shared_ptr<N> node) {
  link_view(in, out);
  if (out.get() != in.get() && autograd::needs_grad({&in})) autograd::record(out, std::move(node), {&in});
  return out;
}

TensorPtr track_reshape(const TensorPtr& in, TensorPtr out) {
  link_view(in, out);
  if (out.get() == in.get() || !autograd::needs_grad({&in})) return out;
  autograd::record(out, std::make_shared<ReshapeNode>(in->shape), {&in});
  return out;
}

}  // namespace

TensorPtr view(const TensorPtr& t, const Dims& shape) { return track_reshape(t, ops::view(t, shape)); }
TensorPtr reshape(const TensorPtr& t, const Dims& shape) { return track_reshape(t, ops::reshape(t, shape)); }
TensorPtr unsqueeze(const TensorPtr& t, int32_t dim) { return track_reshape(t, ops::unsqueeze(t, dim)); }
TensorPtr squeeze(const TensorPtr& t, int32_t dim) { return track_reshape(t, ops::squeeze(t, dim)); }

TensorPtr flatten(const TensorPtr& t, int32_t start_dim, int32_t end_dim) {
  const int32_t s = ops::wrap_dim("flatten", start_dim, t->ndim()), e = ops::wrap_dim("flatten", end_dim, t->ndim());
  if (t->ndim() == 0) return reshape(t, Dims{1});
  if (s > e) fail(PORTA_ERROR_INVALID_ARGUMENT, "flatten: start_dim ", start_dim, " comes after end_dim ", end_dim);
  Dims shape;
  int64_t merged = 1;
  for (int32_t i = 0; i < t->ndim(); ++i) {
    if (i < s || i > e) shape.push_back(t->shape[i]);
    else merged *= t->shape[i];
    if (i == e) shape.push_back(merged);
  }
  return reshape(t, shape);
}

TensorPtr transpose(const TensorPtr& t, int32_t dim0, int32_t dim1) {
  TensorPtr out = ops::transpose(t, dim0, dim1);
  auto node = std::make_shared<PermuteNode>();
  for (int32_t i = 0; i < t->ndim(); ++i) node->inverse.push_back(i);
  if (t->ndim() > 0)
    std::swap(node->inverse[ops::wrap_dim("transpose", dim0, t->ndim())],
              node->inverse[ops::wrap_dim("transpose", dim1, t->ndim())]);
  return track(t, out, node);
}

TensorPtr permute(const TensorPtr& t, const int32_t* dims, int32_t ndim) {
  TensorPtr out = ops::permute(t, dims, ndim);
  auto node = std::make_shared<PermuteNode>();
  node->inverse.resize(static_cast<size_t>(ndim));
  for (int32_t i = 0; i < ndim; ++i) node->inverse[static_cast<size_t>(ops::wrap_dim("permute", dims[i], ndim))] = i;
  return track(t, out, node);
}

TensorPtr expand(const TensorPtr& t, const Dims& shape) {
  return track(t, ops::expand(t, shape), std::make_shared<ExpandNode>(t->shape));
}

TensorPtr slice(const TensorPtr& t, int32_t dim, int64_t start, int64_t stop, int64_t step) {
  TensorPtr out = ops::slice(t, dim, start, stop, step);
  auto node = std::make_shared<IndexNode>();
  node->in_shape = t->shape;
  node->is_select = false;
  node->dim = dim, node->start = start, node->stop = stop, node->step = step;
  return track(t, out, node);
}

TensorPtr select(const TensorPtr& t, int32_t dim, int64_t index) {
  TensorPtr out = ops::select(t, dim, index);
  auto node = std::make_shared<IndexNode>();
  node->in_shape = t->shape;
  node->is_select = true;
  node->dim = dim, node->start = index, node->stop = 0, node->step = 1;
  return track(t, out, node);
}

TensorPtr diagonal(const TensorPtr& t, int64_t offset, int32_t dim1, int32_t dim2) {
  TensorPtr out = ops::diagonal(t, offset, dim1, dim2);
  auto node = std::make_shared<DiagonalNode>();
  node->in_shape = t->shape;
  node->offset = offset, node->dim1 = dim1, node->dim2 = dim2;
  return track(t, out, node);
}

TensorPtr unfold(const TensorPtr& t, int32_t dim, int64_t size, int64_t step) {
  TensorPtr out = ops::unfold(t, dim, size, step);
  auto node = std::make_shared<UnfoldNode>();
  node->in_shape = t->shape;
  node->dim = dim, node->size = size, node->step = step;
  return track(t, out, node);
}

TensorPtr contiguous(const TensorPtr& t) { return track(t, ops::contiguous(t), std::make_shared<IdentityNode>()); }
TensorPtr clone(const TensorPtr& t) { return track(t, ops::clone(t), std::make_shared<IdentityNode>()); }

TensorPtr to(const TensorPtr& t, DeviceState& dev, bool non_blocking) {
  return track(t, ops::to(t, dev, non_blocking), std::make_shared<ToNode>(t->device));
}

TensorPtr detach(const TensorPtr& t) {
  return make_view(*t, t->shape, t->strides, t->byte_offset);  // a fresh handle: no grad_fn, no requires_grad
}

}  // namespace porta::ag
