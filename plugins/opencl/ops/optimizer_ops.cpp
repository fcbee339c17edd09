// OPTIMIZER kind (kernels/optimizer.cl): fused in-place SGD and Adam/AdamW,
// with the constants rounded to T exactly as the host kernels round them.
#include <cmath>

#include "ops.hpp"

namespace porta::opencl {
namespace {

template <class T>
porta_status sgd(const OpCall& call, const porta_kernel_call* c, const porta_sgd_params& p) {
  const bool momentum = p.momentum != 0;
  if (momentum && c->num_inputs < 3)
    return report(PORTA_ERROR_INVALID_ARGUMENT, "sgd_step: momentum " + std::to_string(p.momentum) +
                                                    " needs a momentum buffer as the third input (got " +
                                                    std::to_string(c->num_inputs) + " inputs)");
  Operand param, grad, buf;
  if (const porta_status st = operand(c->inputs[0], "sgd_step", &param); st != PORTA_OK) return st;
  if (const porta_status st = operand(c->inputs[1], "sgd_step", &grad); st != PORTA_OK) return st;
  buf = grad;  // any valid buffer: the kernel reads it only with momentum
  if (momentum)
    if (const porta_status st = operand(c->inputs[2], "sgd_step", &buf); st != PORTA_OK) return st;
  const cl_int flags =
      (p.weight_decay != 0 ? 1 : 0) | (momentum ? 2 : 0) | (p.nesterov ? 4 : 0) | (p.first_step ? 8 : 0);
  Launch l(*call.kernel, call.name);
  l.arg(static_cast<cl_long>(numel(c->inputs[0]))).arg(param).arg(grad).arg(buf).arg(flags);
  l.arg(static_cast<T>(p.weight_decay)).arg(static_cast<T>(p.momentum)).arg(static_cast<T>(1.0 - p.dampening));
  l.arg(static_cast<T>(-p.lr));
  return l.enqueue(call.queue, numel(c->inputs[0]));
}

template <class T>
porta_status adam(const OpCall& call, const porta_kernel_call* c, const porta_adam_params& p) {
  if (p.step < 1)
    return report(PORTA_ERROR_INVALID_ARGUMENT, "adam_step: step is " + std::to_string(p.step) + "; it counts from 1");
  Operand ops[4];
  for (int i = 0; i < 4; ++i)
    if (const porta_status st = operand(c->inputs[i], "adam_step", &ops[i]); st != PORTA_OK) return st;
  const double steps = static_cast<double>(p.step);
  const double bias1 = 1.0 - std::pow(p.beta1, steps), bias2 = 1.0 - std::pow(p.beta2, steps);
  const cl_int flags = (p.weight_decay != 0 ? 1 : 0) | (p.decoupled ? 2 : 0);
  Launch l(*call.kernel, call.name);
  l.arg(static_cast<cl_long>(numel(c->inputs[0])));
  for (const Operand& o : ops) l.arg(o);
  l.arg(flags);
  for (double v : {p.weight_decay, 1.0 - p.lr * p.weight_decay, 1.0 - p.beta1, p.beta2, 1.0 - p.beta2, -(p.lr / bias1),
                   std::sqrt(bias2), p.eps})
    l.arg(static_cast<T>(v));
  return l.enqueue(call.queue, numel(c->inputs[0]));
}

}  // namespace

porta_status run_optimizer(uint32_t op, int dt, const porta_kernel_call* c) {
  OpCall call;
  if (const porta_status st = begin(c, Family::Optimizer, dt, std::string("op_") + op_name(op), &call); st != PORTA_OK)
    return st;
  if (op == PORTA_OP_SGD_STEP) {
    const auto* p = op_params<porta_sgd_params>(c);
    if (!p) return missing_params(op, "porta_sgd_params");
    return dt == kDtFloat32 ? sgd<float>(call, c, *p) : sgd<double>(call, c, *p);
  }
  const auto* p = op_params<porta_adam_params>(c);
  if (!p) return missing_params(op, "porta_adam_params");
  return dt == kDtFloat32 ? adam<float>(call, c, *p) : adam<double>(call, c, *p);
}

}  // namespace porta::opencl
