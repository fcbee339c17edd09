// The kernel rules of porta/ops.h that were added after plugin ABI 1.0, each
// with the plugin ABI minor whose plugins are bound by it. A plugin declares
// the minor it was built against; for a call a rule governs on a plugin that
// declares an older minor, the core does not rely on the plugin: it applies
// the rule itself (ops/elementwise.cpp's cast computes such a conversion on
// the host and moves the result back), so every device gives one answer.
// A rule added to ops.h is added here, with its minor.
#pragma once

#include <cstdint>

#include "runtime/dtype.hpp"
#include "runtime/registry.hpp"

namespace porta {

struct KernelRule {
  uint32_t since_minor;  // plugins declaring this plugin ABI minor or newer follow it
  const char* rule;      // what it says, as ops.h words it
  bool (*governs)(porta_op op, Dtype in, Dtype out);
};

// The rule governing (op, in -> out) that the plugin of `dev` declares too
// old a minor for, or null when the plugin is bound by every rule of it.
const KernelRule* rule_predating_plugin(const DeviceState& dev, porta_op op, Dtype in, Dtype out);

}  // namespace porta
