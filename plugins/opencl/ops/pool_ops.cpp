// POOL kind (kernels/pool.cl): max and average 2-D pooling and their
// gradients over N*C planes.
#include "ops.hpp"
#include "window.hpp"

namespace porta::opencl {
namespace {

// The pooled geometry of `big` [N, C, H, W] -> `small` [N, C, OH, OW].
porta_status check_shapes(const char* op, const Window& w, const DLTensor& big, const DLTensor& small) {
  if (big.ndim != 4 || small.ndim != 4)
    return report(PORTA_ERROR_INVALID_ARGUMENT, std::string(op) + ": expected 4-D [N, C, H, W] tensors");
  if (big.shape[0] != small.shape[0] || big.shape[1] != small.shape[1] || w.out_h(big.shape[2]) != small.shape[2] ||
      w.out_w(big.shape[3]) != small.shape[3])
    return report(PORTA_ERROR_INVALID_ARGUMENT, std::string(op) + ": a " + std::to_string(big.shape[2]) + "x" +
                                                    std::to_string(big.shape[3]) + " input does not pool to " +
                                                    std::to_string(small.shape[2]) + "x" +
                                                    std::to_string(small.shape[3]) + " with this geometry");
  return PORTA_OK;
}

}  // namespace

porta_status run_pool(uint32_t op, int dt, const porta_kernel_call* c) {
  const char* name = op_name(op);
  OpCall call;
  if (const porta_status st = begin(c, Family::Pool, dt, std::string("op_") + name, &call); st != PORTA_OK) return st;
  if (op == PORTA_OP_MAX_POOL2D_BACKWARD) {  // grad_out, indices -> grad_in; the indices suffice
    const DLTensor &gy = c->inputs[0], &idx = c->inputs[1], &gx = c->outputs[0];
    if (gy.ndim != 4 || idx.ndim != 4 || gx.ndim != 4)
      return report(PORTA_ERROR_INVALID_ARGUMENT, std::string(name) + ": expected 4-D [N, C, H, W] tensors");
    const DLTensor* ts[3] = {&gy, &idx, &gx};
    Operand ops[3];
    for (int i = 0; i < 3; ++i)
      if (const porta_status st = operand(*ts[i], name, &ops[i]); st != PORTA_OK) return st;
    const int64_t planes = gx.shape[0] * gx.shape[1];
    Launch l(*call.kernel, call.name);
    l.arg(static_cast<cl_long>(planes))
        .arg(static_cast<cl_long>(gx.shape[2] * gx.shape[3]))
        .arg(static_cast<cl_long>(gy.shape[2] * gy.shape[3]))
        .arg(ops[0])
        .arg(ops[1])
        .arg(ops[2]);
    return l.enqueue(call.queue, planes);
  }
  const auto* p = op_params<porta_pool2d_params>(c);
  if (!p) return missing_params(op, "porta_pool2d_params");
  const Window w = Window::of(*p);
  if (!w.valid()) return invalid_window(name);
  if (op == PORTA_OP_MAX_POOL2D && c->num_outputs < 2)
    return report(PORTA_ERROR_INVALID_ARGUMENT, "max_pool2d: needs two outputs, values and int64 indices");
  const bool backward = op == PORTA_OP_AVG_POOL2D_BACKWARD;
  const DLTensor& big = backward ? c->outputs[0] : c->inputs[0];
  const DLTensor& small = backward ? c->inputs[0] : c->outputs[0];
  if (const porta_status st = check_shapes(name, w, big, small); st != PORTA_OK) return st;
  const int64_t planes = big.shape[0] * big.shape[1];
  Launch l(*call.kernel, call.name);
  for (int64_t v : {planes, big.shape[2], big.shape[3], small.shape[2], small.shape[3]}) l.arg(static_cast<cl_long>(v));
  l.arg(w);
  if (op != PORTA_OP_MAX_POOL2D) l.arg(static_cast<cl_int>(p->count_include_pad != 0));
  const int n_ops = op == PORTA_OP_MAX_POOL2D ? 3 : 2;
  const DLTensor* order[3] = {&c->inputs[0], &c->outputs[0], op == PORTA_OP_MAX_POOL2D ? &c->outputs[1] : nullptr};
  for (int i = 0; i < n_ops; ++i) {
    Operand o;
    if (const porta_status st = operand(*order[i], name, &o); st != PORTA_OK) return st;
    l.arg(o);
  }
  const int64_t sizes[3] = {backward ? big.shape[3] : small.shape[3], backward ? big.shape[2] : small.shape[2], planes};
  return l.enqueue(call.queue, 3, sizes);
}

}  // namespace porta::opencl
