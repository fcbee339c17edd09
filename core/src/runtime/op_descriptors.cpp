#include "runtime/op_descriptors.hpp"

#include <porta/plugin.h>

#include <array>

#include "runtime/error.hpp"

namespace porta {
namespace {

constexpr std::array<OpDescriptor, PORTA_OP_COUNT> kOps = [] {
  std::array<OpDescriptor, PORTA_OP_COUNT> t{};
#define PORTA_X_ROW(NAME, name, id, kind, inputs, dtypes, result, grad, doc) \
  t[id] = OpDescriptor{#name, kind, inputs, dtypes, result, grad != 0, doc, 0, PORTA_AUTOCAST_PROMOTE};
  PORTA_OP_DESCRIPTORS(PORTA_X_ROW)
#undef PORTA_X_ROW
#define PORTA_X_TRAITS(NAME, id, since_minor, domain, autocast_class, vector) \
  t[id].since = since_minor;                                                 \
  t[id].autocast = autocast_class;
  PORTA_OP_TRAITS(PORTA_X_TRAITS)
#undef PORTA_X_TRAITS
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

namespace {

// Ops are only appended: a row's minor is never older than the row before it's,
// nor newer than the plugin ABI this header declares.
constexpr bool since_only_grows() {
  for (size_t i = 1; i < kOps.size(); ++i)
    if (kOps[i].since < kOps[i - 1].since) return false;
  return kOps.back().since <= PORTA_PLUGIN_ABI_MINOR;
}
static_assert(since_only_grows(), "porta/ops.h: a row's `since` must be >= the row before it's, <= PORTA_PLUGIN_ABI_MINOR");

}  // namespace

int32_t ops_known_at_plugin_minor(uint32_t minor) {
  int32_t known = 0;  // the rows are in id order and their minors only grow
  while (known < PORTA_OP_COUNT && kOps[static_cast<size_t>(known)].since <= minor) ++known;
  return known;
}

}  // namespace porta
