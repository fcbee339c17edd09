// The dispatcher: (op, device, dtype) -> kernel in O(1) through the table
// filled at plugin load, and the DLTensor arguments kernels receive.
#pragma once

#include <porta/ops.h>

#include "runtime/tensor.hpp"

namespace porta {

// "add", "matmul", ... from PORTA_OP_LIST.
const char* op_name(porta_op op);
porta_op_kind op_kind(porta_op op);

// A DLTensor plus storage for its (possibly rewritten) shape and strides.
struct KernelArg {
  DLTensor dl{};
  Dims shape, strides;
  KernelArg() = default;
  explicit KernelArg(const porta_tensor& t) { set(t, t.shape, t.strides); }
  KernelArg(const porta_tensor& t, const Dims& shape_, const Dims& strides_) { set(t, shape_, strides_); }
  void set(const porta_tensor& t, const Dims& shape_, const Dims& strides_);
  KernelArg(const KernelArg& o) { *this = o; }
  KernelArg& operator=(const KernelArg& o);  // re-points dl at its own arrays
};

// Looks up the kernel for (op, dtype) on `dev`; NOT_IMPLEMENTED names op,
// dtype and plugin when there is none.
porta_kernel_fn find_kernel(DeviceState& dev, porta_op op, Dtype dtype);
// Whether `dev`'s plugin has that kernel (one built before the op has none),
// or, for a storage dtype, its compute dtype's kernel (which launch then
// runs, converting), for ops whose kernel the core can compose from others
// when it is missing.
bool has_kernel(const DeviceState& dev, porta_op op, Dtype dtype);

// Runs one kernel. `params` may be NULL. An op of a storage dtype (float16,
// bfloat16, int8, int16) whose plugin has no kernel of that dtype runs
// through its compute dtype's kernel: the operands of the storage dtype are
// converted to dense copies, and the outputs (and an optimizer's state)
// rounded back (porta/ops.h, porta_op_dtypes).
void launch(DeviceState& dev, porta_op op, Dtype kernel_dtype, const KernelArg* inputs, int32_t num_inputs,
            const KernelArg* outputs, int32_t num_outputs, const void* params);
inline void launch(DeviceState& dev, porta_op op, Dtype kernel_dtype, const KernelArg* inputs, int32_t num_inputs,
                   const KernelArg& output, const void* params) {
  launch(dev, op, kernel_dtype, inputs, num_inputs, &output, 1, params);
}
// Runs an optional kernel (PORTA_OP_IS_OPTIONAL): false when the kernel
// declines the call with PORTA_ERROR_NOT_IMPLEMENTED (the caller then
// composes it from other kernels); any other failure throws as launch does.
bool try_launch(DeviceState& dev, porta_op op, Dtype kernel_dtype, const KernelArg* inputs, int32_t num_inputs,
                const KernelArg* outputs, int32_t num_outputs, const void* params);

// Fails with DEVICE_MISMATCH naming the op and each argument's device.
void check_same_device(const char* op, std::initializer_list<const porta_tensor*> tensors);

}  // namespace porta

namespace porta {

// Runs an elementwise-shaped kernel (COPY, UNARY, BINARY, COMPARE, WHERE
// kinds): every input is broadcast to `out`'s shape with zero strides, then
// dimensions are coalesced where all operands allow, so kernels see the
// fewest, longest runs. Inputs must already have the kernel's dtype (bool
// for WHERE's condition; any dtype for CAST).
void launch_elementwise(porta_op op, Dtype kernel_dtype, std::initializer_list<const porta_tensor*> inputs,
                        const porta_tensor& out, const void* params = nullptr);

}  // namespace porta
