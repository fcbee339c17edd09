// SOFTMAX kind (kernels/softmax.cl) over contiguous [outer, dim, inner]:
// one work-item per row.
#include "ops.hpp"

namespace porta::opencl {

porta_status run_softmax(uint32_t op, int dt, const porta_kernel_call* c) {
  const char* name = op_name(op);
  const DLTensor& t = c->inputs[0];
  if (t.ndim != 3)
    return report(
        PORTA_ERROR_INVALID_ARGUMENT,
        std::string(name) + ": expected a contiguous [outer, dim, inner] tensor, got " + std::to_string(t.ndim) + "-D");
  OpCall call;
  if (const porta_status st = begin(c, Family::Softmax, dt, std::string("op_") + name, &call); st != PORTA_OK)
    return st;
  Launch l(*call.kernel, call.name);
  l.arg(static_cast<cl_long>(t.shape[0])).arg(static_cast<cl_long>(t.shape[1])).arg(static_cast<cl_long>(t.shape[2]));
  for (int i = 0; i <= c->num_inputs && i < 3; ++i) {
    Operand o;
    if (const porta_status st = operand(i < c->num_inputs ? c->inputs[i] : c->outputs[0], name, &o); st != PORTA_OK)
      return st;
    l.arg(o);
  }
  return l.enqueue(call.queue, t.shape[0] * t.shape[2]);
}

}  // namespace porta::opencl
