// porta::data's dataset interface: a map-style dataset assembles a batch
// (inputs and targets) from sample indices, as torch.utils.data.Dataset
// does one sample at a time.
#pragma once

#include <optional>
#include <vector>

#include "porta/porta.hpp"

namespace porta::data {

/// One batch: inputs and targets, host (cpu) tensors.
struct Batch {
  Tensor data;    ///< e.g. float32 [B, C, H, W]
  Tensor target;  ///< e.g. int64 [B]
};

/// A map-style dataset that assembles batches from sample indices.
class Dataset {
 public:
  virtual ~Dataset() = default;
  /// Number of samples.
  virtual int64_t size() const = 0;
  /// The samples `indices`, stacked. `pin_for` names the accelerator the
  /// batch is bound for (page-locked buffers), or is empty.
  virtual Batch get_batch(const std::vector<int64_t>& indices, const std::optional<Device>& pin_for) const = 0;
};

}  // namespace porta::data
