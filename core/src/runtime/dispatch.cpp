#include "runtime/dispatch.hpp"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "runtime/error.hpp"
#include "runtime/op_descriptors.hpp"
#include "runtime/plugin_errors.hpp"
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

namespace {

[[noreturn]] void fail_unknown_dtype(const DeviceState& dev, porta_op op, Dtype dtype) {
  fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op_name(op), ": ", dtype_name(dtype), " tensors are not supported by plugin '",
       dev.backend->name, "': it was built for plugin ABI ", dev.backend->api.abi_major, ".",
       dev.backend->api.abi_minor, ", which predates ", dtype_name(dtype),
       " (plugin ABI 1.10); rebuild the plugin against this core's "
       "porta/plugin.h, or convert the tensor to a dtype it knows first");
}

// A CAST kernel is looked up by its output dtype and takes any input; an
// input dtype the plugin offers no kernel for at all (no FULL, COPY or CAST
// of it: a dtype it never offered) is not handed to it, but reported as the
// missing kernel it is, so that conformance counts it as not implemented.
void check_cast_input_offered(const DeviceState& dev, Dtype in) {
  const auto& k = dev.backend->kernels;
  const int d = static_cast<int>(in);
  if (k[PORTA_OP_FULL][d] || k[PORTA_OP_COPY][d] || k[PORTA_OP_CAST][d]) return;
  fail(PORTA_ERROR_NOT_IMPLEMENTED, "cast (", dtype_name(in), ") is not implemented by plugin '", dev.backend->name,
       "': it offers no kernel of ", dtype_name(in), " at all, so a ", dtype_name(in),
       " tensor cannot be converted on its devices; move it to a device that has them (or convert it there first)");
}

}  // namespace

porta_kernel_fn find_kernel(DeviceState& dev, porta_op op, Dtype dtype) {
  porta_kernel_fn fn = dev.backend->kernels[op][static_cast<int>(dtype)];
  if (fn != nullptr) return fn;
  if (op >= ops_known_at_plugin_minor(dev.backend->api.abi_minor))
    fail(PORTA_ERROR_NOT_IMPLEMENTED, op_name(op), " is not implemented by plugin '", dev.backend->name,
         "': it was built for plugin ABI ", dev.backend->api.abi_major, ".", dev.backend->api.abi_minor,
         ", which predates the op; rebuild the plugin against this core's porta/plugin.h");
  if (static_cast<int>(dtype) >= dtypes_known_at_plugin_minor(dev.backend->api.abi_minor))
    fail_unknown_dtype(dev, op, dtype);
  fail(PORTA_ERROR_NOT_IMPLEMENTED, op_name(op), " (", dtype_name(dtype), ") is not implemented by plugin '",
       dev.backend->name, "'");
}

static bool has_native_kernel(const DeviceState& dev, porta_op op, Dtype dtype) {
  return dev.backend->kernels[op][static_cast<int>(dtype)] != nullptr;
}

// A storage dtype's op runs through its compute dtype's kernel where the
// plugin has none of its own (porta/ops.h, porta_op_dtypes).
static bool runs_in_compute_dtype(const DeviceState& dev, porta_op op, Dtype dtype) {
  return is_storage(dtype) && !PORTA_OP_IS_CONVERSION(op) && !has_native_kernel(dev, op, dtype) &&
         static_cast<int>(dtype) < dtypes_known_at_plugin_minor(dev.backend->api.abi_minor);
}

bool has_kernel(const DeviceState& dev, porta_op op, Dtype dtype) {
  if (has_native_kernel(dev, op, dtype)) return true;
  return runs_in_compute_dtype(dev, op, dtype) && has_native_kernel(dev, op, compute_dtype(dtype));
}

namespace {

// Calls the kernel; returns its status.
porta_status call_kernel(DeviceState& dev, porta_op op, Dtype kernel_dtype, const KernelArg* inputs, int32_t num_inputs,
                         const KernelArg* outputs, int32_t num_outputs, const void* params) {
  require_usable(*dev.backend, dev.name);
  porta_kernel_fn fn = find_kernel(dev, op, kernel_dtype);
  constexpr int32_t kMaxOperands = 6;  // LSTM_CELL_BACKWARD's inputs
  if (num_inputs > kMaxOperands || num_outputs > kMaxOperands)
    fail(PORTA_ERROR_INTERNAL, op_name(op), ": ", num_inputs, " inputs and ", num_outputs, " outputs exceed the ",
         kMaxOperands, " a kernel call carries");
  const int known_dtypes = dtypes_known_at_plugin_minor(dev.backend->api.abi_minor);
  DLTensor ins[kMaxOperands], outs[kMaxOperands];
  for (int32_t i = 0; i < num_inputs; ++i) ins[i] = inputs[i].dl;
  for (int32_t i = 0; i < num_outputs; ++i) outs[i] = outputs[i].dl;
  if (known_dtypes < kDtypeCount)  // never hand a plugin a dtype it does not know (a CAST's input)
    for (int32_t i = 0; i < num_inputs + num_outputs; ++i) {
      const int d = dtype_index(i < num_inputs ? ins[i].dtype : outs[i - num_inputs].dtype);
      if (d >= known_dtypes) fail_unknown_dtype(dev, op, static_cast<Dtype>(d));
    }
  if (op == PORTA_OP_CAST) check_cast_input_offered(dev, static_cast<Dtype>(dtype_index(ins[0].dtype)));
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

void check_status(porta_status st, DeviceState& dev, porta_op op, Dtype kernel_dtype) {
  if (st != PORTA_OK)
    check_plugin(st, *dev.backend, cat(op_name(op), " (", dtype_name(kernel_dtype), ") on ", dev.name));
}

// `a`'s memory seen with another shape and strides.
KernelArg viewed_as(const KernelArg& a, const Dims& shape, const Dims& strides) {
  KernelArg v = a;
  v.shape = shape;
  v.strides = strides;
  v.dl.ndim = shape.n;
  v.dl.shape = v.shape.v.data();
  v.dl.strides = v.strides.v.data();
  return v;
}

// Whether the elements of a view (of `shape`, its broadcast dimensions cut
// to 1) fill a dense block from its first element: its strides, largest
// first, are a contiguous tensor's. A transpose or permutation of one is.
bool fills_a_block(const Dims& shape, const Dims& strides) {
  std::array<std::pair<int64_t, int64_t>, PORTA_MAX_DIMS> dims;  // (stride, size)
  int32_t n = 0;
  for (int32_t i = 0; i < shape.n; ++i)
    if (shape[i] != 1) dims[n++] = {strides[i], shape[i]};
  std::sort(dims.begin(), dims.begin() + n, [](const auto& x, const auto& y) { return x.first > y.first; });
  int64_t expect = 1;
  for (int32_t k = n - 1; k >= 0; --k) {
    if (dims[k].first != expect) return false;
    expect *= dims[k].second;
  }
  return true;
}

// The operands of a storage dtype, as copies in its compute dtype. An
// operand whose elements fill a block (a transposed or permuted one too) is
// converted as the block, in memory order, and the kernel reads the copy
// through the operand's own strides; any other is copied dense. A broadcast
// operand (stride 0 along a dimension: a bias expanded over a batch) has its
// distinct elements converted once and read through the same zero strides.
// An operand that shares memory with one already converted (an optimizer's
// parameter, in and out) shares its copy.
class ComputeCopies {
 public:
  ComputeCopies(DeviceState& dev, Dtype storage) : dev_(dev), storage_(storage), compute_(compute_dtype(storage)) {}

  // `a` itself when it is not of the storage dtype, else its copy (holding
  // a's values when `read`).
  KernelArg convert(const KernelArg& a, bool read) {
    if (dtype_index(a.dl.dtype) != static_cast<int>(storage_)) return a;
    for (const Copy& c : copies_)
      if (c.original.dl.data == a.dl.data && c.original.dl.byte_offset == a.dl.byte_offset &&
          c.original.shape == a.shape && c.original.strides == a.strides)
        return c.view;
    Dims distinct = a.shape;  // a's shape with its broadcast dimensions cut to 1
    for (int32_t i = 0; i < a.shape.n; ++i)
      if (a.strides[i] == 0 && a.shape[i] > 1) distinct[i] = 1;
    const int64_t n = checked_numel(distinct);
    Copy c{a, TensorPtr(), KernelArg(), fills_a_block(distinct, a.strides)};
    if (c.block) {  // converted in memory order, read through a's strides
      c.tensor = empty(dev_, compute_, Dims{n});
      if (read && n > 0) cast(viewed_as(a, Dims{n}, Dims{1}), KernelArg(*c.tensor), compute_);
      c.view = KernelArg(*c.tensor, a.shape, a.strides);
    } else {  // gathered dense
      c.tensor = empty(dev_, compute_, distinct);
      if (read && n > 0) cast(viewed_as(a, distinct, a.strides), KernelArg(*c.tensor), compute_);
      Dims strides = contiguous_strides(distinct);
      for (int32_t i = 0; i < a.shape.n; ++i)
        if (distinct[i] != a.shape[i]) strides[i] = 0;
      c.view = KernelArg(*c.tensor, a.shape, strides);
    }
    copies_.push_back(c);
    return c.view;
  }

  // Writes the copy of `a` (converted earlier) back into a, rounding.
  void write_back(const KernelArg& a) {
    if (dtype_index(a.dl.dtype) != static_cast<int>(storage_) || checked_numel(a.shape) == 0) return;
    for (const Copy& c : copies_)
      if (c.original.dl.data == a.dl.data && c.original.dl.byte_offset == a.dl.byte_offset) {
        const int64_t n = c.tensor->numel();
        if (c.block)
          cast(KernelArg(*c.tensor), viewed_as(a, Dims{n}, Dims{1}), storage_);
        else
          cast(c.view, a, storage_);
        return;
      }
  }

 private:
  struct Copy {
    KernelArg original;
    TensorPtr tensor;
    KernelArg view;  // the tensor as the kernel reads it
    bool block;      // tensor holds original's block in memory order
  };
  void cast(const KernelArg& from, const KernelArg& to, Dtype to_dtype) {
    check_status(call_kernel(dev_, PORTA_OP_CAST, to_dtype, &from, 1, &to, 1, nullptr), dev_, PORTA_OP_CAST, to_dtype);
  }
  DeviceState& dev_;
  Dtype storage_, compute_;
  std::vector<Copy> copies_;
};

// Whether the kernel reads outputs[i] before writing it.
bool reads_output(porta_op op, int32_t i, const void* params) {
  if (op == PORTA_OP_SCATTER) return i == 0;
  if (op == PORTA_OP_MATMUL) return params && static_cast<const porta_matmul_params*>(params)->beta != 0.0;
  return false;
}

// Whether the kernel writes inputs[i] in place (an optimizer's parameter and state).
bool writes_input(porta_op op, int32_t i) { return op_kind(op) == PORTA_OP_KIND_OPTIMIZER && i != 1; }

// Runs op through the compute dtype of `storage`: converts, calls, rounds back.
porta_status call_in_compute_dtype(DeviceState& dev, porta_op op, Dtype storage, const KernelArg* inputs,
                                   int32_t num_inputs, const KernelArg* outputs, int32_t num_outputs,
                                   const void* params) {
  ComputeCopies copies(dev, storage);
  KernelArg ins[6], outs[6];
  if (num_inputs > 6 || num_outputs > 6) fail(PORTA_ERROR_INTERNAL, op_name(op), ": too many operands to convert");
  for (int32_t i = 0; i < num_inputs; ++i) ins[i] = copies.convert(inputs[i], true);
  for (int32_t i = 0; i < num_outputs; ++i) outs[i] = copies.convert(outputs[i], reads_output(op, i, params));
  const porta_status st = call_kernel(dev, op, compute_dtype(storage), ins, num_inputs, outs, num_outputs, params);
  if (st != PORTA_OK) return st;
  for (int32_t i = 0; i < num_outputs; ++i) copies.write_back(outputs[i]);
  for (int32_t i = 0; i < num_inputs; ++i)
    if (writes_input(op, i)) copies.write_back(inputs[i]);
  return PORTA_OK;
}

bool has_elements(const DLTensor& t) {
  for (int32_t i = 0; i < t.ndim; ++i)
    if (t.shape[i] == 0) return false;
  return true;
}

porta_status call_any(DeviceState& dev, porta_op op, Dtype kernel_dtype, const KernelArg* inputs, int32_t num_inputs,
                      const KernelArg* outputs, int32_t num_outputs, const void* params) {
  // A kernel is never called with nothing to write (porta/ops.h): an empty
  // batch or an empty sequence step is done before it starts.
  bool writes = num_outputs == 0;
  for (int32_t i = 0; i < num_outputs && !writes; ++i) writes = has_elements(outputs[i].dl);
  if (!writes) return PORTA_OK;
  if (runs_in_compute_dtype(dev, op, kernel_dtype))
    return call_in_compute_dtype(dev, op, kernel_dtype, inputs, num_inputs, outputs, num_outputs, params);
  const porta_status st = call_kernel(dev, op, kernel_dtype, inputs, num_inputs, outputs, num_outputs, params);
  // A storage dtype's own kernel declined the call, having written nothing
  // (porta/ops.h, porta_op_dtypes): it runs through the compute dtype.
  if (st == PORTA_ERROR_NOT_IMPLEMENTED && is_storage(kernel_dtype) && !PORTA_OP_IS_CONVERSION(op) &&
      has_native_kernel(dev, op, compute_dtype(kernel_dtype))) {
    take_plugin_error();  // the kernel's reason, not the caller's error
    return call_in_compute_dtype(dev, op, kernel_dtype, inputs, num_inputs, outputs, num_outputs, params);
  }
  return st;
}

}  // namespace

void launch(DeviceState& dev, porta_op op, Dtype kernel_dtype, const KernelArg* inputs, int32_t num_inputs,
            const KernelArg* outputs, int32_t num_outputs, const void* params) {
  check_status(call_any(dev, op, kernel_dtype, inputs, num_inputs, outputs, num_outputs, params), dev, op,
               kernel_dtype);
}

bool try_launch(DeviceState& dev, porta_op op, Dtype kernel_dtype, const KernelArg* inputs, int32_t num_inputs,
                const KernelArg* outputs, int32_t num_outputs, const void* params) {
  porta_status st = call_any(dev, op, kernel_dtype, inputs, num_inputs, outputs, num_outputs, params);
  if (st == PORTA_ERROR_NOT_IMPLEMENTED) {
    take_plugin_error();  // the kernel's reason, not the caller's error
    return false;
  }
  check_status(st, dev, op, kernel_dtype);
  return true;
}

void check_same_device(const char* op, std::initializer_list<const porta_tensor*> tensors) {
  const porta_tensor* first = *tensors.begin();
  for (const porta_tensor* t : tensors) {
    if (t->device == first->device) continue;
    std::string where;
    const char* names[] = {"a", "b", "c", "d"};
    int i = 0;
    for (const porta_tensor* u : tensors)
      where += cat(i ? ", " : "", names[i < 4 ? i : 3], " is on ", u->device->name), ++i;
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
    for (int t = 0; t <= n_in && can_merge; ++t) can_merge = merged[t][merged[t].n - 1] == strides[t][i] * out.shape[i];
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
