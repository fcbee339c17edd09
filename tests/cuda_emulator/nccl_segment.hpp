// A communicator's meeting place for the NCCL emulation (nccl_emulation.cpp):
// one POSIX shared-memory segment that every rank's process maps, holding
// each rank's state and a window of data per rank, plus the waits on peers
// (deadline, abort, a peer that died or failed).
//
// Layout, all of it zero when created (a fresh tmpfs file):
//   Header | Rank[nranks] | Pair[nranks * nranks] | nranks windows of kWindowBytes
// The counters are lock-free std::atomic integers, which are address-free,
// so processes that map the segment at different addresses share them.
#pragma once

#include <nccl.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

namespace cuda_emulator::nccl {

// The bytes one rank contributes to one round of a collective (larger
// operations take several rounds).
constexpr size_t kWindowBytes = size_t{1} << 20;
constexpr int kMaxRanks = 1024;
// ncclGetUniqueId's names start with this (a shm_open name: one leading slash).
constexpr const char kNamePrefix[] = "/porta_nccl_";

static_assert(std::atomic<uint64_t>::is_always_lock_free && std::atomic<int32_t>::is_always_lock_free,
              "the shared counters must be lock-free to be shared between processes");

struct alignas(64) Header {
  std::atomic<int32_t> nranks;  // set by the first rank to come, checked by the others
  std::atomic<int32_t> joined;  // ranks registered so far
};

struct alignas(64) Rank {
  std::atomic<int32_t> pid;        // 0 until the rank joined
  std::atomic<int32_t> state;      // kActive, or why the rank will post nothing more
  std::atomic<uint64_t> pid_ns;    // its pid namespace (whether `pid` means the same process here)
  std::atomic<uint64_t> posted;    // the last collective round whose data is in its window
  std::atomic<uint64_t> consumed;  // the last round it finished reading everyone's windows of
};
enum RankState : int32_t { kActive = 0, kFailed = 1, kAborted = 2, kLeft = 3 };

// Messages from rank s to rank d, each a segment of its own (message_name).
struct alignas(64) Pair {
  std::atomic<uint64_t> sent;      // messages s has written
  std::atomic<uint64_t> received;  // messages d has read (and unlinked)
};

// One rank's mapping of a communicator's segment.
class Segment {
 public:
  // Opens (creating if first) `name` for `nranks` ranks; false with `why` set.
  bool open(const std::string& name, int nranks, std::string* why);
  ~Segment();
  bool mapped() const { return base_ != nullptr; }

  Header& header() const { return *static_cast<Header*>(base_); }
  Rank& rank(int r) const;
  Pair& pair(int from, int to) const;
  char* window(int r) const;
  const std::string& name() const { return name_; }

  // The name of message `index` from `from` to `to`.
  std::string message_name(int from, int to, uint64_t index) const;

 private:
  std::string name_;
  void* base_ = nullptr;
  size_t bytes_ = 0;
  int nranks_ = 0;
};

// Why a wait ended without its condition.
struct WaitFailure {
  ncclResult_t code;    // ncclRemoteError (deadline, a peer gone) or ncclSystemError (aborted here)
  std::string message;  // which ranks were missing and why
};

// Waits until `ready(r)` holds for every rank r in [0, nranks): spins
// briefly, then sleeps up to 1 ms at a time. Gives up (returning false with
// `failure` set) when `aborted` becomes true, after `timeout_ms` without the
// condition, or as soon as a missing rank can never arrive: it failed,
// aborted, left, or its process exited.
bool wait_for_ranks(const Segment& segment, int nranks, const std::function<bool(int)>& ready,
                    const std::atomic<bool>& aborted, long long timeout_ms, WaitFailure* failure);

// This process's pid namespace (0 if unknown).
uint64_t pid_namespace();

}  // namespace cuda_emulator::nccl
