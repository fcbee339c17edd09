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

porta_kernel_fn find_host_kernel(uint32_t op, DLDataType dtype) {
  const int dt = host_dtype(dtype);
  if (dt < 0 || op >= PORTA_OP_COUNT) return nullptr;
  switch (plugin::op_kind(op)) {
    case PORTA_OP_KIND_FACTORY: return find_factory_kernel(op, dt);
    case PORTA_OP_KIND_REDUCE:
    case PORTA_OP_KIND_ARGREDUCE: return find_reduce_kernel(op, dt);
    case PORTA_OP_KIND_MATMUL: return find_matmul_kernel(op, dt);
    case PORTA_OP_KIND_CONV: return find_conv_kernel(op, dt);
    case PORTA_OP_KIND_POOL: return find_pool_kernel(op, dt);
    case PORTA_OP_KIND_SOFTMAX: return find_softmax_kernel(op, dt);
    case PORTA_OP_KIND_LOSS: return find_loss_kernel(op, dt);
    case PORTA_OP_KIND_OPTIMIZER: return find_optimizer_kernel(op, dt);
    case PORTA_OP_KIND_COPY:
    case PORTA_OP_KIND_UNARY:
    case PORTA_OP_KIND_BINARY:
    case PORTA_OP_KIND_COMPARE:
    case PORTA_OP_KIND_WHERE: return find_elementwise_kernel(op, dt);
    default: return nullptr;
  }
}

}  // namespace porta::host
