// The cuda plugin's kernels: the lookup the plugin table calls, one lookup
// per op family (each in its own file), and what every kernel needs to
// launch on its device's stream.
#pragma once

#include <cuda_runtime.h>
#include <porta/plugin.h>

#include <cstdint>

#include "current_context.hpp"
#include "devices.hpp"
#include "errors.hpp"
#include "plugin_support.hpp"

namespace porta::cuda {

// The kernel for (op, dtype), or nullptr.
porta_kernel_fn find_cuda_kernel(uint32_t op, DLDataType dtype);

// Porta's dtypes as indices (bool, uint8, int32, int64, float32, float64:
// 0..5, as plugins/common/dtype_dispatch.hpp maps them); -1 for others.
using plugin::dtype_index;  // plugins/common/plugin_support.hpp
using enum plugin::DtypeIndex;  // kDtBool ... kDtFloat64
using plugin::data_of;
using plugin::numel;
using plugin::op_params;
using plugin::lookup_kind;  // plugins/common/kind_lookup.hpp: the lookup the host families share
using plugin::no_kernel_for;
using plugin::op_in;
using plugin::op_id;

// Per-family lookups, by dtype index.
porta_kernel_fn find_copy_kernel(uint32_t op, int dtype);       // COPY, CAST
porta_kernel_fn find_unary_kernel(uint32_t op, int dtype);      // UNARY
porta_kernel_fn find_binary_kernel(uint32_t op, int dtype);     // BINARY, COMPARE, WHERE
porta_kernel_fn find_factory_kernel(uint32_t op, int dtype);    // FACTORY
porta_kernel_fn find_reduce_kernel(uint32_t op, int dtype);     // REDUCE, ARGREDUCE
porta_kernel_fn find_matmul_kernel(uint32_t op, int dtype);     // MATMUL (cuBLAS)
porta_kernel_fn find_conv_kernel(uint32_t op, int dtype);       // CONV
porta_kernel_fn find_pool_kernel(uint32_t op, int dtype);       // POOL
porta_kernel_fn find_softmax_kernel(uint32_t op, int dtype);    // SOFTMAX
porta_kernel_fn find_loss_kernel(uint32_t op, int dtype);       // LOSS
porta_kernel_fn find_optimizer_kernel(uint32_t op, int dtype);  // OPTIMIZER
porta_kernel_fn find_index_kernel(uint32_t op, int dtype);      // INDEX (gather, scatter)
porta_kernel_fn find_scan_kernel(uint32_t op, int dtype);       // SCAN (cumsum, cumprod)
porta_kernel_fn find_sort_kernel(uint32_t op, int dtype);       // SORT
porta_kernel_fn find_norm_kernel(uint32_t op, int dtype);       // NORM (layer_norm, batch_norm)
porta_kernel_fn find_rnn_kernel(uint32_t op, int dtype);        // RNN (lstm_cell)

// Threads per block of the plugin's one-dimensional kernels.
inline constexpr int kThreads = 256;

// A kernel call's device (made current) and stream.
struct Launch {
  CallerContext keep;  // the caller's context comes back when the kernel call returns
  Device* device = nullptr;
  cudaStream_t stream = nullptr;
  // Blocks for a grid-stride loop over `items` with `threads` per block:
  // enough to fill the device, never more than the items need.
  unsigned blocks(int64_t items, int threads = kThreads) const {
    const int64_t need = (items + threads - 1) / threads;
    const int64_t fill = int64_t{device->sm_count} * (2048 / threads);
    const int64_t b = need < fill ? need : fill;
    return static_cast<unsigned>(b > 0 ? b : 1);
  }
};

// Makes the call's device current and fills `out`.
porta_status begin(const porta_kernel_call* c, Launch* out);

// Reports a failed launch (cudaGetLastError), naming the op.
porta_status launched(const char* op);


}  // namespace porta::cuda
