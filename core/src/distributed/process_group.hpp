// Process groups (torch.distributed's ProcessGroup): a fixed set of ranks,
// one communicator plugin, a communicator per device the group has moved
// tensors of, collectives that return Work, and the core's checks around
// them: arguments before anything is enqueued, time limits naming the op
// and its sequence number, and in debug mode a fingerprint of every call
// compared across ranks before it runs.
#pragma once

#include <porta/comm.h>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "distributed/comm_registry.hpp"
#include "distributed/store.hpp"
#include "runtime/error.hpp"
#include "runtime/tensor.hpp"

namespace porta::dist {

class ProcessGroup;

// One enqueued operation. The group keeps every Work until it completes, so
// that the buffers it reads and writes outlive a caller that dropped it.
class Work {
 public:
  // A collective `op` (a string literal) with its sequence number `seq` in
  // the group, or (seq 0) a send or recv with `peer` and `tag`.
  Work(std::shared_ptr<ProcessGroup> group, const char* op, int64_t seq, int32_t peer = -1, int32_t tag = -1);
  ~Work();
  Work(const Work&) = delete;
  Work& operator=(const Work&) = delete;

  // Whether it has completed (without blocking); throws its failure.
  bool is_completed();
  // Waits up to timeout_ms (< 0: the group's timeout) and finishes it
  // (results copied back into the caller's tensors); throws TIMEOUT naming
  // the op, its sequence number and the group, or the op's failure.
  void wait(int64_t timeout_ms = -1);
  // "all_reduce #4 of process group '0'", "send to rank 1 (tag 0) in
  // process group '0'": made when a message needs it, not per call.
  std::string what() const;

 private:
  friend class ProcessGroup;
  void finish();  // after the plugin's work completed
  void fail_with(const Error& e);

  std::shared_ptr<ProcessGroup> group_;  // its backend's slots complete the work
  porta_comm_work* handle_ = nullptr;
  const char* op_;
  const int64_t seq_;
  const int32_t peer_, tag_;
  std::vector<TensorPtr> keep_;                        // buffers the plugin reads or writes
  std::vector<std::pair<TensorPtr, TensorPtr>> back_;  // (caller's tensor, buffer) to copy when done
  std::mutex mu_;
  bool done_ = false;
  std::unique_ptr<Error> error_;
};

struct GroupOptions {
  std::string backend = "mpi";
  std::string init_method;  // "", "env://", "tcp://<host>:<port>", "file://<dir>"
  int32_t rank = -1, world_size = -1;
  int64_t timeout_ms = 30 * 60 * 1000;  // torch.distributed's default
};

class ProcessGroup : public std::enable_shared_from_this<ProcessGroup> {
 public:
  ~ProcessGroup();
  int32_t rank() const { return rank_; }
  int32_t size() const { return size_; }
  const std::string& name() const { return name_; }
  const CommBackend& backend() const { return *backend_; }
  int64_t timeout_ms() const { return timeout_ms_; }
  // This group's rank of the default group's rank `global`, or -1.
  int32_t group_rank_of(int32_t global) const;
  // The default group's rank of this group's rank `group_rank` (checked).
  int32_t global_rank_of(int32_t group_rank) const;

  std::shared_ptr<Work> all_reduce(const TensorPtr& t, porta_reduce_op op);
  std::shared_ptr<Work> broadcast(const TensorPtr& t, int32_t root);
  // out's elements are size() times in's: rank r's in at r * numel(in).
  std::shared_ptr<Work> all_gather(const TensorPtr& out, const TensorPtr& in);
  // in's elements are size() times out's: rank r gets op over the ranks' r-th share.
  std::shared_ptr<Work> reduce_scatter(const TensorPtr& out, const TensorPtr& in, porta_reduce_op op);
  std::shared_ptr<Work> barrier();
  std::shared_ptr<Work> send(const TensorPtr& t, int32_t peer, int32_t tag);
  std::shared_ptr<Work> recv(const TensorPtr& t, int32_t peer, int32_t tag);

  // Waits for the outstanding work and releases every communicator (a
  // collective call, as torch's destroy_process_group).
  void destroy();

  // The default group (init_process_group), or nullptr.
  static std::shared_ptr<ProcessGroup> default_group();
  static std::shared_ptr<ProcessGroup> init(const GroupOptions& options);
  // A group of the default group's ranks `ranks` (every rank of the default
  // group calls it, as torch.distributed.new_group); nullptr on a rank that
  // is not a member.
  static std::shared_ptr<ProcessGroup> new_group(std::vector<int32_t> ranks, int64_t timeout_ms);
  // Destroys every group, the default one last.
  static void destroy_all();

 private:
  friend class Work;
  ProcessGroup() = default;
  struct Comm;
  // The communicator for tensors on `device` (made on first use: every rank
  // reaches it at the same collective), and the device the plugin sees:
  // `device` itself, or the host when the backend does not serve it.
  Comm& comm_for(DLDevice device);
  // Where operations without a tensor run (barrier, the debug check): host
  // memory when the backend serves it, else the device of the group's last
  // collective, else (torch's guess) device rank % count of the backend's
  // first device type.
  DLDevice control_device();
  // A contiguous buffer of `t` on the comm's device (t itself when it is
  // one), noting in `work` the copy back into t when `written`.
  TensorPtr buffer_for(const TensorPtr& t, Comm& comm, Work& work, bool written, bool read);
  std::shared_ptr<Work> start(const char* op, const TensorPtr& sample, int64_t detail);
  // all_gather and reduce_scatter: an output and an input one of which is size() times the other.
  std::shared_ptr<Work> out_of_in(const char* op, const TensorPtr& out, const TensorPtr& in, porta_reduce_op reduce);
  std::shared_ptr<Work> point_to_point(const TensorPtr& t, int32_t peer, int32_t tag, bool receive);
  void submit(const std::shared_ptr<Work>& work, porta_status st);
  void check_open(const char* op) const;
  void reap();
  // PORTA_DISTRIBUTED_DEBUG=DETAIL: every rank's (op, seq, dtype, numel,
  // detail) compared before the call; a mismatch names the ranks.
  void check_same_call(const char* op, int64_t seq, const porta_tensor* sample, int64_t detail);
  // The store key where rank `rank` notes the last collective it entered.
  std::string progress_key(int32_t rank) const;
  std::string my_progress_key_;  // progress_key(rank_), made once
  // "; ranks missing: 1 (its last collective: all_reduce #2)" for a
  // collective `seq` that timed out, from the ranks' progress notes.
  std::string missing_ranks(int64_t seq);
  // The other members whose processes have left or died, as the store
  // knows ("rank 1's process ended without leaving ..."), or "".
  std::string ended_members();

  const CommBackend* backend_ = nullptr;
  std::shared_ptr<Store> store_;  // the default group's, shared by its subgroups
  std::string name_;
  int32_t rank_ = 0, size_ = 1;
  std::vector<int32_t> world_ranks_;  // each rank's rank in the default group (and the plugin's world)
  int64_t timeout_ms_ = 0;
  int64_t seq_ = 0;
  bool destroyed_ = false;
  bool debug_ = false;
  std::mutex mu_;
  std::map<std::pair<int32_t, int32_t>, std::unique_ptr<Comm>> comms_;
  std::optional<DLDevice> last_device_;  // of the last collective, for control_device()
  std::vector<std::shared_ptr<Work>> outstanding_;
};

const char* reduce_op_name(porta_reduce_op op);

}  // namespace porta::dist
