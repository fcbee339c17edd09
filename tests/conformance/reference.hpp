// Double-precision host references for every compute op, written from the
// contracts in porta.h and porta/ops.h (not from any plugin).
#pragma once

#include <porta/ops.h>

#include <cstdint>
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

}  // namespace conformance
