// Anomaly detection (torch.autograd.detect_anomaly): which backward node
// first produced a NaN gradient. Porta keeps no forward traces; the node's
// name (MulBackward, ...) is the op.
#include <atomic>
#include <cstdint>

#include "runtime/error.hpp"
#include "ops/ops.hpp"
#include "ops/composite/composite.hpp"
#include "autograd/node.hpp"

namespace porta::autograd {
namespace {
std::atomic<bool> g_anomaly{false};
}  // namespace

bool anomaly_enabled() { return g_anomaly.load(std::memory_order_relaxed); }
void set_anomaly_enabled(bool enabled) { g_anomaly.store(enabled, std::memory_order_relaxed); }

void check_for_nan(const Node& node, const std::vector<TensorPtr>& grads) {
  NoGradGuard no_grad;  // the check itself is never part of a recorded backward
  for (size_t i = 0; i < grads.size(); ++i) {
    const TensorPtr& g = grads[i];
    if (!g || !is_floating(g->dtype) || g->numel() == 0) continue;
    uint8_t has_nan = 0;
    ops::to_host(*composite::any(composite::isnan(g), nullptr, 0, false), &has_nan, 1);
    if (has_nan)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "backward: Function '", node.name(), "' returned nan values in its ", i,
           "th output (anomaly detection is on: set_detect_anomaly / porta_set_anomaly_enabled)");
  }
}

}  // namespace porta::autograd
