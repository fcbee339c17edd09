// CONV kind (kernels/conv.cl): IM2COL and COL2IM around a convolution's GEMM.
#include "ops.hpp"
#include "window.hpp"

namespace porta::opencl {

porta_status run_conv(uint32_t op, int dt, const porta_kernel_call* c) {
  const char* name = op_name(op);
  const auto* p = conv_params(c);
  if (!p) return missing_params(op, "porta_conv2d_params");
  const Window w = Window::of(*p);
  if (!w.valid()) return invalid_window(name);
  const bool im2col = op == PORTA_OP_IM2COL;
  const DLTensor& x = im2col ? c->inputs[0] : c->outputs[0];
  const DLTensor& cols = im2col ? c->outputs[0] : c->inputs[0];
  if (x.ndim != 4 || cols.ndim != 2)
    return report(PORTA_ERROR_INVALID_ARGUMENT,
                  std::string(name) + ": expected x [N, C, H, W] and cols [C*KH*KW, N*OH*OW], got " +
                      std::to_string(x.ndim) + "-D and " + std::to_string(cols.ndim) + "-D");
  const int64_t n = x.shape[0], ch = x.shape[1], h = x.shape[2], wd = x.shape[3];
  const int64_t oh = w.out_h(h), ow = w.out_w(wd);
  if (cols.shape[0] != ch * w.kh * w.kw || cols.shape[1] != n * oh * ow)
    return report(PORTA_ERROR_INVALID_ARGUMENT, std::string(name) + ": cols must be [" +
                                                    std::to_string(ch * w.kh * w.kw) + ", " +
                                                    std::to_string(n * oh * ow) + "] for this x and geometry");
  OpCall call;
  if (const porta_status st = begin(c, Family::Conv, dt, std::string("op_") + name, &call); st != PORTA_OK) return st;
  Operand in, out;
  if (const porta_status st = operand(c->inputs[0], name, &in); st != PORTA_OK) return st;
  if (const porta_status st = operand(c->outputs[0], name, &out); st != PORTA_OK) return st;
  Launch l(*call.kernel, call.name);
  for (int64_t v : {n, ch, h, wd, oh, ow}) l.arg(static_cast<cl_long>(v));
  l.arg(w).arg(in).arg(out);
  if (!im2col) return l.enqueue(call.queue, n * ch * h);
  const int64_t sizes[2] = {n * oh, ch * w.kh * w.kw};
  return l.enqueue(call.queue, 2, sizes);
}

}  // namespace porta::opencl
