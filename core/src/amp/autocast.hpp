// Autocast (mixed precision), as torch.autocast: per thread and per device
// type, a region in which the ops of PyTorch's lists take their floating
// operands in a low dtype (matmul, linear, convolutions, attention) or in
// float32 (softmax, losses, sums, exp, log, norms), and every other op
// promotes as usual. The C API's entry points of those ops call lower() or
// to_float32() on their operands; nothing below the C API (a composite's
// own ops, a backward pass) is autocast, as PyTorch's dispatcher autocasts
// only the ops called. docs/api.md lists the ops.
#pragma once

#include <porta/ops.h>

#include "runtime/tensor.hpp"

namespace porta::amp {

// Enters a region on device type `type` (a plugin's name: "cpu", "cuda"):
// autocast on (`enabled`) in `dtype` (float16 or bfloat16), or off. Regions
// nest; exit() restores the state before the matching enter().
void enter(const char* type, Dtype dtype, bool enabled);
// Leaves the innermost region on `type`; INVALID_ARGUMENT without one. The
// cast cache empties when the thread leaves its outermost region.
void exit(const char* type);
// The state on `type` for the calling thread: whether on, and the dtype.
bool enabled(const char* type, Dtype* dtype);

// `t` as a lower-precision op takes it: a float32 tensor on a device whose
// type is autocast is converted to the region's dtype (float64, integers and
// tensors already low pass unchanged, as in PyTorch). A leaf that requires
// grad (a parameter) is converted once per region: later uses share the
// conversion while its version is unchanged.
TensorPtr lower(const TensorPtr& t);
// Which of PyTorch's float32 lists an op is on: they differ by device type
// (autocast_mode.cpp): the CPU's holds the losses and prod; CUDA's, which
// every other device type follows, holds those (binary_cross_entropy
// excepted: refused) and softmax, log_softmax, sum, cumsum, cumprod,
// logsumexp, the norms, exp, log and their kin.
enum class Float32List { Both, AcceleratorsOnly };
// `t` as a float32 op takes it: float16 and bfloat16 become float32 where
// autocast is on for t's device type and `list` covers that type.
TensorPtr to_float32(const TensorPtr& t, Float32List list = Float32List::Both);
// Refuses binary_cross_entropy in an autocast region on an accelerator, as
// PyTorch does (it is unsafe to autocast there; the CPU's list has it).
void refuse_unsafe_binary_cross_entropy(const TensorPtr& input);
// `t` as op `op` (an id of porta/ops.h) takes it, by the row's autocast
// column: lower() for LOWER (matmul), to_float32() on accelerators for
// FLOAT32_ON_ACCELERATORS (exp, log and their kin, pow, sum, cumsum,
// cumprod), `t` itself for PROMOTE.
TensorPtr operand(porta_op op, const TensorPtr& t);

}  // namespace porta::amp
