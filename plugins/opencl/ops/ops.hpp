// The op families of the OpenCL plugin: one runner per family, called by
// kernel_table.cpp with the op id and dtype index fixed at lookup time.
#pragma once

#include <porta/plugin.h>

#include <string>

#include "kernel_launch.hpp"
#include "plugin_support.hpp"

namespace porta::opencl {

// "add", "matmul", ... from PORTA_OP_LIST.

// What a runner needs for one call: the opened device, the queue (the
// call's stream, else the device's), the kernel, and a name for messages.
struct OpCall {
  Device* dev = nullptr;
  cl_command_queue queue = nullptr;
  Kernel* kernel = nullptr;
  std::string name;  // "add (float32)"
};
// Opens the call's device; with a non-empty `kernel`, also finds it in
// `family`'s program for `dt`.
porta_status begin(const porta_kernel_call* c, Family family, int dt, const std::string& kernel, OpCall* out);

// The call's parameter struct, or nullptr when it is missing or older
// (smaller) than the kernel needs.
// INVALID_ARGUMENT: "<op>: missing or too-small <params>".
porta_status missing_params(uint32_t op, const char* params);

// Porta's dtype index of `t` (0 bool .. 9 bfloat16), -1 when unsupported.
using plugin::dtype_index;  // plugins/common/plugin_support.hpp
using enum plugin::DtypeIndex;  // kDtBool ... kDtBFloat16
using plugin::op_name;
using plugin::op_params;
using plugin::conv_params;

porta_status run_elementwise(uint32_t op, int dt, const porta_kernel_call* c);
porta_status run_copy(uint32_t op, int dt, const porta_kernel_call* c);
porta_status run_factory(uint32_t op, int dt, const porta_kernel_call* c);
porta_status run_reduce(uint32_t op, int dt, const porta_kernel_call* c);
porta_status run_matmul(uint32_t op, int dt, const porta_kernel_call* c);
porta_status run_conv(uint32_t op, int dt, const porta_kernel_call* c);
porta_status run_pool(uint32_t op, int dt, const porta_kernel_call* c);
porta_status run_softmax(uint32_t op, int dt, const porta_kernel_call* c);
porta_status run_loss(uint32_t op, int dt, const porta_kernel_call* c);
porta_status run_optimizer(uint32_t op, int dt, const porta_kernel_call* c);
porta_status run_index(uint32_t op, int dt, const porta_kernel_call* c);
porta_status run_scan(uint32_t op, int dt, const porta_kernel_call* c);
porta_status run_sort(uint32_t op, int dt, const porta_kernel_call* c);
porta_status run_norm(uint32_t op, int dt, const porta_kernel_call* c);
porta_status run_rnn(uint32_t op, int dt, const porta_kernel_call* c);

}  // namespace porta::opencl
