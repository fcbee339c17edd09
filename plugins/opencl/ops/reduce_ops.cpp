// REDUCE and ARGREDUCE kinds (kernels/reduce.cl) over [outer, reduce, inner]:
// one work-item per output, or one work-group per output when few outputs
// each reduce many elements.
#include "ops.hpp"

namespace porta::opencl {

porta_status run_reduce(uint32_t op, int dt, const porta_kernel_call* c) {
  const DLTensor &in = c->inputs[0], &out = c->outputs[0];
  if (in.ndim != 3)
    return report(PORTA_ERROR_INVALID_ARGUMENT, std::string(op_name(op)) +
                                                    ": expected a contiguous [outer, reduce, inner] input, got " +
                                                    std::to_string(in.ndim) + "-D");
  const int64_t outer = in.shape[0], red = in.shape[1], inner = in.shape[2], outputs = outer * inner;
  const bool grouped = (inner == 1 && red >= 64) || (red >= 1024 && outputs < 1024);
  OpCall call;
  const std::string kernel = std::string("op_") + op_name(op) + (grouped ? "_group" : "_rows");
  if (const porta_status st = begin(c, Family::Reduce, dt, kernel, &call); st != PORTA_OK) return st;
  Operand x, y;
  if (const porta_status st = operand(in, op_name(op), &x); st != PORTA_OK) return st;
  if (const porta_status st = operand(out, op_name(op), &y); st != PORTA_OK) return st;
  Launch l(*call.kernel, call.name);
  l.arg(static_cast<cl_long>(outer)).arg(static_cast<cl_long>(red)).arg(static_cast<cl_long>(inner)).arg(x).arg(y);
  if (!grouped) return l.enqueue(call.queue, outputs);
  const size_t group = l.group_size();
  if (op == PORTA_OP_SUM || op == PORTA_OP_MEAN) {
    const size_t acc = (dt == kDtFloat32 && !call.dev->fp64) ? 4 : 8;  // acc_t: double (float without fp64) or int64
    l.local(group * acc);
  } else {
    l.local(group * static_cast<size_t>(element_size(in))).local(group * sizeof(cl_long));
  }
  return l.enqueue(call.queue, outputs * static_cast<int64_t>(group), group);
}

}  // namespace porta::opencl
