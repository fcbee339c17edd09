#include "runtime/dispatch.hpp"

#include "runtime/error.hpp"
#include "runtime/plugin_errors.hpp"
#include "runtime/op_descriptors.hpp"
#include "runtime/registry.hpp"

namespace porta {

const char* op_name(porta_op op) {
  const OpDescriptor* d = find_op(op);
  return d ? d->name : "unknown op";
}

porta_op_kind op_kind(porta_op op) {
  const OpDescriptor* d = find_op(op);
  return d ? d->kind : PORTA_OP_KIND_FACTORY;
}

void KernelArg::set(const porta_tensor& t, const Dims& shape_, const Dims& strides_) {
  shape = shape_;
  strides = strides_;
  dl.data = t.storage->block.handle;
  dl.device = t.device->dl;
  dl.ndim = shape.n;
  dl.dtype = to_dl(t.dtype);
  dl.shape = shape.v.data();
  dl.strides = strides.v.data();
  dl.byte_offset = t.byte_offset;
}

KernelArg& KernelArg::operator=(const KernelArg& o) {
  dl = o.dl;
  shape = o.shape;
  strides = o.strides;
  dl.shape = shape.v.data();
  dl.strides = strides.v.data();
  return *this;
}

porta_kernel_fn find_kernel(DeviceState& dev, porta_op op, Dtype dtype) {
  porta_kernel_fn fn = dev.backend->kernels[op][static_cast<int>(dtype)];
  if (fn == nullptr && op >= ops_known_at_plugin_minor(dev.backend->api.abi_minor))
    fail(PORTA_ERROR_NOT_IMPLEMENTED, op_name(op), " is not implemented by plugin '", dev.backend->name,
         "': it was built for plugin ABI ", dev.backend->api.abi_major, ".", dev.backend->api.abi_minor,
         ", which predates the op; rebuild the plugin against this core's porta/plugin.h");
  if (fn == nullptr)
    fail(PORTA_ERROR_NOT_IMPLEMENTED, op_name(op), " (", dtype_name(dtype), ") is not implemented by plugin '",
         dev.backend->name, "'");
  return fn;
}

bool has_kernel(const DeviceState& dev, porta_op op, Dtype dtype) {
  return dev.backend->kernels[op][static_cast<int>(dtype)] != nullptr;
}

namespace {

// Calls the kernel; returns its status.
porta_status call_kernel(DeviceState& dev, porta_op op, Dtype kernel_dtype, const KernelArg* inputs,
                         int32_t num_inputs, const KernelArg* outputs, int32_t num_outputs, const void* params) {
  require_usable(*dev.backend, dev.name);
  porta_kernel_fn fn = find_kernel(dev, op, kernel_dtype);
  constexpr int32_t kMaxOperands = 6;  // LSTM_CELL_BACKWARD's inputs
  if (num_inputs > kMaxOperands || num_outputs > kMaxOperands)
    fail(PORTA_ERROR_INTERNAL, op_name(op), ": ", num_inputs, " inputs and ", num_outputs, " outputs exceed the ",
         kMaxOperands, " a kernel call carries");
  DLTensor ins[kMaxOperands], outs[kMaxOperands];
  for (int32_t i = 0; i < num_inputs; ++i) ins[i] = inputs[i].dl;
  for (int32_t i = 0; i < num_outputs; ++i) outs[i] = outputs[i].dl;
  porta_kernel_call call{};
  call.struct_size = sizeof(call);
  call.device = dev.index;
  call.stream = nullptr;
  call.inputs = ins;
  call.num_inputs = num_inputs;
  call.outputs = outs;
  call.num_outputs = num_outputs;
  call.params = params;
  return fn(&call);
}

}  // namespace

void launch(DeviceState& dev, porta_op op, Dtype kernel_dtype, const KernelArg* inputs, int32_t num_inputs,
            const KernelArg* outputs, int32_t num_outputs, const void* params) {
  porta_status st = call_kernel(dev, op, kernel_dtype, inputs, num_inputs, outputs, num_outputs, params);
  if (st != PORTA_OK) check_plugin(st, *dev.backend, cat(op_name(op), " (", dtype_name(kernel_dtype), ") on ", dev.name));
}

bool try_launch(DeviceState& dev, porta_op op, Dtype kernel_dtype, const KernelArg* inputs, int32_t num_inputs,
                const KernelArg* outputs, int32_t num_outputs, const void* params) {
  porta_status st = call_kernel(dev, op, kernel_dtype, inputs, num_inputs, outputs, num_outputs, params);
  if (st == PORTA_ERROR_NOT_IMPLEMENTED) {
    take_plugin_error();  // the kernel's reason, not the caller's error
    return false;
  }
  if (st != PORTA_OK) check_plugin(st, *dev.backend, cat(op_name(op), " (", dtype_name(kernel_dtype), ") on ", dev.name));
  return true;
}

void check_same_device(const char* op, std::initializer_list<const porta_tensor*> tensors) {
  const porta_tensor* first = *tensors.begin();
  for (const porta_tensor* t : tensors) {
    if (t->device == first->device) continue;
    std::string where;
    const char* names[] = {"a", "b", "c", "d"};
    int i = 0;
    for (const porta_tensor* u : tensors) where += cat(i ? ", " : "", names[i < 4 ? i : 3], " is on ", u->device->name), ++i;
    fail(PORTA_ERROR_DEVICE_MISMATCH, op, ": expected all tensors on one device, but ", where,
         ". Move one with porta_tensor_to (x.to(device) in C++/Python) so both are on the same device.");
  }
}

}  // namespace porta

namespace porta {

void launch_elementwise(porta_op op, Dtype kernel_dtype, std::initializer_list<const porta_tensor*> inputs,
                        const porta_tensor& out, const void* params) {
  const int32_t n_in = static_cast<int32_t>(inputs.size());
  const int32_t nd = out.ndim();
  // strides[0] is the output; strides[1..] the inputs, right-aligned to out's shape.
  Dims strides[4];
  strides[0] = out.strides;
  int k = 1;
  for (const porta_tensor* in : inputs) {
    Dims& s = strides[k++];
    s.n = nd;
    const int32_t off = nd - in->ndim();
    for (int32_t i = 0; i < nd; ++i) {
      const int32_t j = i - off;
      s[i] = (j < 0 || in->shape[j] == 1) ? 0 : in->strides[j];
    }
  }
  // Coalesce: drop size-1 dims and merge dim i into i+1 when every operand
  // is contiguous across the pair.
  Dims shape;
  Dims merged[4];
  for (int32_t i = 0; i < nd; ++i) {
    if (out.shape[i] == 1) continue;
    bool can_merge = shape.n > 0;
    for (int t = 0; t <= n_in && can_merge; ++t)
      can_merge = merged[t][merged[t].n - 1] == strides[t][i] * out.shape[i];
    if (can_merge) {
      shape[shape.n - 1] *= out.shape[i];
      for (int t = 0; t <= n_in; ++t) merged[t][merged[t].n - 1] = strides[t][i];
    } else {
      shape.push_back(out.shape[i]);
      for (int t = 0; t <= n_in; ++t) merged[t].push_back(strides[t][i]);
    }
  }
  KernelArg args[3];
  k = 0;
  for (const porta_tensor* in : inputs) {
    args[k].set(*in, shape, merged[k + 1]);
    ++k;
  }
  KernelArg out_arg(out, shape, merged[0]);
  launch(*out.device, op, kernel_dtype, args, n_in, out_arg, params);
}

}  // namespace porta
