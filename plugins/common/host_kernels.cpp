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

namespace {

// The host kernel families, by kind (plugin::by_kind).
struct HostFamilies {
  static porta_kernel_fn factory(uint32_t op, int dt) { return find_factory_kernel(op, dt); }
  static porta_kernel_fn copy(uint32_t op, int dt) { return find_elementwise_kernel(op, dt); }
  static porta_kernel_fn unary(uint32_t op, int dt) { return find_elementwise_kernel(op, dt); }
  static porta_kernel_fn binary(uint32_t op, int dt) { return find_elementwise_kernel(op, dt); }
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

porta_kernel_fn find_host_kernel(uint32_t op, DLDataType dtype) {
  const int dt = host_dtype(dtype);
  if (dt < 0 || op >= PORTA_OP_COUNT) return nullptr;
  return plugin::by_kind<HostFamilies>(op, dt);
}

}  // namespace porta::host
