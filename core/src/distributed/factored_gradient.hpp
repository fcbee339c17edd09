// DistributedDataParallel's factored gradients. A linear layer's weight
// gradient is the product g_rows^T x_rows ([out, M] x [M, in]), and the
// ranks' average (1/W) sum_r g_r^T x_r is a single product of their rows
// stacked. Gathering the rows moves W M (in + out) elements; all-reducing
// the product moves about 2 in out. For the demo's fc1 (25,088 x 512, 32
// rows a rank on 2 ranks) that is 1.6M elements against 25.7M (Poseidon's
// "sufficient factors", Zhang et al., 2017).
//
// Every rank then multiplies the same gathered rows, so the ranks must end
// with the same bits: the product is taken only when every rank multiplies
// alike (the same plugin, version, device model and thread count). The
// rows are gathered only where they are at most a quarter of the gradient's
// elements, which bounds the one product every rank repeats to a few rows
// against a wide layer. PORTA_DDP_FACTORED_GRADIENTS=0 on any rank turns
// it off for all.
#pragma once

#include "distributed/process_group.hpp"
#include "runtime/tensor.hpp"

namespace porta::dist {

// A rank's two factors of one weight's gradient: g_rows [M, out] and
// x_rows [M, in] on the weight's device; both empty where the rank computed
// the gradient itself (it had a .grad to add to it, or no node offered them).
struct Factors {
  TensorPtr g_rows, x_rows;
};

// Collective: every rank of `group` calls it for the same weight's gradient,
// in the same order among its other collectives, with or without factors.
// First the ranks tell each other whether they hold factors, how many rows,
// and how their device multiplies. True: `out` ([out, in], contiguous) now
// holds scale * (every rank's g_rows)^T (every rank's x_rows), the same on
// every rank. False: `out` holds this rank's own gradient times `scale`
// (computed from its factors where it had them, else left as the caller
// wrote it), for the caller to all-reduce.
bool reduce_factored(ProcessGroup& group, const TensorPtr& out, const Factors& mine, double scale);

// Whether gathering `world` ranks of `rows` rows each is worth it for an
// [out, in] gradient: the rows at most a quarter of its elements.
bool factors_pay(int64_t world, int64_t rows, int64_t in, int64_t out);

// PORTA_DDP_FACTORED_GRADIENTS: unset or 1, this rank hands factors over;
// 0, it does not (and through the header no rank gathers them). Another
// value is an INVALID_ARGUMENT naming the variable.
bool factored_gradients_enabled();

}  // namespace porta::dist
