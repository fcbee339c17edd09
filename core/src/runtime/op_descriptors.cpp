#include "runtime/op_descriptors.hpp"

#include <porta/plugin.h>

#include <array>

#include "runtime/error.hpp"

namespace porta {
namespace {

constexpr std::array<OpDescriptor, PORTA_OP_COUNT> kOps = [] {
  std::array<OpDescriptor, PORTA_OP_COUNT> t{};
#define PORTA_X_ROW(NAME, name, id, kind, inputs, dtypes, result, grad, doc) \
  t[id] = OpDescriptor{#name, kind, inputs, dtypes, result, grad != 0, doc};
  PORTA_OP_DESCRIPTORS(PORTA_X_ROW)
#undef PORTA_X_ROW
  return t;
}();

// Ids are dense: every slot of the table is filled by exactly one row.
constexpr bool ids_are_dense() {
  int rows = 0;
#define PORTA_X_COUNT(NAME, name, id, kind, inputs) ++rows;
  PORTA_OP_LIST(PORTA_X_COUNT)
#undef PORTA_X_COUNT
  for (const OpDescriptor& d : kOps)
    if (d.name == nullptr) return false;
  return rows == PORTA_OP_COUNT;
}
static_assert(ids_are_dense(), "porta/ops.h: op ids must be 0..PORTA_OP_COUNT-1, each used once");

}  // namespace

const OpDescriptor* find_op(int64_t op) {
  return op >= 0 && op < PORTA_OP_COUNT ? &kOps[static_cast<size_t>(op)] : nullptr;
}

const char* kind_name(porta_op_kind kind) {
  switch (kind) {
    case PORTA_OP_KIND_FACTORY: return "FACTORY";
    case PORTA_OP_KIND_COPY: return "COPY";
    case PORTA_OP_KIND_UNARY: return "UNARY";
    case PORTA_OP_KIND_BINARY: return "BINARY";
    case PORTA_OP_KIND_COMPARE: return "COMPARE";
    case PORTA_OP_KIND_WHERE: return "WHERE";
    case PORTA_OP_KIND_REDUCE: return "REDUCE";
    case PORTA_OP_KIND_ARGREDUCE: return "ARGREDUCE";
    case PORTA_OP_KIND_MATMUL: return "MATMUL";
    case PORTA_OP_KIND_CONV: return "CONV";
    case PORTA_OP_KIND_POOL: return "POOL";
    case PORTA_OP_KIND_SOFTMAX: return "SOFTMAX";
    case PORTA_OP_KIND_LOSS: return "LOSS";
    case PORTA_OP_KIND_OPTIMIZER: return "OPTIMIZER";
    case PORTA_OP_KIND_INDEX: return "INDEX";
    case PORTA_OP_KIND_SCAN: return "SCAN";
    case PORTA_OP_KIND_SORT: return "SORT";
    case PORTA_OP_KIND_NORM: return "NORM";
    case PORTA_OP_KIND_RNN: return "RNN";
    case PORTA_OP_KIND_RUNNING_EXTREME: return "RUNNING_EXTREME";
  }
  return "unknown kind";
}

const OpDescriptor& op_descriptor(porta_op op) {
  const OpDescriptor* d = find_op(op);
  if (!d) fail(PORTA_ERROR_INTERNAL, "op id ", static_cast<int>(op), " is not in porta/ops.h");
  return *d;
}

int32_t ops_known_at_plugin_minor(uint32_t minor) {
  // The first id of each minor's ops (porta/ops.h says which ids came when).
  if (minor == 0) return PORTA_OP_IM2COL;
  if (minor <= 2) return PORTA_OP_SIN;
  if (minor == 3) return PORTA_OP_GATHER;
  if (minor == 4) return PORTA_OP_SORT;
  if (minor <= 6) return PORTA_OP_LAYER_NORM;  // 1.6 appended no op (porta_sort_params.k)
  if (minor == 7) return PORTA_OP_CUMMAX;
  // 1.9 appended no op (porta_plugin_api.native_stream), nor 1.10 (the storage dtypes).
  if (minor <= 10) return PORTA_OP_BITWISE_AND;
  static_assert(PORTA_PLUGIN_ABI_MINOR == 11, "ops appended in a new plugin ABI minor need their first id here");
  return PORTA_OP_COUNT;
}

}  // namespace porta
