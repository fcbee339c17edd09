// The CUDA runtime API, emulated: devices, memory, copies, streams, events,
// peers. Configured from the environment:
//   PORTA_CUDA_EMULATOR_DEVICES  devices (default 2; 0: cudaErrorNoDevice)
//   PORTA_CUDA_EMULATOR_SMS      multiprocessors per device (default 4)
//   PORTA_CUDA_EMULATOR_MEMORY   bytes of memory per device (default 4 GiB)
//   PORTA_CUDA_EMULATOR_PEER     1: devices may access each other (default), 0: not
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "emulator.hpp"

// A stream made by cudaStreamCreateWithFlags: a name for its device's one
// queue (see stream_device).
struct CUstream_st {
  int device;
  unsigned flags;
};

struct CUevent_st {
  // Shared with the stream task that completes it: destroying an event whose
  // work is pending is allowed (CUDA releases it once the work is done).
  struct State {
    int device = -1;
    bool complete = true;
  };
  std::shared_ptr<State> state = std::make_shared<State>();
};

namespace cuda_emulator {
namespace {

struct Allocation {
  size_t bytes;
  int device;  // -1: pinned host memory
};

struct DeviceState {
  std::deque<Task> queue;
  bool context = false;
  size_t used = 0;
  std::vector<bool> peer_enabled;
};

struct Emulator {
  std::recursive_mutex mutex;
  int count;      // the PORTA_CUDA_EMULATOR_* settings (see the top of the file)
  int sms;
  size_t memory;
  bool peer;
  long host_allocs = 0, host_frees = 0;  // cudaHostAlloc / cudaFreeHost calls
  std::vector<DeviceState> devices;
  std::map<uintptr_t, Allocation> allocations;  // by start address
  std::multiset<uintptr_t> pending_pinned;      // pinned memory that queued copies still touch
  std::set<cudaStream_t> streams;               // made by cudaStreamCreateWithFlags, not yet destroyed
  bool busy = false;                            // porta_cuda_emulator_busy: cudaEventQuery runs no work

  Emulator() {
    auto env = [](const char* name, long long fallback) {
      const char* v = std::getenv(name);
      return v && *v ? std::atoll(v) : fallback;
    };
    count = static_cast<int>(env("PORTA_CUDA_EMULATOR_DEVICES", 2));
    sms = static_cast<int>(std::max(1LL, env("PORTA_CUDA_EMULATOR_SMS", 4)));
    memory = static_cast<size_t>(env("PORTA_CUDA_EMULATOR_MEMORY", 4LL << 30));
    peer = env("PORTA_CUDA_EMULATOR_PEER", 1) != 0;
    devices.resize(static_cast<size_t>(std::max(count, 0)));
    for (DeviceState& d : devices) d.peer_enabled.assign(devices.size(), false);
  }
};

// Never destroyed, as a driver's state outlives the plugin's static
// destructors (memory a plugin keeps until exit stays reachable for LSan).
Emulator& emu() {
  static Emulator* e = new Emulator;
  return *e;
}

// The runtime's device of the thread (cudaSetDevice's), and the device whose
// primary context is current on it (-1: none; the driver's current context).
thread_local int t_device = 0;
thread_local int t_context = -1;
thread_local cudaError_t t_last_error = cudaSuccess;

using Lock = std::lock_guard<std::recursive_mutex>;

bool valid_device(int d) { return d >= 0 && d < emu().count; }

// The allocation holding [p, p + bytes), or nullptr.
const Allocation* find_allocation(const void* p, size_t bytes) {
  const auto a = reinterpret_cast<uintptr_t>(p);
  auto it = emu().allocations.upper_bound(a);
  if (it == emu().allocations.begin()) return nullptr;
  --it;
  if (a < it->first || a + bytes > it->first + std::max<size_t>(it->second.bytes, 1)) return nullptr;
  return &it->second;
}

bool is_pinned(const void* p, size_t bytes) {
  const Allocation* a = find_allocation(p, bytes);
  return a && a->device < 0;
}

// Executes `device`'s queued work, oldest first, until `until` holds (or all of it).
void drain(int device, const std::function<bool()>& until = nullptr) {
  std::deque<Task>& q = emu().devices[static_cast<size_t>(device)].queue;
  while (!q.empty() && !(until && until())) {
    Task t = std::move(q.front());
    q.pop_front();
    t();
  }
}

void drain_all() {
  for (int d = 0; d < emu().count; ++d) drain(d);
}

// Exactly `bytes` (at least 1), so that AddressSanitizer sees a kernel
// reading or writing past the end of its buffer.
void* allocate(size_t bytes, size_t alignment) {
  void* p = nullptr;
  if (posix_memalign(&p, alignment, std::max<size_t>(bytes, 1)) != 0) return nullptr;
  std::memset(p, 0xFF, std::max<size_t>(bytes, 1));  // NaN for floats: uninitialized reads show
  return p;
}

const char* kind_name(cudaMemcpyKind k) {
  return k == cudaMemcpyHostToDevice ? "HostToDevice" : k == cudaMemcpyDeviceToHost ? "DeviceToHost" : "DeviceToDevice";
}

// The runtime's name and text of each error the emulator returns.
struct ErrorText {
  cudaError_t code;
  const char* name;
  const char* text;
};
constexpr ErrorText kErrors[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorPeerAccessAlreadyEnabled, "cudaErrorPeerAccessAlreadyEnabled", "peer access is already enabled"},
    {cudaErrorPeerAccessUnsupported, "cudaErrorPeerAccessUnsupported",
     "peer access is not supported between these two devices"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
};

const ErrorText& error_text(cudaError_t e) {
  static constexpr ErrorText kUnknown{cudaSuccess, "cudaErrorUnknown", "unknown error"};
  for (const ErrorText& t : kErrors)
    if (t.code == e) return t;
  return kUnknown;
}

}  // namespace

void misuse(const char* format, ...) {
  char msg[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(msg, sizeof msg, format, args);
  va_end(args);
  std::fprintf(stderr, "\ncuda emulator: MISUSE: %s\n", msg);
  std::fflush(stderr);
  std::abort();
}

cudaError_t fail_with(cudaError_t error) {
  t_last_error = error;
  return error;
}

int current_device() {
  Lock lock(emu().mutex);
  // With no context current, the runtime makes its device's primary context current.
  if (t_context < 0) t_context = t_device;
  if (!valid_device(t_context)) misuse("no device is current (%d devices)", emu().count);
  emu().devices[static_cast<size_t>(t_context)].context = true;
  return t_context;
}

int context_device() { return t_context; }

void set_context_device(int device) { t_context = device; }

bool create_context(int device) {
  Lock lock(emu().mutex);
  if (!valid_device(device)) return false;
  emu().devices[static_cast<size_t>(device)].context = true;
  return true;
}

void enqueue(int device, Task task) {
  Lock lock(emu().mutex);
  emu().devices[static_cast<size_t>(device)].queue.push_back(std::move(task));
}

// The legacy stream (or NULL) is the current device's. A created stream is a
// name for its device's single queue: its work is ordered with everything
// else on that device, stricter than hardware (where a non-blocking stream
// runs beside the legacy one), never looser.
int stream_device(cudaStream_t stream) {
  Lock lock(emu().mutex);
  if (stream == nullptr || stream == cudaStreamLegacy) return current_device();
  if (!emu().streams.count(stream))
    misuse("stream %p was not created by this runtime (or was destroyed)", static_cast<void*>(stream));
  return stream->device;
}

bool is_device_memory(const void* p, size_t bytes, int device) {
  Lock lock(emu().mutex);
  const Allocation* a = find_allocation(p, bytes);
  return a && a->device >= 0 && (device < 0 || a->device == device);
}

bool context_created(int device) {
  Lock lock(emu().mutex);
  return valid_device(device) && emu().devices[static_cast<size_t>(device)].context;
}

void check_kernel_argument(const char* name, int index, const void* p, int device) {
  if (!p) return;
  Lock lock(emu().mutex);
  const Allocation* a = find_allocation(p, 0);
  if (!a)
    misuse("kernel %s on cuda:%d: argument %d (%p) is not device memory (a host pointer passed to a kernel?)", name,
           device, index, p);
  const std::vector<bool>& peers = emu().devices[static_cast<size_t>(device)].peer_enabled;
  if (a->device >= 0 && a->device != device && !peers[static_cast<size_t>(a->device)])
    misuse("kernel %s on cuda:%d: argument %d (%p) is memory of cuda:%d, and peer access to it is not enabled", name,
           device, index, p, a->device);
}

void enqueue_kernel(const Config& c, const char* name, KernelBody* body) {
  std::unique_ptr<KernelBody> owned(body);
  const unsigned long long threads = 1ULL * c.block.x * c.block.y * c.block.z;
  if (threads == 0 || threads > 1024 || c.block.z > 64 || c.grid.x == 0 || c.grid.y == 0 || c.grid.z == 0 ||
      c.grid.x > 0x7fffffffu || c.grid.y > 65535 || c.grid.z > 65535 || c.shared_bytes > 48 * 1024) {
    std::fprintf(stderr, "cuda emulator: %s: invalid launch configuration grid (%u, %u, %u) block (%u, %u, %u)\n", name,
                 c.grid.x, c.grid.y, c.grid.z, c.block.x, c.block.y, c.block.z);
    fail_with(cudaErrorInvalidConfiguration);
    return;
  }
  Lock lock(emu().mutex);
  const int device = stream_device(c.stream);
  owned->check_arguments(name, device);
  std::shared_ptr<KernelBody> shared(std::move(owned));
  enqueue(device, [c, name, shared] { run_grid(c, name, *shared); });
}

}  // namespace cuda_emulator

using namespace cuda_emulator;

extern "C" {

cudaError_t cudaGetDeviceCount(int* count) {
  if (!count) return fail_with(cudaErrorInvalidValue);
  *count = 0;
  if (emu().count <= 0) return fail_with(cudaErrorNoDevice);
  *count = emu().count;
  return cudaSuccess;
}

cudaError_t cudaGetDevice(int* device) {
  if (!device) return fail_with(cudaErrorInvalidValue);
  *device = t_context >= 0 ? t_context : t_device;
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  Lock lock(emu().mutex);
  if (!valid_device(device)) return fail_with(cudaErrorInvalidDevice);
  t_device = device;
  t_context = device;
  emu().devices[static_cast<size_t>(device)].context = true;  // CUDA 12: the primary context is made here
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (!prop) return fail_with(cudaErrorInvalidValue);
  if (!valid_device(device)) return fail_with(cudaErrorInvalidDevice);
  *prop = cudaDeviceProp{};
  std::snprintf(prop->name, sizeof prop->name, "Porta CUDA emulator (CPU)");
  prop->totalGlobalMem = emu().memory;
  prop->multiProcessorCount = emu().sms;
  prop->major = 9;
  prop->minor = 0;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (!value || attr != cudaDevAttrMultiProcessorCount) return fail_with(cudaErrorInvalidValue);
  if (!valid_device(device)) return fail_with(cudaErrorInvalidDevice);
  *value = emu().sms;
  return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  Lock lock(emu().mutex);
  if (!free_bytes || !total_bytes) return fail_with(cudaErrorInvalidValue);
  const DeviceState& d = emu().devices[static_cast<size_t>(current_device())];
  *total_bytes = emu().memory;
  *free_bytes = emu().memory - d.used;
  return cudaSuccess;
}

cudaError_t cudaGetLastError(void) {
  const cudaError_t e = t_last_error;
  t_last_error = cudaSuccess;
  return e;
}

const char* cudaGetErrorName(cudaError_t error) { return error_text(error).name; }

const char* cudaGetErrorString(cudaError_t error) { return error_text(error).text; }

cudaError_t cudaMalloc(void** ptr, size_t bytes) {
  Lock lock(emu().mutex);
  if (!ptr) return fail_with(cudaErrorInvalidValue);
  *ptr = nullptr;
  const int device = current_device();
  DeviceState& d = emu().devices[static_cast<size_t>(device)];
  if (bytes > emu().memory - d.used) return fail_with(cudaErrorMemoryAllocation);
  void* p = allocate(bytes, 256);
  if (!p) return fail_with(cudaErrorMemoryAllocation);
  d.used += bytes;
  emu().allocations[reinterpret_cast<uintptr_t>(p)] = {bytes, device};
  *ptr = p;
  return cudaSuccess;
}

cudaError_t cudaFree(void* ptr) {
  Lock lock(emu().mutex);
  if (!ptr) return cudaSuccess;
  drain_all();  // cudaFree synchronizes
  auto it = emu().allocations.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == emu().allocations.end() || it->second.device < 0) return fail_with(cudaErrorInvalidValue);
  emu().devices[static_cast<size_t>(it->second.device)].used -= it->second.bytes;
  emu().allocations.erase(it);
  std::free(ptr);
  return cudaSuccess;
}

cudaError_t cudaHostAlloc(void** ptr, size_t bytes, unsigned flags) {
  Lock lock(emu().mutex);
  if (!ptr || (flags & ~0x0Fu)) return fail_with(cudaErrorInvalidValue);
  void* p = allocate(bytes, 4096);
  if (!p) return fail_with(cudaErrorMemoryAllocation);
  emu().allocations[reinterpret_cast<uintptr_t>(p)] = {bytes, -1};
  ++emu().host_allocs;
  *ptr = p;
  return cudaSuccess;
}

cudaError_t cudaFreeHost(void* ptr) {
  Lock lock(emu().mutex);
  if (!ptr) return cudaSuccess;
  auto it = emu().allocations.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == emu().allocations.end() || it->second.device >= 0) return fail_with(cudaErrorInvalidValue);
  // Stricter than the driver, which may synchronize here: the plugin must
  // itself wait for the copies that still read or write the memory.
  const uintptr_t start = it->first, end = start + std::max<size_t>(it->second.bytes, 1);
  auto pending = emu().pending_pinned.lower_bound(start);
  if (pending != emu().pending_pinned.end() && *pending < end)
    misuse("cudaFreeHost(%p) while a queued copy still uses it (synchronize the device before freeing)", ptr);
  drain_all();  // as the driver, which synchronizes the device here
  ++emu().host_frees;
  emu().allocations.erase(it);
  std::free(ptr);
  return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, cudaStream_t stream) {
  Lock lock(emu().mutex);
  if (bytes == 0) return cudaSuccess;
  if (!dst || !src) return fail_with(cudaErrorInvalidValue);
  const int device = stream_device(stream);
  const bool src_dev = is_device_memory(src, bytes, -1), dst_dev = is_device_memory(dst, bytes, -1);
  const bool want_src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  const bool want_dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  if (src_dev != want_src_dev || dst_dev != want_dst_dev) {
    std::fprintf(stderr, "cuda emulator: cudaMemcpyAsync %s of %zu bytes: source %p is %s, destination %p is %s\n",
                 kind_name(kind), bytes, src, src_dev ? "device memory" : "not device memory", dst,
                 dst_dev ? "device memory" : "not device memory");
    return fail_with(cudaErrorInvalidValue);
  }
  if (!src_dev && !is_pinned(src, bytes)) {
    // Pageable source: CUDA stages it before returning, so the caller may reuse it at once.
    auto staged = std::make_shared<std::vector<char>>(static_cast<const char*>(src),
                                                      static_cast<const char*>(src) + bytes);
    enqueue(device, [dst, staged] { std::memcpy(dst, staged->data(), staged->size()); });
    return cudaSuccess;
  }
  if (!dst_dev && !is_pinned(dst, bytes)) {
    // Pageable destination: returns only once the copy is done.
    drain(device);
    std::memcpy(dst, src, bytes);
    return cudaSuccess;
  }
  if (src_dev && dst_dev) {
    enqueue(device, [dst, src, bytes] { std::memcpy(dst, src, bytes); });
    return cudaSuccess;
  }
  // Pinned host memory on one side: it must stay until the copy has run.
  const uintptr_t pinned = reinterpret_cast<uintptr_t>(src_dev ? dst : src);
  emu().pending_pinned.insert(pinned);
  enqueue(device, [dst, src, bytes, pinned] {
    std::memcpy(dst, src, bytes);
    emu().pending_pinned.erase(emu().pending_pinned.find(pinned));
  });
  return cudaSuccess;
}

cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, size_t bytes,
                                cudaStream_t stream) {
  Lock lock(emu().mutex);
  if (bytes == 0) return cudaSuccess;
  if (!valid_device(dst_device) || !valid_device(src_device)) return fail_with(cudaErrorInvalidDevice);
  if (!is_device_memory(dst, bytes, dst_device) || !is_device_memory(src, bytes, src_device)) {
    std::fprintf(stderr, "cuda emulator: cudaMemcpyPeerAsync: %p is not cuda:%d memory or %p is not cuda:%d memory\n",
                 dst, dst_device, src, src_device);
    return fail_with(cudaErrorInvalidValue);
  }
  enqueue(stream_device(stream), [dst, src, bytes] { std::memcpy(dst, src, bytes); });
  return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void* ptr, int value, size_t bytes, cudaStream_t stream) {
  Lock lock(emu().mutex);
  if (bytes == 0) return cudaSuccess;
  const int device = stream_device(stream);
  if (!is_device_memory(ptr, bytes, device)) return fail_with(cudaErrorInvalidValue);
  enqueue(device, [ptr, value, bytes] { std::memset(ptr, value, bytes); });
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  Lock lock(emu().mutex);
  drain(stream_device(stream));
  return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags) {
  Lock lock(emu().mutex);
  if (!stream || (flags & ~unsigned{cudaStreamNonBlocking})) return fail_with(cudaErrorInvalidValue);
  *stream = new CUstream_st{current_device(), flags};
  emu().streams.insert(*stream);
  return cudaSuccess;
}

// Work still queued from the stream stays queued: CUDA releases a stream once its work is done.
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  Lock lock(emu().mutex);
  if (!emu().streams.erase(stream)) return fail_with(cudaErrorInvalidResourceHandle);
  delete stream;
  return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags) {
  if (!event || (flags & ~0x0Fu)) return fail_with(cudaErrorInvalidValue);
  current_device();  // events belong to a context
  *event = new CUevent_st;
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  Lock lock(emu().mutex);
  if (!event) return fail_with(cudaErrorInvalidResourceHandle);
  // A new recording: a fresh state, so waits on the old one are unaffected.
  auto state = std::make_shared<CUevent_st::State>();
  state->device = stream_device(stream);
  state->complete = false;
  event->state = state;
  enqueue(state->device, [state] { state->complete = true; });
  return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  if (!event) return fail_with(cudaErrorInvalidResourceHandle);
  delete event;
  return cudaSuccess;
}

// A GPU makes progress on its own, so a host may poll cudaEventQuery until
// the event is ready; the emulator's device only runs when asked, so a query
// runs the event's queue up to the event (as cudaEventSynchronize) and then
// answers: ready. (Under porta_cuda_emulator_busy it runs nothing, as a GPU
// still busy with earlier work: not ready until someone synchronizes.)
cudaError_t cudaEventQuery(cudaEvent_t event) {
  Lock lock(emu().mutex);
  if (!event) return fail_with(cudaErrorInvalidResourceHandle);
  std::shared_ptr<CUevent_st::State> state = event->state;
  if (!state->complete && !emu().busy) drain(state->device, [&] { return state->complete; });
  return state->complete ? cudaSuccess : cudaErrorNotReady;  // not ready is not an error: not recorded
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  Lock lock(emu().mutex);
  if (!event) return fail_with(cudaErrorInvalidResourceHandle);
  std::shared_ptr<CUevent_st::State> state = event->state;
  if (!state->complete) drain(state->device, [&] { return state->complete; });
  return cudaSuccess;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags) {
  Lock lock(emu().mutex);
  if (!event) return fail_with(cudaErrorInvalidResourceHandle);
  if (flags != 0) return fail_with(cudaErrorInvalidValue);
  const int device = stream_device(stream);
  std::shared_ptr<CUevent_st::State> state = event->state;
  if (state->complete || state->device == device) return cudaSuccess;  // same stream: already in order
  // When the waiting stream reaches this point, the event's stream runs up to the event.
  enqueue(device, [state] { drain(state->device, [&] { return state->complete; }); });
  return cudaSuccess;
}

cudaError_t cudaDeviceCanAccessPeer(int* can, int device, int peer) {
  if (!can) return fail_with(cudaErrorInvalidValue);
  if (!valid_device(device) || !valid_device(peer)) return fail_with(cudaErrorInvalidDevice);
  *can = device != peer && emu().peer ? 1 : 0;
  return cudaSuccess;
}

cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned flags) {
  Lock lock(emu().mutex);
  if (flags != 0) return fail_with(cudaErrorInvalidValue);
  if (!valid_device(peer)) return fail_with(cudaErrorInvalidDevice);
  const int device = current_device();
  if (device == peer || !emu().peer) return fail_with(cudaErrorPeerAccessUnsupported);
  std::vector<bool>& enabled = emu().devices[static_cast<size_t>(device)].peer_enabled;
  if (enabled[static_cast<size_t>(peer)]) return fail_with(cudaErrorPeerAccessAlreadyEnabled);
  enabled[static_cast<size_t>(peer)] = true;
  return cudaSuccess;
}

// Test hook, found with dlsym in the loaded plugin: whether `device`'s
// context has been created (by a call that needs one).
__attribute__((visibility("default"))) int porta_cuda_emulator_context_created(int device) {
  return context_created(device) ? 1 : 0;
}

// Test hook: how many pieces of work wait, not yet executed, on `device`'s stream.
__attribute__((visibility("default"))) int porta_cuda_emulator_pending_work(int device) {
  Lock lock(emu().mutex);
  return valid_device(device) ? static_cast<int>(emu().devices[static_cast<size_t>(device)].queue.size()) : -1;
}

// Test hook: `busy` 1 makes cudaEventQuery run no queued work (a GPU still
// busy with earlier work), 0 restores the default; returns the previous setting.
__attribute__((visibility("default"))) int porta_cuda_emulator_busy(int busy) {
  Lock lock(emu().mutex);
  const bool previous = emu().busy;
  emu().busy = busy != 0;
  return previous ? 1 : 0;
}

// Test hooks: how many times cudaHostAlloc (`which` 0) and cudaFreeHost (1) were called.
__attribute__((visibility("default"))) int porta_cuda_emulator_host_calls(int which) {
  Lock lock(emu().mutex);
  return static_cast<int>(which == 0 ? emu().host_allocs : emu().host_frees);
}

}  // extern "C"
