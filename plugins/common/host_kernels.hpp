// Kernels over host memory, shared by every plugin whose device memory the
// host can address (cpu directly; the mock device after decoding its
// handles). Each family lives in its own file; find_host_kernel is the one
// lookup the plugins call.
#pragma once

#include <porta/plugin.h>

#include <cstdint>

#include "plugin_support.hpp"

namespace porta::host {

using enum plugin::DtypeIndex;  // kDtBool ... kDtFloat64: dtype indices by name
using plugin::is_float_dt;
using plugin::data_of;
using plugin::numel;
using plugin::op_params;
using plugin::lookup_kind;    // kind_lookup.hpp: each family's kernel lookup, from the op table
using plugin::no_kernel_for;
using plugin::op_in;
using plugin::op_id;

// The plugin's host table, for error messages (set in initialize()).
void set_host_api(const porta_host_api* host);
// Records `message` with the core and returns `status`.
porta_status report(porta_status status, const char* message);
// Logs a warning through the core (always shown).
void log_warning(const char* message);
// The core's thread count for host kernels (porta_host_api.num_threads), or 0
// when the core predates it (plugin ABI < 1.2) or initialize has not run.
int core_num_threads();

// The call's parameter struct, or nullptr when it is missing or older
// (smaller) than the kernel needs.

// -1 when Porta does not support the dtype.
int host_dtype(DLDataType t);

// The host kernel for (op, dtype), or nullptr.
porta_kernel_fn find_host_kernel(uint32_t op, DLDataType dtype);

// The conversion kernels of every dtype, storage dtypes included: FULL, and
// COPY and CAST (porta/ops.h, porta_op_dtypes).
porta_kernel_fn find_storage_fill_kernel(int dtype);
porta_kernel_fn find_storage_copy_kernel(int dtype);

// Per-family lookups (dtype index as host_dtype returns; compute dtypes only).
porta_kernel_fn find_elementwise_kernel(uint32_t op, int dtype);
porta_kernel_fn find_factory_kernel(uint32_t op, int dtype);
porta_kernel_fn find_reduce_kernel(uint32_t op, int dtype);
porta_kernel_fn find_matmul_kernel(uint32_t op, int dtype);  // bfloat16 too (below)
porta_kernel_fn find_bf16_matmul_kernel();                   // on oneDNN; nullptr when built without its headers
porta_kernel_fn find_conv_kernel(uint32_t op, int dtype);
porta_kernel_fn find_direct_conv_kernel(uint32_t op, int dtype);  // CONV2D ops, on oneDNN
porta_kernel_fn find_pool_kernel(uint32_t op, int dtype);
porta_kernel_fn find_softmax_kernel(uint32_t op, int dtype);
porta_kernel_fn find_loss_kernel(uint32_t op, int dtype);
porta_kernel_fn find_optimizer_kernel(uint32_t op, int dtype);
porta_kernel_fn find_index_kernel(uint32_t op, int dtype);
porta_kernel_fn find_scan_kernel(uint32_t op, int dtype);
porta_kernel_fn find_sort_kernel(uint32_t op, int dtype);
porta_kernel_fn find_norm_kernel(uint32_t op, int dtype);
porta_kernel_fn find_rnn_kernel(uint32_t op, int dtype);

}  // namespace porta::host
