// Bad-argument cases, part 5: distributed (porta.h's last section, in its
// order). This process was not started by a launcher and makes no group:
// every call that needs the default group is refused saying so, and
// init_process_group's own arguments are refused before any backend starts.
// tests/distributed runs the same calls under mpirun with a group.
#include <string>

#include "c_api_bad_args.hpp"

namespace porta_bad_args {
namespace {

constexpr const char* kNoGroup = "the default process group is not initialized";

porta_process_group* foreign_group() { return foreign_handle<porta_process_group>(); }
porta_work* foreign_work() { return foreign_handle<porta_work>(); }

// A collective's calls: no default group, a foreign group, a foreign tensor.
template <typename Call>
void check_collective(Fixture& x, Call call) {
  Untouched<porta_work*> work;
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, kNoGroup, call(x.f.get(), nullptr, work.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, kNoGroup, call(x.f.get(), nullptr, nullptr));
  REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a live process group", call(x.f.get(), foreign_group(), work.p()));
}

porta_init_options options(const char* backend, int32_t rank, int32_t world_size) {
  return porta_init_options{sizeof(porta_init_options), backend, nullptr, rank, world_size, 1000};
}

const Case kCases[] = {
    {"porta_init_process_group",
     [](Fixture&) {
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "options must not be NULL", porta_init_process_group(nullptr));
       porta_init_options small = options("mpi", 0, 1);
       small.struct_size = 8;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "struct_size is 8", porta_init_process_group(&small));
       porta_init_options unknown = options("no_such_backend", 0, 1);
       REFUSED(PORTA_ERROR_NO_SUCH_DEVICE, "no communicator backend 'no_such_backend'",
               porta_init_process_group(&unknown));
       porta_init_options outside = options("mpi", 3, 2);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "rank 3 is outside a world of 2 ranks",
               porta_init_process_group(&outside));
       porta_init_options unknown_rank = options("mpi", -1, -1);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "rank and the world size are unknown",
               porta_init_process_group(&unknown_rank));
       porta_init_options udp = options("mpi", 0, 1);
       udp.init_method = "udp://127.0.0.1:1234";
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "init_method 'udp://127.0.0.1:1234' is not one Porta knows",
               porta_init_process_group(&udp));
       porta_init_options no_port = options("mpi", 0, 1);
       no_port.init_method = "tcp://127.0.0.1";
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "has no port", porta_init_process_group(&no_port));
       int32_t made = -1;
       EXPECT_EQ(porta_is_initialized(&made), PORTA_OK);
       EXPECT_EQ(made, 0) << "a refused init_process_group made a group";
     }},
    {"porta_is_initialized",
     [](Fixture&) { REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_is_initialized(nullptr)); }},
    {"porta_destroy_process_group",
     [](Fixture&) {
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a live process group", porta_destroy_process_group(foreign_group()));
     }},
    {"porta_new_group",
     [](Fixture&) {
       Untouched<porta_process_group*> out;
       const int32_t ranks[] = {0};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_new_group(ranks, 1, 0, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "num_ranks must be >= 0", porta_new_group(ranks, -1, 0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "ranks must not be NULL", porta_new_group(nullptr, 1, 0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "call init_process_group first", porta_new_group(ranks, 1, 0, out.p()));
     }},
    {"porta_process_group_release",
     [](Fixture&) {
       porta_process_group_release(nullptr);
       porta_process_group_release(foreign_group());  // not a handle: ignored, nothing freed
     }},
    {"porta_get_rank",
     [](Fixture&) {
       Untouched<int32_t> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_get_rank(nullptr, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, kNoGroup, porta_get_rank(nullptr, out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a live process group", porta_get_rank(foreign_group(), out.p()));
     }},
    {"porta_get_world_size",
     [](Fixture&) {
       Untouched<int32_t> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_get_world_size(nullptr, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, kNoGroup, porta_get_world_size(nullptr, out.p()));
     }},
    {"porta_get_backend",
     [](Fixture&) {
       Untouched<const char*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_get_backend(nullptr, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, kNoGroup, porta_get_backend(nullptr, out.p()));
     }},
    {"porta_get_global_rank",
     [](Fixture&) {
       Untouched<int32_t> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_get_global_rank(nullptr, 0, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, kNoGroup, porta_get_global_rank(nullptr, 0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a live process group",
               porta_get_global_rank(foreign_group(), 0, out.p()));
     }},
    {"porta_all_reduce",
     [](Fixture& x) {
       check_collective(x, [](porta_tensor* t, porta_process_group* g, porta_work** w) {
         return porta_all_reduce(t, PORTA_REDUCE_SUM, g, w);
       });
     }},
    {"porta_broadcast",
     [](Fixture& x) {
       check_collective(
           x, [](porta_tensor* t, porta_process_group* g, porta_work** w) { return porta_broadcast(t, 0, g, w); });
     }},
    {"porta_all_gather_into_tensor",
     [](Fixture& x) {
       check_collective(x, [&](porta_tensor* t, porta_process_group* g, porta_work** w) {
         return porta_all_gather_into_tensor(t, x.f.get(), g, w);
       });
     }},
    {"porta_reduce_scatter_tensor",
     [](Fixture& x) {
       check_collective(x, [&](porta_tensor* t, porta_process_group* g, porta_work** w) {
         return porta_reduce_scatter_tensor(t, x.f.get(), PORTA_REDUCE_SUM, g, w);
       });
     }},
    {"porta_barrier",
     [](Fixture&) {
       Untouched<porta_work*> work;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, kNoGroup, porta_barrier(nullptr, work.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a live process group", porta_barrier(foreign_group(), work.p()));
     }},
    {"porta_send",
     [](Fixture& x) {
       check_collective(
           x, [](porta_tensor* t, porta_process_group* g, porta_work** w) { return porta_send(t, 1, 0, g, w); });
     }},
    {"porta_recv",
     [](Fixture& x) {
       check_collective(
           x, [](porta_tensor* t, porta_process_group* g, porta_work** w) { return porta_recv(t, 1, 0, g, w); });
     }},
    {"porta_work_wait",
     [](Fixture&) {
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a live work handle", porta_work_wait(nullptr, 10));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a live work handle", porta_work_wait(foreign_work(), 10));
     }},
    {"porta_work_is_completed",
     [](Fixture&) {
       Untouched<int32_t> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_work_is_completed(foreign_work(), nullptr));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a live work handle", porta_work_is_completed(foreign_work(), out.p()));
     }},
    {"porta_work_release",
     [](Fixture&) {
       porta_work_release(nullptr);
       porta_work_release(foreign_work());  // not a handle: ignored, nothing freed
     }},
    {"porta_reducer_create",
     [](Fixture& x) {
       Untouched<porta_reducer*> out;
       Tensor leaf = x.leaf();
       porta_tensor* params[] = {leaf.get()};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL",
               porta_reducer_create(params, 1, nullptr, 0, 0, 0, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "tensors must not be NULL",
               porta_reducer_create(nullptr, 1, nullptr, 0, 0, 0, out.p()));
       porta_tensor* bad[] = {Fixture::released()};
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_reducer_create(bad, 1, nullptr, 0, 0, 0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, kNoGroup, porta_reducer_create(params, 1, nullptr, 0, 0, 0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a live process group",
               porta_reducer_create(params, 1, foreign_group(), 0, 0, 0, out.p()));
     }},
    {"porta_reducer_create_with_options",
     [](Fixture& x) {
       Untouched<porta_reducer*> out;
       Tensor leaf = x.leaf();
       porta_tensor* params[] = {leaf.get()};
       porta_reducer_options o{sizeof(porta_reducer_options), 0, 0, 0, 1};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "options must not be NULL",
               porta_reducer_create_with_options(params, 1, nullptr, nullptr, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL",
               porta_reducer_create_with_options(params, 1, nullptr, &o, nullptr));
       porta_reducer_options small = o;
       small.struct_size = sizeof(porta_reducer_options) - 8;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "struct_size",
               porta_reducer_create_with_options(params, 1, nullptr, &small, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, kNoGroup,
               porta_reducer_create_with_options(params, 1, nullptr, &o, out.p()));
     }},
    {"porta_reducer_prepare_for_backward",
     [](Fixture& x) {
       porta_tensor* outs[] = {x.f.get()};
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a live reducer", porta_reducer_prepare_for_backward(nullptr, outs, 1));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a live reducer",
               porta_reducer_prepare_for_backward(foreign_handle<porta_reducer>(), outs, 1));
     }},
    {"porta_reducer_bucket_count",
     [](Fixture&) {
       Untouched<int32_t> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL",
               porta_reducer_bucket_count(foreign_handle<porta_reducer>(), nullptr));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a live reducer",
               porta_reducer_bucket_count(foreign_handle<porta_reducer>(), out.p()));
     }},
    {"porta_reducer_release",
     [](Fixture&) {
       porta_reducer_release(nullptr);
       porta_reducer_release(foreign_handle<porta_reducer>());  // not a handle: ignored, nothing freed
     }},
};

}  // namespace

std::vector<Case> distributed_cases() { return {std::begin(kCases), std::end(kCases)}; }

}  // namespace porta_bad_args
