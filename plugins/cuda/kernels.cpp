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

namespace {

// The CUDA kernel families, by kind (plugin::by_kind).
struct CudaFamilies {
  static porta_kernel_fn factory(uint32_t op, int dt) { return find_factory_kernel(op, dt); }
  static porta_kernel_fn copy(uint32_t op, int dt) { return find_copy_kernel(op, dt); }
  static porta_kernel_fn unary(uint32_t op, int dt) { return find_unary_kernel(op, dt); }
  static porta_kernel_fn binary(uint32_t op, int dt) { return find_binary_kernel(op, dt); }
  static porta_kernel_fn reduce(uint32_t op, int dt) { return find_reduce_kernel(op, dt); }
  static porta_kernel_fn matmul(uint32_t op, int dt) { return find_matmul_kernel(op, dt); }
  static porta_kernel_fn conv(uint32_t op, int dt) { return find_conv_kernel(op, dt); }
  static porta_kernel_fn pool(uint32_t op, int dt) { return find_pool_kernel(op, dt); }
  static porta_kernel_fn softmax(uint32_t op, int dt) { return find_softmax_kernel(op, dt); }
  static porta_kernel_fn loss(uint32_t op, int dt) { return find_loss_kernel(op, dt); }
  static porta_kernel_fn optimizer(uint32_t op, int dt) { return find_optimizer_kernel(op, dt); }
  static porta_kernel_fn unknown(uint32_t, int) { return nullptr; }
};

}  // namespace

porta_kernel_fn find_cuda_kernel(uint32_t op, DLDataType dtype) {
  const int dt = dtype_index(dtype);
  if (dt < 0 || op >= PORTA_OP_COUNT) return nullptr;
  return plugin::by_kind<CudaFamilies>(op, dt);
}

}  // namespace porta::cuda
