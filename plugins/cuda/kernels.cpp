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

// The CUDA kernel families, by kind.
constexpr plugin::KindFamilies<porta_kernel_fn (*)(uint32_t, int)> kCudaFamilies = {
    .factory = find_factory_kernel,
    .copy = find_copy_kernel,
    .unary = find_unary_kernel,
    .binary = find_binary_kernel,
    .reduce = find_reduce_kernel,
    .matmul = find_matmul_kernel,
    .conv = find_conv_kernel,
    .pool = find_pool_kernel,
    .softmax = find_softmax_kernel,
    .loss = find_loss_kernel,
    .optimizer = find_optimizer_kernel,
    .index = find_index_kernel,
    .scan = find_scan_kernel,
    .sort = find_sort_kernel,
    .norm = find_norm_kernel,
    .rnn = find_rnn_kernel,
    .unknown = plugin::no_kernel,
};

porta_kernel_fn find_cuda_kernel(uint32_t op, DLDataType dtype) {
  const int dt = dtype_index(dtype);
  if (dt < 0 || op >= PORTA_OP_COUNT) return nullptr;
  if (plugin::is_storage_dt(dt) && !plugin::is_conversion_op(op))  // else computed in float32 / int32 by the core
    return op == PORTA_OP_MATMUL ? find_matmul_kernel(op, dt) : nullptr;  // float16, bfloat16 on cuBLAS
  return plugin::by_kind(kCudaFamilies, op, dt);
}

}  // namespace porta::cuda
