// The op table of porta/ops.h (PORTA_OP_DESCRIPTORS) as data the core reads:
// names, kinds, the dtypes each op's kernels take, how its result is typed,
// whether autograd records it, and the PORTA_OP_TRAITS columns the core reads
// (since, autocast). One array indexed by op id; nothing restated.
#pragma once

#include <porta/ops.h>

#include <cstdint>

namespace porta {

struct OpDescriptor {
  const char* name;
  porta_op_kind kind;
  int32_t inputs;
  porta_op_dtypes dtypes;
  porta_op_result result;
  bool differentiable;
  const char* doc;
  uint32_t since;              // the plugin ABI minor that appended the row
  porta_op_autocast autocast;  // what an autocast region does to its operands
};

// The row of `op`; nullptr for an id this build does not know.
const OpDescriptor* find_op(int64_t op);
// "UNARY", "BINARY", ...: a porta_op_kind without its prefix.
const char* kind_name(porta_op_kind kind);
// The row of `op`, a known op (an internal error otherwise).
const OpDescriptor& op_descriptor(porta_op op);
// How many op ids (0 to the result - 1) a plugin built against plugin ABI
// 1.`minor` knows: the core never asks it for a kernel of a later op.
int32_t ops_known_at_plugin_minor(uint32_t minor);

}  // namespace porta
