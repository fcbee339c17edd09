#include "kernels.hpp"

namespace porta::cuda {

porta_status begin(const porta_kernel_call* c, Launch* out) {
  if (porta_status st = use_device(c->device, &out->device); st != PORTA_OK) return st;
  out->stream = stream_of(c);
  return PORTA_OK;
}

porta_status launched(const char* op) {
  const cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess) return PORTA_OK;
  return reportf(err == cudaErrorMemoryAllocation ? PORTA_ERROR_OUT_OF_MEMORY : PORTA_ERROR_BACKEND,
                 "%s: kernel launch failed: %s: %s", op, cudaGetErrorName(err), cudaGetErrorString(err));
}

porta_kernel_fn find_cuda_kernel(uint32_t op, DLDataType dtype) {
  const int dt = dtype_index(dtype);
  if (dt < 0 || op >= PORTA_OP_COUNT) return nullptr;
  switch (plugin::op_kind(op)) {
    case PORTA_OP_KIND_FACTORY:
      return find_factory_kernel(op, dt);
    case PORTA_OP_KIND_COPY:
      return find_copy_kernel(op, dt);
    case PORTA_OP_KIND_UNARY:
      return find_unary_kernel(op, dt);
    case PORTA_OP_KIND_BINARY:
    case PORTA_OP_KIND_COMPARE:
    case PORTA_OP_KIND_WHERE:
      return find_binary_kernel(op, dt);
    case PORTA_OP_KIND_REDUCE:
    case PORTA_OP_KIND_ARGREDUCE:
      return find_reduce_kernel(op, dt);
    case PORTA_OP_KIND_MATMUL:
      return find_matmul_kernel(op, dt);
    case PORTA_OP_KIND_CONV:
      return find_conv_kernel(op, dt);
    case PORTA_OP_KIND_POOL:
      return find_pool_kernel(op, dt);
    case PORTA_OP_KIND_SOFTMAX:
      return find_softmax_kernel(op, dt);
    case PORTA_OP_KIND_LOSS:
      return find_loss_kernel(op, dt);
    case PORTA_OP_KIND_OPTIMIZER:
      return find_optimizer_kernel(op, dt);
    default:
      return nullptr;
  }
}

}  // namespace porta::cuda
