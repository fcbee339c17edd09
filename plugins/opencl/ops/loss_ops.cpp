// LOSS kind (kernels/loss.cl): cross entropy with class indices. The
// targets are read back and checked first, so an out-of-range class is an
// error naming it (as on the cpu) rather than a NaN.
#include <vector>

#include "ops.hpp"

namespace porta::opencl {
namespace {

porta_status check_targets(const OpCall& call, const char* op, const DLTensor& logits, const Operand& target) {
  const int64_t n = logits.shape[0], classes = logits.shape[1];
  std::vector<int64_t> t(static_cast<size_t>(n));
  const cl_int err = clEnqueueReadBuffer(call.queue, target.mem, CL_TRUE, static_cast<size_t>(target.offset) * 8,
                                         t.size() * 8, t.data(), 0, nullptr, nullptr);
  if (err != CL_SUCCESS) return report_cl("clEnqueueReadBuffer", err, std::string(op) + " targets");
  for (int64_t i = 0; i < n; ++i)
    if (t[i] < 0 || t[i] >= classes)
      return report(PORTA_ERROR_INVALID_ARGUMENT, std::string(op) + ": target[" + std::to_string(i) +
                                                      "] = " + std::to_string(t[i]) + " is outside [0, " +
                                                      std::to_string(classes) + "), the number of classes");
  return PORTA_OK;
}

}  // namespace

porta_status run_loss(uint32_t op, int dt, const porta_kernel_call* c) {
  const char* name = op_name(op);
  const DLTensor &logits = c->inputs[0], &target = c->inputs[1];
  if (logits.ndim != 2 || target.ndim != 1 || target.shape[0] != logits.shape[0])
    return report(PORTA_ERROR_INVALID_ARGUMENT, std::string(name) + ": expected logits [N, C] and target [N], got " +
                                                    std::to_string(logits.ndim) + "-D and " +
                                                    std::to_string(target.ndim) + "-D");
  OpCall call;
  if (const porta_status st = begin(c, Family::Loss, dt, std::string("op_") + name, &call); st != PORTA_OK) return st;
  Operand ops[4];
  const int n_ops = c->num_inputs + 1;
  for (int i = 0; i < n_ops && i < 4; ++i)
    if (const porta_status st = operand(i < c->num_inputs ? c->inputs[i] : c->outputs[0], name, &ops[i]);
        st != PORTA_OK)
      return st;
  if (const porta_status st = check_targets(call, name, logits, ops[1]); st != PORTA_OK) return st;
  Launch l(*call.kernel, call.name);
  l.arg(static_cast<cl_long>(logits.shape[0])).arg(static_cast<cl_long>(logits.shape[1]));
  for (int i = 0; i < n_ops && i < 4; ++i) l.arg(ops[i]);
  return l.enqueue(call.queue, logits.shape[0]);
}

}  // namespace porta::opencl
