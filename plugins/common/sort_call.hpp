// What a SORT kernel call holds (porta/ops.h), read and checked once for
// every plugin: the line geometry and the direction. A failed check returns
// false with an op-tagged message in `msg`, which the plugin reports.
#pragma once

#include <cstddef>
#include <cstdio>

#include "plugin_support.hpp"

namespace porta::plugin {

// A SORT call: contiguous [outer, n, inner] in, values, indices (and
// scratch of the same shapes).
struct SortCall {
  int64_t outer = 0, n = 0, inner = 0;
  bool descending = false;
  bool has_scratch = false;  // outputs[2] and outputs[3] are there
  int64_t k = 0;             // only the first k positions of each line are asked for (0: all)
};

inline bool sort_call(const porta_kernel_call* c, SortCall* out, char* msg, size_t cap) {
  if (c->num_inputs < 1 || c->num_outputs < 2) {
    std::snprintf(msg, cap, "sort: needs 1 input and at least 2 outputs, got %d and %d", c->num_inputs,
                  c->num_outputs);
    return false;
  }
  const DLTensor& in = c->inputs[0];
  const int32_t outputs = c->num_outputs >= 4 ? 4 : 2;
  for (int32_t k = -1; k < outputs; ++k) {
    const DLTensor& t = k < 0 ? in : c->outputs[k];
    if (t.ndim != 3) {
      std::snprintf(msg, cap, "sort: expected contiguous [outer, n, inner] tensors, got a %d-D one", t.ndim);
      return false;
    }
    for (int32_t d = 0; d < 3; ++d) {
      if (t.shape[d] != in.shape[d]) {
        std::snprintf(msg, cap, "sort: outputs[%d] differs from in in dim %d (%lld and %lld)", k, d,
                      (long long)t.shape[d], (long long)in.shape[d]);
        return false;
      }
    }
    const bool indices = k == 1 || k == 3;
    if (k >= 0 && (indices ? dtype_index(t.dtype) != kDtInt64 : dtype_index(t.dtype) != dtype_index(in.dtype))) {
      std::snprintf(msg, cap, "sort: outputs[%d] must be %s", k, indices ? "int64" : "of in's dtype");
      return false;
    }
  }
  // The 1.5 struct is 16 bytes (`descending` and tail padding); k came in 1.6.
  const auto* p = static_cast<const porta_sort_params*>(c->params);
  constexpr size_t v15 = offsetof(porta_sort_params, k), v16 = v15 + sizeof(int64_t);
  if (p && p->struct_size < v15) {
    std::snprintf(msg, cap, "sort: too-small porta_sort_params");
    return false;
  }
  const int64_t k = p && p->struct_size >= v16 ? p->k : 0;
  if (k < 0 || k > in.shape[1]) {
    std::snprintf(msg, cap, "sort: porta_sort_params.k = %lld is outside [0, %lld], the lines' length", (long long)k,
                  (long long)in.shape[1]);
    return false;
  }
  *out = SortCall{in.shape[0], in.shape[1], in.shape[2], p && p->descending != 0, outputs == 4, k};
  return true;
}

}  // namespace porta::plugin
