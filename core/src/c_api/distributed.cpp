// C API: process groups and their work (distributed/process_group.hpp).
#include <algorithm>
#include <memory>

#include "c_api/c_api.hpp"
#include "runtime/log.hpp"
#include "distributed/process_group.hpp"
#include "distributed/reducer.hpp"

using namespace porta;
using dist::ProcessGroup;
using dist::Work;

// The opaque handles: `magic` tells a live one from released or foreign
// memory (runtime/handle_kinds.hpp's table).
struct porta_process_group {
  uint32_t magic = HandleKind<porta_process_group>::live;
  std::shared_ptr<ProcessGroup> group;
};

struct porta_work {
  uint32_t magic = HandleKind<porta_work>::live;
  std::shared_ptr<Work> work;
};

struct porta_reducer {
  uint32_t magic = HandleKind<porta_reducer>::live;
  std::unique_ptr<dist::Reducer> reducer;
};

namespace {

template <class Handle>
bool live(const Handle* h) {
  return is_live_handle(h);
}

// What the release functions do: a live handle drops what it holds and is
// retired to its kind's quarantine (a later use is INVALID_HANDLE); NULL, a
// released handle and anything else are left alone (release never fails).
template <class Handle, class Member>
void release(Handle* h, Member Handle::*held) {
  if (h == nullptr) return;
  if (!live(h)) {
    log_line(PORTA_LOG_WARN, cat(HandleKind<Handle>::name, "_release ignored a handle that is not live (already "
                                 "released?)"));
    return;
  }
  (h->*held).reset();
  retire_handle(h);
}

// `group`, or the default group for NULL; INVALID_ARGUMENT before init.
std::shared_ptr<ProcessGroup> group_of(const porta_process_group* group) {
  if (group) {
    if (!live(group)) fail(PORTA_ERROR_INVALID_HANDLE, "group: not a live process group handle (already released?)");
    return group->group;
  }
  std::shared_ptr<ProcessGroup> g = ProcessGroup::default_group();
  if (!g)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "the default process group is not initialized: call init_process_group first");
  return g;
}

porta_work* work_arg(porta_work* work) {
  if (!live(work)) fail(PORTA_ERROR_INVALID_HANDLE, "work: not a live work handle (already released?)");
  return work;
}

// A rank of the default group as a rank of `g` (torch.distributed's global
// ranks name peers, also in a subgroup).
int32_t group_rank(const ProcessGroup& g, int32_t global, const char* op, const char* what) {
  const std::shared_ptr<ProcessGroup> world = ProcessGroup::default_group();
  if (!world || &g == world.get()) return global;
  const int32_t r = g.group_rank_of(global);
  if (r < 0)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": ", what, " rank ", global, " is not in process group '", g.name(), "'");
  return r;
}

// Hands `w` to *work, or waits for it when work is NULL.
void deliver(const std::shared_ptr<Work>& w, porta_work** work) {
  if (!work) return w->wait();
  auto* h = new porta_work();
  h->work = w;
  *work = h;
}

}  // namespace

PORTA_API porta_status porta_init_process_group(const porta_init_options* options) {
  return guard([&] {
    require(options, "options");
    if (options->struct_size < sizeof(porta_init_options))
      fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_init_process_group: options->struct_size is ", options->struct_size,
           ", expected sizeof(porta_init_options) = ", sizeof(porta_init_options));
    dist::GroupOptions o;
    if (options->backend && *options->backend) o.backend = options->backend;
    if (options->init_method) o.init_method = options->init_method;
    o.rank = options->rank;
    o.world_size = options->world_size;
    if (options->timeout_ms > 0) o.timeout_ms = options->timeout_ms;
    ProcessGroup::init(o);
  });
}

PORTA_API porta_status porta_is_initialized(int32_t* out) {
  return guard([&] {
    require(out, "out");
    *out = ProcessGroup::default_group() ? 1 : 0;
  });
}

PORTA_API porta_status porta_destroy_process_group(porta_process_group* group) {
  return guard([&] {
    if (!group) return ProcessGroup::destroy_all();
    group_of(group)->destroy();
  });
}

PORTA_API porta_status porta_new_group(const int32_t* ranks, int32_t num_ranks, int64_t timeout_ms,
                                       porta_process_group** out) {
  return guard([&] {
    require(out, "out");
    if (num_ranks < 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_new_group: num_ranks must be >= 0, got ", num_ranks);
    if (num_ranks > 0) require(ranks, "ranks");
    std::shared_ptr<ProcessGroup> g =
        ProcessGroup::new_group(std::vector<int32_t>(ranks, ranks + num_ranks), timeout_ms);
    if (!g) {
      *out = nullptr;
      return;
    }
    auto* h = new porta_process_group();
    h->group = std::move(g);
    *out = h;
  });
}

PORTA_API void porta_process_group_release(porta_process_group* group) {
  release(group, &porta_process_group::group);
}

PORTA_API porta_status porta_get_rank(const porta_process_group* group, int32_t* out) {
  return guard([&] {
    require(out, "out");
    *out = group_of(group)->rank();
  });
}

PORTA_API porta_status porta_get_world_size(const porta_process_group* group, int32_t* out) {
  return guard([&] {
    require(out, "out");
    *out = group_of(group)->size();
  });
}

PORTA_API porta_status porta_get_global_rank(const porta_process_group* group, int32_t group_rank, int32_t* out) {
  return guard([&] {
    require(out, "out");
    *out = group_of(group)->global_rank_of(group_rank);
  });
}

PORTA_API porta_status porta_get_backend(const porta_process_group* group, const char** out) {
  return guard([&] {
    require(out, "out");
    *out = group_of(group)->backend().name.c_str();
  });
}

PORTA_API porta_status porta_all_reduce(porta_tensor* t, int32_t op, porta_process_group* group, porta_work** work) {
  return guard([&] { deliver(group_of(group)->all_reduce(arg(t, "t"), static_cast<porta_reduce_op>(op)), work); });
}

PORTA_API porta_status porta_broadcast(porta_tensor* t, int32_t src, porta_process_group* group, porta_work** work) {
  return guard([&] {
    auto g = group_of(group);
    deliver(g->broadcast(arg(t, "t"), group_rank(*g, src, "broadcast", "source")), work);
  });
}

PORTA_API porta_status porta_all_gather_into_tensor(porta_tensor* out, porta_tensor* in, porta_process_group* group,
                                                    porta_work** work) {
  return guard([&] { deliver(group_of(group)->all_gather(arg(out, "out"), arg(in, "in")), work); });
}

PORTA_API porta_status porta_reduce_scatter_tensor(porta_tensor* out, porta_tensor* in, int32_t op,
                                                   porta_process_group* group, porta_work** work) {
  return guard([&] {
    deliver(group_of(group)->reduce_scatter(arg(out, "out"), arg(in, "in"), static_cast<porta_reduce_op>(op)), work);
  });
}

PORTA_API porta_status porta_barrier(porta_process_group* group, porta_work** work) {
  return guard([&] { deliver(group_of(group)->barrier(), work); });
}

PORTA_API porta_status porta_send(porta_tensor* t, int32_t dst, int32_t tag, porta_process_group* group,
                                  porta_work** work) {
  return guard([&] {
    auto g = group_of(group);
    deliver(g->send(arg(t, "t"), group_rank(*g, dst, "send", "destination"), tag), work);
  });
}

PORTA_API porta_status porta_recv(porta_tensor* t, int32_t src, int32_t tag, porta_process_group* group,
                                  porta_work** work) {
  return guard([&] {
    auto g = group_of(group);
    deliver(g->recv(arg(t, "t"), group_rank(*g, src, "recv", "source"), tag), work);
  });
}

PORTA_API porta_status porta_work_wait(porta_work* work, int64_t timeout_ms) {
  return guard([&] { work_arg(work)->work->wait(timeout_ms); });
}

PORTA_API porta_status porta_work_is_completed(porta_work* work, int32_t* out) {
  return guard([&] {
    require(out, "out");
    *out = work_arg(work)->work->is_completed() ? 1 : 0;
  });
}

PORTA_API void porta_work_release(porta_work* work) { release(work, &porta_work::work); }

namespace {

dist::Reducer& reducer_arg(const porta_reducer* r) {
  if (!live(r)) fail(PORTA_ERROR_INVALID_HANDLE, "reducer: not a live reducer handle (already released?)");
  return *r->reducer;
}

}  // namespace

PORTA_API porta_status porta_reducer_create_with_options(porta_tensor* const* params, int32_t num_params,
                                                         porta_process_group* group,
                                                         const porta_reducer_options* options, porta_reducer** out) {
  return guard([&] {
    require(options, "options");
    require(out, "out");
    if (options->struct_size < sizeof(porta_reducer_options))
      fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_reducer_create_with_options: options->struct_size is ",
           options->struct_size, ", expected sizeof(porta_reducer_options) = ", sizeof(porta_reducer_options));
    std::vector<TensorPtr> ps = tensor_array("porta_reducer_create", params, num_params);
    auto r = std::make_unique<porta_reducer>();
    dist::Reducer::Options o;
    o.bucket_bytes = options->bucket_bytes > 0 ? options->bucket_bytes : int64_t(25) << 20;
    o.first_bucket_bytes =
        options->first_bucket_bytes > 0 ? options->first_bucket_bytes : std::min<int64_t>(o.bucket_bytes, 1 << 20);
    o.find_unused_parameters = options->find_unused_parameters != 0;
    o.gradient_as_bucket_view = options->gradient_as_bucket_view != 0;
    r->reducer = std::make_unique<dist::Reducer>(std::move(ps), group_of(group), o);
    *out = r.release();
  });
}

PORTA_API porta_status porta_reducer_create(porta_tensor* const* params, int32_t num_params, porta_process_group* group,
                                            int64_t bucket_bytes, int64_t first_bucket_bytes,
                                            int32_t find_unused_parameters, porta_reducer** out) {
  const porta_reducer_options options{sizeof(porta_reducer_options), bucket_bytes, first_bucket_bytes,
                                      find_unused_parameters, 0};
  return porta_reducer_create_with_options(params, num_params, group, &options, out);
}

PORTA_API porta_status porta_reducer_prepare_for_backward(porta_reducer* reducer, porta_tensor* const* outputs,
                                                          int32_t num_outputs) {
  return guard([&] {
    dist::Reducer& r = reducer_arg(reducer);
    if (num_outputs < 0)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_reducer_prepare_for_backward: num_outputs must be >= 0, got ",
           num_outputs);
    std::vector<TensorPtr> outs;
    if (num_outputs > 0) outs = tensor_array("porta_reducer_prepare_for_backward", outputs, num_outputs);
    r.prepare_for_backward(outs);
  });
}

PORTA_API porta_status porta_reducer_bucket_count(const porta_reducer* reducer, int32_t* out) {
  return guard([&] {
    require(out, "out");
    *out = reducer_arg(reducer).bucket_count();
  });
}

PORTA_API void porta_reducer_release(porta_reducer* reducer) { release(reducer, &porta_reducer::reducer); }
