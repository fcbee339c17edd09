#include "runtime/kernel_rules.hpp"

#include <iterator>

namespace porta {
namespace {

bool float_to_integer_cast(porta_op op, Dtype in, Dtype out) {
  return op == PORTA_OP_CAST && is_floating(in) && is_integral(out);
}

// Written into ops.h while the plugin ABI was 1.2, so a plugin declaring 1.2
// may predate it: 1.3 is the first minor every plugin of which follows it.
constexpr KernelRule kRules[] = {
    {3, "float to integer casts saturate, NaN giving 0 (PORTA_OP_KIND_COPY)", float_to_integer_cast},
};

}  // namespace

const KernelRule* rule_predating_plugin(const DeviceState& dev, porta_op op, Dtype in, Dtype out) {
  for (const KernelRule& r : kRules)
    if (dev.backend->api.abi_minor < r.since_minor && r.governs(op, in, out)) return &r;
  return nullptr;
}

}  // namespace porta
