// torch.autograd.Function: a node whose backward is the caller's (C, C++,
// Python through the C ABI), attached to an output the caller computed.
#include "runtime/error.hpp"
#include "ops/ops.hpp"
#include "autograd/node.hpp"
#include "autograd/function.hpp"

namespace porta::autograd {
namespace {

struct FunctionNode final : Node {
  std::string label;
  CustomBackward backward;
  std::vector<Dims> shapes;
  std::vector<Dtype> dtypes;
  std::vector<DeviceState*> devices;
  const char* name() const override { return label.c_str(); }
  void release_saved() override { backward = nullptr; }  // frees the caller's state (its saved tensors) now
  std::vector<TensorPtr> apply(const TensorPtr& g) override {
    std::vector<TensorPtr> grads = backward(g);
    if (grads.size() != next.size())
      fail(PORTA_ERROR_INVALID_ARGUMENT, label, ": the backward returned ", grads.size(), " gradients, expected ",
           next.size(), " (one per input)");
    for (size_t i = 0; i < grads.size(); ++i) {
      if (!grads[i] || !next[i]) {
        grads[i].reset();
        continue;
      }
      const porta_tensor& gi = *grads[i];
      if (gi.shape != shapes[i] || gi.device != devices[i])
        fail(PORTA_ERROR_INVALID_ARGUMENT, label, ": the backward returned an invalid gradient at index ", i,
             ": got ", gi.shape.str(), " on ", gi.device->name, " but expected ", shapes[i].str(), " on ",
             devices[i]->name, " (the input's shape and device)");
      if (gi.dtype != dtypes[i]) grads[i] = ops::cast(grads[i], dtypes[i]);
    }
    return grads;
  }
};

}  // namespace

TensorPtr attach_function(const TensorPtr& output, const std::vector<TensorPtr>& inputs, CustomBackward backward,
                          const std::string& name) {
  TensorPtr out = make_view(*output, output->shape, output->strides, output->byte_offset);
  std::vector<const TensorPtr*> pointers;
  for (const TensorPtr& in : inputs) pointers.push_back(in ? &in : nullptr);
  bool any = false;
  for (const TensorPtr* in : pointers)
    if (in) any = any || needs_grad({in});
  if (!any) return out;
  if (!is_floating(output->dtype))
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, name, ": the output of a function whose inputs require grad must be float, "
         "got ", dtype_name(output->dtype));
  auto node = std::make_shared<FunctionNode>();
  node->label = name;
  node->backward = std::move(backward);
  for (const TensorPtr& in : inputs) {
    node->shapes.push_back(in ? in->shape : Dims{});
    node->dtypes.push_back(in ? in->dtype : Dtype::Float32);
    node->devices.push_back(in ? in->device : nullptr);
    node->next.push_back(in ? gradient_edge(in) : nullptr);
  }
  set_history(*out, std::move(node));
  return out;
}

}  // namespace porta::autograd
