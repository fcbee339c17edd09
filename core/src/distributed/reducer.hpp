// DistributedDataParallel's gradient reducer (torch's c10d::Reducer): the
// parameters' gradients all-reduced in buckets while backward still runs.
//
// Parameters are bucketed in reverse order (the order backward usually
// produces their gradients), by device and dtype, the first bucket small
// (first_bucket_bytes) so communication starts early, the others up to
// bucket_bytes. A hook on each parameter writes its gradient, plus the
// .grad it already has (accumulated under no_sync), divided by the world
// size, into its place in the bucket's flat buffer (or offers that place as
// the gradient's destination, where the node computing it writes it already
// divided: a Linear weight's GEMM; autograd::gradient_destination); when
// every gradient of a bucket is in, its all_reduce (SUM) starts, buckets in
// index order on every rank. The hook hands backward the bucket's view as
// the gradient; a callback queued in the engine waits for every bucket
// before any .grad is written, and clears the .grad each bucket already
// holds, so every parameter's .grad becomes the average over the ranks: a
// copy of its place in the bucket, or with gradient_as_bucket_view that
// place itself (torch's option of that name: no copy, and .grad keeps its
// memory from one backward to the next; backward writes no .grad of its
// own). A bucket holding one 2-D parameter may be reduced as factors
// instead (a linear layer's G and X gathered from every rank and multiplied
// once, factored_gradient.hpp), where every rank holds them and that moves
// less. At PORTA_LOG=info a dropped reducer reports how long backward's end
// waited for the all-reduces (the communication backward did not hide), and
// how many bucket reductions it gathered as factors.
#pragma once

#include <memory>
#include <vector>

#include "distributed/process_group.hpp"
#include "runtime/tensor.hpp"

namespace porta::dist {

class Reducer {
 public:
  struct Options {
    int64_t bucket_bytes = 0, first_bucket_bytes = 0;
    bool find_unused_parameters = false;
    bool gradient_as_bucket_view = false;
  };
  Reducer(std::vector<TensorPtr> params, std::shared_ptr<ProcessGroup> group, const Options& options);
  ~Reducer();
  Reducer(const Reducer&) = delete;
  Reducer& operator=(const Reducer&) = delete;

  // Called at the end of each forward whose backward must synchronize
  // (DDP's forward outside no_sync): arms the reducer for one backward; with
  // find_unused_parameters, finds the parameters `outputs` do not reach,
  // which become ready with the backward's first gradient (not now: every
  // rank makes its collectives in backward, in bucket order).
  void prepare_for_backward(const std::vector<TensorPtr>& outputs);
  int32_t bucket_count() const;

  struct State;  // shared with the hooks, which may outlive a dropped reducer

 private:
  std::shared_ptr<State> state_;
};

}  // namespace porta::dist
