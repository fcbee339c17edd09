// The collectives of one communicator, posted to MPI in the order they were
// called and one at a time: each is posted when the one before it has
// completed, from inside a test or a wait of any work (of any communicator:
// a rank blocked in one operation still posts what a peer may need first).
//
// Why one at a time: an all-reduce of more than Iallreduce::kPieceBytes is
// cut into pieces (iallreduce.hpp), and posting them all at once makes
// OpenMPI's libnbc run every piece's schedule side by side, each with a
// temporary buffer of the piece's size from malloc. On the demo's 51.7 MB of
// gradients (2 ranks, this machine, interleaved runs) 4 MiB pieces all at
// once had medians of 12.8, 14.8 and 18.9 ms where one after another had
// 10.9, 12.1 and 14.7 (a fourth run, slow throughout, went the other way):
// one after another the working set stays in the cache and malloc hands
// back the one temporary buffer each time, where 13 at once outgrow what
// malloc keeps and cost a page fault per 4 KiB each step
// (docs/benchmarks.md). Why in call order: MPI matches the collectives of a
// communicator by the order each rank posts them, so every rank must post
// the same ones in the same order; holding one back while a later call goes
// ahead would break that. Point-to-point send and recv are matched by tag
// and peer and do not pass through here.
#pragma once

#define OMPI_SKIP_MPICXX 1  // the C API only
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace porta::comm_mpi {

// MPI's text for an error code.
std::string mpi_error(int code);

// What the sequencer knows of a work: its posted requests (tested by the
// work), how many of its posts are not complete yet, and the first error.
struct SequencedWork {
  std::vector<MPI_Request> requests;
  std::atomic<int64_t> unfinished{0};  // posts queued here or in flight (changed under the sequencer's mutex)
  std::string error;
};

class Sequencer {
 public:
  // Makes one MPI call; returns MPI's error code.
  using Post = std::function<int(MPI_Request*)>;

  // Queues `posts` for `work` after everything queued before; posts the
  // first at once when nothing is in flight. Call with mutex() held.
  void submit(SequencedWork* work, std::vector<Post> posts);
  // Tests the post in flight; when it is complete, posts the next. Call
  // with mutex() held.
  void progress();
  // Posts everything still queued at once, its requests going to their
  // works (before the communicator is freed). Call with mutex() held.
  void flush();
  std::mutex& mutex() { return mu_; }

 private:
  struct Entry {
    SequencedWork* work;
    Post post;
  };
  // Posts the queue's head; false when its work has failed (the head is
  // dropped, with the rest of that work's posts).
  bool post_head(MPI_Request* request);

  std::mutex mu_;
  std::deque<Entry> queue_;
  SequencedWork* in_flight_work_ = nullptr;
  MPI_Request in_flight_ = MPI_REQUEST_NULL;
};

}  // namespace porta::comm_mpi
