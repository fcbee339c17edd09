/*
 * porta/types.h — definitions shared by the user ABI (porta.h) and the
 * plugin ABI (plugin.h): status codes, dtype constants, limits.
 *
 * C11, usable from C99, C++ and any FFI. Devices are DLPack `DLDevice`
 * values and dtypes are DLPack `DLDataType` values (dlpack/dlpack.h >= 1.1).
 */
#ifndef PORTA_TYPES_H_
#define PORTA_TYPES_H_

#include <dlpack/dlpack.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Marks a symbol exported from libporta.so (everything else is hidden). */
#if defined(PORTA_BUILDING_CORE) || defined(PORTA_BUILDING_PLUGIN)
#define PORTA_EXPORT __attribute__((visibility("default")))
#else
#define PORTA_EXPORT
#endif

/*
 * Layout in the headers. Every ABI struct (plugin.h, ops.h, porta.h,
 * comm.h: 35 of them) is followed at once by its published layout:
 *
 *   #define PORTA_<NAME>_SIZE <bytes>      (naming rule: the struct's name
 *                                           without its `porta_` prefix, in
 *                                           capitals: porta_plugin_info ->
 *                                           PORTA_PLUGIN_INFO_SIZE)
 *   PORTA_LAYOUT_FIELD(type, field, offset, width)   one line per field
 *   PORTA_LAYOUT_SIZE(type, PORTA_<NAME>_SIZE)
 *
 * The numbers are written out, not computed: they are what bindings and
 * plugins built against an older header rely on, so a field that moves or
 * changes width, or a struct that grows without a line for its new field,
 * fails the build of everything that includes the header. They are the
 * layout of Linux LP64 (x86-64, aarch64), the platforms Porta supports; the
 * _SIZE constants are LP64 sizes (elsewhere use sizeof). On other ABIs only
 * what holds everywhere is checked: the first field (struct_size) at offset 0.
 * The checks are static_assert in C++11 and later, _Static_assert in C11 and
 * later, and nothing in C89/C99. Each macro supplies its own `;`, so its
 * lines end without one; every layout line starts with PORTA_LAYOUT_ (a
 * parser may skip them). Appending a field to a struct means appending its
 * PORTA_LAYOUT_FIELD line and raising its _SIZE (a minor version's only
 * allowed change). tests/abi/layout_count.cmake checks that every struct
 * has its _SIZE constant.
 */
#if (defined(__cplusplus) && __cplusplus >= 201103L) || (defined(_MSVC_LANG) && _MSVC_LANG >= 201103L)
#define PORTA_LAYOUT_ASSERT(cond, msg) static_assert(cond, msg);
#elif !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define PORTA_LAYOUT_ASSERT(cond, msg) _Static_assert(cond, msg);
#else
#define PORTA_LAYOUT_ASSERT(cond, msg)
#endif
#ifdef __cplusplus /* no cast of 0: quiet under -Wold-style-cast and -Wzero-as-null-pointer-constant */
#define PORTA_LAYOUT_WIDTH_(type, field) sizeof(type::field)
#else
#define PORTA_LAYOUT_WIDTH_(type, field) sizeof(((type*)0)->field)
#endif
#if defined(__LP64__) || defined(_LP64)
/** `field` of `type` is at byte `offset` and `width` bytes wide (LP64). */
#define PORTA_LAYOUT_FIELD(type, field, offset, width)                                                  \
  PORTA_LAYOUT_ASSERT(offsetof(type, field) == (offset) && PORTA_LAYOUT_WIDTH_(type, field) == (width), \
                      #type "." #field " moved or changed width: the published layout changed")
/** sizeof(`type`) is `size` (LP64). */
#define PORTA_LAYOUT_SIZE(type, size) \
  PORTA_LAYOUT_ASSERT(sizeof(type) == (size), #type " changed size: a field changed without its layout line")
#else
#define PORTA_LAYOUT_FIELD(type, field, offset, width) \
  PORTA_LAYOUT_ASSERT((offset) != 0 || offsetof(type, field) == 0, #type "." #field " is not its first field")
#define PORTA_LAYOUT_SIZE(type, size)
#endif

/**
 * Result of every fallible call. PORTA_OK is 0; every other value is an
 * error whose message is available from porta_last_error() on the calling
 * thread. Values are stable: new codes are only appended.
 */
typedef enum porta_status {
  /** Success. */
  PORTA_OK = 0,
  /** An argument was NULL, out of range or otherwise malformed. */
  PORTA_ERROR_INVALID_ARGUMENT = 1,
  /** Tensors passed to one op live on different devices. */
  PORTA_ERROR_DEVICE_MISMATCH = 2,
  /** Shapes cannot be broadcast, reshaped or multiplied as asked. */
  PORTA_ERROR_SHAPE_MISMATCH = 3,
  /** The dtype is not supported by this op (or by this plugin). */
  PORTA_ERROR_UNSUPPORTED_DTYPE = 4,
  /** The device type is unknown or the device index does not exist. */
  PORTA_ERROR_NO_SUCH_DEVICE = 5,
  /** The backend does not implement this op, dtype or optional slot. */
  PORTA_ERROR_NOT_IMPLEMENTED = 6,
  /** An allocation failed after the cache was freed and retried. */
  PORTA_ERROR_OUT_OF_MEMORY = 7,
  /** A plugin failed to load or reported a failure of its backend. */
  PORTA_ERROR_BACKEND = 8,
  /** A handle was NULL where one was required, or was already released. */
  PORTA_ERROR_INVALID_HANDLE = 9,
  /** A file could not be read or written, or its contents were malformed. */
  PORTA_ERROR_IO = 10,
  /** A bug in Porta: please report it with the message. */
  PORTA_ERROR_INTERNAL = 11,
  /** An operation did not complete in its time limit (a collective a rank
   *  never joined, a rendezvous key never stored). Since user ABI 1.9. */
  PORTA_ERROR_TIMEOUT = 12
} porta_status;

/** Kind of device, for choosing "the best available" device. */
typedef enum porta_device_kind {
  PORTA_DEVICE_KIND_CPU = 0,         /**< the host processor (also OpenCL CPU devices) */
  PORTA_DEVICE_KIND_GPU = 1,         /**< a discrete or integrated GPU */
  PORTA_DEVICE_KIND_ACCELERATOR = 2, /**< another accelerator */
  PORTA_DEVICE_KIND_VIRTUAL = 3      /**< a mock or emulated device (tests) */
} porta_device_kind;

/** Severity of a log line, written by the core and by plugins
 *  (porta_host_api.log). PORTA_LOG=debug|info|warn|error|off (any case)
 *  sets the threshold; lines below it are dropped. */
typedef enum porta_log_level {
  PORTA_LOG_DEBUG = 0, /**< shown with PORTA_LOG=debug */
  PORTA_LOG_INFO = 1,  /**< shown with PORTA_LOG=info or debug */
  PORTA_LOG_WARN = 2,  /**< shown by default */
  PORTA_LOG_ERROR = 3, /**< shown unless PORTA_LOG=off. Since user ABI 1.1 / plugin ABI 1.2 */
  PORTA_LOG_OFF = 4    /**< a threshold only: nothing is shown. Since user ABI 1.1 */
} porta_log_level;

/** How all_reduce and reduce_scatter combine the ranks' values
 *  (torch.distributed's ReduceOp), in the user ABI and the communicator
 *  ABI (porta/comm.h) alike. Values are stable: new ones are only
 *  appended. Since user ABI 1.9. */
typedef enum porta_reduce_op {
  PORTA_REDUCE_SUM = 0,
  /** The sum divided by the group's size; floating-point dtypes only (the
   *  core refuses integer tensors, as torch.distributed does). */
  PORTA_REDUCE_AVG = 1,
  PORTA_REDUCE_MAX = 2,
  PORTA_REDUCE_MIN = 3,
  PORTA_REDUCE_PROD = 4
} porta_reduce_op;

/** Largest number of dimensions a tensor may have. */
#define PORTA_MAX_DIMS 16

/* DLPack dtypes Porta supports. `static const` so they are usable from C and
 * C++ as values: `porta_float32`, `porta_int64`, ... A header constant has
 * no symbol, so other languages read the same values from libporta.so:
 * the data symbols porta_dtype_float32, ... or porta_dtype_by_name (user
 * ABI 1.2, porta/porta.h, whose "For other languages (FFI)" section lists
 * every number a binding must restate). */
/** float32: DLPack {kDLFloat, 32, 1}. */
static const DLDataType porta_float32 = {kDLFloat, 32, 1};
/** float64: DLPack {kDLFloat, 64, 1}. */
static const DLDataType porta_float64 = {kDLFloat, 64, 1};
/** int32: DLPack {kDLInt, 32, 1}. */
static const DLDataType porta_int32 = {kDLInt, 32, 1};
/** int64: DLPack {kDLInt, 64, 1}. */
static const DLDataType porta_int64 = {kDLInt, 64, 1};
/** uint8: DLPack {kDLUInt, 8, 1}. */
static const DLDataType porta_uint8 = {kDLUInt, 8, 1};
/** bool: DLPack {kDLBool, 8, 1} (one byte per element, 0 or 1). */
static const DLDataType porta_bool = {kDLBool, 8, 1};
/* The storage dtypes (user ABI 1.10, plugin ABI 1.10): 16-bit floats kept in
 * memory and computed in float32, and the narrow integers. How values convert
 * to and from them: porta/ops.h, PORTA_OP_KIND_COPY; the exact functions:
 * porta/float16.h. */
/** int8: DLPack {kDLInt, 8, 1}. Since 1.10. */
static const DLDataType porta_int8 = {kDLInt, 8, 1};
/** int16: DLPack {kDLInt, 16, 1}. Since 1.10. */
static const DLDataType porta_int16 = {kDLInt, 16, 1};
/** float16 (IEEE 754 binary16, PyTorch's torch.half): DLPack {kDLFloat, 16, 1}. Since 1.10. */
static const DLDataType porta_float16 = {kDLFloat, 16, 1};
/** bfloat16 (float32's upper 16 bits): DLPack {kDLBfloat, 16, 1}. Since 1.10. */
static const DLDataType porta_bfloat16 = {kDLBfloat, 16, 1};

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PORTA_TYPES_H_ */
