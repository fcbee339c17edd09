#include "host_kernels.hpp"

#include "plugin_support.hpp"

#include <porta/ops.h>

#include <cstddef>
#include <cstring>

namespace porta::host {
namespace {
const porta_host_api* g_host = nullptr;
}

void set_host_api(const porta_host_api* host) { g_host = host; }

void log_warning(const char* message) {
  if (g_host && g_host->log) g_host->log(PORTA_LOG_WARN, message);
}

int core_num_threads() {
  const bool has = g_host && g_host->struct_size >= offsetof(porta_host_api, num_threads) + sizeof(g_host->num_threads) &&
                   g_host->num_threads;
  return has ? g_host->num_threads() : 0;
}

porta_status report(porta_status status, const char* message) {
  if (g_host && g_host->set_error) g_host->set_error(message);
  return status;
}

int host_dtype(DLDataType t) { return plugin::dtype_index(t); }

// The host kernel families, by kind.
constexpr plugin::KindFamilies<porta_kernel_fn (*)(uint32_t, int)> kHostFamilies = {
    .factory = find_factory_kernel, .copy = find_elementwise_kernel, .unary = find_elementwise_kernel,
    .binary = find_elementwise_kernel, .reduce = find_reduce_kernel, .matmul = find_matmul_kernel,
    .conv = find_conv_kernel, .pool = find_pool_kernel, .softmax = find_softmax_kernel, .loss = find_loss_kernel,
    .optimizer = find_optimizer_kernel, .index = find_index_kernel, .scan = find_scan_kernel,
    .sort = find_sort_kernel, .norm = find_norm_kernel, .rnn = find_rnn_kernel, .unknown = plugin::no_kernel};

porta_kernel_fn find_host_kernel(uint32_t op, DLDataType dtype) {
  const int dt = host_dtype(dtype);
  if (dt < 0 || op >= PORTA_OP_COUNT) return nullptr;
  if (plugin::is_storage_dt(dt)) {  // else computed in float32 / int32 by the core
    if (op == PORTA_OP_FULL) return find_storage_fill_kernel(dt);
    if (op == PORTA_OP_COPY || op == PORTA_OP_CAST) return find_storage_copy_kernel(dt);
    if (op == PORTA_OP_MATMUL) return find_matmul_kernel(op, dt);  // bfloat16 on oneDNN
    if (op >= PORTA_OP_CONV2D && op <= PORTA_OP_CONV2D_BACKWARD_WEIGHT) return find_direct_conv_kernel(op, dt);
    return nullptr;
  }
  return plugin::by_kind(kHostFamilies, op, dt);
}

}  // namespace porta::host
