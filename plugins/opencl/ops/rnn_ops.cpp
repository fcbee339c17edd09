// RNN kind (kernels/rnn.cl) over contiguous [N, k H]: one work-item per (row, hidden unit).
#include "ops.hpp"

namespace porta::opencl {

porta_status run_rnn(uint32_t op, int dt, const porta_kernel_call* c) {
  const char* name = op_name(op);
  const bool forward = op == PORTA_OP_LSTM_CELL;
  const int32_t inputs = forward ? 3 : 6, outputs = forward ? 3 : 2;
  const DLTensor* state = c->num_inputs == inputs ? &c->inputs[forward ? 2 : 5] : nullptr;
  if (!state || c->num_outputs != outputs || state->ndim != 2)
    return report(PORTA_ERROR_INVALID_ARGUMENT, std::string(name) + ": expected " + std::to_string(inputs) +
                                                    " inputs, " + std::to_string(outputs) + " outputs and [N, H] states");
  OpCall call;
  if (const porta_status st = begin(c, Family::Rnn, dt, std::string("op_") + name, &call); st != PORTA_OK) return st;
  Launch l(*call.kernel, call.name);
  l.arg(static_cast<cl_long>(state->shape[0])).arg(static_cast<cl_long>(state->shape[1]));
  for (int i = 0; i < c->num_inputs + c->num_outputs; ++i) {
    Operand o;
    const DLTensor& t = i < c->num_inputs ? c->inputs[i] : c->outputs[i - c->num_inputs];
    if (const porta_status st = operand(t, name, &o); st != PORTA_OK) return st;
    l.arg(o);
  }
  return l.enqueue(call.queue, state->shape[0] * state->shape[1]);
}

}  // namespace porta::opencl
