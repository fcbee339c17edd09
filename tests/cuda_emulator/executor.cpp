// Kernels on the CPU: the grid's blocks run one after another; a block's
// threads run as fibers (fiber_context.hpp) of the draining host thread, switched at
// __syncthreads and at warp shuffles, so block barriers, shared memory and
// warp exchanges behave as on a GPU. Misuse that would hang or give garbage
// on hardware aborts with a message: threads waiting at different barriers,
// a full-mask shuffle in a warp some of whose lanes have exited.
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <memory>

#include "emulator.hpp"
#include "fiber_context.hpp"

thread_local dim3 threadIdx, blockIdx, blockDim, gridDim;

namespace cuda_emulator {
namespace {

constexpr unsigned kMaxThreads = 1024;
constexpr unsigned kWarp = 32;
constexpr size_t kStackBytes = size_t{256} << 10;

enum class State { Ready, AtBlockBarrier, AtWarpBarrier, Done };

struct Fiber {
  FiberContext context;
  State state;
};

// One block's run: its fibers, the scheduler's context, the shuffle slots.
struct BlockRun {
  KernelBody* body = nullptr;
  const char* name = nullptr;
  dim3 block;
  unsigned threads = 0;
  unsigned current = 0;
  FiberContext scheduler;
  Fiber fibers[kMaxThreads];
  alignas(16) unsigned char slots[kMaxThreads][16];
};

thread_local BlockRun* t_run = nullptr;

// Fiber stacks, reserved once for the largest block (pages are touched only
// as used), each with a guard page below it so an overflow faults.
char* fiber_stack(unsigned i) {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  static char* base = [] {
    const size_t span = (kStackBytes + page) * kMaxThreads;
    void* p = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) misuse("cannot reserve %zu bytes of fiber stacks", span);
    for (unsigned k = 0; k < kMaxThreads; ++k) mprotect(static_cast<char*>(p) + k * (kStackBytes + page), page, PROT_NONE);
    return static_cast<char*>(p);
  }();
  return base + i * (kStackBytes + page) + page;
}

void yield(State s) {
  BlockRun* r = t_run;
  Fiber& f = r->fibers[r->current];
  f.state = s;
  switch_fiber(f.context, r->scheduler);
}

[[noreturn]] void fiber_main() {
  t_run->body->run_thread();
  yield(State::Done);  // never resumed
  __builtin_unreachable();
}

dim3 thread_of(unsigned i, dim3 b) { return dim3(i % b.x, (i / b.x) % b.y, i / (b.x * b.y)); }

// Releases what can go on after every fiber stopped; false when nothing can.
bool release(BlockRun& r) {
  unsigned done = 0, at_block = 0;
  for (unsigned i = 0; i < r.threads; ++i) {
    done += r.fibers[i].state == State::Done;
    at_block += r.fibers[i].state == State::AtBlockBarrier;
  }
  if (done == r.threads) return false;
  bool released = false;
  for (unsigned w = 0; w * kWarp < r.threads; ++w) {
    const unsigned first = w * kWarp, last = first + kWarp < r.threads ? first + kWarp : r.threads;
    unsigned waiting = 0, exited = 0;
    for (unsigned i = first; i < last; ++i) {
      waiting += r.fibers[i].state == State::AtWarpBarrier;
      exited += r.fibers[i].state == State::Done;
    }
    if (waiting == 0) continue;
    if (exited > 0)
      misuse("kernel %s, block (%u, %u, %u): a full-mask __shfl_xor_sync in warp %u while %u of its lanes have exited",
             r.name, blockIdx.x, blockIdx.y, blockIdx.z, w, exited);
    if (waiting == last - first) {
      for (unsigned i = first; i < last; ++i) r.fibers[i].state = State::Ready;
      released = true;
    }
  }
  if (released) return true;
  if (at_block > 0 && at_block + done == r.threads) {
    for (unsigned i = 0; i < r.threads; ++i)
      if (r.fibers[i].state == State::AtBlockBarrier) r.fibers[i].state = State::Ready;
    return true;
  }
  misuse("kernel %s, block (%u, %u, %u): threads wait at different barriers (__syncthreads or a shuffle in divergent "
         "code) and can never go on",
         r.name, blockIdx.x, blockIdx.y, blockIdx.z);
}

void run_block(BlockRun& r) {
  for (unsigned i = 0; i < r.threads; ++i) {
    prepare_fiber(r.fibers[i].context, fiber_stack(i), kStackBytes, fiber_main);
    r.fibers[i].state = State::Ready;
  }
  do {
    for (unsigned i = 0; i < r.threads; ++i) {
      if (r.fibers[i].state != State::Ready) continue;
      r.current = i;
      threadIdx = thread_of(i, r.block);
      switch_fiber(r.scheduler, r.fibers[i].context);
    }
  } while (release(r));
}

}  // namespace

void run_grid(const Config& c, const char* name, KernelBody& body) {
  static std::unique_ptr<BlockRun> run = std::make_unique<BlockRun>();  // callers hold the emulator's lock
  BlockRun& r = *run;
  r.body = &body;
  r.name = name;
  r.block = c.block;
  r.threads = c.block.x * c.block.y * c.block.z;
  gridDim = c.grid;
  blockDim = c.block;
  t_run = &r;
  for (unsigned z = 0; z < c.grid.z; ++z)
    for (unsigned y = 0; y < c.grid.y; ++y)
      for (unsigned x = 0; x < c.grid.x; ++x) {
        blockIdx = dim3(x, y, z);
        run_block(r);
      }
  t_run = nullptr;
}

void sync_block() {
  if (!t_run) misuse("__syncthreads called outside a kernel");
  yield(State::AtBlockBarrier);
}

void shuffle(void* value, size_t bytes, unsigned mask, int lane_xor) {
  BlockRun* r = t_run;
  if (!r) misuse("__shfl_xor_sync called outside a kernel");
  if (mask != 0xffffffffu || lane_xor < 0 || lane_xor >= static_cast<int>(kWarp))
    misuse("kernel %s: __shfl_xor_sync(mask %#x, lane mask %d): only full warps and lane masks below 32 are emulated",
           r->name, mask, lane_xor);
  const unsigned me = r->current, lane = me % kWarp;
  const unsigned partner = me - lane + (lane ^ static_cast<unsigned>(lane_xor));
  std::memcpy(r->slots[me], value, bytes);
  yield(State::AtWarpBarrier);  // every lane has written
  if (partner >= r->threads)
    misuse("kernel %s: __shfl_xor_sync reads lane %u of a partial warp (block of %u threads)", r->name, partner,
           r->threads);
  std::memcpy(value, r->slots[partner], bytes);
  yield(State::AtWarpBarrier);  // every lane has read: the slots may be reused
}

}  // namespace cuda_emulator
