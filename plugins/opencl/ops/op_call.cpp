// The shared beginning of every op runner (ops.hpp).
#include "ops.hpp"

namespace porta::opencl {

porta_status begin(const porta_kernel_call* c, Family family, int dt, const std::string& kernel, OpCall* out) {
  Device* dev = nullptr;
  if (const porta_status st = open_device(c->device, &dev); st != PORTA_OK) return st;
  out->dev = dev;
  out->queue = c->stream ? static_cast<cl_command_queue>(c->stream) : dev->queue();
  out->name = kernel.empty() ? std::string("opencl") : kernel + " (" + dtype_label(dt) + ")";
  if (kernel.empty()) return PORTA_OK;
  return find_cl_kernel(*dev, family, dt, kernel, &out->kernel);
}

porta_status missing_params(uint32_t op, const char* params) {
  return report(PORTA_ERROR_INVALID_ARGUMENT, std::string(op_name(op)) + ": missing or too-small " + params);
}

}  // namespace porta::opencl
