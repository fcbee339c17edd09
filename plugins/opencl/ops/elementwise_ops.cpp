// UNARY, BINARY, COMPARE and WHERE kinds (kernels/elementwise.cl) and the
// COPY kind (kernels/copy.cl).
#include <algorithm>

#include "ops.hpp"

namespace porta::opencl {
namespace {

// The layout of the call's operands (output first).
ElementwiseLayout layout_of(const porta_kernel_call* c, const DLTensor** ts, int* k) {
  ts[0] = &c->outputs[0];
  *k = 1 + std::min(c->num_inputs, 3);
  for (int j = 1; j < *k; ++j) ts[j] = &c->inputs[j - 1];
  return elementwise_layout(ts, *k);
}

// Finds `kernel` (in the variant the layout needs), sets the layout and every
// operand, and enqueues.
porta_status launch_elementwise(const porta_kernel_call* c, Family family, int dt, const std::string& kernel,
                                const char* op) {
  const DLTensor* ts[4];
  int k = 0;
  const ElementwiseLayout layout = layout_of(c, ts, &k);
  OpCall call;
  if (const porta_status st = begin(c, family, dt, kernel + layout.variant(), &call); st != PORTA_OK) return st;
  Launch l(*call.kernel, call.name);
  l.elementwise(layout);
  for (int j = 0; j < k; ++j) {
    Operand o;
    if (const porta_status st = operand(*ts[j], op, &o); st != PORTA_OK) return st;
    l.arg(o);
  }
  return l.enqueue(call.queue, layout);
}

// Both contiguous, same dtype, no overlap: a plain buffer copy.
bool copy_as_bytes(const porta_kernel_call* c) {
  const DLTensor &in = c->inputs[0], &out = c->outputs[0];
  if (dtype_index(in.dtype) != dtype_index(out.dtype)) return false;
  const DLTensor* ts[2] = {&out, &in};
  if (elementwise_layout(ts, 2).mode != kContiguous) return false;
  if (in.data != out.data) return true;
  const uint64_t bytes = static_cast<uint64_t>(numel(out) * element_size(out));
  return in.byte_offset + bytes <= out.byte_offset || out.byte_offset + bytes <= in.byte_offset;
}

}  // namespace

porta_status run_elementwise(uint32_t op, int dt, const porta_kernel_call* c) {
  return launch_elementwise(c, Family::Elementwise, dt, std::string("op_") + op_name(op), op_name(op));
}

porta_status run_copy(uint32_t op, int dt, const porta_kernel_call* c) {
  const int from = dtype_index(c->inputs[0].dtype);
  if (from < 0) return report(PORTA_ERROR_UNSUPPORTED_DTYPE, std::string(op_name(op)) + ": unsupported input dtype");
  if (copy_as_bytes(c)) {
    OpCall call;
    if (const porta_status st = begin(c, Family::Copy, dt, "", &call); st != PORTA_OK) return st;
    const DLTensor &in = c->inputs[0], &out = c->outputs[0];
    const cl_int err =
        clEnqueueCopyBuffer(call.queue, static_cast<cl_mem>(in.data), static_cast<cl_mem>(out.data), in.byte_offset,
                            out.byte_offset, static_cast<size_t>(numel(out) * element_size(out)), 0, nullptr, nullptr);
    return err == CL_SUCCESS ? PORTA_OK : report_cl("clEnqueueCopyBuffer", err, op_name(op));
  }
  return launch_elementwise(c, Family::Copy, dt, "cast_from_" + std::to_string(from), op_name(op));
}

}  // namespace porta::opencl
