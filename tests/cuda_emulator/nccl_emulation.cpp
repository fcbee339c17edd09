// NCCL emulated on the CPU across processes (README.md, "NCCL"): one rank per
// process, on that process's emulated device; the ranks meet in a POSIX
// shared-memory segment named by the unique id (nccl_segment.hpp). Every
// collective and send or receive is enqueued on the device's stream, so it
// reads its inputs after the work queued before it and later work sees its
// outputs; the exchange happens when the stream runs, i.e. when this rank's
// host waits on it (a synchronize, an event query, ...).
//
// Settings: PORTA_NCCL_EMULATOR_TIMEOUT_MS (default 60000): how long a rank
// waits for its peers (to join, or to reach a collective or a send) before
// the operation fails with an asynchronous ncclRemoteError naming the ranks
// that had not arrived.
#include <fcntl.h>
#include <nccl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "emulator.hpp"
#include "nccl_reduce.hpp"
#include "nccl_segment.hpp"

namespace cuda_emulator::nccl {
namespace {

// NCCL keeps one "last error" per process; so does the emulation.
std::mutex g_error_mutex;
std::string g_last_error;

ncclResult_t fail(ncclResult_t code, const std::string& message) {
  std::lock_guard<std::mutex> lock(g_error_mutex);
  g_last_error = message;
  return code;
}

long long timeout_ms() {
  const char* v = std::getenv("PORTA_NCCL_EMULATOR_TIMEOUT_MS");
  const long long ms = v && *v ? std::atoll(v) : 0;
  return ms > 0 ? ms : 60000;
}

// One rank's state of a communicator. The handle and every queued task of
// it share this, so an operation still queued when the handle is destroyed
// runs later, its segment still mapped.
struct State {
  Segment segment;
  int nranks = 0, rank = 0, device = 0;
  long long timeout_ms = 60000;
  std::atomic<bool> aborted{false};
  bool joined = false;  // whether this rank's slot in the segment is its own (its init claimed it)
  // Touched only by tasks, which the device's queue runs one at a time.
  uint64_t round = 0;                    // collective rounds run (each rank counts the same)
  uint64_t collectives = 0;              // collectives run, to name them in messages
  std::vector<uint64_t> sent, received;  // messages sent to and received from each peer

  std::mutex mutex;  // guards the asynchronous error
  ncclResult_t async = ncclSuccess;
  std::string async_message;

  ncclResult_t error() {
    std::lock_guard<std::mutex> lock(mutex);
    return async;
  }
  std::string error_message() {
    std::lock_guard<std::mutex> lock(mutex);
    return async_message;
  }

  // The first asynchronous error stays; peers waiting on this rank learn it cannot come.
  void record(ncclResult_t code, const std::string& message, RankState why) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (async != ncclSuccess) return;
      async = code;
      async_message = message;
    }
    int32_t active = kActive;
    segment.rank(rank).state.compare_exchange_strong(active, why);
    fail(code, message);
  }

  ~State() {
    if (!joined) return;
    // Its last task has run: nothing more will come from this rank.
    int32_t active = kActive;
    segment.rank(rank).state.compare_exchange_strong(active, kLeft);
    // Messages sent to this rank and never received: no one else unlinks them.
    for (int peer = 0; peer < nranks; ++peer)
      for (uint64_t i = received[static_cast<size_t>(peer)]; i < segment.pair(peer, rank).sent.load(); ++i)
        shm_unlink(segment.message_name(peer, rank, i).c_str());
  }
};

}  // namespace
}  // namespace cuda_emulator::nccl

// The header's opaque communicator. Never freed: once destroyed or aborted
// it keeps why, so a later call with it is ncclInvalidUsage, not a crash.
// Every handle stays in g_handles (below), so it is reachable, not leaked.
struct ncclComm {
  std::shared_ptr<cuda_emulator::nccl::State> state;  // null once destroyed or aborted
  const char* ended_by = nullptr;                     // "ncclCommDestroy" or "ncclCommAbort"
  ncclResult_t final_error = ncclSuccess;
  std::string final_message;
};

namespace cuda_emulator::nccl {
namespace {

std::mutex g_handles_mutex;  // guards each ncclComm's fields and g_handles
// Every handle made, for the life of the process (never destroyed at exit:
// a queued task may still reach its handle's state then).
auto* const g_handles = new std::vector<std::unique_ptr<ncclComm>>();
thread_local int t_group_depth = 0;

// The live state of `comm`, or null with `*result` the error `op` returns.
std::shared_ptr<State> live(ncclComm_t comm, const char* op, ncclResult_t* result) {
  if (!comm) {
    *result = fail(ncclInvalidArgument, std::string(op) + ": comm is NULL");
    return nullptr;
  }
  std::shared_ptr<State> state;
  {
    std::lock_guard<std::mutex> lock(g_handles_mutex);
    state = comm->state;
    if (!state) {
      *result = fail(ncclInvalidUsage, std::string(op) + ": the communicator was already ended by " + comm->ended_by);
      return nullptr;
    }
  }
  return state;
}

// As `live`, and the communicator must not have failed: NCCL returns its asynchronous error to new operations.
std::shared_ptr<State> usable(ncclComm_t comm, const char* op, ncclResult_t* result) {
  std::shared_ptr<State> state = live(comm, op, result);
  if (state && state->error() != ncclSuccess) {
    *result = fail(state->error(), std::string(op) + ": the communicator has failed: " + state->error_message());
    return nullptr;
  }
  return state;
}

size_t element_bytes(ncclDataType_t type) {
  size_t bytes = 0;
  with_type(type, [&](auto x) { bytes = sizeof x; });
  return bytes;
}

ncclResult_t check_type(const char* op, ncclDataType_t type) {
  if (element_bytes(type) != 0) return ncclSuccess;
  if (type == ncclFloat16 || type == ncclBfloat16 || type == ncclFloat8e4m3 || type == ncclFloat8e5m2)
    return fail(ncclInvalidArgument, std::string(op) + ": datatype " + std::to_string(type) +
                                         " (a 16- or 8-bit float) is not emulated (tests/cuda_emulator)");
  return fail(ncclInvalidArgument, std::string(op) + ": datatype " + std::to_string(type) + " is not an NCCL type");
}

ncclResult_t check_op(const char* op, ncclRedOp_t red) {
  if (red >= ncclSum && red < ncclNumOps) return ncclSuccess;
  return fail(ncclInvalidArgument, std::string(op) + ": reduction " + std::to_string(red) +
                                       " is not ncclSum, ncclProd, ncclMax, ncclMin or ncclAvg (the ops "
                                       "ncclRedOpCreatePreMulSum makes are not emulated)");
}

// A GPU would fault on a host pointer: refused at the call instead.
ncclResult_t check_buffer(const char* op, const char* what, const void* p, size_t bytes, int device) {
  if (bytes == 0) return ncclSuccess;
  if (is_device_memory(p, bytes, device)) return ncclSuccess;
  char text[256];
  std::snprintf(text, sizeof text, "%s: %s (%p, %zu bytes) is not memory of the communicator's device cuda:%d", op,
                what, p, bytes, device);
  return fail(ncclInvalidArgument, text);
}

ncclResult_t check_stream(const char* op, cudaStream_t stream, int device) {
  const int d = stream_device(stream);
  if (d == device) return ncclSuccess;
  return fail(ncclInvalidArgument, std::string(op) + ": the stream is cuda:" + std::to_string(d) +
                                       "'s, the communicator cuda:" + std::to_string(device) + "'s");
}

ncclResult_t check_rank(const char* op, const char* what, int r, int nranks) {
  if (r >= 0 && r < nranks) return ncclSuccess;
  return fail(ncclInvalidArgument, std::string(op) + ": " + what + " " + std::to_string(r) + " is not in [0, " +
                                       std::to_string(nranks) + ")");
}

// --------------------------------------------------------------- collectives
enum class Kind { kAllReduce, kBroadcast, kAllGather, kReduceScatter };

struct Collective {
  Kind kind;
  const char* name;
  const char* send;
  char* recv;
  size_t count;  // all_reduce, broadcast: elements; all_gather: sendcount; reduce_scatter: recvcount
  ncclDataType_t type;
  ncclRedOp_t op;
  int root;
};

size_t output_elements(const Collective& c, int nranks) {
  return c.kind == Kind::kAllGather ? c.count * static_cast<size_t>(nranks) : c.count;
}

// Waits for every rank to satisfy `ready`; on failure records the asynchronous error.
template <class Ready>
bool wait_all(State& s, const Collective& c, Ready ready) {
  WaitFailure f;
  if (wait_for_ranks(s.segment, s.nranks, ready, s.aborted, s.timeout_ms, &f)) return true;
  s.record(f.code,
           std::string(c.name) + " (collective #" + std::to_string(s.collectives) + " of the communicator, rank " +
               std::to_string(s.rank) + "): " + f.message + "; its output is left untouched",
           f.code == ncclSystemError ? kAborted : kFailed);
  return false;
}

// Runs `c` in rounds of at most kWindowBytes per rank: each rank waits until
// all have read the previous round, writes its part into its window, waits
// until all have written, and reads what it needs. Results gather in `result`
// and reach recvbuff only once every round succeeded.
void run_collective(State& s, const Collective& c) {
  if (s.error() != ncclSuccess) return;
  ++s.collectives;
  const size_t es = element_bytes(c.type), n = static_cast<size_t>(s.nranks);
  const size_t per_round = c.kind == Kind::kReduceScatter ? kWindowBytes / (es * n) : kWindowBytes / es;
  std::vector<char> result(output_elements(c, s.nranks) * es);
  std::vector<const char*> in(n);
  for (size_t done = 0; done < c.count; done += per_round) {
    const size_t m = std::min(per_round, c.count - done), bytes = m * es;
    const uint64_t round = ++s.round;
    Segment& seg = s.segment;
    if (!wait_all(s, c, [&](int r) { return seg.rank(r).consumed.load(std::memory_order_acquire) + 1 >= round; }))
      return;
    char* mine = seg.window(s.rank);
    if (c.kind == Kind::kReduceScatter) {
      for (size_t i = 0; i < n; ++i) std::memcpy(mine + i * bytes, c.send + (i * c.count + done) * es, bytes);
    } else if (c.kind != Kind::kBroadcast || s.rank == c.root) {
      std::memcpy(mine, c.send + done * es, bytes);
    }
    seg.rank(s.rank).posted.store(round, std::memory_order_release);
    if (!wait_all(s, c, [&](int r) { return seg.rank(r).posted.load(std::memory_order_acquire) >= round; })) return;

    const size_t skip = c.kind == Kind::kReduceScatter ? static_cast<size_t>(s.rank) * bytes : 0;
    for (size_t j = 0; j < n; ++j) in[j] = seg.window(static_cast<int>(j)) + skip;
    char* out = result.data() + done * es;
    switch (c.kind) {
      case Kind::kBroadcast:
        std::memcpy(out, in[static_cast<size_t>(c.root)], bytes);
        break;
      case Kind::kAllGather:
        for (size_t j = 0; j < n; ++j) std::memcpy(result.data() + (j * c.count + done) * es, in[j], bytes);
        break;
      default:
        with_type(c.type, [&](auto x) {
          using T = decltype(x);
          reduce(reinterpret_cast<T*>(out), reinterpret_cast<const T* const*>(in.data()), s.nranks, m, c.op);
        });
    }
    seg.rank(s.rank).consumed.store(round, std::memory_order_release);
  }
  std::memcpy(c.recv, result.data(), result.size());
}

ncclResult_t enqueue_collective(const Collective& c, ncclComm_t comm, cudaStream_t stream) {
  ncclResult_t r = ncclSuccess;
  std::shared_ptr<State> state = usable(comm, c.name, &r);
  if (!state) return r;
  if ((r = check_type(c.name, c.type)) != ncclSuccess) return r;
  const bool reduces = c.kind == Kind::kAllReduce || c.kind == Kind::kReduceScatter;
  if (reduces && (r = check_op(c.name, c.op)) != ncclSuccess) return r;
  if (c.kind == Kind::kBroadcast && (r = check_rank(c.name, "root", c.root, state->nranks)) != ncclSuccess) return r;
  const size_t es = element_bytes(c.type), n = static_cast<size_t>(state->nranks);
  const size_t in_bytes = c.kind == Kind::kReduceScatter                        ? c.count * n * es
                          : c.kind == Kind::kBroadcast && c.root != state->rank ? 0  // unused off the root
                                                                                : c.count * es;
  if ((r = check_stream(c.name, stream, state->device)) != ncclSuccess ||
      (r = check_buffer(c.name, "sendbuff", c.send, in_bytes, state->device)) != ncclSuccess ||
      (r = check_buffer(c.name, "recvbuff", c.recv, output_elements(c, state->nranks) * es, state->device)) !=
          ncclSuccess)
    return r;
  if (c.count == 0) return ncclSuccess;  // as NCCL: nothing to exchange
  enqueue(state->device, [state, c] { run_collective(*state, c); });
  return ncclSuccess;
}

// ------------------------------------------------------------ point to point
// A send is eager: it copies the data into a segment of its own (named by
// sender, receiver and the message's index) and completes; the receive waits
// for that segment, copies it out and unlinks it. So a send never waits for
// its receiver, whatever the size, and messages between two ranks arrive in
// the order they were sent.
void run_send(State& s, const char* data, size_t bytes, int peer) {
  if (s.error() != ncclSuccess) return;
  const uint64_t index = s.sent[static_cast<size_t>(peer)]++;
  const std::string name = s.segment.message_name(s.rank, peer, index);
  const int fd = shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
  bool ok = fd >= 0 && ftruncate(fd, static_cast<off_t>(bytes)) == 0;
  if (ok && bytes > 0) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    ok = p != MAP_FAILED;
    if (ok) {
      std::memcpy(p, data, bytes);
      munmap(p, bytes);
    }
  }
  const int error = errno;
  if (fd >= 0) close(fd);
  if (!ok) {
    shm_unlink(name.c_str());
    s.record(ncclSystemError,
             "ncclSend to rank " + std::to_string(peer) + ": writing " + name + ": " + std::strerror(error), kFailed);
    return;
  }
  s.segment.pair(s.rank, peer).sent.store(index + 1, std::memory_order_release);
}

void run_recv(State& s, char* data, size_t bytes, int peer) {
  if (s.error() != ncclSuccess) return;
  const uint64_t index = s.received[static_cast<size_t>(peer)];
  Pair& pair = s.segment.pair(peer, s.rank);
  WaitFailure f;
  auto sent = [&](int r) { return r != peer || pair.sent.load(std::memory_order_acquire) > index; };
  if (!wait_for_ranks(s.segment, s.nranks, sent, s.aborted, s.timeout_ms, &f)) {
    s.record(f.code,
             "ncclRecv from rank " + std::to_string(peer) + " (message #" + std::to_string(index + 1) + ", on rank " +
                 std::to_string(s.rank) + "): " + f.message + "; its output is left untouched",
             f.code == ncclSystemError ? kAborted : kFailed);
    return;
  }
  const std::string name = s.segment.message_name(peer, s.rank, index);
  const int fd = shm_open(name.c_str(), O_RDONLY, 0);
  struct stat st {};
  std::string problem;
  if (fd < 0 || fstat(fd, &st) != 0) {
    problem = "opening " + name + ": " + std::strerror(errno);
  } else if (static_cast<size_t>(st.st_size) != bytes) {
    problem = "it has " + std::to_string(bytes) + " bytes of room, the matching ncclSend sent " +
              std::to_string(st.st_size) + " (counts and datatypes must match)";
  } else if (bytes > 0) {
    void* p = mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
      problem = "mapping " + name + ": " + std::strerror(errno);
    } else {
      std::memcpy(data, p, bytes);
      munmap(p, bytes);
    }
  }
  if (fd >= 0) close(fd);
  shm_unlink(name.c_str());
  s.received[static_cast<size_t>(peer)] = index + 1;
  pair.received.store(index + 1, std::memory_order_release);
  if (!problem.empty())
    s.record(problem.find("counts") != std::string::npos ? ncclInvalidUsage : ncclSystemError,
             "ncclRecv from rank " + std::to_string(peer) + " on rank " + std::to_string(s.rank) + ": " + problem,
             kFailed);
}

ncclResult_t enqueue_p2p(const char* op, bool receive, const void* buff, size_t count, ncclDataType_t type, int peer,
                         ncclComm_t comm, cudaStream_t stream) {
  ncclResult_t r = ncclSuccess;
  std::shared_ptr<State> state = usable(comm, op, &r);
  if (!state) return r;
  if ((r = check_type(op, type)) != ncclSuccess || (r = check_rank(op, "peer", peer, state->nranks)) != ncclSuccess ||
      (r = check_stream(op, stream, state->device)) != ncclSuccess ||
      (r = check_buffer(op, receive ? "recvbuff" : "sendbuff", buff, count * element_bytes(type), state->device)) !=
          ncclSuccess)
    return r;
  const size_t bytes = count * element_bytes(type);
  if (receive)
    enqueue(state->device,
            [state, buff, bytes, peer] { run_recv(*state, static_cast<char*>(const_cast<void*>(buff)), bytes, peer); });
  else
    enqueue(state->device,
            [state, buff, bytes, peer] { run_send(*state, static_cast<const char*>(buff), bytes, peer); });
  return ncclSuccess;
}

}  // namespace
}  // namespace cuda_emulator::nccl

using namespace cuda_emulator::nccl;

extern "C" {

ncclResult_t ncclGetVersion(int* version) {
  if (!version) return fail(ncclInvalidArgument, "ncclGetVersion: version is NULL");
  *version = NCCL_VERSION_CODE;
  return ncclSuccess;
}

// A name no other communicator has: this process, a counter, and chance
// (against pid reuse on the same machine).
ncclResult_t ncclGetUniqueId(ncclUniqueId* uniqueId) {
  if (!uniqueId) return fail(ncclInvalidArgument, "ncclGetUniqueId: uniqueId is NULL");
  static std::atomic<unsigned> counter{0};
  std::random_device random;
  const unsigned long long salt = (static_cast<unsigned long long>(random()) << 32) ^ random();
  std::memset(uniqueId->internal, 0, sizeof uniqueId->internal);
  std::snprintf(uniqueId->internal, sizeof uniqueId->internal, "%s%d_%u_%016llx", kNamePrefix,
                static_cast<int>(getpid()), counter++, salt);
  return ncclSuccess;
}

ncclResult_t ncclCommInitRank(ncclComm_t* comm, int nranks, ncclUniqueId commId, int rank) {
  const char* op = "ncclCommInitRank";
  if (!comm) return fail(ncclInvalidArgument, "ncclCommInitRank: comm is NULL");
  *comm = nullptr;
  if (nranks < 1 || nranks > kMaxRanks)
    return fail(ncclInvalidArgument, "ncclCommInitRank: nranks " + std::to_string(nranks) + " is not in [1, " +
                                         std::to_string(kMaxRanks) + "]");
  if (ncclResult_t r = check_rank(op, "rank", rank, nranks); r != ncclSuccess) return r;
  const char* id = commId.internal;
  if (!std::memchr(id, 0, sizeof commId.internal) || std::strncmp(id, kNamePrefix, sizeof kNamePrefix - 1) != 0)
    return fail(ncclInvalidArgument, "ncclCommInitRank: the unique id was not made by ncclGetUniqueId");
  const std::string name = id;
  const std::string who = " (rank " + std::to_string(rank) + " of " + std::to_string(nranks) + ")";

  auto state = std::make_shared<State>();
  state->nranks = nranks;
  state->rank = rank;
  state->device = cuda_emulator::current_device();
  state->timeout_ms = timeout_ms();
  state->sent.assign(static_cast<size_t>(nranks), 0);
  state->received.assign(static_cast<size_t>(nranks), 0);
  std::string why;
  if (!state->segment.open(name, nranks, &why)) return fail(ncclSystemError, "ncclCommInitRank" + who + ": " + why);
  Segment& seg = state->segment;
  int32_t expected = 0;
  if (!seg.header().nranks.compare_exchange_strong(expected, nranks) && expected != nranks)
    return fail(ncclInvalidUsage, "ncclCommInitRank" + who + ": another rank said nranks " + std::to_string(expected));
  Rank& me = seg.rank(rank);
  me.pid_ns.store(pid_namespace());
  int32_t unclaimed = 0;
  if (!me.pid.compare_exchange_strong(unclaimed, static_cast<int32_t>(getpid())))
    return fail(ncclInvalidUsage, "ncclCommInitRank" + who + ": rank " + std::to_string(rank) +
                                      " already joined (process " + std::to_string(unclaimed) + ")");
  state->joined = true;
  // Once everyone has it mapped the name is not needed: unlinked, nothing is left behind in /dev/shm.
  if (seg.header().joined.fetch_add(1) + 1 == nranks) shm_unlink(name.c_str());

  const std::atomic<bool> never{false};
  WaitFailure f;
  auto joined = [&](int r) { return seg.rank(r).pid.load(std::memory_order_acquire) != 0; };
  if (!wait_for_ranks(seg, nranks, joined, never, state->timeout_ms, &f)) {
    me.state.store(kFailed);
    shm_unlink(name.c_str());  // the communicator cannot form: a late rank must not find it
    return fail(f.code, "ncclCommInitRank" + who + ": " + f.message);
  }
  // Two ranks of one communicator in one process would wait for each other
  // on one thread: the emulator runs a device's work on the thread that waits.
  for (int r = 0; r < nranks; ++r)
    if (r != rank && seg.rank(r).pid.load() == me.pid.load() && seg.rank(r).pid_ns.load() == me.pid_ns.load())
      return fail(ncclInvalidUsage, "ncclCommInitRank" + who + ": rank " + std::to_string(r) +
                                        " is in this process too; the emulation needs a process per rank");
  std::lock_guard<std::mutex> lock(g_handles_mutex);
  g_handles->push_back(std::make_unique<ncclComm>(ncclComm{state, nullptr, ncclSuccess, ""}));
  *comm = g_handles->back().get();
  return ncclSuccess;
}

// Later queued operations of the communicator still run (their tasks share its state).
ncclResult_t ncclCommDestroy(ncclComm_t comm) {
  ncclResult_t r = ncclSuccess;
  std::shared_ptr<State> state = live(comm, "ncclCommDestroy", &r);
  if (!state) return r;
  std::lock_guard<std::mutex> lock(g_handles_mutex);
  comm->final_error = state->error();
  comm->final_message = state->error_message();
  comm->ended_by = "ncclCommDestroy";
  comm->state.reset();
  return ncclSuccess;
}

ncclResult_t ncclCommAbort(ncclComm_t comm) {
  if (!comm) return ncclSuccess;  // as NCCL
  ncclResult_t r = ncclSuccess;
  std::shared_ptr<State> state = live(comm, "ncclCommAbort", &r);
  if (!state) return r;
  state->aborted.store(true, std::memory_order_release);  // blocked waits see it within a millisecond
  state->record(ncclSystemError, "the communicator was aborted (ncclCommAbort) on rank " + std::to_string(state->rank),
                kAborted);
  std::lock_guard<std::mutex> lock(g_handles_mutex);
  comm->final_error = state->error();
  comm->final_message = state->error_message();
  comm->ended_by = "ncclCommAbort";
  comm->state.reset();
  return ncclSuccess;
}

// On an ended communicator: ncclInvalidUsage, and *asyncError still says how it ended.
ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t* asyncError) {
  if (!asyncError) return fail(ncclInvalidArgument, "ncclCommGetAsyncError: asyncError is NULL");
  ncclResult_t r = ncclSuccess;
  std::shared_ptr<State> state = live(comm, "ncclCommGetAsyncError", &r);
  if (!state) {
    if (comm) {
      std::lock_guard<std::mutex> lock(g_handles_mutex);
      *asyncError = comm->final_error;
    }
    return r;
  }
  *asyncError = state->error();
  return ncclSuccess;
}

// ncclCommCount, ncclCommCuDevice, ncclCommUserRank: one field of a live communicator.
static ncclResult_t read_field(ncclComm_t comm, int* out, const char* op, const char* out_name, int State::*field) {
  ncclResult_t r = ncclSuccess;
  std::shared_ptr<State> state = live(comm, op, &r);
  if (!state) return r;
  if (!out) return fail(ncclInvalidArgument, std::string(op) + ": " + out_name + " is NULL");
  *out = (*state).*field;
  return ncclSuccess;
}

ncclResult_t ncclCommCount(const ncclComm_t comm, int* count) {
  return read_field(comm, count, "ncclCommCount", "count", &State::nranks);
}

ncclResult_t ncclCommCuDevice(const ncclComm_t comm, int* device) {
  return read_field(comm, device, "ncclCommCuDevice", "device", &State::device);
}

ncclResult_t ncclCommUserRank(const ncclComm_t comm, int* rank) {
  return read_field(comm, rank, "ncclCommUserRank", "rank", &State::rank);
}

const char* ncclGetErrorString(ncclResult_t result) {
  switch (result) {
    case ncclSuccess:
      return "no error";
    case ncclUnhandledCudaError:
      return "unhandled cuda error (run with NCCL_DEBUG=INFO for details)";
    case ncclSystemError:
      return "unhandled system error (run with NCCL_DEBUG=INFO for details)";
    case ncclInternalError:
      return "internal error - please report this issue to the NCCL developers";
    case ncclInvalidArgument:
      return "invalid argument (run with NCCL_DEBUG=WARN for details)";
    case ncclInvalidUsage:
      return "invalid usage (run with NCCL_DEBUG=WARN for details)";
    case ncclRemoteError:
      return "remote process exited or there was a network error";
    case ncclInProgress:
      return "NCCL operation in progress";
    default:
      return "unknown result code";
  }
}

// The communicator's asynchronous error when it has one, else the process's last error.
const char* ncclGetLastError(ncclComm_t comm) {
  thread_local std::string text;
  if (comm) {
    std::lock_guard<std::mutex> lock(g_handles_mutex);
    text = comm->state ? comm->state->error_message() : comm->final_message;
    if (!text.empty()) return text.c_str();
  }
  std::lock_guard<std::mutex> lock(g_error_mutex);
  text = g_last_error;
  return text.c_str();
}

ncclResult_t ncclAllReduce(const void* sendbuff, void* recvbuff, size_t count, ncclDataType_t datatype, ncclRedOp_t op,
                           ncclComm_t comm, cudaStream_t stream) {
  return enqueue_collective({Kind::kAllReduce, "ncclAllReduce", static_cast<const char*>(sendbuff),
                             static_cast<char*>(recvbuff), count, datatype, op, 0},
                            comm, stream);
}

ncclResult_t ncclBroadcast(const void* sendbuff, void* recvbuff, size_t count, ncclDataType_t datatype, int root,
                           ncclComm_t comm, cudaStream_t stream) {
  return enqueue_collective({Kind::kBroadcast, "ncclBroadcast", static_cast<const char*>(sendbuff),
                             static_cast<char*>(recvbuff), count, datatype, ncclSum, root},
                            comm, stream);
}

ncclResult_t ncclAllGather(const void* sendbuff, void* recvbuff, size_t sendcount, ncclDataType_t datatype,
                           ncclComm_t comm, cudaStream_t stream) {
  return enqueue_collective({Kind::kAllGather, "ncclAllGather", static_cast<const char*>(sendbuff),
                             static_cast<char*>(recvbuff), sendcount, datatype, ncclSum, 0},
                            comm, stream);
}

ncclResult_t ncclReduceScatter(const void* sendbuff, void* recvbuff, size_t recvcount, ncclDataType_t datatype,
                               ncclRedOp_t op, ncclComm_t comm, cudaStream_t stream) {
  return enqueue_collective({Kind::kReduceScatter, "ncclReduceScatter", static_cast<const char*>(sendbuff),
                             static_cast<char*>(recvbuff), recvcount, datatype, op, 0},
                            comm, stream);
}

ncclResult_t ncclSend(const void* sendbuff, size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
                      cudaStream_t stream) {
  return enqueue_p2p("ncclSend", false, sendbuff, count, datatype, peer, comm, stream);
}

ncclResult_t ncclRecv(void* recvbuff, size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
                      cudaStream_t stream) {
  return enqueue_p2p("ncclRecv", true, recvbuff, count, datatype, peer, comm, stream);
}

// A group only nests: its operations are enqueued at their calls, in order.
// Sends never wait for their receivers (eager, above), so a group's sends and
// receives cannot wait on each other as they may on a GPU.
ncclResult_t ncclGroupStart(void) {
  ++t_group_depth;
  return ncclSuccess;
}

ncclResult_t ncclGroupEnd(void) {
  if (t_group_depth == 0) return fail(ncclInvalidUsage, "ncclGroupEnd: no ncclGroupStart to end");
  --t_group_depth;
  return ncclSuccess;
}

}  // extern "C"
