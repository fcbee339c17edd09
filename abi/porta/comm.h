/*
 * porta/comm.h — the communicator plugin C ABI: collectives and
 * point-to-point transfers between processes, over an engine that already
 * exists (MPI, NCCL, an accelerator vendor's interconnect library).
 *
 * A communicator plugin is a shared library, libporta_comm_<name>.so, that
 * exports exactly one symbol, `porta_comm_get_api`, returning a static
 * porta_comm_api table. Like a device plugin (porta/plugin.h) it never links
 * against the core; the core hands it a porta_comm_host_api table.
 *
 * The shape follows the engines it wraps and the runtimes users know:
 *  - A plugin serves one or more DLPack device types (MPI: kDLCPU; NCCL:
 *    kDLCUDA). The core picks the plugin by the device type of the tensors,
 *    as torch.distributed picks a ProcessGroup's backend per device type.
 *    Tensors of a device type no plugin serves are staged through host
 *    memory by the core (a copy each way per call).
 *  - A communicator is made for a fixed group of ranks (porta_comm_config).
 *    Plugins that need to exchange an address or an id before the engine
 *    can connect (NCCL's unique id) do it through the key-value rendezvous
 *    the core provides, as PJRT's distributed clients do through their
 *    key-value callbacks.
 *  - Every operation is asynchronous: it enqueues and returns a work handle
 *    (torch.distributed's Work), which the core tests, waits on with a
 *    timeout, and releases. A failed or abandoned operation reports through
 *    its work handle; abort() ends a communicator whose peers are gone.
 *  - Tensors are contiguous DLTensors (the core makes a contiguous copy of
 *    any other) of one dtype and on the communicator's device; the core has
 *    checked shapes, dtypes and devices before a slot is called, and that
 *    every rank of the group calls the same operations in the same order is
 *    the caller's contract (the core checks it in its debug mode).
 *  - Versions and tables follow porta/plugin.h's rules: MAJOR.MINOR, every
 *    struct begins with struct_size, fields are only appended, slots marked
 *    (optional) may be NULL, an error sets a message with host->set_error()
 *    and leaves out-parameters untouched.
 */
#ifndef PORTA_COMM_H_
#define PORTA_COMM_H_

#include "porta/types.h"

/* Layout: every struct below is followed by PORTA_<NAME>_SIZE, its LP64
 * size (<NAME>: the struct's name without `porta_`, in capitals:
 * porta_comm_config -> PORTA_COMM_CONFIG_SIZE), and by PORTA_LAYOUT_ lines fixing
 * each field's offset and width at compile time; porta/types.h explains them. */

#ifdef __cplusplus
extern "C" {
#endif

/** Communicator ABI major version: a plugin with another major is refused. */
#define PORTA_COMM_ABI_MAJOR 1
/** Communicator ABI minor version of this header (appends only). */
#define PORTA_COMM_ABI_MINOR 0

/** A communicator, owned by the plugin. */
typedef struct porta_comm porta_comm;
/** One enqueued operation, owned by the plugin until work_release. */
typedef struct porta_comm_work porta_comm_work;

/**
 * The key-value rendezvous the core provides to comm_create: a store every
 * rank of the group reaches (a TCP server on rank 0, a shared file, or the
 * launcher's own), scoped to the group being created (the core prefixes
 * keys with the group's name). Values are bytes. Valid during comm_create.
 */
typedef struct porta_comm_kv {
  /** sizeof(porta_comm_kv). Since 1.0. */
  size_t struct_size;
  /** Passed back to put and get. Since 1.0. */
  void* context;
  /** Stores `size` bytes under `key` (NUL-terminated), replacing any value.
   *  Since 1.0. */
  porta_status (*put)(void* context, const char* key, const void* value, size_t size);
  /** Waits up to timeout_ms for `key` to be stored, then copies its value
   *  (at most `capacity` bytes) into `value` and its full size into *size.
   *  A key not stored in time is PORTA_ERROR_TIMEOUT. Since 1.0. */
  porta_status (*get)(void* context, const char* key, void* value, size_t capacity, size_t* size,
                      int64_t timeout_ms);
} porta_comm_kv;
/** sizeof(porta_comm_kv) on LP64. */
#define PORTA_COMM_KV_SIZE 32
PORTA_LAYOUT_FIELD(porta_comm_kv, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_comm_kv, context, 8, 8)
PORTA_LAYOUT_FIELD(porta_comm_kv, put, 16, 8)
PORTA_LAYOUT_FIELD(porta_comm_kv, get, 24, 8)
PORTA_LAYOUT_SIZE(porta_comm_kv, PORTA_COMM_KV_SIZE)

/** What a communicator is made for. Owned by the core, valid only during
 *  comm_create. */
typedef struct porta_comm_config {
  /** sizeof(porta_comm_config). Since 1.0. */
  size_t struct_size;
  /** This process's rank in the group, in [0, world_size). Since 1.0. */
  int32_t rank;
  /** Number of ranks in the group (>= 1). Since 1.0. */
  int32_t world_size;
  /** For each rank of the group, its rank in the plugin's world (the
   *  launcher's: MPI_COMM_WORLD's under mpirun), so that a plugin can make a
   *  subgroup from its world communicator; NULL: rank i is world rank i.
   *  Since 1.0. */
  const int32_t* world_ranks;
  /** The device whose tensors the communicator moves (kDLCPU for host
   *  memory). Since 1.0. */
  DLDevice device;
  /** The group's name, unique in the job ("0" for the default group). Since 1.0. */
  const char* name;
  /** Default limit for an operation to complete (> 0), in milliseconds. Since 1.0. */
  int64_t timeout_ms;
  /** The rendezvous. Since 1.0. */
  const porta_comm_kv* kv;
} porta_comm_config;
/** sizeof(porta_comm_config) on LP64. */
#define PORTA_COMM_CONFIG_SIZE 56
PORTA_LAYOUT_FIELD(porta_comm_config, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_comm_config, rank, 8, 4)
PORTA_LAYOUT_FIELD(porta_comm_config, world_size, 12, 4)
PORTA_LAYOUT_FIELD(porta_comm_config, world_ranks, 16, 8)
PORTA_LAYOUT_FIELD(porta_comm_config, device, 24, 8)
PORTA_LAYOUT_FIELD(porta_comm_config, name, 32, 8)
PORTA_LAYOUT_FIELD(porta_comm_config, timeout_ms, 40, 8)
PORTA_LAYOUT_FIELD(porta_comm_config, kv, 48, 8)
PORTA_LAYOUT_SIZE(porta_comm_config, PORTA_COMM_CONFIG_SIZE)

/** Services the core offers a communicator plugin, passed to initialize().
 *  Owned by the core, it lives until process exit. */
typedef struct porta_comm_host_api {
  /** sizeof(porta_comm_host_api). Since 1.0. */
  size_t struct_size;
  /** The core's PORTA_COMM_ABI_MAJOR. Since 1.0. */
  uint32_t abi_major;
  /** The core's PORTA_COMM_ABI_MINOR. Since 1.0. */
  uint32_t abi_minor;
  /** Records `message` (copied) as the calling thread's error message; the
   *  core prefixes the plugin name. Since 1.0. */
  void (*set_error)(const char* message);
  /** Writes a log line tagged with the plugin name. Since 1.0. */
  void (*log)(porta_log_level level, const char* message);
} porta_comm_host_api;
/** sizeof(porta_comm_host_api) on LP64. */
#define PORTA_COMM_HOST_API_SIZE 32
PORTA_LAYOUT_FIELD(porta_comm_host_api, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_comm_host_api, abi_major, 8, 4)
PORTA_LAYOUT_FIELD(porta_comm_host_api, abi_minor, 12, 4)
PORTA_LAYOUT_FIELD(porta_comm_host_api, set_error, 16, 8)
PORTA_LAYOUT_FIELD(porta_comm_host_api, log, 24, 8)
PORTA_LAYOUT_SIZE(porta_comm_host_api, PORTA_COMM_HOST_API_SIZE)

/**
 * The table a communicator plugin exports. Static and immutable.
 *
 * Operation slots enqueue and return a work handle in *work; `stream` is the
 * device plugin's stream the operation is ordered after and before (NULL:
 * the device's default stream; ignored for host memory). Reading inputs and
 * writing outputs before the work completes is the caller's error.
 */
typedef struct porta_comm_api {
  /** sizeof(porta_comm_api) as compiled into the plugin. Since 1.0. */
  size_t struct_size;
  /** PORTA_COMM_ABI_MAJOR the plugin was built against. Since 1.0. */
  uint32_t abi_major;
  /** PORTA_COMM_ABI_MINOR the plugin was built against. Since 1.0. */
  uint32_t abi_minor;
  /** Backend name as users spell it ("mpi", "nccl"): lowercase letters,
   *  digits and '_'. Static storage. Since 1.0. */
  const char* name;
  /** Plugin version string, static storage. Since 1.0. */
  const char* version;
  /** The DLPack device types it serves, `num_device_types` of them. Since 1.0. */
  const int32_t* device_types;
  /** See device_types. Since 1.0. */
  int32_t num_device_types;

  /** One-time setup, before any other slot below. Since 1.0. */
  porta_status (*initialize)(const porta_comm_host_api* host);
  /** (optional) Whether this process was started by the plugin's own
   *  launcher (mpirun for MPI), and if so its rank and world size there:
   *  *launched = 0 when not (rank and size untouched). Must not start the
   *  engine when not launched by it. Since 1.0. */
  porta_status (*launched_rank)(int32_t* launched, int32_t* rank, int32_t* world_size);
  /** Makes a communicator for `config` (a collective call: every rank of
   *  the group calls it). Since 1.0. */
  porta_status (*comm_create)(const porta_comm_config* config, porta_comm** out);
  /** Releases a communicator after its outstanding work (a collective call). Since 1.0. */
  porta_status (*comm_destroy)(porta_comm* comm);
  /** Ends a communicator without its peers (one of them failed or is gone):
   *  its outstanding work fails and it may not be used again but for
   *  comm_destroy. May end the whole job where the engine can do no better
   *  (MPI_Abort); the core says so before calling it. Since 1.0. */
  porta_status (*comm_abort)(porta_comm* comm, const char* reason);

  /** out = op over the ranks' `in` (same shape; out may be in). Since 1.0. */
  porta_status (*all_reduce)(porta_comm* comm, const DLTensor* in, const DLTensor* out, porta_reduce_op op,
                             void* stream, porta_comm_work** work);
  /** `tensor` of rank `root` into every rank's `tensor`. Since 1.0. */
  porta_status (*broadcast)(porta_comm* comm, const DLTensor* tensor, int32_t root, void* stream,
                            porta_comm_work** work);
  /** out (world_size times in's elements, rank r's at r * numel(in)) =
   *  every rank's `in`. Since 1.0. */
  porta_status (*all_gather)(porta_comm* comm, const DLTensor* in, const DLTensor* out, void* stream,
                             porta_comm_work** work);
  /** out (in's elements / world_size) = rank r's share of op over the
   *  ranks' `in`: elements [r * numel(out), (r + 1) * numel(out)). Since 1.0. */
  porta_status (*reduce_scatter)(porta_comm* comm, const DLTensor* in, const DLTensor* out, porta_reduce_op op,
                                 void* stream, porta_comm_work** work);
  /** Completes when every rank of the group has called it. Since 1.0. */
  porta_status (*barrier)(porta_comm* comm, porta_comm_work** work);
  /** `tensor` to rank `peer`, matched by (peer, tag) with its recv. Since 1.0. */
  porta_status (*send)(porta_comm* comm, const DLTensor* tensor, int32_t peer, int32_t tag, void* stream,
                       porta_comm_work** work);
  /** Into `tensor` from rank `peer`, matching its send by (peer, tag). Since 1.0. */
  porta_status (*recv)(porta_comm* comm, const DLTensor* tensor, int32_t peer, int32_t tag, void* stream,
                       porta_comm_work** work);

  /** *done = 1 when the work has completed, else 0; the operation's failure
   *  is this call's error. Never blocks. Since 1.0. */
  porta_status (*work_test)(porta_comm_work* work, int32_t* done);
  /** Waits up to timeout_ms (< 0: without limit) for the work to complete
   *  (stream-ordered engines: until it is enqueued on `stream`, after which
   *  the device orders it): PORTA_ERROR_TIMEOUT when it did not, the
   *  operation's error when it failed. Since 1.0. */
  porta_status (*work_wait)(porta_comm_work* work, int64_t timeout_ms);
  /** Releases a handle; the operation itself goes on. Never fails. Since 1.0. */
  void (*work_release)(porta_comm_work* work);
} porta_comm_api;
/** sizeof(porta_comm_api) on LP64. */
#define PORTA_COMM_API_SIZE 168
PORTA_LAYOUT_FIELD(porta_comm_api, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_comm_api, abi_major, 8, 4)
PORTA_LAYOUT_FIELD(porta_comm_api, abi_minor, 12, 4)
PORTA_LAYOUT_FIELD(porta_comm_api, name, 16, 8)
PORTA_LAYOUT_FIELD(porta_comm_api, version, 24, 8)
PORTA_LAYOUT_FIELD(porta_comm_api, device_types, 32, 8)
PORTA_LAYOUT_FIELD(porta_comm_api, num_device_types, 40, 4)
PORTA_LAYOUT_FIELD(porta_comm_api, initialize, 48, 8)
PORTA_LAYOUT_FIELD(porta_comm_api, launched_rank, 56, 8)
PORTA_LAYOUT_FIELD(porta_comm_api, comm_create, 64, 8)
PORTA_LAYOUT_FIELD(porta_comm_api, comm_destroy, 72, 8)
PORTA_LAYOUT_FIELD(porta_comm_api, comm_abort, 80, 8)
PORTA_LAYOUT_FIELD(porta_comm_api, all_reduce, 88, 8)
PORTA_LAYOUT_FIELD(porta_comm_api, broadcast, 96, 8)
PORTA_LAYOUT_FIELD(porta_comm_api, all_gather, 104, 8)
PORTA_LAYOUT_FIELD(porta_comm_api, reduce_scatter, 112, 8)
PORTA_LAYOUT_FIELD(porta_comm_api, barrier, 120, 8)
PORTA_LAYOUT_FIELD(porta_comm_api, send, 128, 8)
PORTA_LAYOUT_FIELD(porta_comm_api, recv, 136, 8)
PORTA_LAYOUT_FIELD(porta_comm_api, work_test, 144, 8)
PORTA_LAYOUT_FIELD(porta_comm_api, work_wait, 152, 8)
PORTA_LAYOUT_FIELD(porta_comm_api, work_release, 160, 8)
PORTA_LAYOUT_SIZE(porta_comm_api, PORTA_COMM_API_SIZE)

/** Name of the one symbol every communicator plugin exports. */
#define PORTA_COMM_ENTRY_SYMBOL "porta_comm_get_api"

/** Type of the entry point: returns a static table, with no side effects. */
typedef const porta_comm_api* (*porta_comm_get_api_fn)(void);

#if defined(PORTA_BUILDING_PLUGIN)
/** The entry point a communicator plugin defines (its only exported symbol). */
PORTA_EXPORT const porta_comm_api* porta_comm_get_api(void);
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PORTA_COMM_H_ */
