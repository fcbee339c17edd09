// Double-precision host references for every compute op, written from the
// contracts in porta.h and porta/ops.h (not from any plugin).
#pragma once

#include <porta/ops.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "host_tensor.hpp"

namespace conformance {

// Ops whose integer and bool inputs give float32 (porta.h).
bool produces_float(porta_op op);
// Ops checked with the looser float32 tolerance.
bool is_transcendental(porta_op op);

// f(x) / f(a, b) in double; comparisons give 0 or 1. Throws std::logic_error
// for an op without a reference (test_op_coverage.cpp checks there is none).
double unary_ref(porta_op op, double x);
double binary_ref(porta_op op, double a, double b);

// Result dtype of a unary op.
DLDataType unary_result_dtype(porta_op op, DLDataType a);
// Whether the op accepts these dtypes (arithmetic on bool operands does not).
bool unary_supported(porta_op op, DLDataType a);
bool binary_supported(porta_op op, DLDataType a, DLDataType b);
// Whether op(a, b) is refused for a zero divisor: integer floor_divide,
// remainder and fmod with a 0 in b and a non-empty result (PyTorch's
// ZeroDivisionError, INVALID_ARGUMENT).
bool zero_division(porta_op op, const HostTensor& a, const HostTensor& b);
// The dtype a *_scalar call gives its scalar (porta.h: a's dtype; a
// non-integral scalar with an integer or bool `a` is float32; an integral
// scalar with a bool `a` is int64, as in PyTorch and elementwise.cpp).
DLDataType scalar_dtype(DLDataType a, double s);

HostTensor ref_unary(porta_op op, const HostTensor& a);
HostTensor ref_binary(porta_op op, const HostTensor& a, const HostTensor& b);  // shapes must broadcast
HostTensor ref_binary_scalar(porta_op op, const HostTensor& a, double s);
HostTensor ref_where(const HostTensor& cond, const HostTensor& a, const HostTensor& b);

// A reference value with, per element, the magnitude of the terms that were
// summed (the tolerance scale of sums, means and dot products).
struct Reduction {
  HostTensor value;
  std::vector<double> scale;
};
// dims empty: all dims. sum of integers/bool is int64; mean of nothing NaN.
Reduction ref_reduce(porta_op op, const HostTensor& t, const std::vector<int32_t>& dims, bool keepdim);
// dim PORTA_ALL_DIMS: index into the flattened tensor. First extreme wins;
// NaN counts as the extreme of both (PyTorch), and max / min propagate it.
HostTensor ref_argreduce(porta_op op, const HostTensor& t, int32_t dim, bool keepdim);
// NumPy matmul; the dtype is the promoted float dtype.
Reduction ref_matmul(const HostTensor& a, const HostTensor& b);

// The dtypes of the op's row of the op table (its `dtypes` column), in kAllDtypes' order.
std::vector<DLDataType> table_dtypes(porta_op op);

// torch.gather: out[p] = src[p with p[dim] := index[p]], of index's shape
// (0-d tensors count as 1-element 1-D ones). Index values must be in range.
HostTensor ref_gather(const HostTensor& src, int32_t dim, const HostTensor& index);
// torch.scatter / scatter_reduce, out of place: reduce is a
// porta_scatter_reduce or PORTA_SCATTER_MEAN (5). The positions of index
// are applied in row-major order, each step rounded to self's dtype as a
// kernel computes it (so a repeated index under ASSIGN keeps the last along
// dim); include_self false: a position that receives values starts from
// the first of them; MEAN divides by the count (floor division for
// integers). The scale is that of the sums.
Reduction ref_scatter(const HostTensor& self, int32_t dim, const HostTensor& index, const HostTensor& src,
                      int32_t reduce, bool include_self);
// torch.cumsum / cumprod along dim: integer and bool inputs give int64
// (wrapping), floats accumulate in double and round each prefix once. The
// scale of cumsum is the running sum of magnitudes.
Reduction ref_scan(porta_op op, const HostTensor& t, int32_t dim);
// CUMMAX / CUMMIN: the running extreme along dim and where it came from (a
// later equal element wins; NaN beats every number, a later NaN too).
std::pair<HostTensor, HostTensor> ref_running_extreme(porta_op op, const HostTensor& t, int32_t dim);

}  // namespace conformance
