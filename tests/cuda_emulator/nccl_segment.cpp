// The shared-memory segment of an emulated NCCL communicator and the waits
// on its ranks (nccl_segment.hpp).
#include "nccl_segment.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <thread>
#include <vector>

namespace cuda_emulator::nccl {
namespace {

size_t align(size_t n) { return (n + 63) / 64 * 64; }

size_t ranks_offset() { return align(sizeof(Header)); }
size_t pairs_offset(int nranks) { return ranks_offset() + align(sizeof(Rank) * static_cast<size_t>(nranks)); }
size_t windows_offset(int nranks) {
  return align(pairs_offset(nranks) + sizeof(Pair) * static_cast<size_t>(nranks) * static_cast<size_t>(nranks));
}
size_t segment_bytes(int nranks) { return windows_offset(nranks) + kWindowBytes * static_cast<size_t>(nranks); }

// Whether process `pid` (of our pid namespace) has exited: gone, or a zombie not yet reaped.
bool process_exited(int32_t pid) {
  if (kill(pid, 0) != 0) return errno == ESRCH;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const size_t paren = line.rfind(')');  // the command name may hold spaces and parentheses
  return paren != std::string::npos && paren + 2 < line.size() && (line[paren + 2] == 'Z' || line[paren + 2] == 'X');
}

// Why rank r, missing, will never arrive ("" while it still may).
std::string never_arriving(const Rank& r) {
  switch (r.state.load(std::memory_order_acquire)) {
    case kFailed:
      return "failed (an operation of its own timed out or met a failed rank)";
    case kAborted:
      return "aborted its communicator";
    case kLeft:
      return "destroyed its communicator";
    default:
      break;
  }
  const int32_t pid = r.pid.load(std::memory_order_acquire);
  if (pid > 0 && r.pid_ns.load() == pid_namespace() && process_exited(pid))
    return "exited (process " + std::to_string(pid) + ")";
  return "";
}

}  // namespace

uint64_t pid_namespace() {
  static const uint64_t ns = [] {
    struct stat st {};
    return stat("/proc/self/ns/pid", &st) == 0 ? static_cast<uint64_t>(st.st_ino) : 0;
  }();
  return ns;
}

bool Segment::open(const std::string& name, int nranks, std::string* why) {
  name_ = name;
  nranks_ = nranks;
  bytes_ = segment_bytes(nranks);
  const int fd = shm_open(name.c_str(), O_CREAT | O_RDWR, 0600);
  if (fd < 0) {
    *why = "shm_open(" + name + "): " + std::strerror(errno);
    return false;
  }
  // Every rank sizes it the same; a rank with another nranks would cut the others' mapping.
  struct stat st {};
  bool ok = fstat(fd, &st) == 0;
  if (ok && st.st_size != 0 && static_cast<size_t>(st.st_size) != bytes_) {
    *why = "the communicator was created by a rank with another nranks (this rank says " + std::to_string(nranks) + ")";
    close(fd);
    return false;
  }
  ok = ok && ftruncate(fd, static_cast<off_t>(bytes_)) == 0;
  void* p = ok ? mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
  const int error = errno;
  close(fd);
  if (p == MAP_FAILED) {
    *why = "mapping " + name + ": " + std::strerror(error);
    return false;
  }
  base_ = p;
  return true;
}

Segment::~Segment() {
  if (base_) munmap(base_, bytes_);
}

Rank& Segment::rank(int r) const { return reinterpret_cast<Rank*>(static_cast<char*>(base_) + ranks_offset())[r]; }

Pair& Segment::pair(int from, int to) const {
  return reinterpret_cast<Pair*>(static_cast<char*>(base_) + pairs_offset(nranks_))[from * nranks_ + to];
}

char* Segment::window(int r) const {
  return static_cast<char*>(base_) + windows_offset(nranks_) + kWindowBytes * static_cast<size_t>(r);
}

std::string Segment::message_name(int from, int to, uint64_t index) const {
  return name_ + "_m" + std::to_string(from) + "_" + std::to_string(to) + "_" + std::to_string(index);
}

bool wait_for_ranks(const Segment& segment, int nranks, const std::function<bool(int)>& ready,
                    const std::atomic<bool>& aborted, long long timeout_ms, WaitFailure* failure) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto next_check = start;  // of missing ranks that can never arrive: each 50 ms (it reads /proc)
  auto pause = std::chrono::microseconds(0);
  std::vector<int> missing;
  for (int spins = 0;; ++spins) {
    missing.clear();
    for (int r = 0; r < nranks; ++r)
      if (!ready(r)) missing.push_back(r);
    if (missing.empty()) return true;
    if (aborted.load(std::memory_order_acquire)) {
      *failure = {ncclSystemError, "the communicator was aborted (ncclCommAbort) while waiting"};
      return false;
    }
    const auto now = Clock::now();
    if (now >= next_check) {
      next_check = now + std::chrono::milliseconds(50);
      // A rank may have arrived, finished and left since `missing` was made: its state is
      // read first, then whether it is ready (it stores what it posted before it leaves).
      for (int r : missing)
        if (std::string why = never_arriving(segment.rank(r)); !why.empty() && !ready(r)) {
          *failure = {ncclRemoteError, "rank " + std::to_string(r) + " " + why};
          return false;
        }
    }
    if (now - start >= std::chrono::milliseconds(timeout_ms)) {
      std::string ranks;
      for (int r : missing) ranks += (ranks.empty() ? "" : ", ") + std::to_string(r);
      *failure = {ncclRemoteError, std::string(missing.size() == 1 ? "rank " : "ranks ") + ranks + " of " +
                                       std::to_string(nranks) + " had not arrived after " + std::to_string(timeout_ms) +
                                       " ms (PORTA_NCCL_EMULATOR_TIMEOUT_MS)"};
      return false;
    }
    // A peer usually arrives within microseconds when both hosts are draining; a
    // peer whose host is busy elsewhere may take seconds: do not burn a core for it.
    if (spins < 100) {
      std::this_thread::yield();
    } else {
      pause = std::min(std::max(pause * 2, std::chrono::microseconds(10)), std::chrono::microseconds(1000));
      std::this_thread::sleep_for(pause);
    }
  }
}

}  // namespace cuda_emulator::nccl
