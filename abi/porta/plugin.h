/*
 * porta/plugin.h — the plugin C ABI: the only door into a backend.
 *
 * A plugin is a shared library that exports exactly one symbol,
 * `porta_plugin_get_api`, returning a static porta_plugin_api table. The
 * core never links against a plugin and a plugin never links against the
 * core: the core hands the plugin a porta_host_api table at initialize().
 *
 * Rules (see docs/plugin-authoring.md):
 *  - Versions are MAJOR.MINOR. The core loads a plugin whose abi_major equals
 *    its own and whose abi_minor is any value; a field the plugin's
 *    struct_size does not cover is treated as absent (NULL).
 *  - Every table and argument struct begins with `size_t struct_size`.
 *    Fields are only appended; each says since which minor it exists.
 *  - Slots marked (optional) may be NULL; the core then reports
 *    PORTA_ERROR_NOT_IMPLEMENTED or uses the stated default.
 *  - On error a slot returns a non-OK porta_status, sets a message with
 *    host->set_error(), and leaves its out-parameters untouched.
 *  - Device memory is opaque to the core: `void*` handles plus byte offsets.
 *    Only for kDLCPU are handles host pointers. For kDLOpenCL the handle is
 *    the cl_mem (DLPack's convention).
 *  - The core serializes nothing for the plugin: slots may be called from
 *    several threads at once and must be thread-safe.
 *  - Dtypes appended in a minor (the storage dtypes of 1.10, porta/ops.h
 *    porta_op_dtypes) are never asked of, nor handed to, a plugin built
 *    against an older minor.
 */
#ifndef PORTA_PLUGIN_H_
#define PORTA_PLUGIN_H_

#include "porta/ops.h"
#include "porta/types.h"

/* Layout: every struct below is followed by PORTA_<NAME>_SIZE, its LP64
 * size (<NAME>: the struct's name without `porta_`, in capitals:
 * porta_host_api -> PORTA_HOST_API_SIZE), and by PORTA_LAYOUT_ lines fixing
 * each field's offset and width at compile time; porta/types.h explains them. */

#ifdef __cplusplus
extern "C" {
#endif

/** Plugin ABI major version: a plugin with another major is refused. */
#define PORTA_PLUGIN_ABI_MAJOR 1
/** Plugin ABI minor version of this header (appends only). */
#define PORTA_PLUGIN_ABI_MINOR 12

/**
 * Services the core offers a plugin, passed to initialize(). The table is
 * owned by the core and lives until process exit.
 */
typedef struct porta_host_api {
  /** sizeof(porta_host_api) as compiled into the core. Since 1.0. */
  size_t struct_size;
  /** The core's PORTA_PLUGIN_ABI_MAJOR. Since 1.0. */
  uint32_t abi_major;
  /** The core's PORTA_PLUGIN_ABI_MINOR. Since 1.0. */
  uint32_t abi_minor;
  /** Records `message` (copied) as the calling thread's error message; the
   *  core prefixes the plugin name. Since 1.0. */
  void (*set_error)(const char* message);
  /** Writes a log line tagged with the plugin name (porta_log_level in
   *  porta/types.h; PORTA_LOG_ERROR since 1.2). Since 1.0. */
  void (*log)(porta_log_level level, const char* message);
  /** How many threads host kernels may use (>= 1): porta_set_num_threads,
   *  else PORTA_NUM_THREADS, else OMP_NUM_THREADS, else every core. Cheap:
   *  a plugin with a thread pool reads it before each parallel kernel and
   *  resizes when it changed. Since 1.2 (check struct_size). */
  int32_t (*num_threads)(void);
} porta_host_api;
/** sizeof(porta_host_api) on LP64. */
#define PORTA_HOST_API_SIZE 40
PORTA_LAYOUT_FIELD(porta_host_api, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_host_api, abi_major, 8, 4)
PORTA_LAYOUT_FIELD(porta_host_api, abi_minor, 12, 4)
PORTA_LAYOUT_FIELD(porta_host_api, set_error, 16, 8)
PORTA_LAYOUT_FIELD(porta_host_api, log, 24, 8)
PORTA_LAYOUT_FIELD(porta_host_api, num_threads, 32, 8)
PORTA_LAYOUT_SIZE(porta_host_api, PORTA_HOST_API_SIZE)

/** Properties of one device, filled by porta_plugin_api.device_props. */
typedef struct porta_device_props {
  /** sizeof(porta_device_props) as known to the core; the plugin writes only
   *  fields this size covers. Since 1.0. */
  size_t struct_size;
  /** Human-readable device name, NUL-terminated. Since 1.0. */
  char name[128];
  /** Total memory in bytes (0: unknown). Since 1.0. */
  uint64_t memory_total;
  /** Free memory in bytes (0: unknown). Since 1.0. */
  uint64_t memory_free;
  /** Parallel compute units (cores, SMs, CUs). Since 1.0. */
  int32_t compute_units;
  /** A porta_device_kind. Since 1.0. */
  int32_t kind;
  /** Backend-specific capability, e.g. CUDA compute capability 9.0 as
   *  major=9, minor=0 (0 where meaningless). Since 1.0. */
  int32_t capability_major;
  /** See capability_major. Since 1.0. */
  int32_t capability_minor;
} porta_device_props;
/** sizeof(porta_device_props) on LP64. */
#define PORTA_DEVICE_PROPS_SIZE 168
PORTA_LAYOUT_FIELD(porta_device_props, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_device_props, name, 8, 128)
PORTA_LAYOUT_FIELD(porta_device_props, memory_total, 136, 8)
PORTA_LAYOUT_FIELD(porta_device_props, memory_free, 144, 8)
PORTA_LAYOUT_FIELD(porta_device_props, compute_units, 152, 4)
PORTA_LAYOUT_FIELD(porta_device_props, kind, 156, 4)
PORTA_LAYOUT_FIELD(porta_device_props, capability_major, 160, 4)
PORTA_LAYOUT_FIELD(porta_device_props, capability_minor, 164, 4)
PORTA_LAYOUT_SIZE(porta_device_props, PORTA_DEVICE_PROPS_SIZE)

/** Copy flag: the copy may return before it completes (stream-ordered). */
#define PORTA_COPY_NONBLOCKING 1u

/** Everything one kernel invocation needs. Owned by the core, valid only
 *  for the duration of the call. */
typedef struct porta_kernel_call {
  /** sizeof(porta_kernel_call). Since 1.0. */
  size_t struct_size;
  /** Device index within the plugin. Since 1.0. */
  int32_t device;
  /** Stream to enqueue on; NULL is the device's default stream. Since 1.0. */
  void* stream;
  /** Input tensors (on `device`), as described by the op's kind. Since 1.0. */
  const DLTensor* inputs;
  /** Number of entries in `inputs`. Since 1.0. */
  int32_t num_inputs;
  /** Output tensors, already allocated by the core. Since 1.0. */
  const DLTensor* outputs;
  /** Number of entries in `outputs`. Since 1.0. */
  int32_t num_outputs;
  /** Op-specific parameter struct (begins with struct_size) or NULL. Since 1.0. */
  const void* params;
} porta_kernel_call;
/** sizeof(porta_kernel_call) on LP64. */
#define PORTA_KERNEL_CALL_SIZE 64
PORTA_LAYOUT_FIELD(porta_kernel_call, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_kernel_call, device, 8, 4)
PORTA_LAYOUT_FIELD(porta_kernel_call, stream, 16, 8)
PORTA_LAYOUT_FIELD(porta_kernel_call, inputs, 24, 8)
PORTA_LAYOUT_FIELD(porta_kernel_call, num_inputs, 32, 4)
PORTA_LAYOUT_FIELD(porta_kernel_call, outputs, 40, 8)
PORTA_LAYOUT_FIELD(porta_kernel_call, num_outputs, 48, 4)
PORTA_LAYOUT_FIELD(porta_kernel_call, params, 56, 8)
PORTA_LAYOUT_SIZE(porta_kernel_call, PORTA_KERNEL_CALL_SIZE)

/** A compute kernel. Returns PORTA_OK or sets an error via the host table. */
typedef porta_status (*porta_kernel_fn)(const porta_kernel_call* call);

/**
 * The table a plugin exports. Static, immutable, owned by the plugin; the
 * core reads it, copies what it needs, and never writes it.
 */
typedef struct porta_plugin_api {
  /** sizeof(porta_plugin_api) as compiled into the plugin. Since 1.0. */
  size_t struct_size;
  /** PORTA_PLUGIN_ABI_MAJOR the plugin was built against. Since 1.0. */
  uint32_t abi_major;
  /** PORTA_PLUGIN_ABI_MINOR the plugin was built against. Since 1.0. */
  uint32_t abi_minor;
  /** Device type name used in device strings ("cpu", "cuda"): lowercase
   *  letters, digits and '_', not empty. Static storage. Since 1.0. */
  const char* name;
  /** DLPack DLDeviceType this plugin serves. Since 1.0. */
  int32_t device_type;
  /** Plugin version string, static storage. Since 1.0. */
  const char* version;

  /** One-time setup, called once before any other slot below. Must not fail
   *  because a driver or device is missing: report zero devices instead.
   *  `host` lives until process exit. Since 1.0. */
  porta_status (*initialize)(const porta_host_api* host);
  /** Number of usable devices; must not create GPU contexts. Since 1.0. */
  porta_status (*device_count)(int32_t* out_count);
  /** (optional) Why there are zero devices (static or plugin-owned string
   *  valid until exit), or NULL when devices exist. Since 1.0. */
  const char* (*unavailable_reason)(void);
  /** Fills `out` (respecting out->struct_size) for device `device`. Since 1.0. */
  porta_status (*device_props)(int32_t device, porta_device_props* out);

  /** Allocates `bytes` (> 0) of device memory; *out receives an opaque handle
   *  owned by the caller until passed to free. Returns
   *  PORTA_ERROR_OUT_OF_MEMORY when the device is full. Since 1.0. */
  porta_status (*alloc)(int32_t device, size_t bytes, void** out);
  /** Releases a handle from alloc, after work already enqueued on it. Never
   *  fails. Since 1.0. */
  void (*free)(int32_t device, void* handle);

  /** Host -> device: bytes from host `src` to `dst` + dst_offset. Blocking
   *  unless PORTA_COPY_NONBLOCKING is set (then `src` must stay valid until
   *  the device's stream reaches the copy). Since 1.0. */
  porta_status (*copy_to_device)(int32_t device, void* dst, size_t dst_offset, const void* src,
                                 size_t bytes, uint32_t flags);
  /** Device -> host: bytes from `src` + src_offset to host `dst`; waits for
   *  enqueued work on the device first. Since 1.0. */
  porta_status (*copy_to_host)(int32_t device, void* dst, const void* src, size_t src_offset,
                               size_t bytes, uint32_t flags);
  /** Device -> same device. Stream-ordered. Since 1.0. */
  porta_status (*copy_on_device)(int32_t device, void* dst, size_t dst_offset, const void* src,
                                 size_t src_offset, size_t bytes, uint32_t flags);
  /** Waits until all work enqueued on the device has finished. Since 1.0. */
  porta_status (*synchronize)(int32_t device);
  /** Returns the kernel for (op, dtype), or NULL when the plugin has none
   *  (including op ids newer than the plugin). Pure lookup: the core calls
   *  it once per (op, dtype) at load and caches the answer. Since 1.0. */
  porta_kernel_fn (*find_kernel)(uint32_t op, DLDataType dtype);

  /** (optional) Device -> another device of this plugin (peer access or
   *  staged). NULL: the core stages through host memory. Since 1.1. */
  porta_status (*copy_between_devices)(int32_t dst_device, void* dst, size_t dst_offset,
                                       int32_t src_device, const void* src, size_t src_offset,
                                       size_t bytes, uint32_t flags);
  /** (optional) Page-locked host memory for fast, asynchronous transfers.
   *  NULL: the core uses ordinary host memory. Since 1.1. */
  porta_status (*alloc_pinned_host)(size_t bytes, void** out);
  /** (optional, required with alloc_pinned_host) Frees alloc_pinned_host
   *  memory, after every copy enqueued from it (PORTA_COPY_NONBLOCKING)
   *  has completed. Since 1.1. */
  void (*free_pinned_host)(void* ptr);

  /** What the plugin promises, a bitwise OR of PORTA_PLUGIN_CAP_* (0, the
   *  value when the field is absent, promises nothing). Since 1.2. */
  uint64_t capabilities;

  /** (optional) The engine's stream on which the plugin enqueues device
   *  `device`'s kernels and copies (a cudaStream_t for CUDA), in *out: one
   *  handle, valid while the plugin is loaded, that the core may keep.
   *  Communicator plugins (porta/comm.h) enqueue their operations on it, so
   *  that they run after the work the device was given before and before
   *  the work it is given after, without a host wait. NULL slot, or NULL in
   *  *out: the device's default stream. Since 1.9. */
  porta_status (*native_stream)(int32_t device, void** out);
} porta_plugin_api;
/** sizeof(porta_plugin_api) on LP64. */
#define PORTA_PLUGIN_API_SIZE 168
PORTA_LAYOUT_FIELD(porta_plugin_api, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_plugin_api, abi_major, 8, 4)
PORTA_LAYOUT_FIELD(porta_plugin_api, abi_minor, 12, 4)
PORTA_LAYOUT_FIELD(porta_plugin_api, name, 16, 8)
PORTA_LAYOUT_FIELD(porta_plugin_api, device_type, 24, 4)
PORTA_LAYOUT_FIELD(porta_plugin_api, version, 32, 8)
PORTA_LAYOUT_FIELD(porta_plugin_api, initialize, 40, 8)
PORTA_LAYOUT_FIELD(porta_plugin_api, device_count, 48, 8)
PORTA_LAYOUT_FIELD(porta_plugin_api, unavailable_reason, 56, 8)
PORTA_LAYOUT_FIELD(porta_plugin_api, device_props, 64, 8)
PORTA_LAYOUT_FIELD(porta_plugin_api, alloc, 72, 8)
PORTA_LAYOUT_FIELD(porta_plugin_api, free, 80, 8)
PORTA_LAYOUT_FIELD(porta_plugin_api, copy_to_device, 88, 8)
PORTA_LAYOUT_FIELD(porta_plugin_api, copy_to_host, 96, 8)
PORTA_LAYOUT_FIELD(porta_plugin_api, copy_on_device, 104, 8)
PORTA_LAYOUT_FIELD(porta_plugin_api, synchronize, 112, 8)
PORTA_LAYOUT_FIELD(porta_plugin_api, find_kernel, 120, 8)
PORTA_LAYOUT_FIELD(porta_plugin_api, copy_between_devices, 128, 8)
PORTA_LAYOUT_FIELD(porta_plugin_api, alloc_pinned_host, 136, 8)
PORTA_LAYOUT_FIELD(porta_plugin_api, free_pinned_host, 144, 8)
PORTA_LAYOUT_FIELD(porta_plugin_api, capabilities, 152, 8)
PORTA_LAYOUT_FIELD(porta_plugin_api, native_stream, 160, 8)
PORTA_LAYOUT_SIZE(porta_plugin_api, PORTA_PLUGIN_API_SIZE)

/** Capability: the plugin's devices keep working in a child process forked
 *  after the plugin initialized (fork() without exec, e.g. multiprocessing's
 *  default start method on Linux): host-memory backends whose threads are
 *  re-created in the child. Without it, a forked child's use of the plugin's
 *  devices fails with PORTA_ERROR_BACKEND saying so, where GPU drivers
 *  (CUDA, OpenCL) would hang or fail obscurely. */
#define PORTA_PLUGIN_CAP_FORK_SAFE 1u

/** Capability: the plugin's GATHER and SCATTER kernels check every index
 *  value against the size of the dimension it indexes, and the kernel
 *  function itself (not a later synchronize) returns
 *  PORTA_ERROR_INVALID_ARGUMENT when one is outside [0, size): host-memory
 *  backends, whose kernels run before they return. The core then skips its
 *  own check (a MIN and a MAX reduction of the index before the launch, the
 *  cost of a second read of the index), discards the kernel's output, which
 *  is always a tensor of its own, and words the error itself. Without it the
 *  core checks first, and the kernels may assume every index is in range.
 *  Since 1.8 (a core that does not know it checks, as without it). */
#define PORTA_PLUGIN_CAP_CHECKS_INDEX_RANGE 2u

/** Size of the 1.0 table: a plugin built against 1.0 reports this. */
#define PORTA_PLUGIN_API_SIZE_1_0 offsetof(porta_plugin_api, copy_between_devices)

/** Name of the one symbol every plugin exports. */
#define PORTA_PLUGIN_ENTRY_SYMBOL "porta_plugin_get_api"

/** Type of the entry point. It returns a static table and has no side
 *  effects (no driver calls, no allocation). */
typedef const porta_plugin_api* (*porta_plugin_get_api_fn)(void);

#if defined(PORTA_BUILDING_PLUGIN)
/** The entry point a plugin defines (and the only symbol it exports). */
PORTA_EXPORT const porta_plugin_api* porta_plugin_get_api(void);
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PORTA_PLUGIN_H_ */
