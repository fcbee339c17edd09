// torch.autograd.Function: a node whose backward is the caller's (C, C++,
// Python through the C ABI), attached to an output the caller computed.
#include "autograd/function.hpp"

#include "autograd/node.hpp"
#include "ops/ag.hpp"
#include "ops/ops.hpp"
#include "runtime/error.hpp"

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

// Whether the node would have history: some (non-null) input needs a gradient.
bool any_needs_grad(const std::vector<TensorPtr>& inputs) {
  for (const TensorPtr& in : inputs)
    if (in && needs_grad({&in})) return true;
  return false;
}

}  // namespace

TensorPtr attach_function(const TensorPtr& output, const std::vector<TensorPtr>& inputs, CustomBackward backward,
                          const std::string& name) {
  TensorPtr out = make_view(*output, output->shape, output->strides, output->byte_offset);
  if (!any_needs_grad(inputs)) return out;
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

std::vector<TensorPtr> attach_function_outputs(const std::vector<TensorPtr>& outputs,
                                               const std::vector<TensorPtr>& inputs, CustomBackwardOutputs backward,
                                               const std::string& name) {
  if (outputs.empty()) fail(PORTA_ERROR_INVALID_ARGUMENT, name, ": a function needs at least one output");
  Dtype packed_dtype = outputs[0]->dtype;
  for (const TensorPtr& y : outputs) {
    if (!is_floating(y->dtype))
      fail(PORTA_ERROR_UNSUPPORTED_DTYPE, name, ": every output given a gradient must be float, got ",
           dtype_name(y->dtype), "; leave integer outputs out (they are not differentiable)");
    if (y->device != outputs[0]->device)
      fail(PORTA_ERROR_DEVICE_MISMATCH, name, ": the differentiable outputs must share a device, got ",
           outputs[0]->device->name, " and ", y->device->name);
    packed_dtype = promote(packed_dtype, y->dtype);
  }
  std::vector<TensorPtr> out;
  if (!any_needs_grad(inputs)) {  // no history: the outputs as they are, on new handles
    for (const TensorPtr& y : outputs) out.push_back(make_view(*y, y->shape, y->strides, y->byte_offset));
    return out;
  }
  std::vector<int64_t> offsets{0};
  std::vector<Dims> shapes;
  std::vector<Dtype> dtypes;
  std::vector<TensorPtr> flat;
  TensorPtr packed;
  {
    NoGradGuard no_grad;
    for (const TensorPtr& y : outputs) {
      flat.push_back(ops::reshape(ops::cast(ops::contiguous(y), packed_dtype), Dims{y->numel()}));
      offsets.push_back(offsets.back() + y->numel());
      shapes.push_back(y->shape);
      dtypes.push_back(y->dtype);
    }
    packed = ag::cat(flat, 0);
  }
  auto split = [backward = std::move(backward), offsets, shapes, dtypes](const TensorPtr& g) {
    std::vector<TensorPtr> grads;
    for (size_t i = 0; i < shapes.size(); ++i)
      grads.push_back(ops::cast(
          ops::reshape(ops::contiguous(ops::slice(g, 0, offsets[i], offsets[i + 1], 1)), shapes[i]), dtypes[i]));
    return backward(grads);
  };
  TensorPtr attached = attach_function(packed, inputs, std::move(split), name);
  for (size_t i = 0; i < outputs.size(); ++i)
    out.push_back(ag::cast(ag::reshape(ag::slice(attached, 0, offsets[i], offsets[i + 1], 1), shapes[i]), dtypes[i]));
  return out;
}

TensorPtr attach_zero_gradients(const TensorPtr& output, std::vector<TensorPtr> inputs, const std::string& name) {
  std::erase_if(inputs, [](const TensorPtr& t) { return !t; });
  return attach_function(
      output, inputs,
      [inputs](const TensorPtr& g) {
        std::vector<TensorPtr> zeros;
        for (const TensorPtr& in : inputs)
          zeros.push_back(is_floating(in->dtype) ? ops::full(*g->device, in->shape, 0.0, in->dtype) : TensorPtr());
        return zeros;
      },
      name);
}

}  // namespace porta::autograd
