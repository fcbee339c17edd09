// find_kernel: which (op, dtype) pairs the plugin offers (those of the cpu
// plugin: for the storage dtypes FULL, COPY and CAST only; float64 only
// where a device has cl_khr_fp64), and one entry point per pair that hands
// the call to its family's runner.
#include <array>
#include <utility>

#include "ops/ops.hpp"

namespace porta::opencl {
namespace {

porta_status run_unknown(uint32_t op, int, const porta_kernel_call*) {
  return report(PORTA_ERROR_NOT_IMPLEMENTED, "unknown op id " + std::to_string(op));
}

// The OpenCL runners, by kind.
constexpr plugin::KindFamilies<porta_status (*)(uint32_t, int, const porta_kernel_call*)> kRunners = {
    .factory = run_factory,
    .copy = run_copy,
    .unary = run_elementwise,
    .binary = run_elementwise,
    .reduce = run_reduce,
    .matmul = run_matmul,
    .conv = run_conv,
    .pool = run_pool,
    .softmax = run_softmax,
    .loss = run_loss,
    .optimizer = run_optimizer,
    .index = run_index,
    .scan = run_scan,
    .sort = run_sort,
    .norm = run_norm,
    .rnn = run_rnn,
    .unknown = run_unknown,
};

porta_status run(uint32_t op, int dt, const porta_kernel_call* c) { return plugin::by_kind(kRunners, op, dt, c); }

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
  // Optional ops it leaves to the core: direct convolution (lowered to IM2COL + GEMM).
  if (op >= PORTA_OP_CONV2D && op <= PORTA_OP_CONV2D_BACKWARD_WEIGHT) return nullptr;
  if (dt == kDtFloat64 && !any_device_has_fp64()) return nullptr;
  return kEntries[op][static_cast<size_t>(dt)];
}

}  // namespace porta::opencl
