// porta::distributed — process groups and collectives over porta.h's
// communicator plugins, with torch.distributed's names (the C++ frontend of
// c10d): init_process_group, get_rank, get_world_size, new_group,
// all_reduce, broadcast, all_gather_into_tensor, reduce_scatter_tensor,
// barrier, send, recv, destroy_process_group. Each collective waits unless
// async_op is true, when it returns a Work to wait on.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "porta/porta.hpp"

namespace porta::distributed {

/// torch.distributed.ReduceOp.
enum class ReduceOp : int32_t {
  SUM = PORTA_REDUCE_SUM,
  AVG = PORTA_REDUCE_AVG,
  MAX = PORTA_REDUCE_MAX,
  MIN = PORTA_REDUCE_MIN,
  PRODUCT = PORTA_REDUCE_PROD
};

/// init_process_group's arguments; -1 and "" take the environment's (RANK,
/// WORLD_SIZE) or the backend launcher's (mpirun).
struct InitOptions {
  std::string backend = "mpi";
  std::string init_method;  // "env://" ("": MASTER_ADDR, MASTER_PORT), "tcp://<host>:<port>", "file://<dir>"
  int32_t rank = -1;
  int32_t world_size = -1;
  int64_t timeout_ms = 0;  // 0: 30 minutes
};

/// An enqueued collective (async_op = true); waiting copies results back.
class Work {
 public:
  explicit Work(porta_work* w) : w_(w, &porta_work_release) {}
  /// timeout_ms < 0: the group's timeout. Throws porta::Error (PORTA_ERROR_TIMEOUT names the op).
  void wait(int64_t timeout_ms = -1) { detail::check(porta_work_wait(w_.get(), timeout_ms)); }
  bool is_completed() {
    int32_t done = 0;
    detail::check(porta_work_is_completed(w_.get(), &done));
    return done != 0;
  }

 private:
  std::shared_ptr<porta_work> w_;
};

/// A subgroup from new_group (the default group is a null ProcessGroup).
class ProcessGroup {
 public:
  ProcessGroup() = default;
  explicit ProcessGroup(porta_process_group* g) : g_(g, &porta_process_group_release) {}
  porta_process_group* handle() const noexcept { return g_.get(); }
  /// False on a rank that is not a member (new_group's GroupMember.NON_GROUP_MEMBER).
  explicit operator bool() const noexcept { return g_ != nullptr; }

 private:
  std::shared_ptr<porta_process_group> g_;
};

inline void init_process_group(const InitOptions& o = {}) {
  porta_init_options c{
      sizeof(porta_init_options), o.backend.c_str(), o.init_method.c_str(), o.rank, o.world_size, o.timeout_ms};
  detail::check(porta_init_process_group(&c));
}

inline bool is_initialized() {
  int32_t out = 0;
  detail::check(porta_is_initialized(&out));
  return out != 0;
}

inline int32_t get_rank(const ProcessGroup& group = {}) {
  int32_t out = 0;
  detail::check(porta_get_rank(group.handle(), &out));
  return out;
}

inline int32_t get_world_size(const ProcessGroup& group = {}) {
  int32_t out = 0;
  detail::check(porta_get_world_size(group.handle(), &out));
  return out;
}

/// The default group's rank (torch's global rank) of `group`'s rank `group_rank`.
inline int32_t get_global_rank(const ProcessGroup& group, int32_t group_rank) {
  int32_t out = 0;
  detail::check(porta_get_global_rank(group.handle(), group_rank, &out));
  return out;
}

inline std::string get_backend(const ProcessGroup& group = {}) {
  const char* out = nullptr;
  detail::check(porta_get_backend(group.handle(), &out));
  return out;
}

/// Every rank of the default group calls it; a non-member gets a null group.
inline ProcessGroup new_group(const std::vector<int32_t>& ranks = {}, int64_t timeout_ms = 0) {
  porta_process_group* g = nullptr;
  detail::check(porta_new_group(ranks.data(), static_cast<int32_t>(ranks.size()), timeout_ms, &g));
  return g ? ProcessGroup(g) : ProcessGroup();
}

/// A null group: every group, the default one last.
inline void destroy_process_group(const ProcessGroup& group = {}) {
  detail::check(porta_destroy_process_group(group.handle()));
}

namespace run_detail {
template <typename Call>
std::optional<Work> run(bool async_op, Call&& call) {
  if (!async_op) {
    detail::check(call(nullptr));
    return std::nullopt;
  }
  porta_work* w = nullptr;
  detail::check(call(&w));
  return Work(w);
}
}  // namespace run_detail

inline std::optional<Work> all_reduce(const Tensor& t, ReduceOp op = ReduceOp::SUM, const ProcessGroup& group = {},
                                      bool async_op = false) {
  return run_detail::run(async_op, [&](porta_work** w) {
    return porta_all_reduce(t.handle(), static_cast<int32_t>(op), group.handle(), w);
  });
}

/// `src` is a rank of the default group, as torch.distributed's.
inline std::optional<Work> broadcast(const Tensor& t, int32_t src, const ProcessGroup& group = {},
                                     bool async_op = false) {
  return run_detail::run(async_op, [&](porta_work** w) { return porta_broadcast(t.handle(), src, group.handle(), w); });
}

inline std::optional<Work> all_gather_into_tensor(const Tensor& out, const Tensor& in, const ProcessGroup& group = {},
                                                  bool async_op = false) {
  return run_detail::run(async_op, [&](porta_work** w) {
    return porta_all_gather_into_tensor(out.handle(), in.handle(), group.handle(), w);
  });
}

inline std::optional<Work> reduce_scatter_tensor(const Tensor& out, const Tensor& in, ReduceOp op = ReduceOp::SUM,
                                                 const ProcessGroup& group = {}, bool async_op = false) {
  return run_detail::run(async_op, [&](porta_work** w) {
    return porta_reduce_scatter_tensor(out.handle(), in.handle(), static_cast<int32_t>(op), group.handle(), w);
  });
}

inline std::optional<Work> barrier(const ProcessGroup& group = {}, bool async_op = false) {
  return run_detail::run(async_op, [&](porta_work** w) { return porta_barrier(group.handle(), w); });
}

/// Waits for the transfer; isend for a Work.
inline void send(const Tensor& t, int32_t dst, const ProcessGroup& group = {}, int32_t tag = 0) {
  detail::check(porta_send(t.handle(), dst, tag, group.handle(), nullptr));
}
inline void recv(const Tensor& t, int32_t src, const ProcessGroup& group = {}, int32_t tag = 0) {
  detail::check(porta_recv(t.handle(), src, tag, group.handle(), nullptr));
}
inline Work isend(const Tensor& t, int32_t dst, const ProcessGroup& group = {}, int32_t tag = 0) {
  return *run_detail::run(true, [&](porta_work** w) { return porta_send(t.handle(), dst, tag, group.handle(), w); });
}
inline Work irecv(const Tensor& t, int32_t src, const ProcessGroup& group = {}, int32_t tag = 0) {
  return *run_detail::run(true, [&](porta_work** w) { return porta_recv(t.handle(), src, tag, group.handle(), w); });
}

}  // namespace porta::distributed
