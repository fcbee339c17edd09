// The nccl communicator plugin (porta/comm.h): tensors in CUDA device memory
// moved by NVIDIA's NCCL, every operation enqueued on a CUDA stream, its
// completion a CUDA event the work handle polls.
//
// Stream order. A collective runs on the stream the core passes (NULL: the
// device's legacy default stream, which is the cuda plugin's stream: every
// kernel and copy it enqueues). So it starts after whatever the device was
// asked to do before, and the device's later work starts after it: the
// order a program wrote is the order it runs, with no host wait between.
// Sends and receives run on a stream of their own for each peer, after an
// event on the caller's stream, as torch.distributed's NCCL backend does: a
// ring of separate sends and receives on one stream would wait on itself.
//
// Rendezvous. Rank 0 makes NCCL's unique id and puts it in the core's
// key-value store; the other ranks read it there; then every rank calls
// ncclCommInitRank on its device. Each group (and each device of it) gets a
// communicator of its own.
//
// Failure. NCCL reports a peer that fails as an asynchronous error of the
// communicator (ncclCommGetAsyncError), which every test of a work reads;
// comm_abort is ncclCommAbort, which ends operations stuck on a dead peer.
#include <cuda_runtime.h>
#include <nccl.h>
#include <porta/comm.h>

#include <cstring>
#include <map>
#include <mutex>
#include <string>

#include "wait_by_polling.hpp"

namespace {

const porta_comm_host_api* g_host = nullptr;

porta_status report(porta_status st, const std::string& message) {
  if (g_host) g_host->set_error(message.c_str());
  return st;
}

porta_status check_cuda(cudaError_t e, const char* call) {
  if (e == cudaSuccess) return PORTA_OK;
  return report(PORTA_ERROR_BACKEND, std::string(call) + " failed: " + cudaGetErrorString(e));
}

porta_status check_nccl(ncclResult_t r, const char* call, ncclComm_t comm = nullptr) {
  if (r == ncclSuccess) return PORTA_OK;
  std::string text = std::string(call) + " failed: " + ncclGetErrorString(r);
  if (const char* last = ncclGetLastError(comm); last && *last) text += std::string(" (") + last + ")";
  return report(r == ncclInvalidArgument || r == ncclInvalidUsage ? PORTA_ERROR_INVALID_ARGUMENT : PORTA_ERROR_BACKEND,
                text);
}

// NCCL's type of a DLPack dtype; false when NCCL has none.
bool nccl_type(DLDataType t, ncclDataType_t* out) {
  if (t.lanes != 1) return false;
  switch (t.code) {
    case kDLFloat:
      if (t.bits == 16) return *out = ncclFloat16, true;
      if (t.bits == 32) return *out = ncclFloat32, true;
      if (t.bits == 64) return *out = ncclFloat64, true;
      return false;
    case kDLBfloat:
      return t.bits == 16 ? (*out = ncclBfloat16, true) : false;
    case kDLInt:
      if (t.bits == 8) return *out = ncclInt8, true;
      if (t.bits == 32) return *out = ncclInt32, true;
      if (t.bits == 64) return *out = ncclInt64, true;
      return false;
    case kDLUInt:
      return t.bits == 8 ? (*out = ncclUint8, true) : false;
    case kDLBool:
      return t.bits == 8 ? (*out = ncclUint8, true) : false;
    default:
      return false;
  }
}

// NCCL's op for `op` on `t`: on bool (0 or 1 bytes) SUM and MAX are a
// logical or, PROD and MIN a logical and, as torch.distributed's; AVG is
// NCCL's own (floating types; the core refuses it on integers).
ncclRedOp_t nccl_op(porta_reduce_op op, DLDataType t) {
  const bool logical = t.code == kDLBool;
  switch (op) {
    case PORTA_REDUCE_SUM:
      return logical ? ncclMax : ncclSum;
    case PORTA_REDUCE_AVG:
      return ncclAvg;
    case PORTA_REDUCE_MAX:
      return ncclMax;
    case PORTA_REDUCE_MIN:
      return ncclMin;
    case PORTA_REDUCE_PROD:
      return logical ? ncclMin : ncclProd;
  }
  return ncclSum;
}

// Makes `device` current for the scope and restores the caller's device.
class DeviceScope {
 public:
  explicit DeviceScope(int device) {
    if (cudaGetDevice(&previous_) != cudaSuccess) previous_ = -1;
    status_ = previous_ == device ? cudaSuccess : cudaSetDevice(device);
  }
  ~DeviceScope() {
    if (previous_ >= 0 && status_ == cudaSuccess) cudaSetDevice(previous_);
  }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;
  cudaError_t status() const { return status_; }

 private:
  int previous_ = -1;
  cudaError_t status_ = cudaSuccess;
};

}  // namespace

struct porta_comm {
  ncclComm_t nccl = nullptr;  // NULL once aborted (ncclCommAbort frees it)
  int device = 0;
  void* barrier_word = nullptr;         // one int32 of device memory, all-reduced by barrier
  std::map<int32_t, cudaStream_t> p2p;  // a stream per peer for send and recv
  std::mutex mu;                        // p2p
};

struct porta_comm_work {
  porta_comm* comm = nullptr;
  cudaEvent_t done = nullptr;
  bool complete = false;
  std::string error;
};

namespace {

// A contiguous tensor on the communicator's device: its data, element count and NCCL type.
porta_status buffer_of(const porta_comm* c, const DLTensor* t, const char* what, void** data, size_t* count,
                       ncclDataType_t* type) {
  if (!t) return report(PORTA_ERROR_INVALID_ARGUMENT, std::string(what) + " is NULL");
  if (t->device.device_type != kDLCUDA || t->device.device_id != c->device)
    return report(PORTA_ERROR_INVALID_ARGUMENT,
                  std::string(what) + " is not on this communicator's device (cuda:" + std::to_string(c->device) + ")");
  if (!nccl_type(t->dtype, type))
    return report(PORTA_ERROR_UNSUPPORTED_DTYPE, std::string(what) + ": a dtype NCCL has no type for");
  size_t n = 1;
  for (int32_t d = 0; d < t->ndim; ++d) n *= static_cast<size_t>(t->shape[d]);
  *count = n;
  *data = t->data ? static_cast<char*>(t->data) + t->byte_offset : nullptr;
  return PORTA_OK;
}

cudaStream_t stream_or_default(void* stream) { return stream ? static_cast<cudaStream_t>(stream) : cudaStreamLegacy; }

// Enqueues `launch` (the NCCL call on `stream`) and a completion event after it.
template <typename Launch>
porta_status start(porta_comm* c, cudaStream_t stream, const char* call, porta_comm_work** work, Launch&& launch) {
  if (!work) return report(PORTA_ERROR_INVALID_ARGUMENT, "work is NULL");
  DeviceScope on(c->device);
  if (porta_status st = check_cuda(on.status(), "cudaSetDevice"); st != PORTA_OK) return st;
  auto* w = new porta_comm_work();
  w->comm = c;
  porta_status st = check_cuda(cudaEventCreateWithFlags(&w->done, cudaEventDisableTiming), "cudaEventCreate");
  if (st == PORTA_OK) st = check_nccl(launch(), call, c->nccl);
  if (st == PORTA_OK) st = check_cuda(cudaEventRecord(w->done, stream), "cudaEventRecord");
  if (st != PORTA_OK) {
    if (w->done) cudaEventDestroy(w->done);
    delete w;
    return st;
  }
  *work = w;
  return PORTA_OK;
}

// The stream of sends to and receives from `peer`, made on first use; it
// waits for the work enqueued on `after` so far.
porta_status peer_stream(porta_comm* c, int32_t peer, cudaStream_t after, cudaStream_t* out) {
  DeviceScope on(c->device);
  if (porta_status st = check_cuda(on.status(), "cudaSetDevice"); st != PORTA_OK) return st;
  std::lock_guard<std::mutex> lock(c->mu);
  cudaStream_t& s = c->p2p[peer];
  if (!s)
    if (porta_status st = check_cuda(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
        st != PORTA_OK) {
      c->p2p.erase(peer);
      return st;
    }
  cudaEvent_t ready = nullptr;
  porta_status st = check_cuda(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming), "cudaEventCreate");
  if (st == PORTA_OK) st = check_cuda(cudaEventRecord(ready, after), "cudaEventRecord");
  if (st == PORTA_OK) st = check_cuda(cudaStreamWaitEvent(s, ready, 0), "cudaStreamWaitEvent");
  if (ready) cudaEventDestroy(ready);  // released once the wait is enqueued
  if (st == PORTA_OK) *out = s;
  return st;
}

// ----------------------------------------------------------------- slots

porta_status initialize(const porta_comm_host_api* host) {
  g_host = host;
  int version = 0;
  if (ncclGetVersion(&version) != ncclSuccess)
    return report(PORTA_ERROR_BACKEND, "ncclGetVersion failed: the NCCL library is not usable");
  return PORTA_OK;
}

porta_status comm_create(const porta_comm_config* config, porta_comm** out) {
  if (!config || !out || !config->kv) return report(PORTA_ERROR_INVALID_ARGUMENT, "NULL config, kv or out");
  if (config->device.device_type != kDLCUDA)
    return report(PORTA_ERROR_INVALID_ARGUMENT, "nccl serves CUDA device memory (kDLCUDA) only");
  auto* c = new porta_comm();
  c->device = config->device.device_id;
  DeviceScope on(c->device);
  porta_status st = check_cuda(on.status(), "cudaSetDevice");
  ncclUniqueId id{};
  const char* key = "nccl_unique_id";
  if (st == PORTA_OK && config->rank == 0) {
    st = check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
    if (st == PORTA_OK) st = config->kv->put(config->kv->context, key, &id, sizeof id);
  } else if (st == PORTA_OK) {
    size_t size = 0;
    st = config->kv->get(config->kv->context, key, &id, sizeof id, &size, config->timeout_ms);
    if (st == PORTA_OK && size != sizeof id)
      st = report(PORTA_ERROR_BACKEND, "the rendezvous holds a unique id of " + std::to_string(size) +
                                           " bytes, not NCCL's " + std::to_string(sizeof id));
  }
  if (st == PORTA_OK)
    st = check_nccl(ncclCommInitRank(&c->nccl, config->world_size, id, config->rank), "ncclCommInitRank");
  if (st == PORTA_OK) st = check_cuda(cudaMalloc(&c->barrier_word, sizeof(int32_t)), "cudaMalloc");
  if (st != PORTA_OK) {
    if (c->nccl) ncclCommDestroy(c->nccl);
    delete c;
    return st;
  }
  *out = c;
  return PORTA_OK;
}

porta_status comm_destroy(porta_comm* c) {
  if (!c) return report(PORTA_ERROR_INVALID_ARGUMENT, "comm is NULL");
  DeviceScope on(c->device);
  const porta_status st = c->nccl ? check_nccl(ncclCommDestroy(c->nccl), "ncclCommDestroy") : PORTA_OK;
  for (auto& [peer, s] : c->p2p) cudaStreamDestroy(s);
  cudaFree(c->barrier_word);
  delete c;
  return st;
}

porta_status comm_abort(porta_comm* c, const char* reason) {
  if (!c) return report(PORTA_ERROR_INVALID_ARGUMENT, "comm is NULL");
  if (g_host)
    g_host->log(PORTA_LOG_WARN, (std::string("aborting the communicator: ") + (reason ? reason : "")).c_str());
  if (!c->nccl) return PORTA_OK;  // aborted before
  DeviceScope on(c->device);
  const porta_status st = check_nccl(ncclCommAbort(c->nccl), "ncclCommAbort");
  c->nccl = nullptr;  // freed by the abort: comm_destroy must not destroy it again
  return st;
}

// The input and output of all_reduce, all_gather and reduce_scatter.
struct Pair {
  void *in = nullptr, *out = nullptr;
  size_t in_count = 0, out_count = 0;
  ncclDataType_t type{};
};

porta_status pair_of(const porta_comm* c, const DLTensor* in, const DLTensor* out, Pair* p) {
  ncclDataType_t out_type{};
  if (porta_status st = buffer_of(c, in, "in", &p->in, &p->in_count, &p->type); st != PORTA_OK) return st;
  return buffer_of(c, out, "out", &p->out, &p->out_count, &out_type);
}

porta_status all_reduce(porta_comm* c, const DLTensor* in, const DLTensor* out, porta_reduce_op op, void* stream,
                        porta_comm_work** work) {
  Pair p;
  if (porta_status st = pair_of(c, in, out, &p); st != PORTA_OK) return st;
  const cudaStream_t s = stream_or_default(stream);
  return start(c, s, "ncclAllReduce", work,
               [&] { return ncclAllReduce(p.in, p.out, p.in_count, p.type, nccl_op(op, in->dtype), c->nccl, s); });
}

porta_status broadcast(porta_comm* c, const DLTensor* tensor, int32_t root, void* stream, porta_comm_work** work) {
  void* data = nullptr;
  size_t n = 0;
  ncclDataType_t type{};
  if (porta_status st = buffer_of(c, tensor, "tensor", &data, &n, &type); st != PORTA_OK) return st;
  const cudaStream_t s = stream_or_default(stream);
  return start(c, s, "ncclBroadcast", work, [&] { return ncclBroadcast(data, data, n, type, root, c->nccl, s); });
}

porta_status all_gather(porta_comm* c, const DLTensor* in, const DLTensor* out, void* stream, porta_comm_work** work) {
  Pair p;
  if (porta_status st = pair_of(c, in, out, &p); st != PORTA_OK) return st;
  const cudaStream_t s = stream_or_default(stream);
  return start(c, s, "ncclAllGather", work, [&] { return ncclAllGather(p.in, p.out, p.in_count, p.type, c->nccl, s); });
}

porta_status reduce_scatter(porta_comm* c, const DLTensor* in, const DLTensor* out, porta_reduce_op op, void* stream,
                            porta_comm_work** work) {
  Pair p;
  if (porta_status st = pair_of(c, in, out, &p); st != PORTA_OK) return st;
  const cudaStream_t s = stream_or_default(stream);
  return start(c, s, "ncclReduceScatter", work,
               [&] { return ncclReduceScatter(p.in, p.out, p.out_count, p.type, nccl_op(op, in->dtype), c->nccl, s); });
}

// NCCL has no barrier: an all-reduce of one word, as torch's NCCL backend does.
porta_status barrier(porta_comm* c, porta_comm_work** work) {
  return start(c, cudaStreamLegacy, "ncclAllReduce (barrier)", work, [&] {
    return ncclAllReduce(c->barrier_word, c->barrier_word, 1, ncclInt32, ncclSum, c->nccl, cudaStreamLegacy);
  });
}

porta_status point_to_point(porta_comm* c, const DLTensor* tensor, int32_t peer, void* stream, bool receive,
                            porta_comm_work** work) {
  void* data = nullptr;
  size_t n = 0;
  ncclDataType_t type{};
  if (porta_status st = buffer_of(c, tensor, "tensor", &data, &n, &type); st != PORTA_OK) return st;
  cudaStream_t s = nullptr;
  if (porta_status st = peer_stream(c, peer, stream_or_default(stream), &s); st != PORTA_OK) return st;
  return start(c, s, receive ? "ncclRecv" : "ncclSend", work, [&] {
    return receive ? ncclRecv(data, n, type, peer, c->nccl, s) : ncclSend(data, n, type, peer, c->nccl, s);
  });
}

// NCCL matches sends and receives by peer and order; a tag is not NCCL's, so
// only tag 0 is accepted rather than a tag silently ignored.
porta_status check_tag(int32_t tag) {
  if (tag == 0) return PORTA_OK;
  return report(PORTA_ERROR_NOT_IMPLEMENTED, "nccl matches sends and receives by peer and order only: tag " +
                                                 std::to_string(tag) + " cannot be honoured; use tag 0");
}

porta_status send(porta_comm* c, const DLTensor* tensor, int32_t peer, int32_t tag, void* stream,
                  porta_comm_work** work) {
  if (porta_status st = check_tag(tag); st != PORTA_OK) return st;
  return point_to_point(c, tensor, peer, stream, false, work);
}

porta_status recv(porta_comm* c, const DLTensor* tensor, int32_t peer, int32_t tag, void* stream,
                  porta_comm_work** work) {
  if (porta_status st = check_tag(tag); st != PORTA_OK) return st;
  return point_to_point(c, tensor, peer, stream, true, work);
}

porta_status work_test(porta_comm_work* w, int32_t* done) {
  if (!w || !done) return report(PORTA_ERROR_INVALID_ARGUMENT, "NULL work or done");
  if (!w->error.empty()) return report(PORTA_ERROR_BACKEND, w->error);
  if (!w->complete && !w->comm->nccl) {
    w->error = "the communicator was aborted (comm_abort) before this operation completed";
    return report(PORTA_ERROR_BACKEND, w->error);
  }
  if (!w->complete) {
    DeviceScope on(w->comm->device);
    const cudaError_t q = cudaEventQuery(w->done);
    ncclResult_t async = ncclSuccess;
    ncclCommGetAsyncError(w->comm->nccl, &async);
    if (async != ncclSuccess && async != ncclInProgress) {
      w->error = std::string("the communicator failed: ") + ncclGetErrorString(async);
      if (const char* last = ncclGetLastError(w->comm->nccl); last && *last) w->error += std::string(" (") + last + ")";
      return report(PORTA_ERROR_BACKEND, w->error);
    }
    if (q == cudaSuccess) {
      w->complete = true;
    } else if (q != cudaErrorNotReady) {
      w->error = std::string("cudaEventQuery failed: ") + cudaGetErrorString(q);
      return report(PORTA_ERROR_BACKEND, w->error);
    }
  }
  *done = w->complete ? 1 : 0;
  return PORTA_OK;
}

porta_status work_wait(porta_comm_work* w, int64_t timeout_ms) {
  return porta::plugin::wait_by_polling(
      timeout_ms, [&](int32_t* done) { return work_test(w, done); },
      [&] { return report(PORTA_ERROR_TIMEOUT, "not complete within " + std::to_string(timeout_ms) + " ms"); });
}

// The event may still be pending: CUDA releases it once it completes.
void work_release(porta_comm_work* w) {
  if (!w) return;
  if (w->done) cudaEventDestroy(w->done);
  delete w;
}

const int32_t kDeviceTypes[] = {kDLCUDA};

const porta_comm_api kApi = {
    sizeof(porta_comm_api),
    PORTA_COMM_ABI_MAJOR,
    PORTA_COMM_ABI_MINOR,
    "nccl",
    "0.1.0",
    kDeviceTypes,
    1,
    initialize,
    nullptr,  // launched_rank: NCCL has no launcher of its own
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
