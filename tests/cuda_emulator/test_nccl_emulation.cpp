// The NCCL emulation (nccl_emulation.cpp) as plugins/comm_nccl uses it: each
// test forks one process per rank, each on its own emulated cuda:0, sharing a
// unique id made before the fork. A rank reports through its exit status
// (its failures on stderr); the parent fails the test naming the rank.
#include <gtest/gtest.h>
#include <nccl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// ------------------------------------------------------------- in a rank
int g_rank = -1;
int g_failures = 0;

void check(bool ok, int line, const std::string& what) {
  if (ok) return;
  std::fprintf(stderr, "[rank %d] test_nccl_emulation.cpp:%d: %s\n", g_rank, line, what.c_str());
  if (++g_failures >= 20) {
    std::fprintf(stderr, "[rank %d] too many failures\n", g_rank);
    std::fflush(stderr);
    _exit(1);
  }
}
#define CHECK(cond, what) check((cond), __LINE__, std::string(#cond) + ": " + (what))
#define CHECK_NCCL(call)                                                                                \
  do {                                                                                                  \
    const ncclResult_t r_ = (call);                                                                     \
    check(r_ == ncclSuccess, __LINE__,                                                                  \
          std::string(#call) + ": " + ncclGetErrorString(r_) + " (" + ncclGetLastError(nullptr) + ")"); \
  } while (0)
#define CHECK_CUDA(call) check((call) == cudaSuccess, __LINE__, #call)

long long elapsed_ms(Clock::time_point since) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - since).count();
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Device memory holding `host`.
template <class T>
T* to_device(const std::vector<T>& host) {
  void* p = nullptr;
  CHECK_CUDA(cudaMalloc(&p, std::max<size_t>(host.size(), 1) * sizeof(T)));
  CHECK_CUDA(cudaMemcpyAsync(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice, nullptr));
  return static_cast<T*>(p);
}

// `n` elements at `p`, read after the stream's work (a copy into pageable memory waits for it).
template <class T>
std::vector<T> to_host(const T* p, size_t n) {
  std::vector<T> host(n);
  CHECK_CUDA(cudaMemcpyAsync(host.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost, nullptr));
  return host;
}

// Waits for the legacy stream as a host polling an event does (cudaEventQuery
// until ready), or with cudaStreamSynchronize.
void finish(bool poll) {
  if (!poll) {
    CHECK_CUDA(cudaStreamSynchronize(cudaStreamLegacy));
    return;
  }
  cudaEvent_t done = nullptr;
  CHECK_CUDA(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
  CHECK_CUDA(cudaEventRecord(done, cudaStreamLegacy));
  const auto start = Clock::now();
  cudaError_t e = cudaErrorNotReady;
  while ((e = cudaEventQuery(done)) == cudaErrorNotReady && elapsed_ms(start) < 30000) std::this_thread::yield();
  CHECK(e == cudaSuccess, "polling cudaEventQuery never saw the event complete");
  CHECK_CUDA(cudaEventDestroy(done));
}

// Rank r's element i: small integers (some negative for signed types), so
// sums, products and averages are exact in every type.
template <class T>
T value(int r, size_t i) {
  long long v = 1 + (r * 7 + static_cast<long long>(i)) % 3;
  if (std::is_signed_v<T> && i % 5 == 0) v -= 2;
  return static_cast<T>(v);
}

template <class T>
T expected_reduction(ncclRedOp_t op, int n, size_t i) {
  T acc = value<T>(0, i);
  if (op == ncclAvg && std::is_floating_point_v<T>) {
    const T scale = static_cast<T>(1.0 / n);
    acc *= scale;
    for (int r = 1; r < n; ++r) acc += value<T>(r, i) * scale;
    return acc;
  }
  long long a = static_cast<long long>(acc);
  for (int r = 1; r < n; ++r) {
    const long long v = static_cast<long long>(value<T>(r, i));
    a = op == ncclProd ? a * v : op == ncclMax ? std::max(a, v) : op == ncclMin ? std::min(a, v) : a + v;
  }
  return static_cast<T>(op == ncclAvg ? a / n : a);
}

const ncclRedOp_t kOps[] = {ncclSum, ncclProd, ncclMax, ncclMin, ncclAvg};
const char* const kOpNames[] = {"sum", "prod", "max", "min", "avg"};
const size_t kSizes[] = {0, 1, 7, (size_t{1} << 20) + 3};

std::string where(const char* what, size_t count, bool in_place, size_t i) {
  return std::string(what) + " count " + std::to_string(count) + (in_place ? " in place" : " out of place") +
         ", element " + std::to_string(i);
}

template <class T>
void all_reduce_every_op(ncclComm_t comm, int rank, int n, ncclDataType_t type, const char* type_name) {
  for (int o = 0; o < 5; ++o)
    for (size_t count : kSizes)
      for (bool in_place : {false, true}) {
        std::vector<T> in(count);
        for (size_t i = 0; i < count; ++i) in[i] = value<T>(rank, i);
        T* send = to_device(in);
        T* recv = send;
        if (!in_place) CHECK_CUDA(cudaMalloc(reinterpret_cast<void**>(&recv), std::max<size_t>(count, 1) * sizeof(T)));
        CHECK_NCCL(ncclAllReduce(send, recv, count, type, kOps[o], comm, nullptr));
        finish(/*poll=*/in_place);
        const std::vector<T> out = to_host(recv, count);
        const std::string what = std::string("all_reduce ") + kOpNames[o] + " " + type_name;
        for (size_t i = 0; i < count; ++i)
          if (out[i] != expected_reduction<T>(kOps[o], n, i)) {
            CHECK(out[i] == expected_reduction<T>(kOps[o], n, i), where(what.c_str(), count, in_place, i));
            break;
          }
        if (!in_place) CHECK_CUDA(cudaFree(recv));
        CHECK_CUDA(cudaFree(send));
      }
}

// The rank's communicator, on cuda:0.
ncclComm_t join(int rank, int n, const ncclUniqueId& id) {
  CHECK_CUDA(cudaSetDevice(0));
  ncclComm_t comm = nullptr;
  CHECK_NCCL(ncclCommInitRank(&comm, n, id, rank));
  int count = 0, me = -1, device = -1;
  CHECK_NCCL(ncclCommCount(comm, &count));
  CHECK_NCCL(ncclCommUserRank(comm, &me));
  CHECK_NCCL(ncclCommCuDevice(comm, &device));
  CHECK(count == n && me == rank && device == 0, "the communicator's count, rank or device");
  return comm;
}

// ------------------------------------------------------------- the parent
using RankBody = std::function<void(int rank, int n, const ncclUniqueId& id)>;

// Runs `body` in `n` forked processes, one per rank, and fails the test for
// each rank that fails, crashes or is still running after `limit_s` seconds.
void run_ranks(int n, const RankBody& body, int limit_s = 60) {
  ncclUniqueId id{};
  ASSERT_EQ(ncclGetUniqueId(&id), ncclSuccess);
  std::fflush(stdout);
  std::fflush(stderr);
  std::vector<pid_t> pids;
  for (int r = 0; r < n; ++r) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0) << "fork";
    if (pid == 0) {
      g_rank = r;
      body(r, n, id);
      std::fflush(stderr);
      _exit(g_failures == 0 ? 0 : 1);
    }
    pids.push_back(pid);
  }
  const auto start = Clock::now();
  std::vector<bool> done(static_cast<size_t>(n), false);
  for (int left = n; left > 0;) {
    for (int r = 0; r < n; ++r) {
      int status = 0;
      if (done[static_cast<size_t>(r)] || waitpid(pids[static_cast<size_t>(r)], &status, WNOHANG) == 0) continue;
      done[static_cast<size_t>(r)] = true;
      --left;
      if (WIFSIGNALED(status))
        ADD_FAILURE() << "rank " << r << " was killed by signal " << WTERMSIG(status);
      else if (WEXITSTATUS(status) != 0)
        ADD_FAILURE() << "rank " << r << " failed (exit status " << WEXITSTATUS(status) << "; its stderr says why)";
    }
    if (left > 0 && elapsed_ms(start) > limit_s * 1000LL) {
      for (int r = 0; r < n; ++r)
        if (!done[static_cast<size_t>(r)]) {
          ADD_FAILURE() << "rank " << r << " still running after " << limit_s << " s: killed";
          kill(pids[static_cast<size_t>(r)], SIGKILL);
          waitpid(pids[static_cast<size_t>(r)], nullptr, 0);
        }
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

void set_timeout_ms(const char* ms) { setenv("PORTA_NCCL_EMULATOR_TIMEOUT_MS", ms, 1); }

class NcclEmulation : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override { set_timeout_ms("20000"); }  // a hang fails within seconds, not a minute
};

TEST_P(NcclEmulation, AllReduceEveryOpAndType) {
  run_ranks(GetParam(), [](int rank, int n, const ncclUniqueId& id) {
    ncclComm_t comm = join(rank, n, id);
    all_reduce_every_op<int8_t>(comm, rank, n, ncclInt8, "int8");
    all_reduce_every_op<uint8_t>(comm, rank, n, ncclUint8, "uint8");
    all_reduce_every_op<int32_t>(comm, rank, n, ncclInt32, "int32");
    all_reduce_every_op<uint32_t>(comm, rank, n, ncclUint32, "uint32");
    all_reduce_every_op<int64_t>(comm, rank, n, ncclInt64, "int64");
    all_reduce_every_op<uint64_t>(comm, rank, n, ncclUint64, "uint64");
    all_reduce_every_op<float>(comm, rank, n, ncclFloat32, "float32");
    all_reduce_every_op<double>(comm, rank, n, ncclFloat64, "float64");
    CHECK_NCCL(ncclCommDestroy(comm));
  });
}

TEST_P(NcclEmulation, BroadcastFromEachRoot) {
  run_ranks(GetParam(), [](int rank, int n, const ncclUniqueId& id) {
    ncclComm_t comm = join(rank, n, id);
    for (int root = 0; root < n; ++root)
      for (size_t count : kSizes)
        for (bool in_place : {false, true}) {
          std::vector<double> in(count);
          for (size_t i = 0; i < count; ++i) in[i] = value<double>(rank, i) + 10 * rank;
          double* send = to_device(in);
          double* recv = send;
          if (!in_place) CHECK_CUDA(cudaMalloc(reinterpret_cast<void**>(&recv), std::max<size_t>(count, 1) * 8));
          CHECK_NCCL(ncclBroadcast(send, recv, count, ncclFloat64, root, comm, nullptr));
          const std::vector<double> out = to_host(recv, count);
          for (size_t i = 0; i < count; ++i)
            if (out[i] != value<double>(root, i) + 10 * root) {
              CHECK(false, where(("broadcast from " + std::to_string(root)).c_str(), count, in_place, i));
              break;
            }
          if (!in_place) CHECK_CUDA(cudaFree(recv));
          CHECK_CUDA(cudaFree(send));
        }
    CHECK_NCCL(ncclCommDestroy(comm));
  });
}

TEST_P(NcclEmulation, AllGatherIsRankOrdered) {
  run_ranks(GetParam(), [](int rank, int n, const ncclUniqueId& id) {
    ncclComm_t comm = join(rank, n, id);
    const size_t un = static_cast<size_t>(n), ur = static_cast<size_t>(rank);
    for (size_t count : kSizes)
      for (bool in_place : {false, true}) {
        int64_t* recv = nullptr;
        CHECK_CUDA(cudaMalloc(reinterpret_cast<void**>(&recv), std::max<size_t>(un * count, 1) * 8));
        std::vector<int64_t> in(count);
        for (size_t i = 0; i < count; ++i) in[i] = value<int64_t>(rank, i) + 100 * rank;
        int64_t* send = in_place ? recv + ur * count : to_device(in);
        if (in_place) CHECK_CUDA(cudaMemcpyAsync(send, in.data(), count * 8, cudaMemcpyHostToDevice, nullptr));
        CHECK_NCCL(ncclAllGather(send, recv, count, ncclInt64, comm, nullptr));
        const std::vector<int64_t> out = to_host(recv, un * count);
        for (size_t j = 0; j < un * count; ++j) {
          const int from = static_cast<int>(j / count);
          if (out[j] != value<int64_t>(from, j % count) + 100 * from) {
            CHECK(false, where("all_gather", count, in_place, j));
            break;
          }
        }
        if (!in_place) CHECK_CUDA(cudaFree(send));
        CHECK_CUDA(cudaFree(recv));
      }
    CHECK_NCCL(ncclCommDestroy(comm));
  });
}

TEST_P(NcclEmulation, ReduceScatterGivesEachRankItsBlock) {
  run_ranks(GetParam(), [](int rank, int n, const ncclUniqueId& id) {
    ncclComm_t comm = join(rank, n, id);
    const size_t un = static_cast<size_t>(n), ur = static_cast<size_t>(rank);
    for (ncclRedOp_t op : {ncclSum, ncclMax})
      for (size_t count : kSizes)
        for (bool in_place : {false, true}) {
          // Element k of block b is value(rank, b * count + k): each block differs.
          std::vector<float> in(un * count);
          for (size_t i = 0; i < in.size(); ++i) in[i] = value<float>(rank, i);
          float* send = to_device(in);
          float* recv = send + ur * count;
          if (!in_place) CHECK_CUDA(cudaMalloc(reinterpret_cast<void**>(&recv), std::max<size_t>(count, 1) * 4));
          CHECK_NCCL(ncclReduceScatter(send, recv, count, ncclFloat32, op, comm, nullptr));
          finish(/*poll=*/true);
          const std::vector<float> out = to_host(recv, count);
          for (size_t k = 0; k < count; ++k)
            if (out[k] != expected_reduction<float>(op, n, ur * count + k)) {
              CHECK(false, where(op == ncclSum ? "reduce_scatter sum" : "reduce_scatter max", count, in_place, k));
              break;
            }
          if (!in_place) CHECK_CUDA(cudaFree(recv));
          CHECK_CUDA(cudaFree(send));
        }
    CHECK_NCCL(ncclCommDestroy(comm));
  });
}

// Every rank sends to the next, then receives from the previous, as two calls
// on one stream: deadlock-free because sends are eager. Two messages to one
// peer arrive in order; created streams (one for sends, one for receives, as
// the plugin's per-peer streams) work too.
TEST_P(NcclEmulation, SendRecvRingOnOneStream) {
  run_ranks(GetParam(), [](int rank, int n, const ncclUniqueId& id) {
    ncclComm_t comm = join(rank, n, id);
    const int next = (rank + 1) % n, prev = (rank + n - 1) % n;
    cudaStream_t to_next = nullptr, from_prev = nullptr;
    CHECK_CUDA(cudaStreamCreateWithFlags(&to_next, cudaStreamNonBlocking));
    CHECK_CUDA(cudaStreamCreateWithFlags(&from_prev, cudaStreamNonBlocking));
    for (size_t count : kSizes)
      for (bool created_streams : {false, true}) {
        std::vector<double> first(count), second(count);
        for (size_t i = 0; i < count; ++i) first[i] = value<double>(rank, i) + 1000 * rank, second[i] = -first[i];
        double* a = to_device(first);
        double* b = to_device(second);
        double *ra = nullptr, *rb = nullptr;
        CHECK_CUDA(cudaMalloc(reinterpret_cast<void**>(&ra), std::max<size_t>(count, 1) * 8));
        CHECK_CUDA(cudaMalloc(reinterpret_cast<void**>(&rb), std::max<size_t>(count, 1) * 8));
        const cudaStream_t s = created_streams ? to_next : cudaStreamLegacy;
        const cudaStream_t t = created_streams ? from_prev : cudaStreamLegacy;
        CHECK_NCCL(ncclSend(a, count, ncclFloat64, next, comm, s));
        CHECK_NCCL(ncclSend(b, count, ncclFloat64, next, comm, s));
        CHECK_NCCL(ncclRecv(ra, count, ncclFloat64, prev, comm, t));
        CHECK_NCCL(ncclRecv(rb, count, ncclFloat64, prev, comm, t));
        finish(/*poll=*/created_streams);
        const std::vector<double> got_a = to_host(ra, count), got_b = to_host(rb, count);
        for (size_t i = 0; i < count; ++i) {
          const double want = value<double>(prev, i) + 1000 * prev;
          if (got_a[i] != want || got_b[i] != -want) {
            CHECK(false, where("send/recv ring", count, created_streams, i));
            break;
          }
        }
        for (double* p : {a, b, ra, rb}) CHECK_CUDA(cudaFree(p));
      }
    // Grouped, as NCCL wants sends and receives that depend on each other.
    std::vector<int32_t> mine(5, rank);
    int32_t* send = to_device(mine);
    int32_t* recv = to_device(std::vector<int32_t>(5, -1));
    CHECK_NCCL(ncclGroupStart());
    CHECK_NCCL(ncclSend(send, 5, ncclInt32, next, comm, nullptr));
    CHECK_NCCL(ncclRecv(recv, 5, ncclInt32, prev, comm, nullptr));
    CHECK_NCCL(ncclGroupEnd());
    CHECK(to_host(recv, 5) == std::vector<int32_t>(5, prev), "grouped send/recv");
    CHECK_CUDA(cudaFree(send));
    CHECK_CUDA(cudaFree(recv));
    CHECK_CUDA(cudaStreamDestroy(to_next));
    CHECK_CUDA(cudaStreamDestroy(from_prev));
    CHECK_NCCL(ncclCommDestroy(comm));
  });
}

// The last rank joins but never enters the all_reduce: the others' operation
// ends with an asynchronous error naming it, within the (short) deadline,
// their output untouched; the communicator then refuses new work.
TEST_P(NcclEmulation, AMissingRankIsAnAsyncErrorNamingIt) {
  set_timeout_ms("400");
  run_ranks(GetParam(), [](int rank, int n, const ncclUniqueId& id) {
    ncclComm_t comm = join(rank, n, id);
    if (rank == n - 1) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // alive, but absent
      CHECK_NCCL(ncclCommDestroy(comm));
      return;
    }
    int32_t* buf = to_device(std::vector<int32_t>(16, 7));
    const auto start = Clock::now();
    CHECK_NCCL(ncclAllReduce(buf, buf, 16, ncclInt32, ncclSum, comm, nullptr));
    finish(/*poll=*/true);
    const long long ms = elapsed_ms(start);
    CHECK(ms >= 300 && ms < 2000, "the wait took " + std::to_string(ms) + " ms with a 400 ms deadline");
    ncclResult_t async = ncclSuccess;
    CHECK_NCCL(ncclCommGetAsyncError(comm, &async));
    CHECK(async == ncclRemoteError, ncclGetErrorString(async));
    const std::string why = ncclGetLastError(comm);
    CHECK(contains(why, "ncclAllReduce") &&
              contains(why, "rank " + std::to_string(n - 1) + " of " + std::to_string(n)) &&
              contains(why, "had not arrived"),
          why);
    CHECK(to_host(buf, 16) == std::vector<int32_t>(16, 7), "the output was touched");
    CHECK(ncclAllReduce(buf, buf, 16, ncclInt32, ncclSum, comm, nullptr) == ncclRemoteError,
          "a failed communicator must refuse new work with its error");
    CHECK_NCCL(ncclCommDestroy(comm));
  });
}

// A rank whose process exits: the others' wait ends at once, naming it,
// instead of waiting out the deadline.
TEST_P(NcclEmulation, ARankThatExitedIsNamedAtOnce) {
  run_ranks(GetParam(), [](int rank, int n, const ncclUniqueId& id) {
    ncclComm_t comm = join(rank, n, id);
    if (rank == n - 1) _exit(0);
    int32_t* buf = to_device(std::vector<int32_t>(4, 1));
    const auto start = Clock::now();
    CHECK_NCCL(ncclAllReduce(buf, buf, 4, ncclInt32, ncclSum, comm, nullptr));
    finish(/*poll=*/false);
    CHECK(elapsed_ms(start) < 5000, "took " + std::to_string(elapsed_ms(start)) + " ms; the deadline is 20 s");
    ncclResult_t async = ncclSuccess;
    CHECK_NCCL(ncclCommGetAsyncError(comm, &async));
    CHECK(async == ncclRemoteError, ncclGetErrorString(async));
    const std::string why = ncclGetLastError(comm);
    CHECK(contains(why, "rank " + std::to_string(n - 1) + " exited"), why);
    CHECK_NCCL(ncclCommDestroy(comm));
  });
}

// ncclCommAbort from another thread ends a wait in progress at once; the
// ended communicator refuses every later call.
TEST_P(NcclEmulation, AbortEndsAWaitInProgress) {
  run_ranks(GetParam(), [](int rank, int n, const ncclUniqueId& id) {
    ncclComm_t comm = join(rank, n, id);
    if (rank != 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2000));  // past the abort, so only it can end the wait
      CHECK_NCCL(ncclCommDestroy(comm));
      return;
    }
    int32_t* buf = to_device(std::vector<int32_t>(4, 1));
    CHECK_NCCL(ncclAllReduce(buf, buf, 4, ncclInt32, ncclSum, comm, nullptr));
    std::thread aborter([comm] {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      CHECK_NCCL(ncclCommAbort(comm));
    });
    const auto start = Clock::now();
    finish(/*poll=*/false);
    CHECK(elapsed_ms(start) < 1500, "took " + std::to_string(elapsed_ms(start)) + " ms (the abort came at 200 ms)");
    aborter.join();
    ncclResult_t async = ncclSuccess;
    CHECK(ncclCommGetAsyncError(comm, &async) == ncclInvalidUsage, "an aborted communicator is ended");
    CHECK(async == ncclSystemError, ncclGetErrorString(async));
    CHECK(contains(ncclGetLastError(comm), "ncclCommAbort"), ncclGetLastError(comm));
    CHECK(ncclAllReduce(buf, buf, 4, ncclInt32, ncclSum, comm, nullptr) == ncclInvalidUsage, "after abort");
    CHECK(to_host(buf, 4) == std::vector<int32_t>(4, 1), "the output was touched");
  });
}

INSTANTIATE_TEST_SUITE_P(Ranks, NcclEmulation, ::testing::Values(2, 4),
                         [](const ::testing::TestParamInfo<int>& info) { return std::to_string(info.param); });

// Arguments NCCL refuses, on a communicator of one rank.
TEST(NcclEmulationArguments, AreRefusedAsNcclRefusesThem) {
  set_timeout_ms("2000");
  run_ranks(1, [](int, int, const ncclUniqueId& id) {
    CHECK_CUDA(cudaSetDevice(0));
    ncclComm_t comm = nullptr;
    CHECK(ncclCommInitRank(&comm, 2, id, 2) == ncclInvalidArgument, "rank 2 of 2");
    CHECK(contains(ncclGetLastError(nullptr), "rank 2 is not in [0, 2)"), ncclGetLastError(nullptr));
    CHECK(ncclCommInitRank(&comm, 2, id, -1) == ncclInvalidArgument, "rank -1");
    CHECK(ncclCommInitRank(&comm, 0, id, 0) == ncclInvalidArgument, "nranks 0");
    CHECK(ncclCommInitRank(nullptr, 1, id, 0) == ncclInvalidArgument, "comm NULL");
    CHECK(ncclCommInitRank(&comm, 1, ncclUniqueId{}, 0) == ncclInvalidArgument, "an id not from ncclGetUniqueId");
    CHECK_NCCL(ncclCommInitRank(&comm, 1, id, 0));

    int version = 0;
    CHECK_NCCL(ncclGetVersion(&version));
    CHECK(version == NCCL_VERSION_CODE && version == NCCL_VERSION(2, 28, 9), std::to_string(version));
    std::vector<float> host(8, 1.0f);
    float* dev = to_device(host);
    CHECK(ncclAllReduce(host.data(), dev, 8, ncclFloat32, ncclSum, comm, nullptr) == ncclInvalidArgument,
          "a host sendbuff");
    CHECK(contains(ncclGetLastError(nullptr), "sendbuff"), ncclGetLastError(nullptr));
    CHECK(ncclAllReduce(dev, host.data(), 8, ncclFloat32, ncclSum, comm, nullptr) == ncclInvalidArgument,
          "a host recvbuff");
    CHECK(ncclAllReduce(dev, dev, 8, ncclFloat16, ncclSum, comm, nullptr) == ncclInvalidArgument, "float16");
    CHECK(contains(ncclGetLastError(nullptr), "not emulated"), ncclGetLastError(nullptr));
    CHECK(ncclAllReduce(dev, dev, 8, ncclFloat32, ncclNumOps, comm, nullptr) == ncclInvalidArgument, "op 5");
    CHECK(ncclBroadcast(dev, dev, 8, ncclFloat32, 1, comm, nullptr) == ncclInvalidArgument, "root 1 of 1");
    CHECK(ncclSend(dev, 8, ncclFloat32, 1, comm, nullptr) == ncclInvalidArgument, "peer 1 of 1");
    cudaStream_t other = nullptr;  // a stream of cuda:1, the communicator being cuda:0's
    CHECK_CUDA(cudaSetDevice(1));
    CHECK_CUDA(cudaStreamCreateWithFlags(&other, cudaStreamDefault));
    CHECK_CUDA(cudaSetDevice(0));
    CHECK(ncclAllReduce(dev, dev, 8, ncclFloat32, ncclSum, comm, other) == ncclInvalidArgument, "another device");
    CHECK_CUDA(cudaStreamDestroy(other));
    CHECK(ncclGroupEnd() == ncclInvalidUsage, "ncclGroupEnd without ncclGroupStart");

    // One rank: every collective is a copy; a send to itself is received.
    CHECK_NCCL(ncclAllReduce(dev, dev, 8, ncclFloat32, ncclAvg, comm, nullptr));
    float* got = to_device(std::vector<float>(8, 0.0f));
    CHECK_NCCL(ncclSend(dev, 8, ncclFloat32, 0, comm, nullptr));
    CHECK_NCCL(ncclRecv(got, 8, ncclFloat32, 0, comm, nullptr));
    CHECK(to_host(got, 8) == host, "a send to itself");

    CHECK_NCCL(ncclCommDestroy(comm));
    int count = 0;
    CHECK(ncclCommCount(comm, &count) == ncclInvalidUsage, "a destroyed communicator");
    CHECK(ncclCommDestroy(comm) == ncclInvalidUsage, "destroyed twice");
    // Two ranks of one communicator in one process would wait for each other on one thread: refused.
    ncclUniqueId shared{};
    CHECK_NCCL(ncclGetUniqueId(&shared));
    ncclResult_t second = ncclSuccess;
    ncclComm_t c0 = nullptr, c1 = nullptr;
    std::thread rank1([&] {
      CHECK_CUDA(cudaSetDevice(1));
      second = ncclCommInitRank(&c1, 2, shared, 1);
    });
    const ncclResult_t first = ncclCommInitRank(&c0, 2, shared, 0);
    rank1.join();
    CHECK(first == ncclInvalidUsage && second == ncclInvalidUsage && !c0 && !c1, "two ranks in one process");
    CHECK(contains(ncclGetLastError(nullptr), "a process per rank"), ncclGetLastError(nullptr));

    CHECK(std::string(ncclGetErrorString(ncclRemoteError)) == "remote process exited or there was a network error",
          ncclGetErrorString(ncclRemoteError));
  });
}

}  // namespace
