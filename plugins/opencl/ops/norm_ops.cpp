// NORM kind (kernels/norm.cl) over contiguous [rows, n]: one work-item per row.
#include "ops.hpp"

namespace porta::opencl {

porta_status run_norm(uint32_t op, int dt, const porta_kernel_call* c) {
  const char* name = op_name(op);
  const auto* p = op_params<porta_norm_params>(c);
  if (!p) return missing_params(op, "porta_norm_params");
  const bool forward = op == PORTA_OP_LAYER_NORM;
  const DLTensor& x = c->inputs[forward ? 0 : 1];
  if (x.ndim != 2 || c->num_inputs != (forward ? 3 : 4) || c->num_outputs != (forward ? 2 : 1))
    return report(PORTA_ERROR_INVALID_ARGUMENT, std::string(name) + ": expected contiguous [rows, n] operands (" +
                                                    std::to_string(forward ? 3 : 4) + " inputs), got " +
                                                    std::to_string(x.ndim) + "-D");
  OpCall call;
  if (const porta_status st = begin(c, Family::Norm, dt, std::string("op_") + name, &call); st != PORTA_OK) return st;
  Launch l(*call.kernel, call.name);
  l.arg(static_cast<cl_long>(x.shape[0])).arg(static_cast<cl_long>(x.shape[1])).real(*call.dev, p->eps);
  for (int i = 0; i < c->num_inputs + c->num_outputs; ++i) {
    Operand o;
    const DLTensor& t = i < c->num_inputs ? c->inputs[i] : c->outputs[i - c->num_inputs];
    if (const porta_status st = operand(t, name, &o); st != PORTA_OK) return st;
    l.arg(o);
  }
  return l.enqueue(call.queue, x.shape[0]);
}

}  // namespace porta::opencl
