/* The "loopback" communicator test plugin: a world of one rank over host
 * memory, so that process groups, their work and DDP's reducer can be made
 * in any test process without a launcher or an MPI library (the handle
 * release sweep under ASan and valgrind: tests/unit/test_handle_release.cpp).
 * Every collective of one rank is a copy at most; each completes at once,
 * and each work handle is its own allocation, freed by work_release, so a
 * use after release shows under the sanitizers. Point-to-point transfers
 * need a peer and are refused. Written against porta/comm.h alone. */
#include <stdlib.h>
#include <string.h>

#include "porta/comm.h"

struct porta_comm {
  int32_t open;
};
struct porta_comm_work {
  int32_t done;
};

static const porta_comm_host_api* g_host;

static porta_status refuse(porta_status status, const char* message) {
  g_host->set_error(message);
  return status;
}

static size_t bytes_of(const DLTensor* t) {
  size_t n = (size_t)(t->dtype.bits * t->dtype.lanes + 7) / 8;
  for (int32_t d = 0; d < t->ndim; ++d) n *= (size_t)t->shape[d];
  return n;
}

static void* data_of(const DLTensor* t) { return (char*)t->data + t->byte_offset; }

static porta_status completed(porta_comm_work** work) {
  porta_comm_work* w = (porta_comm_work*)malloc(sizeof *w);
  if (!w) return refuse(PORTA_ERROR_OUT_OF_MEMORY, "loopback: no memory for a work handle");
  w->done = 1;
  *work = w;
  return PORTA_OK;
}

static porta_status copy_then_complete(const DLTensor* in, const DLTensor* out, porta_comm_work** work) {
  if (data_of(in) != data_of(out)) memmove(data_of(out), data_of(in), bytes_of(out));
  return completed(work);
}

static porta_status initialize(const porta_comm_host_api* host) {
  g_host = host;
  return PORTA_OK;
}

static porta_status comm_create(const porta_comm_config* config, porta_comm** out) {
  if (config->world_size != 1) return refuse(PORTA_ERROR_INVALID_ARGUMENT, "loopback: serves a world of one rank only");
  porta_comm* c = (porta_comm*)malloc(sizeof *c);
  if (!c) return refuse(PORTA_ERROR_OUT_OF_MEMORY, "loopback: no memory for a communicator");
  c->open = 1;
  *out = c;
  return PORTA_OK;
}

static porta_status comm_destroy(porta_comm* comm) {
  free(comm);
  return PORTA_OK;
}

static porta_status comm_abort(porta_comm* comm, const char* reason) {
  (void)reason;
  comm->open = 0;
  return PORTA_OK;
}

static porta_status all_reduce(porta_comm* comm, const DLTensor* in, const DLTensor* out, porta_reduce_op op,
                               void* stream, porta_comm_work** work) {
  (void)comm, (void)op, (void)stream;
  return copy_then_complete(in, out, work);  // every op over one rank (AVG too) is the rank's own value
}

static porta_status broadcast(porta_comm* comm, const DLTensor* tensor, int32_t root, void* stream,
                              porta_comm_work** work) {
  (void)comm, (void)tensor, (void)root, (void)stream;
  return completed(work);
}

static porta_status all_gather(porta_comm* comm, const DLTensor* in, const DLTensor* out, void* stream,
                               porta_comm_work** work) {
  (void)comm, (void)stream;
  return copy_then_complete(in, out, work);
}

static porta_status reduce_scatter(porta_comm* comm, const DLTensor* in, const DLTensor* out, porta_reduce_op op,
                                   void* stream, porta_comm_work** work) {
  (void)comm, (void)op, (void)stream;
  return copy_then_complete(in, out, work);
}

static porta_status barrier(porta_comm* comm, porta_comm_work** work) {
  (void)comm;
  return completed(work);
}

static porta_status point_to_point(porta_comm* comm, const DLTensor* tensor, int32_t peer, int32_t tag,
                                   void* stream, porta_comm_work** work) {
  (void)comm, (void)tensor, (void)peer, (void)tag, (void)stream, (void)work;
  return refuse(PORTA_ERROR_NOT_IMPLEMENTED, "loopback: a world of one rank has no peer to send to or receive from");
}

static porta_status work_test(porta_comm_work* work, int32_t* done) {
  *done = work->done;
  return PORTA_OK;
}

static porta_status work_wait(porta_comm_work* work, int64_t timeout_ms) {
  (void)work, (void)timeout_ms;
  return PORTA_OK;
}

static void work_release(porta_comm_work* work) { free(work); }

static const int32_t kDeviceTypes[] = {kDLCPU};

static const porta_comm_api kApi = {
    sizeof(porta_comm_api), PORTA_COMM_ABI_MAJOR, PORTA_COMM_ABI_MINOR, "loopback", "1.0", kDeviceTypes, 1,
    initialize, NULL, comm_create, comm_destroy, comm_abort, all_reduce, broadcast, all_gather, reduce_scatter,
    barrier, point_to_point, point_to_point, work_test, work_wait, work_release};

PORTA_EXPORT const porta_comm_api* porta_comm_get_api(void) { return &kApi; }
