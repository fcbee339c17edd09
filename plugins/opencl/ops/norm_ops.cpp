// NORM kind (kernels/norm.cl): one work-item per row of contiguous
// [rows, n] (layer norm) or per channel of [N, C, S] (batch norm).
#include "ops.hpp"

namespace porta::opencl {

porta_status run_norm(uint32_t op, int dt, const porta_kernel_call* c) {
  const char* name = op_name(op);
  const auto* p = op_params<porta_norm_params>(c);
  if (!p) return missing_params(op, "porta_norm_params");
  const bool batch = op == PORTA_OP_BATCH_NORM || op == PORTA_OP_BATCH_NORM_BACKWARD;
  const bool forward = op == PORTA_OP_LAYER_NORM || op == PORTA_OP_BATCH_NORM;
  const DLTensor& x = c->inputs[forward ? 0 : 1];
  const int rank = batch ? 3 : 2, outputs = op == PORTA_OP_LAYER_NORM_BACKWARD ? 1 : 2;
  if (x.ndim != rank || c->num_inputs != (forward ? 3 : 4) || c->num_outputs != outputs)
    return report(PORTA_ERROR_INVALID_ARGUMENT, std::string(name) + ": expected contiguous " +
                                                    (batch ? "[N, C, S]" : "[rows, n]") + " operands (" +
                                                    std::to_string(forward ? 3 : 4) + " inputs), got " +
                                                    std::to_string(x.ndim) + "-D");
  OpCall call;
  if (const porta_status st = begin(c, Family::Norm, dt, std::string("op_") + name, &call); st != PORTA_OK) return st;
  Launch l(*call.kernel, call.name);
  for (int d = 0; d < rank; ++d) l.arg(static_cast<cl_long>(x.shape[d]));
  l.real(*call.dev, p->eps);
  for (int i = 0; i < c->num_inputs + c->num_outputs; ++i) {
    Operand o;
    const DLTensor& t = i < c->num_inputs ? c->inputs[i] : c->outputs[i - c->num_inputs];
    if (const porta_status st = operand(t, name, &o); st != PORTA_OK) return st;
    l.arg(o);
  }
  return l.enqueue(call.queue, x.shape[batch ? 1 : 0]);
}

}  // namespace porta::opencl
