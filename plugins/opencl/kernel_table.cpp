// find_kernel: which (op, dtype) pairs the plugin offers (those of the cpu
// plugin; float64 only where a device has cl_khr_fp64), and one entry
// point per pair that hands the call to its family's runner.
#include <array>
#include <utility>

#include "ops/ops.hpp"

namespace porta::opencl {
namespace {

porta_status run(uint32_t op, int dt, const porta_kernel_call* c) {
  switch (plugin::op_kind(op)) {
    case PORTA_OP_KIND_FACTORY:
      return run_factory(op, dt, c);
    case PORTA_OP_KIND_COPY:
      return run_copy(op, dt, c);
    case PORTA_OP_KIND_UNARY:
    case PORTA_OP_KIND_BINARY:
    case PORTA_OP_KIND_COMPARE:
    case PORTA_OP_KIND_WHERE:
      return run_elementwise(op, dt, c);
    case PORTA_OP_KIND_REDUCE:
    case PORTA_OP_KIND_ARGREDUCE:
      return run_reduce(op, dt, c);
    case PORTA_OP_KIND_MATMUL:
      return run_matmul(op, dt, c);
    case PORTA_OP_KIND_CONV:
      return run_conv(op, dt, c);
    case PORTA_OP_KIND_POOL:
      return run_pool(op, dt, c);
    case PORTA_OP_KIND_SOFTMAX:
      return run_softmax(op, dt, c);
    case PORTA_OP_KIND_LOSS:
      return run_loss(op, dt, c);
    case PORTA_OP_KIND_OPTIMIZER:
      return run_optimizer(op, dt, c);
    default:
      return report(PORTA_ERROR_NOT_IMPLEMENTED, "unknown op id " + std::to_string(op));
  }
}

template <uint32_t Op, int Dt>
porta_status entry(const porta_kernel_call* c) {
  return run(Op, Dt, c);
}

template <uint32_t Op, int... Dt>
constexpr std::array<porta_kernel_fn, sizeof...(Dt)> row(std::integer_sequence<int, Dt...>) {
  return {&entry<Op, Dt>...};
}

template <uint32_t... Op>
constexpr std::array<std::array<porta_kernel_fn, kDtypes>, sizeof...(Op)> table(
    std::integer_sequence<uint32_t, Op...>) {
  return {row<Op>(std::make_integer_sequence<int, kDtypes>{})...};
}

constexpr auto kEntries = table(std::make_integer_sequence<uint32_t, PORTA_OP_COUNT>{});

}  // namespace

porta_kernel_fn find_kernel(uint32_t op, DLDataType dtype) {
  const int dt = dtype_index(dtype);
  if (dt < 0 || op >= PORTA_OP_COUNT || !plugin::op_takes_dtype(op, dt)) return nullptr;
  if (dt == kDtFloat64 && !any_device_has_fp64()) return nullptr;
  return kEntries[op][static_cast<size_t>(dt)];
}

}  // namespace porta::opencl
