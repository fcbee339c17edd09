// What an INDEX or SCAN kernel call holds (porta/ops.h), read and checked
// once for every plugin: the operands by role, the indexed dim, SCATTER's
// reduction and the scan's geometry and direction. The core guarantees the
// contract; these checks keep a kernel called any other way from indexing
// outside its tensors. A failed check returns false with an op-tagged
// message in `msg`, which the plugin reports.
#pragma once

#include <cstddef>
#include <cstdio>

#include "plugin_support.hpp"

namespace porta::plugin {

// An INDEX call's operands, by role: GATHER's inputs src, index -> out;
// SCATTER's inputs index, src -> self.
struct IndexCall {
  const DLTensor* data = nullptr;    // what index values address along dim: GATHER's src, SCATTER's self
  const DLTensor* index = nullptr;   // int64, shape S
  const DLTensor* values = nullptr;  // GATHER's out (shape S), SCATTER's src (S or larger; S is read)
  const char* data_name = "src";     // for messages
  int32_t dim = 0;
  int32_t reduce = PORTA_SCATTER_ASSIGN;  // SCATTER's porta_scatter_reduce

  // The data tensor's extent along dim: index values lie in [0, extent()).
  int64_t extent() const { return data->shape[dim]; }
  // The lines of S: positions with p[dim] == 0.
  int64_t lines() const {
    int64_t n = 1;
    for (int32_t d = 0; d < index->ndim; ++d)
      if (d != dim) n *= index->shape[d];
    return n;
  }
};

// Fills `out` from an INDEX call of op (GATHER or SCATTER).
inline bool index_call(uint32_t op, const porta_kernel_call* c, IndexCall* out, char* msg, size_t cap) {
  const char* name = op_name(op);
  const bool gather = op == PORTA_OP_GATHER;
  if (c->num_inputs < 2 || c->num_outputs < 1) {
    std::snprintf(msg, cap, "%s: needs 2 inputs and 1 output, got %d and %d", name, c->num_inputs, c->num_outputs);
    return false;
  }
  const auto* p = op_params<porta_index_params>(c);
  if (!p) {
    std::snprintf(msg, cap, "%s: missing or too-small porta_index_params", name);
    return false;
  }
  IndexCall k;
  k.data = gather ? &c->inputs[0] : &c->outputs[0];
  k.index = gather ? &c->inputs[1] : &c->inputs[0];
  k.values = gather ? &c->outputs[0] : &c->inputs[1];
  k.data_name = gather ? "src" : "self";
  const char* values_name = gather ? "out" : "src";
  k.dim = p->dim;
  k.reduce = gather ? PORTA_SCATTER_ASSIGN : p->reduce;
  const int32_t nd = k.index->ndim;
  if (dtype_index(k.index->dtype) != kDtInt64) {
    std::snprintf(msg, cap, "%s: index must be int64", name);
    return false;
  }
  if (nd < 1 || nd > PORTA_MAX_DIMS || k.data->ndim != nd || k.values->ndim != nd) {
    std::snprintf(msg, cap, "%s: %s, index and %s need one ndim in [1, %d], got %d, %d and %d", name, k.data_name,
                  values_name, PORTA_MAX_DIMS, k.data->ndim, nd, k.values->ndim);
    return false;
  }
  if (k.dim < 0 || k.dim >= nd) {
    std::snprintf(msg, cap, "%s: dim %d is outside [0, %d)", name, k.dim, nd);
    return false;
  }
  const int dt = dtype_index(k.data->dtype);
  if (dt < 0 || dtype_index(k.values->dtype) != dt) {
    std::snprintf(msg, cap, "%s: %s and %s need the same dtype", name, k.data_name, values_name);
    return false;
  }
  for (int32_t d = 0; d < nd; ++d) {
    const int64_t s = k.index->shape[d], v = k.values->shape[d];
    if ((d != k.dim && s > k.data->shape[d]) || (gather ? v != s : v < s)) {
      std::snprintf(msg, cap, "%s: index's size %lld in dim %d does not fit %s (%lld) and %s (%lld)", name,
                    (long long)s, d, k.data_name, (long long)k.data->shape[d], values_name, (long long)v);
      return false;
    }
  }
  if (k.reduce < PORTA_SCATTER_ASSIGN || k.reduce > PORTA_SCATTER_AMIN) {
    std::snprintf(msg, cap, "%s: reduce %d is not a porta_scatter_reduce", name, k.reduce);
    return false;
  }
  if (dt == kDtBool && (k.reduce == PORTA_SCATTER_SUM || k.reduce == PORTA_SCATTER_PROD)) {
    std::snprintf(msg, cap, "%s: reduce %s is not defined for bool", name,
                  k.reduce == PORTA_SCATTER_SUM ? "sum" : "prod");
    return false;
  }
  *out = k;
  return true;
}

// A SCAN call: contiguous [outer, n, inner] in and out of one dtype.
struct ScanCall {
  int64_t outer = 0, n = 0, inner = 0;
  bool reverse = false;
};

// Fills `out` from a SCAN call of op (CUMSUM, CUMPROD: one output; CUMMAX,
// CUMMIN: values and int64 indices, forward only); NULL params scan forward.
inline bool scan_call(uint32_t op, const porta_kernel_call* c, ScanCall* out, char* msg, size_t cap) {
  const char* name = op_name(op);
  const bool with_indices = op == PORTA_OP_CUMMAX || op == PORTA_OP_CUMMIN;
  const int32_t outputs = with_indices ? 2 : 1;
  if (c->num_inputs < 1 || c->num_outputs < outputs) {
    std::snprintf(msg, cap, "%s: needs 1 input and %d output%s, got %d and %d", name, outputs, with_indices ? "s" : "",
                  c->num_inputs, c->num_outputs);
    return false;
  }
  if (with_indices) {
    const DLTensor& idx = c->outputs[1];
    bool same = idx.ndim == 3 && c->inputs[0].ndim == 3;
    for (int32_t d = 0; same && d < 3; ++d) same = idx.shape[d] == c->inputs[0].shape[d];
    if (!same || dtype_index(idx.dtype) != kDtInt64) {
      std::snprintf(msg, cap, "%s: outputs[1] must be int64 indices of in's [outer, n, inner] shape", name);
      return false;
    }
  }
  const DLTensor &in = c->inputs[0], &o = c->outputs[0];
  if (in.ndim != 3 || o.ndim != 3) {
    std::snprintf(msg, cap, "%s: expected contiguous [outer, n, inner] tensors, got %d-D and %d-D", name, in.ndim,
                  o.ndim);
    return false;
  }
  for (int32_t d = 0; d < 3; ++d) {
    if (in.shape[d] != o.shape[d]) {
      std::snprintf(msg, cap, "%s: in and out differ in dim %d (%lld and %lld)", name, d, (long long)in.shape[d],
                    (long long)o.shape[d]);
      return false;
    }
  }
  if (dtype_index(in.dtype) != dtype_index(o.dtype)) {
    std::snprintf(msg, cap, "%s: in and out need the same dtype", name);
    return false;
  }
  const auto* p = op_params<porta_scan_params>(c);
  if (c->params && !p) {
    std::snprintf(msg, cap, "%s: too-small porta_scan_params", name);
    return false;
  }
  *out = ScanCall{in.shape[0], in.shape[1], in.shape[2], p && p->reverse != 0};
  if (with_indices && out->reverse) {
    std::snprintf(msg, cap, "%s: scans forward only (porta_scan_params.reverse must be 0)", name);
    return false;
  }
  return true;
}

}  // namespace porta::plugin
