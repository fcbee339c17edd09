// torch.cat, stack, split and unbind, recorded by autograd: cat's backward
// hands each input its slice of the gradient (in the input's own dtype);
// split and unbind are views, whose gradients flow back through slice and
// select.
#include "runtime/error.hpp"
#include "ops/ag.hpp"
#include "autograd/node.hpp"

namespace porta::ag {
namespace {

using autograd::Node;

struct CatNode final : Node {
  int32_t dim;
  std::vector<int64_t> sizes;  // each input's extent along dim
  std::vector<bool> skipped;   // a 1-D empty input cat() left out
  std::vector<Dtype> dtypes;   // each input's dtype
  const char* name() const override { return "CatBackward"; }
  bool differentiable_twice() const override { return true; }
  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    std::vector<TensorPtr> grads;
    int64_t offset = 0;
    for (size_t i = 0; i < sizes.size(); ++i) {
      if (!next[i]) {
        offset += sizes[i];
        grads.emplace_back();
        continue;
      }
      if (skipped[i]) {
        grads.push_back(ops::full(*g->device, Dims{0}, 0.0, dtypes[i]));
        continue;
      }
      grads.push_back(cast(slice(g, dim, offset, offset + sizes[i], 1), dtypes[i]));
      offset += sizes[i];
    }
    return grads;
  }
};

bool is_empty_1d(const porta_tensor& t) { return t.ndim() == 1 && t.shape[0] == 0; }

}  // namespace

TensorPtr cat(const std::vector<TensorPtr>& tensors, int32_t dim) {
  if (tensors.empty()) fail(PORTA_ERROR_INVALID_ARGUMENT, "cat: expected a non-empty list of tensors");
  std::vector<const porta_tensor*> kept;
  Dtype dtype = tensors[0]->dtype;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const TensorPtr& t = tensors[i];
    if (t->device != tensors[0]->device)
      fail(PORTA_ERROR_DEVICE_MISMATCH, "cat: expected all tensors to be on the same device, but tensor 0 is on ",
           tensors[0]->device->name, " and tensor ", i, " on ", t->device->name, "; move them first (.to(device))");
    dtype = promote(dtype, t->dtype);
    if (!is_empty_1d(*t)) kept.push_back(t.get());
  }
  if (kept.empty()) kept.push_back(tensors[0].get());
  const porta_tensor& first = *kept[0];
  const int32_t d = ops::wrap_dim("cat", dim, std::max(first.ndim(), 1));
  Dims shape = first.shape;
  shape[d] = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const porta_tensor& t = *tensors[i];
    if (is_empty_1d(t) && &t != &first) continue;
    if (t.ndim() == 0)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "cat: zero-dimensional tensor (at position ", i, ") cannot be concatenated");
    if (t.ndim() != first.ndim())
      fail(PORTA_ERROR_SHAPE_MISMATCH, "cat: tensors must have the same number of dimensions: got ", first.ndim(),
           " and ", t.ndim(), " (tensor ", i, ")");
    for (int32_t k = 0; k < first.ndim(); ++k)
      if (k != d && t.shape[k] != first.shape[k])
        fail(PORTA_ERROR_SHAPE_MISMATCH, "cat: sizes of tensors must match except in dimension ", d, ". Expected size ",
             first.shape[k], " but got size ", t.shape[k], " for tensor number ", i, " in the list");
    shape[d] += t.shape[d];
  }
  TensorPtr out = empty(*first.device, dtype, shape);
  auto node = std::make_shared<CatNode>();
  node->dim = d;
  bool grad = false;
  int64_t offset = 0;
  for (const TensorPtr& t : tensors) {
    const bool skipped = is_empty_1d(*t) && t.get() != &first;
    const int64_t n = skipped ? 0 : t->shape[d];
    if (n > 0) ops::copy_into(ops::slice(out, d, offset, offset + n, 1), ops::cast(t, dtype));
    offset += n;
    node->sizes.push_back(n);
    node->skipped.push_back(skipped);
    node->dtypes.push_back(t->dtype);
    const bool needs = autograd::needs_grad({&t});
    grad = grad || needs;
    node->next.push_back(needs ? autograd::gradient_edge(t) : nullptr);
  }
  if (grad && is_floating(dtype)) {
    out->grad_fn = std::move(node);
    out->requires_grad = true;
  }
  return out;
}

TensorPtr stack(const std::vector<TensorPtr>& tensors, int32_t dim) {
  if (tensors.empty()) fail(PORTA_ERROR_INVALID_ARGUMENT, "stack: expected a non-empty list of tensors");
  const int32_t d = ops::wrap_dim("stack", dim, tensors[0]->ndim() + 1);
  std::vector<TensorPtr> parts;
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (tensors[i]->shape != tensors[0]->shape)
      fail(PORTA_ERROR_SHAPE_MISMATCH, "stack: expects each tensor to be equal size, but got ",
           tensors[0]->shape.str(), " at entry 0 and ", tensors[i]->shape.str(), " at entry ", i);
    parts.push_back(unsqueeze(tensors[i], d));
  }
  return ag::cat(parts, d);
}

namespace {

// split's and unbind's views of a tensor autograd records: refused as in-place targets (autograd/inplace.cpp).
std::vector<TensorPtr> mark_multi_output(const TensorPtr& t, std::vector<TensorPtr> views) {
  if (autograd::needs_grad({&t}))
    for (TensorPtr& v : views)
      if (v.get() != t.get()) v->multi_output_view = true;
  return views;
}

}  // namespace

std::vector<TensorPtr> split(const TensorPtr& t, const std::vector<int64_t>& sizes, int32_t dim) {
  if (t->ndim() == 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "split: a zero-dimensional tensor cannot be split");
  const int32_t d = ops::wrap_dim("split", dim, t->ndim());
  int64_t total = 0;
  for (int64_t s : sizes) {
    if (s < 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "split: split sizes must be non-negative, got ", s);
    total += s;
  }
  if (total != t->shape[d])
    fail(PORTA_ERROR_INVALID_ARGUMENT, "split: split sizes add up to ", total, " but dimension ", d, " has size ",
         t->shape[d], "; they must add up to it exactly");
  std::vector<TensorPtr> out;
  int64_t offset = 0;
  for (int64_t s : sizes) {
    out.push_back(slice(t, d, offset, offset + s, 1));
    offset += s;
  }
  return mark_multi_output(t, std::move(out));
}

std::vector<TensorPtr> unbind(const TensorPtr& t, int32_t dim) {
  if (t->ndim() == 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "unbind: dimension specified as ", dim, " but tensor has no dimensions");
  const int32_t d = ops::wrap_dim("unbind", dim, t->ndim());
  std::vector<TensorPtr> out;
  for (int64_t i = 0; i < t->shape[d]; ++i) out.push_back(select(t, d, i));
  return mark_multi_output(t, std::move(out));
}

}  // namespace porta::ag
