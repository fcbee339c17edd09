// The mpi communicator plugin (porta/comm.h): host-memory tensors moved by
// the MPI library of the machine (OpenMPI or MPICH), every operation a
// nonblocking MPI call (MPI_Iallreduce, MPI_Ibcast, ...) whose request is the
// work handle. MPI starts on the first comm_create (MPI_Init_thread with
// MPI_THREAD_MULTIPLE) and ends at exit; a communicator's collectives are
// posted in call order, one at a time (sequencer.hpp); all-reduces run as
// libnbc's ring, a large one in pieces (iallreduce.hpp); float16 and
// bfloat16 move as their bits and reduce in float32 through ops of the
// plugin's own (half_ops.hpp); processes must be started by the MPI launcher
// (mpirun), which also gives their ranks (launched_rank).
// The C API only: C++ bindings, which OpenMPI's mpi.h would pull in, need a library of their own.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#include <porta/comm.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

#include "half_ops.hpp"
#include "iallreduce.hpp"
#include "sequencer.hpp"
#include "wait_by_polling.hpp"

namespace {

const porta_comm_host_api* g_host = nullptr;
std::mutex g_init_mu;
std::atomic<int64_t> g_pending{0};  // requests not yet complete, for the exit handler
porta::comm_mpi::Iallreduce g_iallreduce;
porta::comm_mpi::HalfOps g_half_ops;
using porta::comm_mpi::Half;
using porta::comm_mpi::mpi_error;

porta_status report(porta_status st, const std::string& message) {
  if (g_host) g_host->set_error(message.c_str());
  return st;
}

porta_status check_mpi(int code, const char* call) {
  if (code == MPI_SUCCESS) return PORTA_OK;
  return report(PORTA_ERROR_BACKEND, std::string(call) + " failed: " + mpi_error(code));
}

// At exit: MPI_Finalize, unless an operation never completed (a peer that
// never joined it), where MPI_Finalize would wait for it forever: then the
// job ends through MPI_Abort, which tells the launcher and the other ranks.
void finalize_at_exit() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  if (g_pending.load() > 0) {
    std::fprintf(stderr, "porta comm_mpi: %lld operation(s) never completed; ending the job with MPI_Abort\n",
                 static_cast<long long>(g_pending.load()));
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  g_half_ops.finalize();
  g_iallreduce.finalize();
  MPI_Finalize();
}

porta_status ensure_mpi() {
  std::lock_guard<std::mutex> lock(g_init_mu);
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    if (int e = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided); e != MPI_SUCCESS)
      return check_mpi(e, "MPI_Init_thread");
    if (provided < MPI_THREAD_MULTIPLE)
      return report(PORTA_ERROR_BACKEND, "the MPI library does not support MPI_THREAD_MULTIPLE (it gave level " +
                                             std::to_string(provided) + "), which Porta's work handles need");
    g_iallreduce.init();
    std::atexit(finalize_at_exit);
  }
  // The float16 and bfloat16 reductions: made once, whoever started MPI.
  if (int e = MPI_SUCCESS; !g_half_ops.init(&e))
    return report(PORTA_ERROR_BACKEND, "MPI_Op_create failed (" + mpi_error(e) +
                                           "), so the mpi backend cannot reduce float16 or bfloat16 tensors; check "
                                           "the MPI installation (scripts/install-deps.sh installs OpenMPI).");
  return PORTA_OK;
}

// Whether `t` is float16 or bfloat16, and which (*kind).
bool half_kind(DLDataType t, Half* kind) {
  if (t.lanes != 1 || t.bits != 16 || (t.code != kDLFloat && t.code != kDLBfloat)) return false;
  *kind = t.code == kDLFloat ? Half::Float16 : Half::BFloat16;
  return true;
}

// The MPI datatype of a DLPack dtype (bool as C's _Bool; float16 and
// bfloat16 as their bits, MPI_UINT16_T, which half_ops.hpp's ops reduce), or
// nullptr: every dtype of porta/types.h has one.
MPI_Datatype mpi_type(DLDataType t) {
  if (t.lanes != 1) return nullptr;
  if (t.code == kDLFloat && t.bits == 32) return MPI_FLOAT;
  if (t.code == kDLFloat && t.bits == 64) return MPI_DOUBLE;
  if (t.code == kDLInt && t.bits == 8) return MPI_INT8_T;
  if (t.code == kDLInt && t.bits == 16) return MPI_INT16_T;
  if (t.code == kDLInt && t.bits == 32) return MPI_INT32_T;
  if (t.code == kDLInt && t.bits == 64) return MPI_INT64_T;
  if (t.code == kDLUInt && t.bits == 8) return MPI_UINT8_T;
  if (t.code == kDLBool && t.bits == 8) return MPI_C_BOOL;
  if (Half kind; half_kind(t, &kind)) return MPI_UINT16_T;
  return nullptr;
}

// A dtype's name as Porta spells it, or its DLPack fields.
std::string dtype_name(DLDataType t) {
  Half kind;
  if (half_kind(t, &kind)) return kind == Half::Float16 ? "float16" : "bfloat16";
  if (t.lanes == 1) {
    if (t.code == kDLFloat && (t.bits == 32 || t.bits == 64)) return "float" + std::to_string(t.bits);
    if (t.code == kDLInt && (t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64))
      return "int" + std::to_string(t.bits);
    if (t.code == kDLUInt && t.bits == 8) return "uint8";
    if (t.code == kDLBool && t.bits == 8) return "bool";
  }
  return "(DLPack code " + std::to_string(t.code) + ", bits " + std::to_string(t.bits) + ", lanes " +
         std::to_string(t.lanes) + ")";
}

// MPI's op for `op` on `t` (on bool: SUM and MAX are a logical or, PROD and
// MIN a logical and; on float16 and bfloat16 the plugin's own ops; AVG is a
// SUM divided when the work completes).
MPI_Op mpi_op(porta_reduce_op op, DLDataType t) {
  if (Half kind; half_kind(t, &kind)) return g_half_ops.op(kind, op);
  const bool logical = t.code == kDLBool;
  switch (op) {
    case PORTA_REDUCE_SUM:
    case PORTA_REDUCE_AVG:
      return logical ? MPI_LOR : MPI_SUM;
    case PORTA_REDUCE_MAX:
      return logical ? MPI_LOR : MPI_MAX;
    case PORTA_REDUCE_MIN:
      return logical ? MPI_LAND : MPI_MIN;
    case PORTA_REDUCE_PROD:
      return logical ? MPI_LAND : MPI_PROD;
  }
  return MPI_OP_NULL;
}

}  // namespace

struct porta_comm {
  MPI_Comm comm = MPI_COMM_NULL;
  int size = 1;  // AVG's divisor
  porta::comm_mpi::Sequencer sequencer;  // its collectives
};

namespace {

// Every live communicator, for progress_all.
std::mutex g_comms_mu;
std::vector<porta_comm*> g_comms;

// Moves every communicator's sequencer along (a test or wait of any work
// does): a rank blocked in one operation still posts the collectives it
// called before, which a peer may be waiting for before it does its part.
void progress_all() {
  std::lock_guard<std::mutex> lock(g_comms_mu);
  for (porta_comm* c : g_comms) {
    std::lock_guard<std::mutex> held(c->sequencer.mutex());
    c->sequencer.progress();
  }
}

}  // namespace

// Its requests: a send's or recv's one. A collective's calls stay with the
// communicator's sequencer, which hands over those still pending when the
// communicator is destroyed.
struct porta_comm_work : porta::comm_mpi::SequencedWork {
  porta::comm_mpi::Sequencer* sequencer = nullptr;  // a collective's
  bool complete = false;
  // AVG: divide `count` values at `avg_data` by `avg_by` when complete.
  void* avg_data = nullptr;
  int64_t count = 0;
  DLDataType dtype{};
  int avg_by = 0;
};

namespace {

struct Buffer {
  void* data = nullptr;
  int count = 0;
  MPI_Datatype type = nullptr;
};

// A contiguous host tensor as an MPI buffer; INVALID_ARGUMENT when it is not one.
porta_status buffer_of(const DLTensor* t, const char* what, Buffer* out) {
  if (!t) return report(PORTA_ERROR_INVALID_ARGUMENT, std::string(what) + " is NULL");
  if (t->device.device_type != kDLCPU)
    return report(PORTA_ERROR_INVALID_ARGUMENT, std::string(what) + " is not in host memory (mpi serves kDLCPU)");
  out->type = mpi_type(t->dtype);
  if (!out->type)
    return report(PORTA_ERROR_UNSUPPORTED_DTYPE,
                  std::string(what) + " has dtype " + dtype_name(t->dtype) +
                      ", which the mpi backend does not move; cast it to one of bool, uint8, int8, int16, int32, "
                      "int64, float16, bfloat16, float32 or float64 first.");
  int64_t n = 1;
  for (int32_t d = 0; d < t->ndim; ++d) n *= t->shape[d];
  if (n > std::numeric_limits<int>::max())
    return report(PORTA_ERROR_INVALID_ARGUMENT, std::string(what) + " has " + std::to_string(n) +
                                                    " elements; MPI counts are int (at most 2^31 - 1 per call)");
  out->count = static_cast<int>(n);
  out->data = t->data ? static_cast<char*>(t->data) + t->byte_offset : nullptr;
  return PORTA_OK;
}

// Starts a point-to-point work: `post` makes its one MPI call.
template <typename Post>
porta_status start(porta_comm_work** work, const char* call, Post&& post) {
  if (!work) return report(PORTA_ERROR_INVALID_ARGUMENT, "work is NULL");
  auto* w = new porta_comm_work();
  w->requests.push_back(MPI_REQUEST_NULL);
  if (int e = post(&w->requests.back()); e != MPI_SUCCESS) {
    delete w;
    return check_mpi(e, call);
  }
  ++g_pending;
  *work = w;
  return PORTA_OK;
}

// Starts a collective: its MPI calls go to the communicator's sequencer,
// which posts them after the collectives called before it.
porta_status start_collective(porta_comm* comm, porta_comm_work** work, const char* call,
                              std::vector<porta::comm_mpi::Sequencer::Post> posts) {
  if (!work) return report(PORTA_ERROR_INVALID_ARGUMENT, "work is NULL");
  auto* w = new porta_comm_work();
  w->sequencer = &comm->sequencer;
  std::lock_guard<std::mutex> lock(comm->sequencer.mutex());
  comm->sequencer.submit(w, std::move(posts));
  if (!w->error.empty() && w->unfinished == 0 && w->requests.empty()) {  // its first call failed at once
    const std::string error = w->error;
    delete w;
    return report(PORTA_ERROR_BACKEND, std::string(call) + ": " + error);
  }
  ++g_pending;
  *work = w;
  return PORTA_OK;
}

template <typename T>
void divide(void* data, int64_t n, int by) {
  T* p = static_cast<T*>(data);
  for (int64_t i = 0; i < n; ++i) p[i] /= static_cast<T>(by);
}

void complete(porta_comm_work* w) {
  w->complete = true;
  --g_pending;
  if (!w->error.empty()) return;
  if (w->avg_by == 0) return;
  if (Half kind; half_kind(w->dtype, &kind))
    porta::comm_mpi::divide_half(kind, w->avg_data, w->count, w->avg_by);
  else if (w->dtype.bits == 32)
    divide<float>(w->avg_data, w->count, w->avg_by);
  else if (w->dtype.bits == 64)
    divide<double>(w->avg_data, w->count, w->avg_by);
}

// ----------------------------------------------------------------- slots

porta_status initialize(const porta_comm_host_api* host) {
  g_host = host;
  return PORTA_OK;
}

// A launcher's rank and size from its environment (OpenMPI, MPICH's Hydra
// and PMIx launchers), without starting MPI.
porta_status launched_rank(int32_t* launched, int32_t* rank, int32_t* world_size) {
  if (!launched || !rank || !world_size) return report(PORTA_ERROR_INVALID_ARGUMENT, "NULL out-parameter");
  const char* pairs[][2] = {
      {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"}, {"PMI_RANK", "PMI_SIZE"}, {"PMIX_RANK", "PMIX_SIZE"}};
  for (auto& p : pairs) {
    const char* r = std::getenv(p[0]);
    const char* s = std::getenv(p[1]);
    if (r && s && *r && *s) {
      *launched = 1;
      *rank = std::atoi(r);
      *world_size = std::atoi(s);
      return PORTA_OK;
    }
  }
  *launched = 0;
  return PORTA_OK;
}

porta_status comm_create(const porta_comm_config* config, porta_comm** out) {
  if (!config || !out) return report(PORTA_ERROR_INVALID_ARGUMENT, "NULL config or out");
  if (config->device.device_type != kDLCPU)
    return report(PORTA_ERROR_INVALID_ARGUMENT, "mpi serves host memory (kDLCPU) only");
  if (porta_status st = ensure_mpi(); st != PORTA_OK) return st;
  int world_rank = 0, world_size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  const int32_t my_world_rank = config->world_ranks ? config->world_ranks[config->rank] : config->rank;
  if (my_world_rank != world_rank || (!config->world_ranks && config->world_size != world_size))
    return report(PORTA_ERROR_INVALID_ARGUMENT,
                  "rank " + std::to_string(config->rank) + " of " + std::to_string(config->world_size) +
                      " was asked for, but MPI started this process as rank " + std::to_string(world_rank) + " of " +
                      std::to_string(world_size) + ": start every process with mpirun -n " +
                      std::to_string(config->world_size));
  auto* c = new porta_comm();
  int e = MPI_SUCCESS;
  if (!config->world_ranks || config->world_size == world_size) {
    e = MPI_Comm_dup(MPI_COMM_WORLD, &c->comm);
  } else {
    MPI_Group world_group = MPI_GROUP_NULL, group = MPI_GROUP_NULL;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    MPI_Group_incl(world_group, config->world_size, config->world_ranks, &group);
    e = MPI_Comm_create_group(MPI_COMM_WORLD, group, 0, &c->comm);
    MPI_Group_free(&group);
    MPI_Group_free(&world_group);
  }
  if (e != MPI_SUCCESS) {
    delete c;
    return check_mpi(e, "creating the communicator");
  }
  MPI_Comm_set_errhandler(c->comm, MPI_ERRORS_RETURN);
  MPI_Comm_size(c->comm, &c->size);
  {
    std::lock_guard<std::mutex> lock(g_comms_mu);
    g_comms.push_back(c);
  }
  *out = c;
  return PORTA_OK;
}

porta_status comm_destroy(porta_comm* comm) {
  if (!comm) return report(PORTA_ERROR_INVALID_ARGUMENT, "comm is NULL");
  {
    std::lock_guard<std::mutex> lock(g_comms_mu);
    g_comms.erase(std::remove(g_comms.begin(), g_comms.end(), comm), g_comms.end());
  }
  {
    std::lock_guard<std::mutex> lock(comm->sequencer.mutex());
    comm->sequencer.flush();  // MPI frees the communicator once what was posted on it completes
  }
  const int e = MPI_Comm_free(&comm->comm);
  delete comm;
  return check_mpi(e, "MPI_Comm_free");
}

porta_status comm_abort(porta_comm* comm, const char* reason) {
  std::fprintf(stderr, "porta comm_mpi: aborting the job: %s\n", reason ? reason : "(no reason given)");
  MPI_Abort(comm ? comm->comm : MPI_COMM_WORLD, 1);
  return PORTA_OK;
}

// all_reduce and reduce_scatter: `calls` gives the MPI calls for the
// buffers and the op; AVG divides `out` when the work completes.
template <typename Calls>
porta_status reduce(porta_comm* comm, const DLTensor* in, const DLTensor* out, porta_reduce_op op, const char* name,
                    porta_comm_work** work, Calls&& calls) {
  Buffer a, b;
  if (porta_status st = buffer_of(in, "in", &a); st != PORTA_OK) return st;
  if (porta_status st = buffer_of(out, "out", &b); st != PORTA_OK) return st;
  const MPI_Op mop = mpi_op(op, in->dtype);
  if (mop == MPI_OP_NULL)
    return report(PORTA_ERROR_INVALID_ARGUMENT, "reduce op " + std::to_string(static_cast<int>(op)) +
                                                    " is not one of SUM 0, AVG 1, MAX 2, MIN 3, PRODUCT 4; pass one "
                                                    "of those.");
  const bool floating = in->dtype.code == kDLFloat || in->dtype.code == kDLBfloat;
  porta_status st = start_collective(comm, work, name, calls(a, b, mop));
  if (st == PORTA_OK && op == PORTA_REDUCE_AVG && floating)
    (*work)->avg_data = b.data, (*work)->count = b.count, (*work)->dtype = in->dtype, (*work)->avg_by = comm->size;
  return st;
}

using Posts = std::vector<porta::comm_mpi::Sequencer::Post>;

porta_status all_reduce(porta_comm* comm, const DLTensor* in, const DLTensor* out, porta_reduce_op op, void*,
                        porta_comm_work** work) {
  return reduce(comm, in, out, op, "MPI_Iallreduce", work, [&](const Buffer& a, const Buffer& b, MPI_Op mop) {
    const void* send = a.data == b.data ? MPI_IN_PLACE : a.data;
    return g_iallreduce.pieces(send, b.data, b.count, b.type, mop, comm->comm, comm->size);
  });
}

porta_status broadcast(porta_comm* comm, const DLTensor* tensor, int32_t root, void*, porta_comm_work** work) {
  Buffer a;
  if (porta_status st = buffer_of(tensor, "tensor", &a); st != PORTA_OK) return st;
  return start_collective(comm, work, "MPI_Ibcast", Posts{[a, root, c = comm->comm](MPI_Request* r) {
                            return MPI_Ibcast(a.data, a.count, a.type, root, c, r);
                          }});
}

porta_status all_gather(porta_comm* comm, const DLTensor* in, const DLTensor* out, void*, porta_comm_work** work) {
  Buffer a, b;
  if (porta_status st = buffer_of(in, "in", &a); st != PORTA_OK) return st;
  if (porta_status st = buffer_of(out, "out", &b); st != PORTA_OK) return st;
  return start_collective(comm, work, "MPI_Iallgather", Posts{[a, b, c = comm->comm](MPI_Request* r) {
                            return MPI_Iallgather(a.data, a.count, a.type, b.data, a.count, b.type, c, r);
                          }});
}

porta_status reduce_scatter(porta_comm* comm, const DLTensor* in, const DLTensor* out, porta_reduce_op op, void*,
                            porta_comm_work** work) {
  return reduce(comm, in, out, op, "MPI_Ireduce_scatter_block", work,
                [&](const Buffer& a, const Buffer& b, MPI_Op mop) {
                  return Posts{[a, b, mop, c = comm->comm](MPI_Request* r) {
                    return MPI_Ireduce_scatter_block(a.data, b.data, b.count, b.type, mop, c, r);
                  }};
                });
}

porta_status barrier(porta_comm* comm, porta_comm_work** work) {
  return start_collective(comm, work, "MPI_Ibarrier",
                          Posts{[c = comm->comm](MPI_Request* r) { return MPI_Ibarrier(c, r); }});
}

porta_status send(porta_comm* comm, const DLTensor* tensor, int32_t peer, int32_t tag, void*, porta_comm_work** work) {
  Buffer a;
  if (porta_status st = buffer_of(tensor, "tensor", &a); st != PORTA_OK) return st;
  return start(work, "MPI_Isend",
               [&](MPI_Request* r) { return MPI_Isend(a.data, a.count, a.type, peer, tag, comm->comm, r); });
}

porta_status recv(porta_comm* comm, const DLTensor* tensor, int32_t peer, int32_t tag, void*, porta_comm_work** work) {
  Buffer a;
  if (porta_status st = buffer_of(tensor, "tensor", &a); st != PORTA_OK) return st;
  return start(work, "MPI_Irecv",
               [&](MPI_Request* r) { return MPI_Irecv(a.data, a.count, a.type, peer, tag, comm->comm, r); });
}

porta_status work_test(porta_comm_work* w, int32_t* done) {
  if (!w || !done) return report(PORTA_ERROR_INVALID_ARGUMENT, "NULL work or done");
  if (!w->complete) {
    progress_all();
    std::unique_lock<std::mutex> lock;  // w's requests and counts are the sequencer's while it holds some of its calls
    if (w->unfinished > 0) lock = std::unique_lock<std::mutex>(w->sequencer->mutex());
    int flag = 0;
    const int n = static_cast<int>(w->requests.size());
    if (int e = MPI_Testall(n, w->requests.data(), &flag, MPI_STATUSES_IGNORE); e != MPI_SUCCESS) {
      if (w->error.empty()) w->error = "MPI_Testall failed: " + mpi_error(e);
      flag = 1;
    }
    if (flag && w->unfinished == 0) complete(w);
  }
  if (!w->error.empty()) return report(PORTA_ERROR_BACKEND, w->error);
  *done = w->complete ? 1 : 0;
  return PORTA_OK;
}

porta_status work_wait(porta_comm_work* w, int64_t timeout_ms) {
  return porta::plugin::wait_by_polling(
      timeout_ms, [&](int32_t* done) { return work_test(w, done); },
      [&] { return report(PORTA_ERROR_TIMEOUT, "not complete within " + std::to_string(timeout_ms) + " ms"); });
}

void work_release(porta_comm_work* w) {
  // An incomplete request stays with MPI (freeing the request of a
  // nonblocking collective is erroneous in MPI); it counts as pending.
  if (w && w->complete) delete w;
}

const int32_t kDeviceTypes[] = {kDLCPU};

const porta_comm_api kApi = {
    sizeof(porta_comm_api),
    PORTA_COMM_ABI_MAJOR,
    PORTA_COMM_ABI_MINOR,
    "mpi",
    "0.1.0",
    kDeviceTypes,
    1,
    initialize,
    launched_rank,
    comm_create,
    comm_destroy,
    comm_abort,
    all_reduce,
    broadcast,
    all_gather,
    reduce_scatter,
    barrier,
    send,
    recv,
    work_test,
    work_wait,
    work_release,
};

}  // namespace

extern "C" PORTA_EXPORT const porta_comm_api* porta_comm_get_api(void) { return &kApi; }
