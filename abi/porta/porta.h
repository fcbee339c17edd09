/*
 * porta/porta.h — the user C ABI: the only door into the Porta core.
 *
 * Conventions, for every function below:
 *  - Fallible calls return porta_status. On error the calling thread's
 *    message is in porta_last_error() and out-parameters are untouched.
 *  - `porta_tensor** out`: on success *out receives a NEW reference owned by
 *    the caller, to be given back with porta_tensor_release().
 *  - Input handles are borrowed: the call never releases them.
 *  - Strings passed in are copied. Strings returned are owned by the core
 *    and valid until process exit unless stated otherwise.
 *  - Structs passed in or out begin with `size_t struct_size`, which the
 *    caller sets to sizeof(the struct) it was compiled with; the core fills
 *    only fields that size covers.
 *  - Devices are DLPack DLDevice values ({kDLCUDA, 1} is "cuda:1"); dtypes
 *    are DLPack DLDataType values (porta_float32, ... in porta/types.h).
 *  - Ops never move data between devices implicitly: tensors given to one op
 *    must be on one device, else PORTA_ERROR_DEVICE_MISMATCH.
 *  - Elementwise ops broadcast like NumPy and promote dtypes like PyTorch
 *    (bool < uint8 < int32 < int64 < float32 < float64); see docs/api.md.
 *  - Every declaration says since which user ABI version it exists
 *    ("Since 1.1.": PORTA_ABI_MAJOR.MINOR, what porta_version reports); a
 *    struct's or enum's covers its fields and values, except those that say
 *    their own. Versions in porta/ops.h are the plugin ABI's.
 */

/*
 * For other languages (FFI)
 *
 * What a binding that cannot read this header (ctypes, Rust `extern "C"`,
 * ...) must restate, with every value. tests/unit/test_ffi_values.cpp reads
 * each `NAME = value` of this section and compares it with the headers'
 * own enums, macros and layouts (the headers fix every struct's layout at
 * compile time, after its definition: PORTA_<NAME>_SIZE and the
 * PORTA_LAYOUT_ lines; tests/abi/abi_layout.c fixes the enums), so the
 * numbers cannot drift. A worked example
 * with Python's ctypes alone: tests/abi/ffi_ctypes_example.py.
 *
 * Platform: Linux, LP64 (x86-64, aarch64). C `int` and every enum are 32
 * bits; `size_t`, `int64_t` and pointers are 64. Structs are laid out in
 * declaration order with natural alignment (no packing), as C does.
 *
 * Types of arguments and results:
 *  - porta_status (what every fallible call returns), porta_reduction (an
 *    argument of the losses) and the other enums are C enums: pass and
 *    receive them as int32. `int` flags (keepdim, requires_grad, training)
 *    and `int*` outs are int32, 0 meaning false.
 *  - porta_tensor*, porta_optimizer*, porta_tensor_list*, and (1.9)
 *    porta_process_group*, porta_work* and porta_reducer* are opaque pointers;
 *    release functions return nothing.
 *  - porta_log_callback is void (*)(int32_t level, const char* message,
 *    void* user_data), called from any thread.
 *  - The autograd callbacks (1.6): porta_grad_hook is porta_status (*)(void*
 *    user_data, porta_tensor* grad, porta_tensor** replacement);
 *    porta_function_backward is porta_status (*)(void* user_data,
 *    porta_tensor* grad_output, porta_tensor** grad_inputs, int32_t
 *    num_inputs); porta_release_callback is void (*)(void* user_data);
 *    since 1.8 porta_function_backward_outputs is porta_status (*)(void*
 *    user_data, porta_tensor* const* grad_outputs, int32_t num_outputs,
 *    porta_tensor** grad_inputs, int32_t num_inputs). The backward
 *    callbacks and hooks run on the thread that called backward, release on
 *    any.
 *  - Strings are NUL-terminated bytes; those returned are owned by Porta.
 *
 * Values libporta.so exports as data (read them with dlsym, ctypes
 * `in_dll`, or a Rust `extern "C" { static ... }`), since 1.2: the dtypes
 * porta_dtype_float32, porta_dtype_float64, porta_dtype_int32,
 * porta_dtype_int64, porta_dtype_uint8, porta_dtype_bool (DLDataType),
 * also found by name with porta_dtype_by_name; porta_max_dims and
 * porta_all_dims (int32). porta_version() returns the ABI version.
 *
 * Versions and limits (macros):
 *   PORTA_ABI_MAJOR = 1, PORTA_ABI_MINOR = 15 (porta_version's abi_major, abi_minor)
 *   PORTA_MAX_DIMS = 16 (most dimensions a tensor has), PORTA_DLPACK_MAX_NDIM = 16
 *   PORTA_ALL_DIMS = -2147483648 (INT32_MIN: porta_argmax/argmin's `dim` for all elements)
 *   DLPACK_MAJOR_VERSION = 1 (porta_from_dlpack_versioned refuses another major)
 *
 * porta_status (0 is success; porta_status_name gives the name):
 *   PORTA_OK = 0, PORTA_ERROR_INVALID_ARGUMENT = 1, PORTA_ERROR_DEVICE_MISMATCH = 2,
 *   PORTA_ERROR_SHAPE_MISMATCH = 3, PORTA_ERROR_UNSUPPORTED_DTYPE = 4,
 *   PORTA_ERROR_NO_SUCH_DEVICE = 5, PORTA_ERROR_NOT_IMPLEMENTED = 6,
 *   PORTA_ERROR_OUT_OF_MEMORY = 7, PORTA_ERROR_BACKEND = 8,
 *   PORTA_ERROR_INVALID_HANDLE = 9, PORTA_ERROR_IO = 10, PORTA_ERROR_INTERNAL = 11,
 *   PORTA_ERROR_TIMEOUT = 12 (since 1.9)
 *
 * porta_error_detail (porta_last_error_detail; since 1.15):
 *   PORTA_ERROR_DETAIL_NONE = 0, PORTA_ERROR_DETAIL_DIMENSION_OUT_OF_RANGE = 1
 *
 * porta_device_kind (porta_device_info.kind):
 *   PORTA_DEVICE_KIND_CPU = 0, PORTA_DEVICE_KIND_GPU = 1,
 *   PORTA_DEVICE_KIND_ACCELERATOR = 2, PORTA_DEVICE_KIND_VIRTUAL = 3
 *
 * porta_log_level (porta_set_log_level, the log callback's level):
 *   PORTA_LOG_DEBUG = 0, PORTA_LOG_INFO = 1, PORTA_LOG_WARN = 2,
 *   PORTA_LOG_ERROR = 3, PORTA_LOG_OFF = 4
 *
 * porta_plugin_state (porta_plugin_info.state):
 *   PORTA_PLUGIN_LOADED = 0, PORTA_PLUGIN_NO_DEVICES = 1, PORTA_PLUGIN_FAILED = 2,
 *   PORTA_PLUGIN_REJECTED = 3, PORTA_PLUGIN_EXCLUDED = 4
 *
 * porta_reduction (the losses' `reduction`):
 *   PORTA_REDUCTION_NONE = 0, PORTA_REDUCTION_MEAN = 1, PORTA_REDUCTION_SUM = 2,
 *   PORTA_REDUCTION_BATCHMEAN = 3 (porta_kl_div only; since 1.4)
 *   porta_rnn_mode (since 1.6): PORTA_RNN_TANH = 0, PORTA_RNN_RELU = 1,
 *     PORTA_RNN_LSTM = 2, PORTA_RNN_GRU = 3
 *   porta_pad_mode (since 1.6): PORTA_PAD_CONSTANT = 0, PORTA_PAD_REFLECT = 1,
 *     PORTA_PAD_REPLICATE = 2, PORTA_PAD_CIRCULAR = 3
 *   porta_interpolate_mode (since 1.6): PORTA_INTERPOLATE_NEAREST = 0,
 *     PORTA_INTERPOLATE_NEAREST_EXACT = 1, PORTA_INTERPOLATE_BILINEAR = 2
 *   porta_meshgrid_indexing (since 1.7): PORTA_MESHGRID_IJ = 0, PORTA_MESHGRID_XY = 1
 *   porta_reduce_op (since 1.9): PORTA_REDUCE_SUM = 0, PORTA_REDUCE_AVG = 1,
 *     PORTA_REDUCE_MAX = 2, PORTA_REDUCE_MIN = 3, PORTA_REDUCE_PROD = 4
 *   porta_scalar_kind (since 1.12): PORTA_SCALAR_BOOL = 0, PORTA_SCALAR_INT = 1,
 *     PORTA_SCALAR_FLOAT = 2
 *
 * porta_op_dtypes and porta_op_result (porta_op_info's `dtypes`, `result`):
 *   PORTA_DTYPES_ANY = 0, PORTA_DTYPES_NUMERIC = 1, PORTA_DTYPES_FLOAT = 2,
 *   PORTA_DTYPES_WIDE = 3, PORTA_DTYPES_INTEGRAL = 4 (since 1.12), PORTA_DTYPES_INTEGER = 5 (since 1.12);
 *   PORTA_RESULT_SAME = 0, PORTA_RESULT_FLOAT = 1,
 *   PORTA_RESULT_BOOL = 2, PORTA_RESULT_INDEX = 3, PORTA_RESULT_WIDE = 4
 *
 * porta_op ids the in-place calls take (porta/ops.h; never renumbered):
 *   porta_unary_inplace: PORTA_OP_NEG = 6, PORTA_OP_EXP = 7, PORTA_OP_LOG = 8,
 *     PORTA_OP_SQRT = 9, PORTA_OP_RELU = 10, PORTA_OP_SIGMOID = 11,
 *     PORTA_OP_TANH = 12, PORTA_OP_ABS = 13; since 1.3: PORTA_OP_SIN = 49,
 *     PORTA_OP_COS = 50, PORTA_OP_TAN = 51, PORTA_OP_ASIN = 52,
 *     PORTA_OP_ACOS = 53, PORTA_OP_ATAN = 54, PORTA_OP_SINH = 55,
 *     PORTA_OP_COSH = 56, PORTA_OP_FLOOR = 57, PORTA_OP_CEIL = 58,
 *     PORTA_OP_ROUND = 59, PORTA_OP_TRUNC = 60, PORTA_OP_SIGN = 61,
 *     PORTA_OP_ERF = 62, PORTA_OP_ERFINV = 63, PORTA_OP_LOG1P = 64,
 *     PORTA_OP_EXPM1 = 65, PORTA_OP_LOG2 = 66, PORTA_OP_LOG10 = 67,
 *     PORTA_OP_EXP2 = 68, PORTA_OP_ASINH = 73
 *   porta_binary_inplace, porta_binary_scalar_inplace: PORTA_OP_ADD = 14,
 *     PORTA_OP_SUB = 15, PORTA_OP_MUL = 16, PORTA_OP_DIV = 17, PORTA_OP_POW = 18,
 *     PORTA_OP_MAXIMUM = 19, PORTA_OP_MINIMUM = 20, PORTA_OP_EQ = 21,
 *     PORTA_OP_NE = 22, PORTA_OP_LT = 23, PORTA_OP_LE = 24, PORTA_OP_GT = 25,
 *     PORTA_OP_GE = 26; since 1.3: PORTA_OP_ATAN2 = 69, PORTA_OP_REMAINDER = 70,
 *     PORTA_OP_FMOD = 71, PORTA_OP_FLOOR_DIVIDE = 72; since 1.12: PORTA_OP_BITWISE_AND = 90,
 *     PORTA_OP_BITWISE_OR = 91, PORTA_OP_BITWISE_XOR = 92, PORTA_OP_BITWISE_LEFT_SHIFT = 94,
 *     PORTA_OP_BITWISE_RIGHT_SHIFT = 95 (and porta_unary_inplace: PORTA_OP_BITWISE_NOT = 93)
 *
 * DLDevice (dlpack.h), passed by value; porta_device_parse("cuda:1") makes one:
 *   sizeof(DLDevice) = 8, alignof(DLDevice) = 4,
 *   offsetof(DLDevice, device_type) = 0 (int32, a DLDeviceType),
 *   offsetof(DLDevice, device_id) = 4 (int32, the index)
 * DLDeviceType values of Porta's plugins (others by their DLPack number):
 *   kDLCPU = 1, kDLCUDA = 2, kDLOpenCL = 4, kDLExtDev = 12 (the test plugin's mock)
 *
 * DLDataType (dlpack.h), passed by value:
 *   sizeof(DLDataType) = 4, alignof(DLDataType) = 2,
 *   offsetof(DLDataType, code) = 0 (uint8, a DLDataTypeCode),
 *   offsetof(DLDataType, bits) = 1 (uint8), offsetof(DLDataType, lanes) = 2 (uint16)
 * DLDataTypeCode values Porta uses:
 *   kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLBfloat = 4, kDLBool = 6
 * The ten dtypes as {code, bits, lanes} (elements of bits / 8 bytes; bool
 * is one byte, 0 or 1):
 *   porta_dtype_float32 = {2, 32, 1}, porta_dtype_float64 = {2, 64, 1},
 *   porta_dtype_int32 = {0, 32, 1}, porta_dtype_int64 = {0, 64, 1},
 *   porta_dtype_uint8 = {1, 8, 1}, porta_dtype_bool = {6, 8, 1},
 *   and since 1.10 porta_dtype_int8 = {0, 8, 1}, porta_dtype_int16 = {0, 16, 1},
 *   porta_dtype_float16 = {2, 16, 1}, porta_dtype_bfloat16 = {4, 16, 1}
 *
 * DLPack flags (porta_to_dlpack_versioned's `flags`; dlpack.h):
 *   DLPACK_FLAG_BITMASK_READ_ONLY = 1, DLPACK_FLAG_BITMASK_IS_COPIED = 2
 *
 * Structs that begin with `size_t struct_size`: mirror their fields in
 * order and set struct_size to the size you declared; these are 1.9's:
 *   sizeof(porta_plugin_info) = 64, sizeof(porta_device_info) = 168,
 *   sizeof(porta_memory_stats) = 88, sizeof(porta_conv2d_options) = 40 (32 before
 *   1.6 added groups),
 *   sizeof(porta_pool2d_options) = 56 (48 before 1.7 added ceil_mode),
 *   sizeof(porta_sgd_options) = 48,
 *   sizeof(porta_adam_options) = 56 (48 before 1.5 added amsgrad),
 *   sizeof(porta_rmsprop_options) = 56, sizeof(porta_adagrad_options) = 48,
 *   sizeof(porta_op_info) = 56, sizeof(porta_rnn_options) = 40,
 *   sizeof(porta_backward_options) = 40, sizeof(porta_init_options) = 40 (since 1.9)
 * A size that covers fewer fields (an older binding's) is accepted: the core
 * fills or reads only what it covers.
 */
#ifndef PORTA_PORTA_H_
#define PORTA_PORTA_H_

#include "porta/ops.h"
#include "porta/types.h"

/* Layout: every struct below is followed by PORTA_<NAME>_SIZE, its LP64
 * size (<NAME>: the struct's name without `porta_`, in capitals:
 * porta_plugin_info -> PORTA_PLUGIN_INFO_SIZE), and by PORTA_LAYOUT_ lines fixing
 * each field's offset and width at compile time; porta/types.h explains them. */

#ifdef __cplusplus
extern "C" {
#endif

/** User ABI major version: bumped only on incompatible changes. Since 1.0. */
#define PORTA_ABI_MAJOR 1
/** User ABI minor version: bumped when functions or fields are appended. Since 1.0. */
#define PORTA_ABI_MINOR 15

/** An n-dimensional array on one device; opaque, reference counted. Since 1.0. */
typedef struct porta_tensor porta_tensor;

/* ======================= errors and versions ======================= */

/** The message of the last failed call on this thread ("" if none). The
 *  pointer is valid until the next Porta call on this thread. Since 1.0. */
PORTA_EXPORT const char* porta_last_error(void);

/** A stable name for a status code ("PORTA_ERROR_DEVICE_MISMATCH"); static. Since 1.0. */
PORTA_EXPORT const char* porta_status_name(porta_status status);

/** What the last failed call on this thread failed on, beyond its status, for
 *  a binding to classify the error without reading the message. Values are
 *  stable: new ones are only appended. Since 1.15. */
typedef enum porta_error_detail {
  /** Nothing more than the status (also when no call failed). */
  PORTA_ERROR_DETAIL_NONE = 0,
  /** A dimension argument outside [-ndim, ndim - 1] (PyTorch's "Dimension
   *  out of range", an IndexError); the status is PORTA_ERROR_INVALID_ARGUMENT. */
  PORTA_ERROR_DETAIL_DIMENSION_OUT_OF_RANGE = 1
} porta_error_detail;

/** The detail of the last failed call on this thread (PORTA_ERROR_DETAIL_NONE
 *  if none, or if that error has none); set together with porta_last_error().
 *  Since 1.15. */
PORTA_EXPORT porta_error_detail porta_last_error_detail(void);

/** Library version (semantic versioning) and the ABI version it implements.
 *  Any pointer may be NULL to skip that value. Since 1.0. */
PORTA_EXPORT porta_status porta_version(int32_t* major, int32_t* minor, int32_t* patch,
                                        int32_t* abi_major, int32_t* abi_minor);

/* ========================= values for FFIs ========================= */
/* The constants of porta/types.h and of the macros above as symbols of
 * libporta.so, for languages that cannot see a header's `static const`
 * values or macros (see "For other languages (FFI)" at the top). */

/** porta_float32 ({kDLFloat, 32, 1}) as a data symbol. Since 1.2. */
PORTA_EXPORT extern const DLDataType porta_dtype_float32;
/** porta_float64 ({kDLFloat, 64, 1}) as a data symbol. Since 1.2. */
PORTA_EXPORT extern const DLDataType porta_dtype_float64;
/** porta_int32 ({kDLInt, 32, 1}) as a data symbol. Since 1.2. */
PORTA_EXPORT extern const DLDataType porta_dtype_int32;
/** porta_int64 ({kDLInt, 64, 1}) as a data symbol. Since 1.2. */
PORTA_EXPORT extern const DLDataType porta_dtype_int64;
/** porta_uint8 ({kDLUInt, 8, 1}) as a data symbol. Since 1.2. */
PORTA_EXPORT extern const DLDataType porta_dtype_uint8;
/** porta_bool ({kDLBool, 8, 1}) as a data symbol. Since 1.2. */
PORTA_EXPORT extern const DLDataType porta_dtype_bool;
/** porta_int8 ({kDLInt, 8, 1}) as a data symbol. Since 1.10. */
PORTA_EXPORT extern const DLDataType porta_dtype_int8;
/** porta_int16 ({kDLInt, 16, 1}) as a data symbol. Since 1.10. */
PORTA_EXPORT extern const DLDataType porta_dtype_int16;
/** porta_float16 ({kDLFloat, 16, 1}) as a data symbol. Since 1.10. */
PORTA_EXPORT extern const DLDataType porta_dtype_float16;
/** porta_bfloat16 ({kDLBfloat, 16, 1}) as a data symbol. Since 1.10. */
PORTA_EXPORT extern const DLDataType porta_dtype_bfloat16;
/** PORTA_MAX_DIMS (16) as a data symbol. Since 1.2. */
PORTA_EXPORT extern const int32_t porta_max_dims;
/** PORTA_ALL_DIMS (INT32_MIN) as a data symbol. Since 1.2. */
PORTA_EXPORT extern const int32_t porta_all_dims;

/** The dtype called `name`: "float32", "float64", "int32", "int64",
 *  "uint8", "bool", and since 1.10 "int8", "int16", "float16", "bfloat16"
 *  (exactly; the names porta_dtype_<name> and PyTorch use). Another name
 *  is INVALID_ARGUMENT, with Porta's dtypes listed in the message. Since 1.2. */
PORTA_EXPORT porta_status porta_dtype_by_name(const char* name, DLDataType* out);

/** The dtype an elementwise op of tensors of dtypes `a` and `b` (both with
 *  dimensions, or both 0-d) computes and returns, PyTorch's
 *  torch.promote_types: bool < integers < floats; within integers the wider
 *  (uint8 with int8: int16); within floats the wider (float16 with
 *  bfloat16: float32). A dtype Porta lacks is UNSUPPORTED_DTYPE. Since 1.10. */
PORTA_EXPORT porta_status porta_promote_types(DLDataType a, DLDataType b, DLDataType* out);

/** The dtype an elementwise op of the `n` tensors `operands` computes in
 *  and returns, PyTorch's torch.result_type: dimensioned tensors decide, a
 *  0-d tensor or a wrapped number (porta_scalar_tensor) only where its
 *  category is higher (a wrapped float counting as float32). Since 1.12. */
PORTA_EXPORT porta_status porta_result_type(porta_tensor* const* operands, int32_t n, DLDataType* out);

/** One row of the op table (porta/ops.h, PORTA_OP_DESCRIPTORS), for a
 *  binding that builds its op set from the library it loaded. Strings are
 *  Porta's (static). Set struct_size before the call; fields beyond it are
 *  not written. Since 1.2. */
typedef struct porta_op_info {
  size_t struct_size;     /**< sizeof(porta_op_info), set by the caller */
  const char* name;       /**< "add", "relu", ... */
  int32_t id;             /**< porta_op */
  int32_t kind;           /**< porta_op_kind */
  int32_t inputs;         /**< the largest number of input tensors */
  int32_t dtypes;         /**< porta_op_dtypes: what its kernels take */
  int32_t result;         /**< porta_op_result: how its result is typed */
  int32_t differentiable; /**< 1 when autograd records it */
  const char* doc;        /**< one line */
  const char* kind_name;  /**< the kind without its prefix: "UNARY", "BINARY", ... */
} porta_op_info;
/** sizeof(porta_op_info) on LP64. */
#define PORTA_OP_INFO_SIZE 56
PORTA_LAYOUT_FIELD(porta_op_info, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_op_info, name, 8, 8)
PORTA_LAYOUT_FIELD(porta_op_info, id, 16, 4)
PORTA_LAYOUT_FIELD(porta_op_info, kind, 20, 4)
PORTA_LAYOUT_FIELD(porta_op_info, inputs, 24, 4)
PORTA_LAYOUT_FIELD(porta_op_info, dtypes, 28, 4)
PORTA_LAYOUT_FIELD(porta_op_info, result, 32, 4)
PORTA_LAYOUT_FIELD(porta_op_info, differentiable, 36, 4)
PORTA_LAYOUT_FIELD(porta_op_info, doc, 40, 8)
PORTA_LAYOUT_FIELD(porta_op_info, kind_name, 48, 8)
PORTA_LAYOUT_SIZE(porta_op_info, PORTA_OP_INFO_SIZE)

/** PORTA_OP_COUNT of this library: ids 0 .. *out - 1 are its ops. Since 1.2. */
PORTA_EXPORT porta_status porta_op_count(int32_t* out);
/** The row of op `id` (INVALID_ARGUMENT for an id outside 0 .. count - 1,
 *  or a struct_size smaller than sizeof(porta_op_info)). Since 1.2. */
PORTA_EXPORT porta_status porta_op_get_info(int32_t id, porta_op_info* out);

/* ============================== plugins ============================== */

/** What became of one attempt to load a plugin. Since 1.0. */
typedef enum porta_plugin_state {
  PORTA_PLUGIN_LOADED = 0,     /**< loaded, with at least one device */
  PORTA_PLUGIN_NO_DEVICES = 1, /**< loaded, zero devices (reason says why) */
  PORTA_PLUGIN_FAILED = 2,     /**< could not be loaded (reason says why) */
  PORTA_PLUGIN_REJECTED = 3,   /**< loaded but refused, e.g. its device type was taken */
  PORTA_PLUGIN_EXCLUDED = 4    /**< found, not loaded: PORTA_DEVICES does not list its type. Since 1.1. */
} porta_plugin_state;

/** One recorded plugin load attempt. Strings are owned by the core. Since 1.0. */
typedef struct porta_plugin_info {
  size_t struct_size;      /**< set by the caller: sizeof(porta_plugin_info) */
  const char* path;        /**< file that was tried */
  const char* name;        /**< device type name ("" when unknown) */
  const char* version;     /**< plugin version ("" when unknown) */
  const char* reason;      /**< why it failed, was rejected or has no devices ("" if loaded) */
  int32_t state;           /**< a porta_plugin_state */
  int32_t device_type;     /**< DLDeviceType served (0 when unknown) */
  int32_t device_count;    /**< devices it reported */
  uint32_t abi_major;      /**< plugin ABI it was built against (0 when unknown) */
  uint32_t abi_minor;      /**< see abi_major */
} porta_plugin_info;
/** sizeof(porta_plugin_info) on LP64. */
#define PORTA_PLUGIN_INFO_SIZE 64
PORTA_LAYOUT_FIELD(porta_plugin_info, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_plugin_info, path, 8, 8)
PORTA_LAYOUT_FIELD(porta_plugin_info, name, 16, 8)
PORTA_LAYOUT_FIELD(porta_plugin_info, version, 24, 8)
PORTA_LAYOUT_FIELD(porta_plugin_info, reason, 32, 8)
PORTA_LAYOUT_FIELD(porta_plugin_info, state, 40, 4)
PORTA_LAYOUT_FIELD(porta_plugin_info, device_type, 44, 4)
PORTA_LAYOUT_FIELD(porta_plugin_info, device_count, 48, 4)
PORTA_LAYOUT_FIELD(porta_plugin_info, abi_major, 52, 4)
PORTA_LAYOUT_FIELD(porta_plugin_info, abi_minor, 56, 4)
PORTA_LAYOUT_SIZE(porta_plugin_info, PORTA_PLUGIN_INFO_SIZE)

/** Loads the plugin at `path` (absolute or relative to the working
 *  directory) now, whatever PORTA_DEVICES says. Plugins are otherwise found
 *  in, in order: PORTA_PLUGIN_PATH (colon-separated absolute directories or
 *  files), the paths of porta_add_plugin_path, then <libdir>/porta/plugins
 *  beside libporta.so; never the current directory. Finding a file opens
 *  nothing: libporta_plugin_<type>.so is loaded on first use of a `type`
 *  device, and only if PORTA_DEVICES (a comma-separated list of types, like
 *  JAX_PLATFORMS) is unset or lists it. The attempt is recorded whatever its
 *  outcome; a failure's reason is also in the error of any later use of
 *  that device type. Since 1.0. */
PORTA_EXPORT porta_status porta_load_plugin(const char* path);

/** Adds an absolute directory (its libporta_plugin_*.so files) or plugin file
 *  to the search, after PORTA_PLUGIN_PATH and before the install's plugin
 *  directory, without loading anything (packages that ship plugins, e.g. a
 *  Python wheel, use it). Since 1.1. */
PORTA_EXPORT porta_status porta_add_plugin_path(const char* path);

/** Number of recorded plugin load attempts. Loads every plugin the search
 *  finds (that PORTA_DEVICES allows), so that the list is complete; those it
 *  does not allow are listed as PORTA_PLUGIN_EXCLUDED. Since 1.0. */
PORTA_EXPORT porta_status porta_plugin_count(int32_t* out);

/** Describes attempt `index` (0 <= index < porta_plugin_count). Since 1.0. */
PORTA_EXPORT porta_status porta_plugin_get_info(int32_t index, porta_plugin_info* out);

/* ======================= logging and threads ======================= */

/** Receives one log line: its porta_log_level and the NUL-terminated text
 *  (valid during the call). May be called from any thread, and concurrently.
 *  Since 1.1. */
typedef void (*porta_log_callback)(int32_t level, const char* message, void* user_data);

/** Sends the log lines of the core and its plugins that pass the threshold
 *  to `callback` instead of stderr; NULL restores stderr. Since 1.1. */
PORTA_EXPORT porta_status porta_set_log_callback(porta_log_callback callback, void* user_data);

/** Sets the threshold: a porta_log_level from PORTA_LOG_DEBUG to
 *  PORTA_LOG_OFF (default: PORTA_LOG, else PORTA_LOG_WARN). Since 1.1. */
PORTA_EXPORT porta_status porta_set_log_level(int32_t level);

/** The current threshold. Since 1.1. */
PORTA_EXPORT porta_status porta_get_log_level(int32_t* out);

/** Sets how many threads host kernels (cpu, mock) use, for every plugin
 *  loaded now or later (PyTorch's torch.set_num_threads). n >= 1. Since 1.1. */
PORTA_EXPORT porta_status porta_set_num_threads(int32_t n);

/** The number of threads host kernels use: the last porta_set_num_threads,
 *  else PORTA_NUM_THREADS, else OMP_NUM_THREADS, else the number of cores
 *  the process may run on. Since 1.1. */
PORTA_EXPORT porta_status porta_get_num_threads(int32_t* out);

/* ============================== devices ============================== */

/** Parses "type[:index]" (e.g. "cpu", "cuda", "cuda:1", "mock:0") into a
 *  DLDevice. The type must be served by a loaded plugin and the device must
 *  exist; errors list what is available. Bare "cuda" means index 0. Since 1.0. */
PORTA_EXPORT porta_status porta_device_parse(const char* str, DLDevice* out);

/** Number of devices of the named type ("cuda"): 0 with PORTA_OK for a
 *  known type without devices; PORTA_ERROR_NO_SUCH_DEVICE for an unknown
 *  type. Since 1.0. */
PORTA_EXPORT porta_status porta_device_count(const char* type, int* out);

/** Writes the device's string ("cuda:1") NUL-terminated into buf. Fails
 *  with INVALID_ARGUMENT if buf_size is too small (32 bytes always suffice). Since 1.0. */
PORTA_EXPORT porta_status porta_device_to_string(DLDevice device, char* buf, size_t buf_size);

/** Properties of one device. Since 1.0. */
typedef struct porta_device_info {
  size_t struct_size;       /**< set by the caller: sizeof(porta_device_info) */
  char name[128];           /**< device name from the plugin */
  uint64_t memory_total;    /**< bytes (0: unknown) */
  uint64_t memory_free;     /**< bytes (0: unknown) */
  int32_t compute_units;    /**< cores, SMs or compute units */
  int32_t kind;             /**< a porta_device_kind */
  int32_t capability_major; /**< e.g. CUDA compute capability (0 if n/a) */
  int32_t capability_minor; /**< see capability_major */
} porta_device_info;
/** sizeof(porta_device_info) on LP64. */
#define PORTA_DEVICE_INFO_SIZE 168
PORTA_LAYOUT_FIELD(porta_device_info, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_device_info, name, 8, 128)
PORTA_LAYOUT_FIELD(porta_device_info, memory_total, 136, 8)
PORTA_LAYOUT_FIELD(porta_device_info, memory_free, 144, 8)
PORTA_LAYOUT_FIELD(porta_device_info, compute_units, 152, 4)
PORTA_LAYOUT_FIELD(porta_device_info, kind, 156, 4)
PORTA_LAYOUT_FIELD(porta_device_info, capability_major, 160, 4)
PORTA_LAYOUT_FIELD(porta_device_info, capability_minor, 164, 4)
PORTA_LAYOUT_SIZE(porta_device_info, PORTA_DEVICE_INFO_SIZE)

/** Fills `out` for `device`. Since 1.0. */
PORTA_EXPORT porta_status porta_device_get_info(DLDevice device, porta_device_info* out);

/** Number of accelerator devices (GPUs and other accelerators, not CPUs or
 *  virtual devices), in preference order: CUDA first, then other types by
 *  DLPack type number, each by index. Since 1.0. */
PORTA_EXPORT porta_status porta_accelerator_count(int32_t* out);

/** The index-th accelerator in the order of porta_accelerator_count. Since 1.0. */
PORTA_EXPORT porta_status porta_accelerator_get(int32_t index, DLDevice* out);

/** Waits for all work enqueued on `device`. Since 1.0. */
PORTA_EXPORT porta_status porta_synchronize(DLDevice device);

/** The caching allocator's counters for one device. Since 1.0. */
typedef struct porta_memory_stats {
  size_t struct_size;           /**< set by the caller: sizeof(porta_memory_stats) */
  uint64_t allocated_bytes;     /**< bytes held by live tensors */
  uint64_t reserved_bytes;      /**< allocated_bytes plus bytes cached for reuse */
  uint64_t peak_allocated_bytes;/**< high-water mark of allocated_bytes */
  uint64_t allocations;         /**< allocations served */
  uint64_t cache_hits;          /**< allocations served from the cache */
  uint64_t device_allocations;  /**< allocations passed to the plugin */
  uint64_t device_frees;        /**< blocks given back to the plugin */
  uint64_t bytes_to_device;     /**< bytes copied into this device from the host or another device */
  uint64_t bytes_from_device;   /**< bytes copied out of this device to the host or another device */
  uint64_t peak_reserved_bytes; /**< high-water mark of reserved_bytes. Since 1.1 */
} porta_memory_stats;
/** sizeof(porta_memory_stats) on LP64. */
#define PORTA_MEMORY_STATS_SIZE 88
PORTA_LAYOUT_FIELD(porta_memory_stats, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_memory_stats, allocated_bytes, 8, 8)
PORTA_LAYOUT_FIELD(porta_memory_stats, reserved_bytes, 16, 8)
PORTA_LAYOUT_FIELD(porta_memory_stats, peak_allocated_bytes, 24, 8)
PORTA_LAYOUT_FIELD(porta_memory_stats, allocations, 32, 8)
PORTA_LAYOUT_FIELD(porta_memory_stats, cache_hits, 40, 8)
PORTA_LAYOUT_FIELD(porta_memory_stats, device_allocations, 48, 8)
PORTA_LAYOUT_FIELD(porta_memory_stats, device_frees, 56, 8)
PORTA_LAYOUT_FIELD(porta_memory_stats, bytes_to_device, 64, 8)
PORTA_LAYOUT_FIELD(porta_memory_stats, bytes_from_device, 72, 8)
PORTA_LAYOUT_FIELD(porta_memory_stats, peak_reserved_bytes, 80, 8)
PORTA_LAYOUT_SIZE(porta_memory_stats, PORTA_MEMORY_STATS_SIZE)

/** Reads the allocator and transfer counters of `device`. Since 1.0. */
PORTA_EXPORT porta_status porta_device_memory_stats(DLDevice device, porta_memory_stats* out);

/** Returns every cached, unused block of `device` to its plugin. Since 1.0. */
PORTA_EXPORT porta_status porta_device_empty_cache(DLDevice device);

/* ====================== tensors: life and data ====================== */

/** Adds a reference to `t` (NULL: no-op). A released handle is ignored, with
 *  the reason in porta_last_error() and a warning on stderr. Since 1.0. */
PORTA_EXPORT void porta_tensor_retain(porta_tensor* t);

/** Drops a reference to `t`; storage is freed with the last view. NULL:
 *  no-op. Never fails. Porta holds references of its own: a view holds the
 *  tensor it views (as PyTorch's `_base`), a graph its leaves, an optimizer
 *  its parameters; a handle dies with the last of them.
 *  Released handles are detected: after the last reference is dropped, the
 *  handle's contents (storage, gradient, graph) are freed at once, but its
 *  small shell stays tagged dead until at least 4096 further tensors have
 *  been released. Until then, passing the handle to any call fails with
 *  PORTA_ERROR_INVALID_HANDLE ("... is not a live porta_tensor (already
 *  released?)"), and a second release (or retain) is ignored, with the
 *  reason in porta_last_error() and a warning on stderr. Beyond that window
 *  the use is undefined behaviour, which AddressSanitizer builds report.
 *  Optimizers and tensor lists get the same treatment. Since 1.0. */
PORTA_EXPORT void porta_tensor_release(porta_tensor* t);

/** A new contiguous tensor of uninitialized values. Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_empty(DLDataType dtype, const int64_t* shape, int32_t ndim,
                                             DLDevice device, porta_tensor** out);

/** A new contiguous tensor on `device` holding a copy of `data`, which is a
 *  row-major array of prod(shape) elements of `dtype` in host memory
 *  (`data` may be NULL only when that product is 0). Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_from_host(const void* data, DLDataType dtype,
                                                 const int64_t* shape, int32_t ndim,
                                                 DLDevice device, porta_tensor** out);

/** Copies a contiguous row-major image of `t` into host buffer `dst` of
 *  `dst_bytes` (at least numel * element size). Waits for pending work. Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_to_host(const porta_tensor* t, void* dst, size_t dst_bytes);

/** Overwrites the elements of `t` (in row-major order, whatever its strides)
 *  from host buffer `src` of `src_bytes` (exactly numel * element size). Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_from_host_into(porta_tensor* t, const void* src,
                                                      size_t src_bytes);

/** `t` on `device`: the same handle with one more reference when it is
 *  already there, else a contiguous copy there. Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_to(porta_tensor* t, DLDevice device, porta_tensor** out);

/** As porta_tensor_to, but a copy from pinned host memory (a tensor of
 *  porta_tensor_empty_pinned for `device`) to `device` may return before it
 *  completes (PyTorch's non_blocking=True): it is ordered on the device's
 *  stream before any later work there. Until the device has read it
 *  (porta_synchronize, or any result read back on the host), the source
 *  must not be written; releasing it is safe. Every other copy blocks, as
 *  in porta_tensor_to. Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_to_non_blocking(porta_tensor* t, DLDevice device,
                                                       porta_tensor** out);

/** Copies `src` into `dst` (in place, PyTorch's copy_): src is broadcast to
 *  dst's shape and cast to dst's dtype; the two may be on different devices.
 *  Recorded by autograd like every in-place write (see porta_unary_inplace). Since 1.0. */
PORTA_EXPORT porta_status porta_copy_into(porta_tensor* dst, porta_tensor* src);

/** Element type of `t`. Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_dtype(const porta_tensor* t, DLDataType* out);
/** Number of dimensions of `t`. Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_ndim(const porta_tensor* t, int32_t* out);
/** Writes ndim entries of the shape into `out`. Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_shape(const porta_tensor* t, int64_t* out);
/** Writes ndim entries of the strides (in elements) into `out`. Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_strides(const porta_tensor* t, int64_t* out);
/** Offset of the first element from the start of the storage, in bytes. Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_byte_offset(const porta_tensor* t, uint64_t* out);
/** Device of `t`. Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_device(const porta_tensor* t, DLDevice* out);
/** Number of elements of `t`. Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_numel(const porta_tensor* t, int64_t* out);
/** 1 if `t` is contiguous in row-major order, else 0. Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_is_contiguous(const porta_tensor* t, int* out);
/** `t` printed as PyTorch's repr prints it ("tensor([1., 2.], device='mock:0')";
 *  tensors over 1000 elements summarized with "..."), the one printer the C++
 *  and Python bindings use. *needed receives the text's size with its NUL;
 *  buf_size 0 (buf may then be NULL) only asks for it; otherwise the text
 *  is written NUL-terminated when it fits, and a smaller buf_size is
 *  INVALID_ARGUMENT with buf untouched. Since 1.3. */
PORTA_EXPORT porta_status porta_tensor_format(porta_tensor* t, char* buf, size_t buf_size, size_t* needed);

/* ====================== views (share storage) ====================== */

/** A view with `shape` (one entry may be -1: inferred). Fails if the
 *  strides cannot express it; porta_reshape copies instead. Since 1.0. */
PORTA_EXPORT porta_status porta_view(porta_tensor* t, const int64_t* shape, int32_t ndim,
                                     porta_tensor** out);
/** Like porta_view, but copies into a contiguous tensor when a view is
 *  impossible. Since 1.0. */
PORTA_EXPORT porta_status porta_reshape(porta_tensor* t, const int64_t* shape, int32_t ndim,
                                        porta_tensor** out);
/** Elements start, start+step, ... < stop along `dim` (Python slice rules:
 *  negative start/stop count from the end and are clamped; step >= 1). Since 1.0. */
PORTA_EXPORT porta_status porta_slice(porta_tensor* t, int32_t dim, int64_t start, int64_t stop,
                                      int64_t step, porta_tensor** out);
/** Index `index` along `dim` (negative counts from the end); removes dim. Since 1.0. */
PORTA_EXPORT porta_status porta_select(porta_tensor* t, int32_t dim, int64_t index,
                                       porta_tensor** out);
/** Swaps dimensions dim0 and dim1 (negative dims count from the end). Since 1.0. */
PORTA_EXPORT porta_status porta_transpose(porta_tensor* t, int32_t dim0, int32_t dim1,
                                          porta_tensor** out);
/** Reorders dimensions: output dim i is input dim dims[i]. Since 1.0. */
PORTA_EXPORT porta_status porta_permute(porta_tensor* t, const int32_t* dims, int32_t ndim,
                                        porta_tensor** out);
/** Broadcasts `t` to `shape` without copying (stride 0 where expanded;
 *  -1 keeps a dimension). Since 1.0. */
PORTA_EXPORT porta_status porta_expand(porta_tensor* t, const int64_t* shape, int32_t ndim,
                                       porta_tensor** out);
/** Inserts a dimension of size 1 at `dim` (in [-ndim-1, ndim]). Since 1.0. */
PORTA_EXPORT porta_status porta_unsqueeze(porta_tensor* t, int32_t dim, porta_tensor** out);
/** Removes dimension `dim`, which must have size 1. Since 1.0. */
PORTA_EXPORT porta_status porta_squeeze(porta_tensor* t, int32_t dim, porta_tensor** out);
/** `t` itself (new reference) if contiguous, else a contiguous copy. Since 1.0. */
PORTA_EXPORT porta_status porta_contiguous(porta_tensor* t, porta_tensor** out);
/** A contiguous copy of `t` that shares nothing with it. Since 1.0. */
PORTA_EXPORT porta_status porta_clone(porta_tensor* t, porta_tensor** out);

/* ============================ factories ============================ */

/** A tensor filled with `value` (converted to dtype; a value outside the
 *  dtype's range, e.g. 300 for uint8 or 1e39 for float32, is refused as in
 *  PyTorch). Integers beyond 2^53: porta_full_int64. Since 1.0. */
PORTA_EXPORT porta_status porta_full(const int64_t* shape, int32_t ndim, double value,
                                     DLDataType dtype, DLDevice device, porta_tensor** out);
/** As porta_full with an exact integer value (every bit of an int64 kept). Since 1.2. */
PORTA_EXPORT porta_status porta_full_int64(const int64_t* shape, int32_t ndim, int64_t value,
                                           DLDataType dtype, DLDevice device, porta_tensor** out);
/** A tensor of zeros. Since 1.0. */
PORTA_EXPORT porta_status porta_zeros(const int64_t* shape, int32_t ndim, DLDataType dtype,
                                      DLDevice device, porta_tensor** out);
/** A tensor of ones. Since 1.0. */
PORTA_EXPORT porta_status porta_ones(const int64_t* shape, int32_t ndim, DLDataType dtype,
                                     DLDevice device, porta_tensor** out);
/** 1-D tensor start, start+step, ... up to but excluding end. Since 1.0. */
PORTA_EXPORT porta_status porta_arange(double start, double end, double step, DLDataType dtype,
                                       DLDevice device, porta_tensor** out);
/** torch.logspace: `steps` values base ** e for e evenly spaced from start to end inclusive (the second half
 *  counted from end, as PyTorch's), computed in float64 and converted to dtype (an integer dtype truncates;
 *  bool is refused). Since 1.12. */
PORTA_EXPORT porta_status porta_logspace(double start, double end, int64_t steps, double base, DLDataType dtype,
                                         DLDevice device, porta_tensor** out);
/** As porta_arange with exact integers: start + i * step computed in int64
 *  (values beyond 2^53 keep every bit); values outside the dtype's range are
 *  refused. Since 1.2. */
PORTA_EXPORT porta_status porta_arange_int64(int64_t start, int64_t end, int64_t step, DLDataType dtype,
                                             DLDevice device, porta_tensor** out);
/** Reseeds the global generator and resets its counter. Since 1.0. */
PORTA_EXPORT porta_status porta_manual_seed(uint64_t seed);
/** Reads the global generator's (seed, offset). Since 1.0. */
PORTA_EXPORT porta_status porta_generator_get_state(uint64_t* seed, uint64_t* offset);
/** Restores a state read with porta_generator_get_state. Since 1.0. */
PORTA_EXPORT porta_status porta_generator_set_state(uint64_t seed, uint64_t offset);
/** Uniform samples in [0, 1) (float dtypes); same seed, same numbers on
 *  every device (Philox4x32-10). Since 1.0. */
PORTA_EXPORT porta_status porta_rand(const int64_t* shape, int32_t ndim, DLDataType dtype,
                                     DLDevice device, porta_tensor** out);
/** Standard normal samples (float dtypes), device-independent like porta_rand. Since 1.0. */
PORTA_EXPORT porta_status porta_randn(const int64_t* shape, int32_t ndim, DLDataType dtype,
                                      DLDevice device, porta_tensor** out);
/** A random permutation of 0..n-1 (int64 [n]) from the global generator,
 *  which it advances by n: two shuffles in a row differ, and a seed gives
 *  the same permutation on every device and in every binding. Since 1.2. */
PORTA_EXPORT porta_status porta_randperm(int64_t n, DLDevice device, porta_tensor** out);
/** As porta_randperm, from an explicit generator state (seed, offset) that
 *  the caller owns and advances by n after each draw (a torch.Generator).
 *  The global generator is untouched. Since 1.2. */
PORTA_EXPORT porta_status porta_randperm_at(int64_t n, uint64_t seed, uint64_t offset, DLDevice device,
                                            porta_tensor** out);

/** A random generator's state that the caller owns (a torch.Generator): a
 *  draw reads counters from `offset` on and advances it past them, so the
 *  same (seed, offset) gives the same numbers on every device, and the
 *  global generator is untouched. Set struct_size to
 *  sizeof(porta_generator_state). Since 1.4. */
typedef struct porta_generator_state {
  size_t struct_size; /**< sizeof(porta_generator_state) */
  uint64_t seed;      /**< the Philox key */
  uint64_t offset;    /**< the next counter to draw */
} porta_generator_state;
/** sizeof(porta_generator_state) on LP64. */
#define PORTA_GENERATOR_STATE_SIZE 24
PORTA_LAYOUT_FIELD(porta_generator_state, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_generator_state, seed, 8, 8)
PORTA_LAYOUT_FIELD(porta_generator_state, offset, 16, 8)
PORTA_LAYOUT_SIZE(porta_generator_state, PORTA_GENERATOR_STATE_SIZE)

/** Uniform samples in [low, high) (float dtypes) from `generator` (NULL:
 *  the global one); one counter per element, as porta_rand. Since 1.4. */
PORTA_EXPORT porta_status porta_uniform(const int64_t* shape, int32_t ndim, DLDataType dtype, DLDevice device,
                                        double low, double high, porta_generator_state* generator,
                                        porta_tensor** out);
/** Normal samples of mean and std (>= 0) (float dtypes), as porta_uniform. Since 1.4. */
PORTA_EXPORT porta_status porta_normal(const int64_t* shape, int32_t ndim, DLDataType dtype, DLDevice device,
                                       double mean, double std, porta_generator_state* generator, porta_tensor** out);
/** torch.normal(mean, std) with tensors (either may be NULL: 0 and 1),
 *  broadcast together: mean + std * z, z standard normal; float dtypes.
 *  Under autograd mean and std get zero gradients, as PyTorch's. Since 1.4. */
PORTA_EXPORT porta_status porta_normal_tensor(porta_tensor* mean, porta_tensor* std,
                                              porta_generator_state* generator, porta_tensor** out);
/** Integers uniform in [low, high) (integer or float dtypes; PyTorch's
 *  randint), from one uniform double per element. Since 1.4. */
PORTA_EXPORT porta_status porta_randint(int64_t low, int64_t high, const int64_t* shape, int32_t ndim,
                                        DLDataType dtype, DLDevice device, porta_generator_state* generator,
                                        porta_tensor** out);
/** torch.bernoulli: 1 with probability p (each element of the float tensor
 *  p, in [0, 1]), else 0, in p's dtype; under autograd p gets a zero
 *  gradient, as PyTorch's. Since 1.4. */
PORTA_EXPORT porta_status porta_bernoulli(porta_tensor* p, porta_generator_state* generator, porta_tensor** out);
/** torch.multinomial: int64 [num_samples] (or [N, num_samples] for probs
 *  [N, C]) class indices drawn with probabilities proportional to the
 *  non-negative weights `probs`; without replacement each class at most
 *  once (num_samples <= C). Checks the weights on the host (a
 *  synchronization, as PyTorch's). Since 1.4. */
PORTA_EXPORT porta_status porta_multinomial(porta_tensor* probs, int64_t num_samples, int replacement,
                                            porta_generator_state* generator, porta_tensor** out);

/* ======================== elementwise ops ======================== */

/** Converts `t` to `dtype` (floats to ints truncate toward zero; any
 *  nonzero to bool is 1). Same dtype: a new reference to `t`. Since 1.0. */
PORTA_EXPORT porta_status porta_cast(porta_tensor* t, DLDataType dtype, porta_tensor** out);

/** -a. Since 1.0. */
PORTA_EXPORT porta_status porta_neg(porta_tensor* a, porta_tensor** out);
/** e^a (integer inputs give float32). Since 1.0. */
PORTA_EXPORT porta_status porta_exp(porta_tensor* a, porta_tensor** out);
/** natural log (integer inputs give float32). Since 1.0. */
PORTA_EXPORT porta_status porta_log(porta_tensor* a, porta_tensor** out);
/** square root (integer inputs give float32). Since 1.0. */
PORTA_EXPORT porta_status porta_sqrt(porta_tensor* a, porta_tensor** out);
/** max(a, 0). Since 1.0. */
PORTA_EXPORT porta_status porta_relu(porta_tensor* a, porta_tensor** out);
/** 1 / (1 + e^-a) (integer inputs give float32). Since 1.0. */
PORTA_EXPORT porta_status porta_sigmoid(porta_tensor* a, porta_tensor** out);
/** tanh(a) (integer inputs give float32). Since 1.0. */
PORTA_EXPORT porta_status porta_tanh(porta_tensor* a, porta_tensor** out);
/** |a|. Since 1.0. */
PORTA_EXPORT porta_status porta_abs(porta_tensor* a, porta_tensor** out);
/** sine (integer inputs give float32). Since 1.3. */
PORTA_EXPORT porta_status porta_sin(porta_tensor* a, porta_tensor** out);
/** cosine (integer inputs give float32). Since 1.3. */
PORTA_EXPORT porta_status porta_cos(porta_tensor* a, porta_tensor** out);
/** tangent (integer inputs give float32). Since 1.3. */
PORTA_EXPORT porta_status porta_tan(porta_tensor* a, porta_tensor** out);
/** arcsine, NaN outside [-1, 1] (integer inputs give float32). Since 1.3. */
PORTA_EXPORT porta_status porta_asin(porta_tensor* a, porta_tensor** out);
/** arccosine, NaN outside [-1, 1] (integer inputs give float32). Since 1.3. */
PORTA_EXPORT porta_status porta_acos(porta_tensor* a, porta_tensor** out);
/** arctangent (integer inputs give float32). Since 1.3. */
PORTA_EXPORT porta_status porta_atan(porta_tensor* a, porta_tensor** out);
/** hyperbolic sine (integer inputs give float32). Since 1.3. */
PORTA_EXPORT porta_status porta_sinh(porta_tensor* a, porta_tensor** out);
/** hyperbolic cosine (integer inputs give float32). Since 1.3. */
PORTA_EXPORT porta_status porta_cosh(porta_tensor* a, porta_tensor** out);
/** largest integer <= a; integer tensors unchanged; zero gradient. Since 1.3. */
PORTA_EXPORT porta_status porta_floor(porta_tensor* a, porta_tensor** out);
/** smallest integer >= a; integer tensors unchanged; zero gradient. Since 1.3. */
PORTA_EXPORT porta_status porta_ceil(porta_tensor* a, porta_tensor** out);
/** nearest integer, halves to even (2.5 -> 2), as torch.round; zero gradient. Since 1.3. */
PORTA_EXPORT porta_status porta_round(porta_tensor* a, porta_tensor** out);
/** a rounded toward zero; zero gradient. Since 1.3. */
PORTA_EXPORT porta_status porta_trunc(porta_tensor* a, porta_tensor** out);
/** -1, 0 or 1 in a's dtype; NaN gives 0 (as torch.sign, unlike NumPy); zero gradient. Since 1.3. */
PORTA_EXPORT porta_status porta_sign(porta_tensor* a, porta_tensor** out);
/** error function (integer inputs give float32). Since 1.3. */
PORTA_EXPORT porta_status porta_erf(porta_tensor* a, porta_tensor** out);
/** inverse error function: +-inf at +-1, NaN outside [-1, 1] (integer inputs give float32).
 *  Since 1.3. */
PORTA_EXPORT porta_status porta_erfinv(porta_tensor* a, porta_tensor** out);
/** ln(1 + a), accurate near 0 (integer inputs give float32). Since 1.3. */
PORTA_EXPORT porta_status porta_log1p(porta_tensor* a, porta_tensor** out);
/** e^a - 1, accurate near 0 (integer inputs give float32). Since 1.3. */
PORTA_EXPORT porta_status porta_expm1(porta_tensor* a, porta_tensor** out);
/** base-2 logarithm (integer inputs give float32). Since 1.3. */
PORTA_EXPORT porta_status porta_log2(porta_tensor* a, porta_tensor** out);
/** base-10 logarithm (integer inputs give float32). Since 1.3. */
PORTA_EXPORT porta_status porta_log10(porta_tensor* a, porta_tensor** out);
/** 2^a (integer inputs give float32). Since 1.3. */
PORTA_EXPORT porta_status porta_exp2(porta_tensor* a, porta_tensor** out);
/** inverse hyperbolic sine (integer inputs give float32). Since 1.3. */
PORTA_EXPORT porta_status porta_asinh(porta_tensor* a, porta_tensor** out);
/** ~a of an integer tensor; of a bool tensor, its logical not. Since 1.12. */
PORTA_EXPORT porta_status porta_bitwise_not(porta_tensor* a, porta_tensor** out);

/** a + b. Since 1.0. */
PORTA_EXPORT porta_status porta_add(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** a - b. Since 1.0. */
PORTA_EXPORT porta_status porta_sub(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** a * b. Since 1.0. */
PORTA_EXPORT porta_status porta_mul(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** a / b, true division (integer inputs give float32). Since 1.0. */
PORTA_EXPORT porta_status porta_div(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** a ** b (integer inputs give float32). Since 1.0. */
PORTA_EXPORT porta_status porta_pow(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** elementwise max(a, b). Since 1.0. */
PORTA_EXPORT porta_status porta_maximum(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** elementwise min(a, b). Since 1.0. */
PORTA_EXPORT porta_status porta_minimum(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** a == b (bool result). Since 1.0. */
PORTA_EXPORT porta_status porta_eq(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** a != b (bool result). Since 1.0. */
PORTA_EXPORT porta_status porta_ne(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** a < b (bool result). Since 1.0. */
PORTA_EXPORT porta_status porta_lt(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** a <= b (bool result). Since 1.0. */
PORTA_EXPORT porta_status porta_le(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** a > b (bool result). Since 1.0. */
PORTA_EXPORT porta_status porta_gt(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** a >= b (bool result). Since 1.0. */
PORTA_EXPORT porta_status porta_ge(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** the angle of the point (b, a) in (-pi, pi], as torch.atan2(a, b) (integer inputs give
 *  float32). Since 1.3. */
PORTA_EXPORT porta_status porta_atan2(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** a - floor(a / b) * b, with b's sign: Python's % (torch.remainder); an integer zero divisor
 *  is refused (ZeroDivisionError, INVALID_ARGUMENT). Since 1.3. */
PORTA_EXPORT porta_status porta_remainder(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** a - trunc(a / b) * b, with a's sign: C's fmod (torch.fmod); an integer zero divisor is
 *  refused. Since 1.3. */
PORTA_EXPORT porta_status porta_fmod(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** floor(a / b): Python's // (torch.floor_divide); integer inputs stay integers, an integer
 *  zero divisor is refused; zero gradient. Since 1.3. */
PORTA_EXPORT porta_status porta_floor_divide(porta_tensor* a, porta_tensor* b, porta_tensor** out);

/** a & b of integer or bool tensors (bool: logical and); floats are refused, as in PyTorch. Since 1.12. */
PORTA_EXPORT porta_status porta_bitwise_and(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** a | b, as porta_bitwise_and. Since 1.12. */
PORTA_EXPORT porta_status porta_bitwise_or(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** a ^ b, as porta_bitwise_and. Since 1.12. */
PORTA_EXPORT porta_status porta_bitwise_xor(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** a << b of integer tensors (PyTorch's: a negative shift, or one by the width or more, gives 0). Since 1.12. */
PORTA_EXPORT porta_status porta_bitwise_left_shift(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** a >> b of integer tensors, arithmetic (a negative shift, or one by the width or more, gives the sign: 0 or
 *  -1). Since 1.12. */
PORTA_EXPORT porta_status porta_bitwise_right_shift(porta_tensor* a, porta_tensor* b, porta_tensor** out);

/** How a scalar operand was typed by the caller's language: PyTorch's
 *  promotion tells a Python bool, int and float apart (int_tensor * 2 stays
 *  an integer, int_tensor * 2.0 is float32). Since 1.12. */
typedef enum porta_scalar_kind {
  PORTA_SCALAR_BOOL = 0,  /**< `i` is 0 or 1 */
  PORTA_SCALAR_INT = 1,   /**< `i`, every bit of an int64 */
  PORTA_SCALAR_FLOAT = 2  /**< `f` */
} porta_scalar_kind;

/** A scalar operand as a 0-d tensor on `device` (bool, int64 or float64
 *  holding it exactly) marked as PyTorch's "wrapped number": passed to any
 *  op that takes tensors (porta_add, porta_where, porta_binary_inplace, ...)
 *  it promotes below every tensor of its category (bool < integer <
 *  floating), a float counting as float32: int32_tensor + 2.5 is float32,
 *  uint8_tensor + 300 stays uint8 (300 converts to 44, as PyTorch's cast),
 *  bool_tensor + 3 is int64, float16_tensor * 0.1 stays float16 (computed
 *  as float(x) * float(0.1), rounded once). This is how the Python and C++
 *  APIs pass every scalar operand. `kind` is a porta_scalar_kind; the value
 *  is `i` for BOOL and INT, `f` for FLOAT. Since 1.12. */
PORTA_EXPORT porta_status porta_scalar_tensor(int32_t kind, int64_t i, double f, DLDevice device,
                                              porta_tensor** out);

/* Scalar forms: porta_X(a, porta_scalar_tensor(s)), s being an integer
 * when it is integral (within int64) and a float otherwise: a non-integral
 * scalar with an integer or bool `a` makes the result float32, and an
 * integral scalar with a bool `a` is int64 (as in PyTorch). */
/** a + s. Since 1.0. */
PORTA_EXPORT porta_status porta_add_scalar(porta_tensor* a, double s, porta_tensor** out);
/** a - s. Since 1.0. */
PORTA_EXPORT porta_status porta_sub_scalar(porta_tensor* a, double s, porta_tensor** out);
/** a * s. Since 1.0. */
PORTA_EXPORT porta_status porta_mul_scalar(porta_tensor* a, double s, porta_tensor** out);
/** a / s. Since 1.0. */
PORTA_EXPORT porta_status porta_div_scalar(porta_tensor* a, double s, porta_tensor** out);
/** a ** s. Since 1.0. */
PORTA_EXPORT porta_status porta_pow_scalar(porta_tensor* a, double s, porta_tensor** out);
/** max(a, s). Since 1.0. */
PORTA_EXPORT porta_status porta_maximum_scalar(porta_tensor* a, double s, porta_tensor** out);
/** min(a, s). Since 1.0. */
PORTA_EXPORT porta_status porta_minimum_scalar(porta_tensor* a, double s, porta_tensor** out);
/** a == s. Since 1.0. */
PORTA_EXPORT porta_status porta_eq_scalar(porta_tensor* a, double s, porta_tensor** out);
/** a != s. Since 1.0. */
PORTA_EXPORT porta_status porta_ne_scalar(porta_tensor* a, double s, porta_tensor** out);
/** a < s. Since 1.0. */
PORTA_EXPORT porta_status porta_lt_scalar(porta_tensor* a, double s, porta_tensor** out);
/** a <= s. Since 1.0. */
PORTA_EXPORT porta_status porta_le_scalar(porta_tensor* a, double s, porta_tensor** out);
/** a > s. Since 1.0. */
PORTA_EXPORT porta_status porta_gt_scalar(porta_tensor* a, double s, porta_tensor** out);
/** a >= s. Since 1.0. */
PORTA_EXPORT porta_status porta_ge_scalar(porta_tensor* a, double s, porta_tensor** out);
/** atan2(a, s). Since 1.3. */
PORTA_EXPORT porta_status porta_atan2_scalar(porta_tensor* a, double s, porta_tensor** out);
/** a % s (Python's). Since 1.3. */
PORTA_EXPORT porta_status porta_remainder_scalar(porta_tensor* a, double s, porta_tensor** out);
/** fmod(a, s). Since 1.3. */
PORTA_EXPORT porta_status porta_fmod_scalar(porta_tensor* a, double s, porta_tensor** out);
/** a // s (Python's). Since 1.3. */
PORTA_EXPORT porta_status porta_floor_divide_scalar(porta_tensor* a, double s, porta_tensor** out);
/** a & s. Since 1.12. */
PORTA_EXPORT porta_status porta_bitwise_and_scalar(porta_tensor* a, double s, porta_tensor** out);
/** a | s. Since 1.12. */
PORTA_EXPORT porta_status porta_bitwise_or_scalar(porta_tensor* a, double s, porta_tensor** out);
/** a ^ s. Since 1.12. */
PORTA_EXPORT porta_status porta_bitwise_xor_scalar(porta_tensor* a, double s, porta_tensor** out);
/** a << s. Since 1.12. */
PORTA_EXPORT porta_status porta_bitwise_left_shift_scalar(porta_tensor* a, double s, porta_tensor** out);
/** a >> s. Since 1.12. */
PORTA_EXPORT porta_status porta_bitwise_right_shift_scalar(porta_tensor* a, double s, porta_tensor** out);

/** cond ? a : b, elementwise; cond is bool; all three broadcast. Since 1.0. */
PORTA_EXPORT porta_status porta_where(porta_tensor* cond, porta_tensor* a, porta_tensor* b,
                                      porta_tensor** out);

/* In-place forms (PyTorch's relu_, add_, mul_, ...): `t` is overwritten
 * with op(t[, other]) and keeps its shape and dtype. `op` is a
 * PORTA_OP_KIND_UNARY op for porta_unary_inplace, a BINARY or COMPARE op
 * for the other two: a porta_op id (porta/ops.h), passed as int32_t so
 * that any value an FFI sends is checked, not undefined. Refused: a result whose type cannot be
 * cast to t's (a float result into an integer tensor, a number into bool),
 * an `other` that broadcasts t to a larger shape, a read-only tensor, an
 * expanded view (several elements in one memory location).
 *
 * Autograd: the write is recorded as PyTorch records it. t's history is
 * rebased onto the op (for a view, its base's history, so the base's
 * gradient flows around the written window); a leaf that requires grad, or
 * a view of one, is refused while grad mode is on. Every write into a
 * tensor's memory (these, porta_copy_into, porta_tensor_from_host_into, an
 * optimizer step, a write through a view or a detached handle) bumps the
 * memory's version; backward refuses to use a tensor an op saved if its
 * version moved since, naming the op ("modified by an in-place
 * operation"). */
/** t = op(t). Since 1.2. */
PORTA_EXPORT porta_status porta_unary_inplace(int32_t op, porta_tensor* t);
/** t = op(t, other). Since 1.2. */
PORTA_EXPORT porta_status porta_binary_inplace(int32_t op, porta_tensor* t, porta_tensor* other);
/** t = op(t, s), the scalar typed as for the scalar forms above. Since 1.2. */
PORTA_EXPORT porta_status porta_binary_scalar_inplace(int32_t op, porta_tensor* t, double s);

/* ============================ reductions ============================ */

/** Pass as `dim` to porta_argmax/argmin to reduce over all elements. Since 1.0. */
#define PORTA_ALL_DIMS INT32_MIN

/** Sum over `dims` (num_dims entries, negative counts from the end; NULL and
 *  0: all dims). keepdim != 0 keeps reduced dims as size 1. Integer and bool
 *  inputs sum to int64. Since 1.0. */
PORTA_EXPORT porta_status porta_sum(porta_tensor* t, const int32_t* dims, int32_t num_dims,
                                    int keepdim, porta_tensor** out);
/** Mean over dims, as porta_sum; an integer tensor is UNSUPPORTED_DTYPE. Since 1.0. */
PORTA_EXPORT porta_status porta_mean(porta_tensor* t, const int32_t* dims, int32_t num_dims,
                                     int keepdim, porta_tensor** out);
/** Maximum over dims, as porta_sum. NaN propagates. Reducing zero elements
 *  is INVALID_ARGUMENT (max has no identity). Since 1.0. */
PORTA_EXPORT porta_status porta_max(porta_tensor* t, const int32_t* dims, int32_t num_dims,
                                    int keepdim, porta_tensor** out);
/** Minimum over dims, as porta_sum; NaN propagates; not over zero elements. Since 1.0. */
PORTA_EXPORT porta_status porta_min(porta_tensor* t, const int32_t* dims, int32_t num_dims,
                                    int keepdim, porta_tensor** out);
/** int64 index of the first maximum along `dim` (PORTA_ALL_DIMS: index into
 *  the flattened tensor); a NaN counts as the maximum; an empty tensor is
 *  INVALID_ARGUMENT. Since 1.0. */
PORTA_EXPORT porta_status porta_argmax(porta_tensor* t, int32_t dim, int keepdim,
                                       porta_tensor** out);
/** int64 index of the first minimum, as porta_argmax. Since 1.0. */
PORTA_EXPORT porta_status porta_argmin(porta_tensor* t, int32_t dim, int keepdim,
                                       porta_tensor** out);

/* ========================= linear algebra ========================= */

/** Matrix product with NumPy matmul rules: 1-D operands are promoted and the
 *  added dim removed; leading (batch) dims broadcast. float32 and float64. Since 1.0. */
PORTA_EXPORT porta_status porta_matmul(porta_tensor* a, porta_tensor* b, porta_tensor** out);

/* =========================== composite ops =========================== */
/* Defined in the core from the ops above, with PyTorch's semantics; autograd
 * differentiates them through their parts. Activations take floating
 * tensors only (UNSUPPORTED_DTYPE otherwise, as in PyTorch). */

/** torch.clamp(a, min, max) with scalar bounds; min or max may be NULL (not
 *  both). The gradient passes where min <= a <= max; min > max gives max;
 *  a NaN bound gives NaN; an integer `a` with a fractional bound gives
 *  float32; bool is refused. Since 1.3. */
PORTA_EXPORT porta_status porta_clamp(porta_tensor* a, const double* min, const double* max,
                                      porta_tensor** out);
/** porta_clamp with tensor bounds (broadcast; either may be NULL, not both). Since 1.3. */
PORTA_EXPORT porta_status porta_clamp_tensor(porta_tensor* a, porta_tensor* min, porta_tensor* max,
                                             porta_tensor** out);
/** torch.lerp: start + weight * (end - start), computed from end when
 *  |weight| >= 0.5 (so weight 1 gives end exactly); one floating dtype for
 *  all three; all broadcast. Since 1.3. */
PORTA_EXPORT porta_status porta_lerp(porta_tensor* start, porta_tensor* end, porta_tensor* weight,
                                     porta_tensor** out);
/** torch.add(a, b, alpha=) and torch.sub (`op` PORTA_OP_ADD or PORTA_OP_SUB): a + alpha * b, or a - alpha * b;
 *  alpha a 0-d tensor (porta_scalar_tensor keeps an int64 exact), converted to the result dtype as PyTorch
 *  converts it: b * alpha rounds in that dtype first; an integral result refuses a floating alpha, a bool alpha
 *  needs a bool result. Since 1.12. */
PORTA_EXPORT porta_status porta_add_alpha(int32_t op, porta_tensor* a, porta_tensor* b, porta_tensor* alpha,
                                          porta_tensor** out);
/** torch.addcmul (`op` PORTA_OP_MUL): input + value * t1 * t2; torch.addcdiv (PORTA_OP_DIV): input + value * t1
 *  / t2, refused for integer t1 and t2 (as PyTorch). value is a 0-d tensor, truncated for an integral result;
 *  all broadcast; float16 and bfloat16 compute in float32; bool is refused. Since 1.12. */
PORTA_EXPORT porta_status porta_addcmul(int32_t op, porta_tensor* input, porta_tensor* t1, porta_tensor* t2,
                                        porta_tensor* value, porta_tensor** out);
/** torch.logsumexp over dims (as porta_sum), without overflow; integer
 *  inputs give float32. Since 1.3. */
PORTA_EXPORT porta_status porta_logsumexp(porta_tensor* t, const int32_t* dims, int32_t num_dims,
                                          int keepdim, porta_tensor** out);
/** torch.nansum over dims (as porta_sum): NaN counts as 0; integers and bool as porta_sum. Since 1.12. */
PORTA_EXPORT porta_status porta_nansum(porta_tensor* t, const int32_t* dims, int32_t num_dims, int keepdim,
                                       porta_tensor** out);
/** torch.nanmean over dims: the mean of the elements that are not NaN (NaN where there are none); floating
 *  tensors only, as PyTorch. Since 1.12. */
PORTA_EXPORT porta_status porta_nanmean(porta_tensor* t, const int32_t* dims, int32_t num_dims, int keepdim,
                                        porta_tensor** out);

/** porta_gelu's `approximate`: PyTorch's "none" and "tanh". Since 1.3. */
typedef enum porta_gelu_approximation {
  PORTA_GELU_NONE = 0, /**< x/2 (1 + erf(x / sqrt 2)) */
  PORTA_GELU_TANH = 1  /**< x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) */
} porta_gelu_approximation;
/** torch.nn.functional.gelu; approximate is a porta_gelu_approximation. Since 1.3. */
PORTA_EXPORT porta_status porta_gelu(porta_tensor* a, int32_t approximate, porta_tensor** out);
/** torch.nn.functional.silu: a * sigmoid(a). Since 1.3. */
PORTA_EXPORT porta_status porta_silu(porta_tensor* a, porta_tensor** out);
/** torch.nn.functional.softplus: log(1 + exp(beta a)) / beta, and a where
 *  beta a > threshold (PyTorch's defaults: beta 1, threshold 20). Since 1.3. */
PORTA_EXPORT porta_status porta_softplus(porta_tensor* a, double beta, double threshold, porta_tensor** out);
/** torch.nn.functional.leaky_relu: a where a > 0, else negative_slope * a
 *  (PyTorch's default slope: 0.01). Since 1.3. */
PORTA_EXPORT porta_status porta_leaky_relu(porta_tensor* a, double negative_slope, porta_tensor** out);
/** torch.nn.functional.elu: a where a > 0, else alpha (e^a - 1). Since 1.3. */
PORTA_EXPORT porta_status porta_elu(porta_tensor* a, double alpha, porta_tensor** out);
/** torch.nn.functional.hardtanh: a clamped to [min_val, max_val], no
 *  gradient at or beyond the bounds; min_val > max_val is INVALID_ARGUMENT.
 *  Since 1.3. */
PORTA_EXPORT porta_status porta_hardtanh(porta_tensor* a, double min_val, double max_val, porta_tensor** out);

/** torch.isnan (bool; false for integer and bool tensors). Since 1.3. */
PORTA_EXPORT porta_status porta_isnan(porta_tensor* a, porta_tensor** out);
/** torch.isinf (bool). Since 1.3. */
PORTA_EXPORT porta_status porta_isinf(porta_tensor* a, porta_tensor** out);
/** torch.isfinite (bool; true for integer and bool tensors). Since 1.3. */
PORTA_EXPORT porta_status porta_isfinite(porta_tensor* a, porta_tensor** out);
/** torch.nan_to_num: NaN, +inf and -inf replaced; a NULL value takes
 *  PyTorch's default (0, the dtype's largest finite value, its lowest).
 *  Integer and bool tensors are copied. The gradient passes where a is
 *  finite. Since 1.3. */
PORTA_EXPORT porta_status porta_nan_to_num(porta_tensor* a, const double* nan, const double* posinf,
                                           const double* neginf, porta_tensor** out);

/** torch.logical_not: a == 0, on every dtype (bool result). Since 1.3. */
PORTA_EXPORT porta_status porta_logical_not(porta_tensor* a, porta_tensor** out);
/** torch.logical_and: both nonzero (NaN counts as nonzero); broadcast. Since 1.3. */
PORTA_EXPORT porta_status porta_logical_and(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** torch.logical_or: either nonzero. Since 1.3. */
PORTA_EXPORT porta_status porta_logical_or(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** torch.logical_xor: exactly one nonzero. Since 1.3. */
PORTA_EXPORT porta_status porta_logical_xor(porta_tensor* a, porta_tensor* b, porta_tensor** out);

/* ===================== indexing, joins and scans ===================== */
/* Index tensors are int64 on the data's device (PyTorch's rule); an index
 * outside the indexed dim is INVALID_ARGUMENT naming it, checked on the
 * device before any kernel runs. Every op below is recorded by autograd
 * (for the data operands; indices have no gradient). */

/** torch.gather: out[p] = src[p with p[dim] := index[p]]; index has src's
 *  ndim, and no larger sizes than src outside dim; out has index's shape
 *  and src's dtype. Values must lie in [0, src.shape[dim]). Since 1.4. */
PORTA_EXPORT porta_status porta_gather(porta_tensor* src, int32_t dim, porta_tensor* index, porta_tensor** out);
/** porta_scatter's `reduce`: porta_scatter_reduce's values (porta/ops.h)
 *  and PORTA_SCATTER_MEAN = 5 (the sum divided by the number of values
 *  combined). Since 1.4. */
#define PORTA_SCATTER_MEAN 5
/** torch.scatter / scatter_add / scatter_reduce, out of place: a copy of
 *  self where, for every position p of index, out[p with p[dim] :=
 *  index[p]] is src[p] (ASSIGN; a repeated index keeps the last along dim)
 *  or combined with it by `reduce` (SUM, PROD, AMAX, AMIN, MEAN). src has
 *  self's dtype and no smaller sizes than index. include_self 0: a
 *  position that receives values starts from them instead of from self's
 *  value (ignored for ASSIGN). Gradients: to self and src for ASSIGN, SUM
 *  and MEAN; PROD, AMAX and AMIN are not differentiable yet
 *  (NOT_IMPLEMENTED when an input requires grad). Since 1.4. */
PORTA_EXPORT porta_status porta_scatter(porta_tensor* self, int32_t dim, porta_tensor* index, porta_tensor* src,
                                        int32_t reduce, int include_self, porta_tensor** out);
/** torch.index_select: the entries index (1-D or 0-D) of src along dim;
 *  out's dim has index's length. Since 1.4. */
PORTA_EXPORT porta_status porta_index_select(porta_tensor* src, int32_t dim, porta_tensor* index,
                                             porta_tensor** out);
/** torch.index_add (out of place): self with alpha * source's slice i added
 *  into slice index[i] along dim (repeats add up); source has self's
 *  shape except index's length in dim. Since 1.4. */
PORTA_EXPORT porta_status porta_index_add(porta_tensor* self, int32_t dim, porta_tensor* index,
                                          porta_tensor* source, double alpha, porta_tensor** out);
/** torch.index_copy (out of place): self with source's slice i written
 *  into slice index[i] along dim (a repeated index keeps the last). Since 1.4. */
PORTA_EXPORT porta_status porta_index_copy(porta_tensor* self, int32_t dim, porta_tensor* index,
                                           porta_tensor* source, porta_tensor** out);
/** torch.index_fill (out of place): self with slices index along dim set
 *  to value. Since 1.4. */
PORTA_EXPORT porta_status porta_index_fill(porta_tensor* self, int32_t dim, porta_tensor* index, double value,
                                           porta_tensor** out);
/** porta_index_fill with a 0-d tensor value: a wrapped number
 *  (porta_scalar_tensor; an int64 keeps every bit) or a tensor whose
 *  gradient autograd records; the index is int64, negative indices count
 *  from the end. Since 1.12. */
PORTA_EXPORT porta_status porta_index_fill_tensor(porta_tensor* self, int32_t dim, porta_tensor* index,
                                                  porta_tensor* value, porta_tensor** out);
/** torch.masked_fill (out of place): value where the bool mask (broadcast
 *  to self's shape) is true. Since 1.4. */
PORTA_EXPORT porta_status porta_masked_fill(porta_tensor* self, porta_tensor* mask, double value,
                                            porta_tensor** out);
/** porta_masked_fill with a 0-d tensor value, as porta_index_fill_tensor's.
 *  Since 1.12. */
PORTA_EXPORT porta_status porta_masked_fill_tensor(porta_tensor* self, porta_tensor* mask, porta_tensor* value,
                                                   porta_tensor** out);
/** torch.masked_select: the 1-D elements of self where the bool mask
 *  (self and mask broadcast together) is true, in row-major order. Reads
 *  the count back from the device (a synchronization, as in PyTorch). Since 1.4. */
PORTA_EXPORT porta_status porta_masked_select(porta_tensor* self, porta_tensor* mask, porta_tensor** out);
/** torch.nonzero: int64 [count, ndim], the coordinates of t's nonzero
 *  elements in row-major order (a 0-D t gives [count, 0]). Reads the count
 *  back from the device. Since 1.4. */
PORTA_EXPORT porta_status porta_nonzero(porta_tensor* t, porta_tensor** out);
/** torch.take: t's elements at the row-major positions index (any shape;
 *  negative positions count from the end); out has index's shape. Since 1.4. */
PORTA_EXPORT porta_status porta_take(porta_tensor* t, porta_tensor* index, porta_tensor** out);
/** torch.nn.functional.embedding: weight's rows [.., E] at the int64
 *  indices (any shape); out has indices' shape + [E]. Rows equal to
 *  padding_idx get no gradient; padding_idx lies in [-rows, rows) (a
 *  negative one counts from the end) or is INT64_MIN for none. Since 1.4. */
PORTA_EXPORT porta_status porta_embedding(porta_tensor* weight, porta_tensor* indices, int64_t padding_idx,
                                          porta_tensor** out);

/** torch.cat: n >= 1 tensors of one device, the same ndim and sizes except
 *  in dim, joined along dim; dtypes promote. 1-D empty tensors are skipped,
 *  as in PyTorch. Since 1.4. */
PORTA_EXPORT porta_status porta_cat(porta_tensor* const* tensors, int32_t n, int32_t dim, porta_tensor** out);
/** torch.stack: n >= 1 tensors of one shape joined along a new dim (in
 *  [-(ndim+1), ndim]). Since 1.4. */
PORTA_EXPORT porta_status porta_stack(porta_tensor* const* tensors, int32_t n, int32_t dim, porta_tensor** out);
/** torch.split with sizes: n views of t along dim, outs[i] of sizes[i]
 *  (which must add up to t.shape[dim]); outs has n slots, each a new
 *  reference. torch.split(int) and torch.chunk compute the sizes. Since 1.4. */
PORTA_EXPORT porta_status porta_split(porta_tensor* t, const int64_t* sizes, int32_t n, int32_t dim,
                                      porta_tensor** outs);
/** torch.unbind: the t.shape[dim] views of t with dim removed, into outs
 *  (t.shape[dim] slots). Since 1.4. */
PORTA_EXPORT porta_status porta_unbind(porta_tensor* t, int32_t dim, porta_tensor** outs);

/** torch.cumsum along dim; integer and bool tensors accumulate in int64,
 *  float32 in double (each prefix rounded). Since 1.4. */
PORTA_EXPORT porta_status porta_cumsum(porta_tensor* t, int32_t dim, porta_tensor** out);
/** torch.cumprod along dim, dtypes as porta_cumsum. The gradient needs an
 *  input without zeros (INVALID_ARGUMENT otherwise). Since 1.4. */
PORTA_EXPORT porta_status porta_cumprod(porta_tensor* t, int32_t dim, porta_tensor** out);

/* ============================ sorting ============================ */
/* Stable sorts (equal elements keep their order, so every device gives the
 * same indices); NaN sorts after every number ascending and before it
 * descending, as in PyTorch. Indices are int64; values are recorded by
 * autograd (their gradient flows back to where each came from). A 0-D t
 * sorts as one element. Two-output functions set both or neither. */

/** torch.sort along dim: *values and *indices (t's shape). Since 1.5. */
PORTA_EXPORT porta_status porta_sort(porta_tensor* t, int32_t dim, int32_t descending, porta_tensor** values,
                                     porta_tensor** indices);
/** torch.argsort: porta_sort's indices. Since 1.5. */
PORTA_EXPORT porta_status porta_argsort(porta_tensor* t, int32_t dim, int32_t descending, porta_tensor** out);
/** torch.topk: the k largest (smallest when largest is 0) along dim, in
 *  order; k in [0, t.shape[dim]]. Equal values come in input order. Since 1.5. */
PORTA_EXPORT porta_status porta_topk(porta_tensor* t, int64_t k, int32_t dim, int32_t largest,
                                     porta_tensor** values, porta_tensor** indices);
/** torch.kthvalue: the k-th smallest along dim (k from 1), dim kept when
 *  keepdim. Since 1.5. */
PORTA_EXPORT porta_status porta_kthvalue(porta_tensor* t, int64_t k, int32_t dim, int32_t keepdim,
                                         porta_tensor** values, porta_tensor** indices);
/** torch.max(t, dim): the largest value along dim (NaN wins) and the
 *  first index holding it; the values' gradient goes to that index, as
 *  PyTorch's (porta_max over dims shares it among ties, as amax). Since
 *  1.12. Since 1.13, dim PORTA_ALL_DIMS is torch.max(t): over every element,
 *  *indices a flat index, the gradient shared among the elements equal to
 *  the result, NaN counting as equal to NaN (amax's NaN poisons every
 *  element's); an empty t is refused. */
PORTA_EXPORT porta_status porta_max_dim(porta_tensor* t, int32_t dim, int32_t keepdim, porta_tensor** values,
                                        porta_tensor** indices);
/** torch.min(t, dim), as porta_max_dim. Since 1.12. */
PORTA_EXPORT porta_status porta_min_dim(porta_tensor* t, int32_t dim, int32_t keepdim, porta_tensor** values,
                                        porta_tensor** indices);
/** torch.unique of the flattened t (sorted=True): *values (1-D, sorted),
 *  *inverse (int64, t's shape: each element's position in values) and
 *  *counts (int64, like values); NaNs are distinct, as in PyTorch. Reads
 *  the number of values back from the device. Sets all three or none. Since 1.5. */
PORTA_EXPORT porta_status porta_unique(porta_tensor* t, porta_tensor** values, porta_tensor** inverse,
                                       porta_tensor** counts);
/** torch.unique_consecutive of the flattened t: as porta_unique, each run
 *  of equal neighbours one value, in order. Since 1.5. */
PORTA_EXPORT porta_status porta_unique_consecutive(porta_tensor* t, porta_tensor** values, porta_tensor** inverse,
                                                   porta_tensor** counts);
/** torch.bincount: 1-D non-negative integer x; out[i] counts the i's
 *  (int64), or sums their weights (NULL: none; float32 weights give
 *  float32, others float64; an empty x gives int64 zeros, as PyTorch's);
 *  length max(max(x) + 1, minlength). Since 1.5. */
PORTA_EXPORT porta_status porta_bincount(porta_tensor* x, porta_tensor* weights, int64_t minlength,
                                         porta_tensor** out);
/** torch.cummax along dim: the running maximum and where it came from
 *  (int64); a later equal element takes over, NaN beats every number and a
 *  later NaN an earlier one, as PyTorch's. Values are differentiable; sets
 *  both or neither. Since 1.7. */
PORTA_EXPORT porta_status porta_cummax(porta_tensor* t, int32_t dim, porta_tensor** values, porta_tensor** indices);
/** torch.cummin: porta_cummax's running minimum. Since 1.7. */
PORTA_EXPORT porta_status porta_cummin(porta_tensor* t, int32_t dim, porta_tensor** values, porta_tensor** indices);
/** torch.mode along dim: the most frequent value (the smallest of those
 *  tied; each NaN counts once) and the index of its last occurrence. dim
 *  must not be empty. Values are differentiable. Since 1.7. */
PORTA_EXPORT porta_status porta_mode(porta_tensor* t, int32_t dim, int32_t keepdim, porta_tensor** values,
                                     porta_tensor** indices);
/** torch.searchsorted: for each element of values, the index in the last
 *  dim of sorted_sequence (1-D, or with values' leading dims) where it
 *  would be inserted keeping the order: before equal elements (right 0) or
 *  after them (right 1), by PyTorch's binary search (its NaN order
 *  included). sorter (int64, sorted_sequence's shape, NULL: none) gives
 *  the order of an unsorted sequence. int64, int32 when out_int32. Since 1.7. */
PORTA_EXPORT porta_status porta_searchsorted(porta_tensor* sorted_sequence, porta_tensor* values, int32_t right,
                                             int32_t out_int32, porta_tensor* sorter, porta_tensor** out);
/** torch.bucketize: porta_searchsorted(boundaries, t, right, out_int32,
 *  NULL) with 1-D boundaries. Since 1.7. */
PORTA_EXPORT porta_status porta_bucketize(porta_tensor* t, porta_tensor* boundaries, int32_t right, int32_t out_int32,
                                          porta_tensor** out);
/** torch.unique(dim=): the distinct slices of t along dim, sorted
 *  lexicographically (*values: t's shape with dim the number of them),
 *  *inverse (int64 [t.shape[dim]]: each slice's position in values) and
 *  *counts (int64). Slices with a NaN are distinct. Sets all three or none. Since 1.7. */
PORTA_EXPORT porta_status porta_unique_dim(porta_tensor* t, int32_t dim, porta_tensor** values, porta_tensor** inverse,
                                           porta_tensor** counts);
/** torch.unique_consecutive(dim=): as porta_unique_dim, each run of equal
 *  neighbouring slices one value, in order. Since 1.7. */
PORTA_EXPORT porta_status porta_unique_consecutive_dim(porta_tensor* t, int32_t dim, porta_tensor** values,
                                                       porta_tensor** inverse, porta_tensor** counts);

/* ================= statistics, shapes and products ================= */
/* Composites with PyTorch's rules, recorded by autograd through their parts.
 * dims / num_dims as porta_sum (num_dims 0: every dim). */

/** torch.var over dims with Bessel's correction (PyTorch's default 1; 0:
 *  the population variance); a divisor n - correction <= 0 gives inf or
 *  NaN, as in PyTorch. Floating tensors. Since 1.4. */
PORTA_EXPORT porta_status porta_var(porta_tensor* t, const int32_t* dims, int32_t num_dims, double correction,
                                    int keepdim, porta_tensor** out);
/** torch.std: the square root of porta_var. Since 1.4. */
PORTA_EXPORT porta_status porta_std(porta_tensor* t, const int32_t* dims, int32_t num_dims, double correction,
                                    int keepdim, porta_tensor** out);
/** torch.prod along dim (PORTA_ALL_DIMS: every element); integers and bool
 *  give int64; over zero elements 1. The gradient needs an input without
 *  zeros (as porta_cumprod's). Since 1.4. */
PORTA_EXPORT porta_status porta_prod(porta_tensor* t, int32_t dim, int keepdim, porta_tensor** out);
/** torch.any over dims: bool, whether any element is nonzero (NaN is). Since 1.4. */
PORTA_EXPORT porta_status porta_any(porta_tensor* t, const int32_t* dims, int32_t num_dims, int keepdim,
                                    porta_tensor** out);
/** torch.all over dims: bool, whether every element is nonzero. Since 1.4. */
PORTA_EXPORT porta_status porta_all(porta_tensor* t, const int32_t* dims, int32_t num_dims, int keepdim,
                                    porta_tensor** out);
/** torch.count_nonzero over dims: int64. Since 1.4. */
PORTA_EXPORT porta_status porta_count_nonzero(porta_tensor* t, const int32_t* dims, int32_t num_dims,
                                              porta_tensor** out);
/** torch.linalg.vector_norm: (sum |t|^ord)^(1/ord) over dims; ord INFINITY
 *  the largest |t|, -INFINITY the smallest, 0 the count of nonzeros.
 *  Floating tensors; the gradient at a zero norm is 0, as PyTorch's.
 *  Since 1.4. */
PORTA_EXPORT porta_status porta_vector_norm(porta_tensor* t, double ord, const int32_t* dims, int32_t num_dims,
                                            int keepdim, porta_tensor** out);
/** torch.nn.functional.normalize: t / max(||t||_p, eps) along dim (p as porta_vector_norm's ord); floating
 *  tensors. Since 1.12. */
PORTA_EXPORT porta_status porta_normalize(porta_tensor* t, double p, int32_t dim, double eps, porta_tensor** out);
/** torch.nn.functional.cosine_similarity along dim: sum(x1 / ||x1|| * x2 / ||x2||), each norm clamped to eps
 *  (its gradient the unclamped norm's, as PyTorch's); x1 and x2 broadcast and promote to a floating dtype.
 *  Since 1.12. */
PORTA_EXPORT porta_status porta_cosine_similarity(porta_tensor* x1, porta_tensor* x2, int32_t dim, double eps,
                                                  porta_tensor** out);

/** torch.flip: t reversed along each of dims (a copy). Since 1.4. */
PORTA_EXPORT porta_status porta_flip(porta_tensor* t, const int32_t* dims, int32_t num_dims, porta_tensor** out);
/** torch.roll: t shifted by shifts[i] along dims[i] (elements leaving one
 *  end come back at the other); num_dims 0: the flattened tensor by the
 *  single shifts[0]. Since 1.4. */
PORTA_EXPORT porta_status porta_roll(porta_tensor* t, const int64_t* shifts, int32_t num_shifts,
                                     const int32_t* dims, int32_t num_dims, porta_tensor** out);
/** torch.Tensor.repeat: t tiled repeats[i] times along dim i; n >= ndim
 *  (t gains leading dims of 1), n <= PORTA_MAX_DIMS / 2. Since 1.4. */
PORTA_EXPORT porta_status porta_repeat(porta_tensor* t, const int64_t* repeats, int32_t n, porta_tensor** out);
/** torch.tril: t's last two dims with the elements above diagonal `diagonal`
 *  (0 the main one, > 0 above it) zeroed. Since 1.4. */
PORTA_EXPORT porta_status porta_tril(porta_tensor* t, int64_t diagonal, porta_tensor** out);
/** torch.triu: the elements below diagonal `diagonal` zeroed. Since 1.4. */
PORTA_EXPORT porta_status porta_triu(porta_tensor* t, int64_t diagonal, porta_tensor** out);
/** torch.outer of 1-D a and b: [len(a), len(b)], dtypes promoted. Since 1.4. */
PORTA_EXPORT porta_status porta_outer(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** torch.mm: 2-D @ 2-D (porta_matmul with those shapes only). Since 1.4. */
PORTA_EXPORT porta_status porta_mm(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** torch.mv: 2-D @ 1-D. Since 1.4. */
PORTA_EXPORT porta_status porta_mv(porta_tensor* a, porta_tensor* v, porta_tensor** out);
/** torch.dot: the 0-D inner product of two 1-D tensors of one length. Since 1.4. */
PORTA_EXPORT porta_status porta_dot(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** torch.bmm: [B, n, k] @ [B, k, m], without broadcasting. Since 1.4. */
PORTA_EXPORT porta_status porta_bmm(porta_tensor* a, porta_tensor* b, porta_tensor** out);
/** torch.addmm: beta * c + alpha * (a @ b), a and b 2-D, c broadcast to the
 *  product; beta 0 does not read c's values (NaN included), and alpha 0
 *  (since 1.13) does not read a's and b's, on every device. Since 1.4. */
PORTA_EXPORT porta_status porta_addmm(porta_tensor* c, porta_tensor* a, porta_tensor* b, double beta,
                                      double alpha, porta_tensor** out);
/** torch.baddbmm: beta * c + alpha * bmm(a, b), beta and alpha 0 as
 *  porta_addmm's. Since 1.4. */
PORTA_EXPORT porta_status porta_baddbmm(porta_tensor* c, porta_tensor* a, porta_tensor* b, double beta,
                                        double alpha, porta_tensor** out);

/* Since 1.7: more of PyTorch's shape ops and statistics. */

/** torch.movedim: dim source[i] of t becomes dim destination[i] (n pairs),
 *  the others keep their order in the places left; a view. Since 1.7. */
PORTA_EXPORT porta_status porta_movedim(porta_tensor* t, const int32_t* source, const int32_t* destination, int32_t n,
                                        porta_tensor** out);
/** torch.diagonal: a view of the diagonal of dims dim1 and dim2, `offset`
 *  above the main one (below when negative), as t's last dim with dim1 and
 *  dim2 removed; writes through it reach t. Since 1.7. */
PORTA_EXPORT porta_status porta_diagonal(porta_tensor* t, int64_t offset, int32_t dim1, int32_t dim2,
                                         porta_tensor** out);
/** torch.diag: a 1-D t becomes the square matrix with t on diagonal
 *  `diagonal` (zeros elsewhere); a 2-D t gives that diagonal (a copy). Since 1.7. */
PORTA_EXPORT porta_status porta_diag(porta_tensor* t, int64_t diagonal, porta_tensor** out);
/** How porta_meshgrid lays out its grid. Since 1.7. */
typedef enum porta_meshgrid_indexing {
  PORTA_MESHGRID_IJ = 0, /**< output dim i follows input i (PyTorch's default, "ij") */
  PORTA_MESHGRID_XY = 1, /**< the first two inputs swap places (NumPy's "xy": x along columns) */
  /** Not a mode: widens the enum to int32 (any value is refused as unknown). Since 1.7. */
  PORTA_MESHGRID_INDEXING_INT32_ = 0x7fffffff
} porta_meshgrid_indexing;
/** torch.meshgrid of n 0-D or 1-D tensors of one dtype and device: outs (n
 *  slots) receive n views of the grid's shape, outs[i] varying along input
 *  i's dim. Since 1.7. */
PORTA_EXPORT porta_status porta_meshgrid(porta_tensor* const* tensors, int32_t n, porta_meshgrid_indexing indexing,
                                         porta_tensor** outs);
/** torch.repeat_interleave with a tensor of repeats (0-D, or 1-D with one
 *  count per element along dim; integers >= 0): element i repeated
 *  repeats[i] times. dim PORTA_ALL_DIMS: over the flattened t. Reads the
 *  total back from the device; output_size >= 0 must equal it (-1: not
 *  given). Differentiable in t. Since 1.7. */
PORTA_EXPORT porta_status porta_repeat_interleave(porta_tensor* t, porta_tensor* repeats, int32_t dim,
                                                  int64_t output_size, porta_tensor** out);
/** torch.repeat_interleave with one count for every element. Since 1.7. */
PORTA_EXPORT porta_status porta_repeat_interleave_int(porta_tensor* t, int64_t repeats, int32_t dim,
                                                      porta_tensor** out);
/** torch.Tensor.unfold: the windows of `size` elements every `step` along
 *  dim, dim becoming the window count and a last dim of `size` added. A
 *  copy, not PyTorch's view: writes to it do not reach t. Since 1.7. */
PORTA_EXPORT porta_status porta_unfold(porta_tensor* t, int32_t dim, int64_t size, int64_t step, porta_tensor** out);
/** torch.einsum: equation as PyTorch's ("ij,jk->ik", "...ij,...jk", "ii",
 *  implicit outputs) over n operands of one dtype and device; labels of
 *  size 1 broadcast. Lowered to diagonals, sums and batched matmuls, so
 *  differentiable wherever those are. Since 1.7. */
PORTA_EXPORT porta_status porta_einsum(const char* equation, porta_tensor* const* operands, int32_t n,
                                       porta_tensor** out);
/** torch.var_mean: porta_var's result and the mean over the same dims;
 *  sets both or neither. Since 1.7. */
PORTA_EXPORT porta_status porta_var_mean(porta_tensor* t, const int32_t* dims, int32_t num_dims, double correction,
                                         int keepdim, porta_tensor** var, porta_tensor** mean);
/** torch.std_mean: porta_std's result and the mean. Since 1.7. */
PORTA_EXPORT porta_status porta_std_mean(porta_tensor* t, const int32_t* dims, int32_t num_dims, double correction,
                                         int keepdim, porta_tensor** std, porta_tensor** mean);
/** torch.median along dim: the lower of the two middle values (NaN where a
 *  row holds one) and its index (int64); dim PORTA_ALL_DIMS: over every
 *  element, *indices then a flat index (an empty floating t: NaN and -1).
 *  A dim must not be empty. Values
 *  are differentiable; sets both or neither. Since 1.7. */
PORTA_EXPORT porta_status porta_median(porta_tensor* t, int32_t dim, int keepdim, porta_tensor** values,
                                       porta_tensor** indices);
/** torch.nanmedian: porta_median ignoring NaNs (NaN only for a row of them). Since 1.7. */
PORTA_EXPORT porta_status porta_nanmedian(porta_tensor* t, int32_t dim, int keepdim, porta_tensor** values,
                                          porta_tensor** indices);
/** torch.histc of a floating t: `bins` counts over equal bins of [min, max]
 *  (min == max: the data's smallest and largest, read back), in t's dtype;
 *  elements outside and NaNs are not counted, max joins the last bin.
 *  Not differentiable. Since 1.7. */
PORTA_EXPORT porta_status porta_histc(porta_tensor* t, int64_t bins, double min, double max, porta_tensor** out);

/* ============================= autograd ============================= */

/** Marks a leaf tensor as requiring (or not) gradients. Only leaves (tensors
 *  not produced by a recorded op) can be changed; detach others first. Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_set_requires_grad(porta_tensor* t, int requires_grad);
/** 1 if gradients flow to or through `t`. Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_requires_grad(const porta_tensor* t, int* out);
/** 1 if `t` was not produced by a recorded op. Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_is_leaf(const porta_tensor* t, int* out);
/** The accumulated gradient of leaf `t` (new reference, on t's device), or
 *  *out = NULL with PORTA_OK when there is none yet. Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_grad(const porta_tensor* t, porta_tensor** out);
/** Replaces t's gradient with `grad` (same shape and device; NULL clears it,
 *  which is how zero_grad works). Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_set_grad(porta_tensor* t, porta_tensor* grad);
/** Reverse-mode differentiation from `t`, accumulating into the .grad of
 *  every leaf that requires grad. `grad` is dL/dt (same shape as t); NULL
 *  means 1 and then t must have exactly one element. The graph is freed. Since 1.0. */
PORTA_EXPORT porta_status porta_backward(porta_tensor* t, porta_tensor* grad);
/** A tensor sharing t's storage, cut from the graph (requires_grad 0). Since 1.0. */
PORTA_EXPORT porta_status porta_detach(porta_tensor* t, porta_tensor** out);
/** Turns recording of ops for autograd on or off for the calling thread. Since 1.0. */
PORTA_EXPORT porta_status porta_set_grad_enabled(int enabled);
/** 1 if ops on the calling thread are being recorded. Since 1.0. */
PORTA_EXPORT porta_status porta_is_grad_enabled(int* out);

/** Options of porta_backward_ex: torch.autograd.backward's and
 *  torch.autograd.grad's. Zero-initialized: porta_backward. Since 1.6. */
typedef struct porta_backward_options {
  size_t struct_size; /**< set by the caller: sizeof(porta_backward_options) */
  /** 1: keep the graph's saved tensors, so that it can be run again. */
  int32_t retain_graph;
  /** 1: record the backward pass itself, so that the gradients can be
   *  differentiated again (double backward). PyTorch then retains the graph
   *  by default: set retain_graph too. A node whose formula is not recorded
   *  refuses it (PORTA_ERROR_NOT_IMPLEMENTED, naming the node). */
  int32_t create_graph;
  /** NULL: every leaf the roots reach. Else num_inputs tensors that require
   *  grad (leaves or not): only their gradients are computed, and only the
   *  part of the graph that leads to them runs. */
  porta_tensor* const* inputs;
  int32_t num_inputs;
  /** With grads_out: an input the roots do not reach gets NULL instead of
   *  PORTA_ERROR_INVALID_ARGUMENT. */
  int32_t allow_unused;
  /** NULL: gradients accumulate into the inputs' .grad (every reached
   *  leaf's without inputs). Else num_inputs slots (inputs required) that
   *  receive new references to the inputs' gradients, and no .grad changes
   *  (torch.autograd.grad). */
  porta_tensor** grads_out;
} porta_backward_options;
/** sizeof(porta_backward_options) on LP64. */
#define PORTA_BACKWARD_OPTIONS_SIZE 40
PORTA_LAYOUT_FIELD(porta_backward_options, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_backward_options, retain_graph, 8, 4)
PORTA_LAYOUT_FIELD(porta_backward_options, create_graph, 12, 4)
PORTA_LAYOUT_FIELD(porta_backward_options, inputs, 16, 8)
PORTA_LAYOUT_FIELD(porta_backward_options, num_inputs, 24, 4)
PORTA_LAYOUT_FIELD(porta_backward_options, allow_unused, 28, 4)
PORTA_LAYOUT_FIELD(porta_backward_options, grads_out, 32, 8)
PORTA_LAYOUT_SIZE(porta_backward_options, PORTA_BACKWARD_OPTIONS_SIZE)

/** torch.autograd.backward / torch.autograd.grad: reverse-mode
 *  differentiation from `num_roots` tensors at once, dL/droots[i] =
 *  grads[i] (grads NULL, or an entry NULL: ones, that root having exactly
 *  one element). Gradients reaching one tensor from several roots add up.
 *  Hooks (porta_tensor_register_hook) see each gradient first; retain_grad
 *  tensors take theirs into .grad unless grads_out is set. On error no .grad
 *  has changed. options NULL: as porta_backward over every root. Since 1.6. */
PORTA_EXPORT porta_status porta_backward_ex(porta_tensor* const* roots, porta_tensor* const* grads, int32_t num_roots,
                                            const porta_backward_options* options);

/** Frees a callback's user_data when the core no longer needs it (the
 *  hook removed, the node or tensor freed); may run on any thread. Since 1.6. */
typedef void (*porta_release_callback)(void* user_data);
/** A gradient hook: `grad` (borrowed) is the gradient flowing into the
 *  tensor it was registered on. Leave *replacement NULL to keep it, or set
 *  it to a new reference to a tensor of grad's shape, dtype and device that
 *  replaces it. Any status other than PORTA_OK stops the backward pass
 *  (no .grad changes) with that status. Since 1.6. */
typedef porta_status (*porta_grad_hook)(void* user_data, porta_tensor* grad, porta_tensor** replacement);
/** Tensor.register_hook: `hook` runs each time a gradient for `t` is
 *  computed, before it is accumulated or passed on, hooks in registration
 *  order. `t` must require grad. A non-leaf's hook belongs to the op that
 *  produced t (an in-place write afterwards makes a new one: the hook sees the
 *  gradient of the value it was registered on, as in PyTorch). `release`
 *  (or NULL) frees user_data. *handle: for porta_tensor_remove_hook. Since 1.6. */
PORTA_EXPORT porta_status porta_tensor_register_hook(porta_tensor* t, porta_grad_hook hook, void* user_data,
                                                     porta_release_callback release, uint64_t* handle);
/** Removes the hook `handle` of t (PORTA_ERROR_INVALID_ARGUMENT when t has no
 *  such hook, e.g. removed already). Since 1.6. */
PORTA_EXPORT porta_status porta_tensor_remove_hook(porta_tensor* t, uint64_t handle);
/** Tensor._version: how many times t's memory has been written in place
 *  (shared by every handle on that memory). Since 1.6. */
PORTA_EXPORT porta_status porta_tensor_version(const porta_tensor* t, uint64_t* out);
/** Tensor.retain_grad: non-leaf `t` (requiring grad) keeps its gradient in
 *  .grad (porta_tensor_grad), accumulated like a leaf's; a no-op for a leaf. Since 1.6. */
PORTA_EXPORT porta_status porta_tensor_retain_grad(porta_tensor* t);
/** 1 if non-leaf `t` retains its gradient (Tensor.retains_grad). Since 1.6. */
PORTA_EXPORT porta_status porta_tensor_retains_grad(const porta_tensor* t, int* out);

/** A custom function's backward: given dL/doutput `grad_output` (borrowed),
 *  sets grad_inputs[i] (all NULL on entry) to a new reference to dL/dinputs[i]
 *  of inputs[i]'s shape, or leaves it NULL (no gradient), for each of the
 *  num_inputs inputs. Any status other than PORTA_OK stops the backward pass. Since 1.6. */
typedef porta_status (*porta_function_backward)(void* user_data, porta_tensor* grad_output,
                                                porta_tensor** grad_inputs, int32_t num_inputs);
/** torch.autograd.Function: `output`, computed by the caller from `inputs`
 *  (normally under no-grad), gets a custom backward. *out is a new handle on
 *  output's memory whose grad_fn is a node named `name` (copied; NULL:
 *  "FunctionBackward") that calls `backward` with user_data (freed by
 *  `release`, or NULL, with the node). Inputs that do not require grad (or
 *  NULL entries) get no gradient; when none requires grad or grad mode is
 *  off, *out has no grad_fn and release runs now. Backward with create_graph
 *  refuses the node (PORTA_ERROR_NOT_IMPLEMENTED). Since 1.6. */
PORTA_EXPORT porta_status porta_function_attach(porta_tensor* output, porta_tensor* const* inputs, int32_t num_inputs,
                                                porta_function_backward backward, void* user_data,
                                                porta_release_callback release, const char* name,
                                                porta_tensor** out);
/** Called by a node of porta_function_attach_outputs: grad_outputs[i] (borrowed; never NULL: zeros where
 *  output i got no gradient) is dL/doutputs[i]; fill grad_inputs as porta_function_backward does. Since 1.8. */
typedef porta_status (*porta_function_backward_outputs)(void* user_data, porta_tensor* const* grad_outputs,
                                                        int32_t num_outputs, porta_tensor** grad_inputs,
                                                        int32_t num_inputs);
/** porta_function_attach for a function with several outputs (torch.autograd.Function returning a tuple):
 *  outputs[0..num_outputs) (>= 1; float, on one device: leave integer outputs out) get one node calling
 *  `backward` with a gradient for each; out[i] (an array of num_outputs) receives a new tensor with
 *  outputs[i]'s values, shape and dtype. With history these are views of one packed copy of the outputs
 *  (a node has one output), so writing out[i] does not write outputs[i]; without (no input requires grad, or
 *  grad mode off) they are handles on outputs[i]'s memory and release runs now. Nothing is written to `out`
 *  on failure. Since 1.8. */
PORTA_EXPORT porta_status porta_function_attach_outputs(porta_tensor* const* outputs, int32_t num_outputs,
                                                        porta_tensor* const* inputs, int32_t num_inputs,
                                                        porta_function_backward_outputs backward, void* user_data,
                                                        porta_release_callback release, const char* name,
                                                        porta_tensor** out);
/** torch.autograd.set_detect_anomaly, for the whole process as PyTorch's:
 *  while on, backward reads every node's gradients back and fails
 *  (PORTA_ERROR_INVALID_ARGUMENT, no .grad changed) naming the first node
 *  whose gradient has a NaN ("Function 'SqrtBackward' returned nan values
 *  in its 0th output"). Off by default: each check is a device read. Since 1.6. */
PORTA_EXPORT porta_status porta_set_anomaly_enabled(int enabled);
/** 1 if anomaly detection is on. Since 1.6. */
PORTA_EXPORT porta_status porta_is_anomaly_enabled(int* out);
/** Moves leaf `t` to `device` in place: the handle stays the same (so
 *  optimizers and modules keep pointing at it), its storage and gradient
 *  move. Views taken of `t` earlier keep the old storage. Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_move_to(porta_tensor* t, DLDevice device);
/** PyTorch's `t.data = src`: leaf `t` takes src's memory, shape, strides,
 *  dtype and device (shared with src, version counter included) and keeps
 *  its handle, requires_grad and gradient (dropped if it no longer matches
 *  t's shape, dtype or device). An optimizer holding `t` refuses to step
 *  if t's shape changed under state it already has. Since 1.2. */
PORTA_EXPORT porta_status porta_tensor_set_data(porta_tensor* t, porta_tensor* src);

/* ======================== neural-network ops ======================== */

/** How a loss reduces over the batch. Since 1.0. */
typedef enum porta_reduction {
  PORTA_REDUCTION_NONE = 0, /**< per-element (or per-sample) losses */
  PORTA_REDUCTION_MEAN = 1, /**< their mean (PyTorch's default) */
  PORTA_REDUCTION_SUM = 2,  /**< their sum */
  /** the sum divided by the batch size (dim 0): porta_kl_div only. Since 1.4. */
  PORTA_REDUCTION_BATCHMEAN = 3,
  /** Not a reduction: widens the enum to int32, so that any value a caller
   *  passes is well defined in C++ (and refused as unknown). Since 1.4. */
  PORTA_REDUCTION_INT32_ = 0x7fffffff
} porta_reduction;

/** x @ weight^T + bias, x [..., in], weight [out, in], bias [out] or NULL. Since 1.0. */
PORTA_EXPORT porta_status porta_linear(porta_tensor* x, porta_tensor* weight, porta_tensor* bias,
                                       porta_tensor** out);

/** Options of porta_conv2d; {height, width} pairs. Since 1.0. */
typedef struct porta_conv2d_options {
  size_t struct_size;  /**< set by the caller: sizeof(porta_conv2d_options) */
  int32_t stride[2];   /**< >= 1 */
  int32_t padding[2];  /**< zero padding, >= 0 */
  int32_t dilation[2]; /**< >= 1 */
  /** The channels split into this many groups, each convolved with its
   *  own F / groups filters (PyTorch's groups; in_channels for a depthwise
   *  convolution). 0 means 1, so zero-initialized options and a struct_size
   *  without it convolve as before 1.6. Since 1.6. */
  int32_t groups;
} porta_conv2d_options;
/** sizeof(porta_conv2d_options) on LP64. */
#define PORTA_CONV2D_OPTIONS_SIZE 40
PORTA_LAYOUT_FIELD(porta_conv2d_options, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_conv2d_options, stride, 8, 8)
PORTA_LAYOUT_FIELD(porta_conv2d_options, padding, 16, 8)
PORTA_LAYOUT_FIELD(porta_conv2d_options, dilation, 24, 8)
PORTA_LAYOUT_FIELD(porta_conv2d_options, groups, 32, 4)
PORTA_LAYOUT_SIZE(porta_conv2d_options, PORTA_CONV2D_OPTIONS_SIZE)

/** 2-D convolution (cross-correlation, as PyTorch): x [N, C, H, W] (or
 *  unbatched [C, H, W], since 1.6), weight [F, C / groups, KH, KW], bias [F]
 *  or NULL -> [N, F, OH, OW]. options NULL: stride 1, padding 0, dilation
 *  1, groups 1. Since 1.0. */
PORTA_EXPORT porta_status porta_conv2d(porta_tensor* x, porta_tensor* weight, porta_tensor* bias,
                                       const porta_conv2d_options* options, porta_tensor** out);
/** 1-D convolution (torch.nn.functional.conv1d): x [N, C, L] or [C, L],
 *  weight [F, C / groups, K], bias [F] or NULL -> [N, F, OL]; porta_conv2d
 *  over a height of 1 (groups as porta_conv2d_options's). Since 1.6. */
PORTA_EXPORT porta_status porta_conv1d(porta_tensor* x, porta_tensor* weight, porta_tensor* bias, int32_t stride,
                                       int32_t padding, int32_t dilation, int32_t groups, porta_tensor** out);

/** torch.nn.functional.conv_transpose2d, the adjoint of porta_conv2d: x
 *  [N, C, H, W] or [C, H, W], weight [C, F / groups, KH, KW], bias [F] or
 *  NULL -> [N, F, OH, OW], OH = (H - 1) * stride - 2 * padding +
 *  dilation * (KH - 1) + output_padding + 1. options as porta_conv2d's
 *  (NULL: stride 1, no padding); output_padding (NULL: 0) must be below the
 *  stride. Since 1.7. */
PORTA_EXPORT porta_status porta_conv_transpose2d(porta_tensor* x, porta_tensor* weight, porta_tensor* bias,
                                                 const porta_conv2d_options* options, const int32_t* output_padding,
                                                 porta_tensor** out);
/** torch.nn.functional.conv_transpose1d: x [N, C, L] or [C, L], weight
 *  [C, F / groups, K]; porta_conv_transpose2d over a height of 1. Since 1.7. */
PORTA_EXPORT porta_status porta_conv_transpose1d(porta_tensor* x, porta_tensor* weight, porta_tensor* bias,
                                                 int32_t stride, int32_t padding, int32_t output_padding,
                                                 int32_t dilation, int32_t groups, porta_tensor** out);

/** Options of the pooling ops; {height, width} pairs. Since 1.0. */
typedef struct porta_pool2d_options {
  size_t struct_size;        /**< set by the caller: sizeof(porta_pool2d_options) */
  int32_t kernel[2];         /**< window, >= 1 */
  int32_t stride[2];         /**< 0 means "= kernel" (PyTorch's default) */
  int32_t padding[2];        /**< <= kernel / 2 */
  int32_t dilation[2];       /**< max pooling only; 0 means 1 */
  int32_t count_include_pad; /**< avg pooling: count padding in the divisor (PyTorch default 1) */
  /** The 4 bytes 1.0 to 1.6 left as tail padding (set or not by older callers): ignored. Since 1.7. */
  int32_t reserved;
  /** 1: PyTorch's ceil_mode, a last window that starts inside the input (or its left padding) but
   *  runs past the end is kept; average pooling then divides it by the part inside the padded input
   *  (count_include_pad) or inside the input. 0 (and sizes from before 1.7): floor. Since 1.7. */
  int32_t ceil_mode;
} porta_pool2d_options;
/** sizeof(porta_pool2d_options) on LP64. */
#define PORTA_POOL2D_OPTIONS_SIZE 56
PORTA_LAYOUT_FIELD(porta_pool2d_options, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_pool2d_options, kernel, 8, 8)
PORTA_LAYOUT_FIELD(porta_pool2d_options, stride, 16, 8)
PORTA_LAYOUT_FIELD(porta_pool2d_options, padding, 24, 8)
PORTA_LAYOUT_FIELD(porta_pool2d_options, dilation, 32, 8)
PORTA_LAYOUT_FIELD(porta_pool2d_options, count_include_pad, 40, 4)
PORTA_LAYOUT_FIELD(porta_pool2d_options, reserved, 44, 4)
PORTA_LAYOUT_FIELD(porta_pool2d_options, ceil_mode, 48, 4)
PORTA_LAYOUT_SIZE(porta_pool2d_options, PORTA_POOL2D_OPTIONS_SIZE)

/** Max pooling of x [N, C, H, W]. Since 1.0. */
PORTA_EXPORT porta_status porta_max_pool2d(porta_tensor* x, const porta_pool2d_options* options,
                                           porta_tensor** out);
/** porta_max_pool2d and, in `indices` (int64, out's shape), where each maximum is: its position h * W + w in
 *  its [H, W] plane, as PyTorch's max_pool2d(return_indices=True): the first of equal maxima, the last NaN.
 *  Both or neither are written. Since 1.12. */
PORTA_EXPORT porta_status porta_max_pool2d_with_indices(porta_tensor* x, const porta_pool2d_options* options,
                                                        porta_tensor** out, porta_tensor** indices);
/** Average pooling of x [N, C, H, W]. Since 1.0. */
PORTA_EXPORT porta_status porta_avg_pool2d(porta_tensor* x, const porta_pool2d_options* options,
                                           porta_tensor** out);
/** softmax along `dim` (float dtypes). Since 1.0. */
PORTA_EXPORT porta_status porta_softmax(porta_tensor* x, int32_t dim, porta_tensor** out);
/** log(softmax) along `dim`, computed stably. Since 1.0. */
PORTA_EXPORT porta_status porta_log_softmax(porta_tensor* x, int32_t dim, porta_tensor** out);
/** Cross entropy of logits [N, C] against integer class indices target [N].
 *  As PyTorch's default, samples whose target is -100 are left out (loss
 *  0, no gradient; a mean is over the others). Since 1.0. */
PORTA_EXPORT porta_status porta_cross_entropy(porta_tensor* logits, porta_tensor* target,
                                              porta_reduction reduction, porta_tensor** out);
/** As porta_cross_entropy, leaving out the samples whose target is
 *  `ignore_index` (PyTorch's ignore_index; padding in a batch). Since 1.2. */
PORTA_EXPORT porta_status porta_cross_entropy_ignore(porta_tensor* logits, porta_tensor* target,
                                                     porta_reduction reduction, int64_t ignore_index,
                                                     porta_tensor** out);
/** Mean squared error; input and target of one shape. Since 1.0. */
PORTA_EXPORT porta_status porta_mse_loss(porta_tensor* input, porta_tensor* target,
                                         porta_reduction reduction, porta_tensor** out);
/** torch.nn.functional.nll_loss on log-probabilities [N, C], [N, C, d...]
 *  or [C], with integer targets [N], [N, d...] or []: -w[t] input[t], 0 where
 *  target is ignore_index; weight [C] or NULL; MEAN divides by the sum of
 *  the targets' weights. Since 1.4. */
PORTA_EXPORT porta_status porta_nll_loss(porta_tensor* input, porta_tensor* target, porta_tensor* weight,
                                         int64_t ignore_index, porta_reduction reduction, porta_tensor** out);
/** torch.nn.functional.cross_entropy in full: logits [N, C], [N, C, d...]
 *  or [C]; target class indices (as porta_nll_loss) or class probabilities
 *  (floating, the logits' shape); weight [C] or NULL; ignore_index (class
 *  indices only); label_smoothing in [0, 1], PyTorch's formula. Since 1.4. */
PORTA_EXPORT porta_status porta_cross_entropy_loss(porta_tensor* logits, porta_tensor* target, porta_tensor* weight,
                                                   int64_t ignore_index, porta_reduction reduction,
                                                   double label_smoothing, porta_tensor** out);
/** torch.nn.functional.binary_cross_entropy on probabilities in [0, 1]
 *  (INVALID_ARGUMENT otherwise, read back from the device); logs clamped
 *  at -100 as PyTorch's; weight (input's shape) or NULL. Since 1.4. */
PORTA_EXPORT porta_status porta_binary_cross_entropy(porta_tensor* input, porta_tensor* target, porta_tensor* weight,
                                                     porta_reduction reduction, porta_tensor** out);
/** torch.nn.functional.binary_cross_entropy_with_logits, stable for any
 *  logit; weight and pos_weight (broadcast) or NULL. Since 1.4. */
PORTA_EXPORT porta_status porta_binary_cross_entropy_with_logits(porta_tensor* input, porta_tensor* target,
                                                                 porta_tensor* weight, porta_tensor* pos_weight,
                                                                 porta_reduction reduction, porta_tensor** out);
/** torch.nn.functional.l1_loss: |input - target|. Since 1.4. */
PORTA_EXPORT porta_status porta_l1_loss(porta_tensor* input, porta_tensor* target, porta_reduction reduction,
                                        porta_tensor** out);
/** torch.nn.functional.smooth_l1_loss: 0.5 d^2 / beta where |d| < beta,
 *  else |d| - beta / 2 (beta 0: l1). Since 1.4. */
PORTA_EXPORT porta_status porta_smooth_l1_loss(porta_tensor* input, porta_tensor* target, porta_reduction reduction,
                                               double beta, porta_tensor** out);
/** torch.nn.functional.huber_loss: 0.5 d^2 where |d| < delta, else
 *  delta (|d| - delta / 2). Since 1.4. */
PORTA_EXPORT porta_status porta_huber_loss(porta_tensor* input, porta_tensor* target, porta_reduction reduction,
                                           double delta, porta_tensor** out);
/** torch.nn.functional.kl_div: target (log t - input) on log-probability
 *  inputs (log_target: target given as logs too); 0 log 0 = 0; reduction
 *  may be PORTA_REDUCTION_BATCHMEAN (PyTorch's recommended one). Since 1.4. */
PORTA_EXPORT porta_status porta_kl_div(porta_tensor* input, porta_tensor* target, porta_reduction reduction,
                                       int log_target, porta_tensor** out);
/** torch.nn.functional.layer_norm over the last n dims (their sizes in
 *  normalized_shape), population variance; weight and bias of that shape
 *  or NULL. Since 1.4. */
PORTA_EXPORT porta_status porta_layer_norm(porta_tensor* x, const int64_t* normalized_shape, int32_t n,
                                           porta_tensor* weight, porta_tensor* bias, double eps, porta_tensor** out);
/** torch.nn.functional.group_norm: x [N, C, *] normalized within each of
 *  `groups` channel groups; weight and bias [C] or NULL. Since 1.4. */
PORTA_EXPORT porta_status porta_group_norm(porta_tensor* x, int64_t groups, porta_tensor* weight, porta_tensor* bias,
                                           double eps, porta_tensor** out);
/** torch.nn.functional.batch_norm on x [N, C, *]: training, the batch's
 *  statistics, and running_mean / running_var (both or NULL) updated in
 *  place, not recorded: r = (1 - momentum) r + momentum s, the variance
 *  unbiased; otherwise the running statistics (required). weight and bias
 *  [C] or NULL. Since 1.4. */
PORTA_EXPORT porta_status porta_batch_norm(porta_tensor* x, porta_tensor* running_mean, porta_tensor* running_var,
                                           porta_tensor* weight, porta_tensor* bias, int training, double momentum,
                                           double eps, porta_tensor** out);
/** torch.nn.functional.scaled_dot_product_attention: softmax(q k^T * scale
 *  + mask) v for q [..., L, E], k [..., S, E], v [..., S, Ev] (batch dims
 *  broadcast). attn_mask (NULL: none) is bool (false: excluded) or added
 *  to the scores; is_causal masks key positions after each query's
 *  (PyTorch's top-left convention), not together with attn_mask; scale NaN
 *  means 1/sqrt(E); dropout_p applies to the weights when training != 0
 *  (PyTorch's function always applies it: pass training 1 for that).
 *  Since 1.4. */
PORTA_EXPORT porta_status porta_scaled_dot_product_attention(porta_tensor* q, porta_tensor* k, porta_tensor* v,
                                                             porta_tensor* attn_mask, double dropout_p,
                                                             int is_causal, double scale, int training,
                                                             porta_tensor** out);
/** Zeroes elements with probability p (from Porta's generator) and scales
 *  the rest by 1/(1-p) when training != 0; the identity otherwise. Since 1.0. */
PORTA_EXPORT porta_status porta_dropout(porta_tensor* x, double p, int training, porta_tensor** out);
/** Merges dims start_dim..end_dim (negative count from the end) into one. Since 1.0. */
PORTA_EXPORT porta_status porta_flatten(porta_tensor* x, int32_t start_dim, int32_t end_dim,
                                        porta_tensor** out);

/** How porta_pad fills the border. Since 1.6. */
typedef enum porta_pad_mode {
  PORTA_PAD_CONSTANT = 0,  /**< `value` (a negative pad crops) */
  PORTA_PAD_REFLECT = 1,   /**< the input mirrored about its edge element (each pad < the size) */
  PORTA_PAD_REPLICATE = 2, /**< the edge element repeated */
  PORTA_PAD_CIRCULAR = 3,  /**< the input wrapped around (each pad <= the size) */
  /** Not a mode: widens the enum to int32 (any value is refused as unknown). Since 1.6. */
  PORTA_PAD_MODE_INT32_ = 0x7fffffff
} porta_pad_mode;
/** torch.nn.functional.pad: `pad` holds n values, (left, right) pairs for
 *  the last dimension first, then the one before, ...; `value` fills in
 *  constant mode (0 for the others). Differentiable. Since 1.6. */
PORTA_EXPORT porta_status porta_pad(porta_tensor* x, const int64_t* pad, int32_t n, porta_pad_mode mode, double value,
                                    porta_tensor** out);
/** torch.nn.functional.adaptive_avg_pool2d of x [N, C, H, W] or [C, H, W]
 *  to out_h x out_w (PyTorch's bins: floor(i H / out_h) to ceil((i + 1) H
 *  / out_h)); one mean per bin and dimension (a NaN reaches only
 *  its bins), differentiable. Since 1.6. */
PORTA_EXPORT porta_status porta_adaptive_avg_pool2d(porta_tensor* x, int64_t out_h, int64_t out_w,
                                                    porta_tensor** out);
/** torch.nn.functional.dropout1d / 2d / 3d: while training, zeroes whole
 *  channels with probability p (one draw per [N, C] entry, x's last
 *  spatial_dims dims sharing it) and scales the rest by 1/(1-p); the
 *  identity otherwise. x has spatial_dims + 1 or + 2 dims. Since 1.6. */
PORTA_EXPORT porta_status porta_feature_dropout(porta_tensor* x, double p, int training, int32_t spatial_dims,
                                                porta_tensor** out);

/** How porta_interpolate maps output positions to input ones. Since 1.6. */
typedef enum porta_interpolate_mode {
  PORTA_INTERPOLATE_NEAREST = 0,       /**< floor(dst scale) (PyTorch's "nearest") */
  PORTA_INTERPOLATE_NEAREST_EXACT = 1, /**< floor((dst + 0.5) scale) ("nearest-exact") */
  PORTA_INTERPOLATE_BILINEAR = 2,      /**< the two nearest rows and columns, weighted ("bilinear") */
  /** Not a mode: widens the enum to int32 (any value is refused as unknown). Since 1.6. */
  PORTA_INTERPOLATE_MODE_INT32_ = 0x7fffffff
} porta_interpolate_mode;
/** torch.nn.functional.interpolate of x [N, C, H, W] to out_h x out_w.
 *  scale_h and scale_w are the caller's scale_factor (NaN: none given,
 *  and in/out is used), as PyTorch passes them to its kernels;
 *  align_corners (bilinear only, 0 otherwise) aligns the corner pixels'
 *  centres. Differentiable. Since 1.6. */
PORTA_EXPORT porta_status porta_interpolate(porta_tensor* x, int64_t out_h, int64_t out_w, double scale_h,
                                            double scale_w, porta_interpolate_mode mode, int align_corners,
                                            porta_tensor** out);

/** The recurrence of porta_rnn_cell and porta_rnn, with PyTorch's gate
 *  layout: a layer's w_ih is [G H, input], w_hh [G H, H], b_ih and b_hh
 *  [G H], the G gates stacked in the order given. Since 1.6. */
typedef enum porta_rnn_mode {
  PORTA_RNN_TANH = 0, /**< h' = tanh(x w_ih^T + b_ih + h w_hh^T + b_hh), G = 1 (torch.nn.RNN) */
  PORTA_RNN_RELU = 1, /**< as PORTA_RNN_TANH with relu (nonlinearity="relu") */
  PORTA_RNN_LSTM = 2, /**< torch.nn.LSTM: G = 4, gates i, f, g, o; c' = f c + i g, h' = o tanh(c') */
  PORTA_RNN_GRU = 3,  /**< torch.nn.GRU: G = 3, gates r, z, n; n = tanh(x_n + r (h w_hn^T + b_hn)), h' = (1 - z) n + z h */
  /** Not a mode: widens the enum to int32 (any value is refused as unknown). Since 1.6. */
  PORTA_RNN_MODE_INT32_ = 0x7fffffff
} porta_rnn_mode;
/** One step of a recurrent cell (torch.nn.RNNCell, LSTMCell, GRUCell): x
 *  [N, I] or [I], h and (LSTM only; NULL otherwise) c [N, H] or [H], NULL
 *  meaning zeros (for LSTM both or neither); biases both or NULL. Writes
 *  *h_out and, for LSTM, *c_out (c_out may be NULL for the other modes).
 *  Differentiable in every operand. Since 1.6. */
PORTA_EXPORT porta_status porta_rnn_cell(porta_rnn_mode mode, porta_tensor* x, porta_tensor* h, porta_tensor* c,
                                         porta_tensor* w_ih, porta_tensor* w_hh, porta_tensor* b_ih,
                                         porta_tensor* b_hh, porta_tensor** h_out, porta_tensor** c_out);
/** Options of porta_rnn (torch.nn.RNN, LSTM and GRU's arguments). NULL:
 *  mode TANH, one layer, biases, nothing else. Since 1.6. */
typedef struct porta_rnn_options {
  size_t struct_size;    /**< set by the caller: sizeof(porta_rnn_options) */
  int32_t mode;          /**< a porta_rnn_mode */
  int32_t num_layers;    /**< >= 1 */
  int32_t bidirectional; /**< nonzero: a second direction per layer, run from the last step back */
  int32_t batch_first;   /**< nonzero: input and output are [N, T, *] */
  int32_t has_biases;    /**< nonzero: params hold b_ih and b_hh after each w_hh */
  int32_t training;      /**< nonzero: `dropout` applies to every layer's output but the last */
  double dropout;        /**< in [0, 1] */
} porta_rnn_options;
/** sizeof(porta_rnn_options) on LP64. */
#define PORTA_RNN_OPTIONS_SIZE 40
PORTA_LAYOUT_FIELD(porta_rnn_options, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_rnn_options, mode, 8, 4)
PORTA_LAYOUT_FIELD(porta_rnn_options, num_layers, 12, 4)
PORTA_LAYOUT_FIELD(porta_rnn_options, bidirectional, 16, 4)
PORTA_LAYOUT_FIELD(porta_rnn_options, batch_first, 20, 4)
PORTA_LAYOUT_FIELD(porta_rnn_options, has_biases, 24, 4)
PORTA_LAYOUT_FIELD(porta_rnn_options, training, 28, 4)
PORTA_LAYOUT_FIELD(porta_rnn_options, dropout, 32, 8)
PORTA_LAYOUT_SIZE(porta_rnn_options, PORTA_RNN_OPTIONS_SIZE)

/** A multi-layer recurrent network over a sequence, as torch.nn.RNN / LSTM
 *  / GRU's forward: input [T, N, I] ([N, T, I] batch_first, or [T, I]
 *  unbatched); h0 (and c0, LSTM only) [L D, N, H] ([L D, H] unbatched) or
 *  NULL for zeros, D = 2 when bidirectional; params the layers' weights in
 *  PyTorch's order (layer by layer, the forward direction first: w_ih,
 *  w_hh, then b_ih, b_hh with has_biases), num_params = L D (4 or 2).
 *  Writes *output [T, N, D H] (the last layer's h at every step, the
 *  directions concatenated), *h_n [L D, N, H] and for LSTM *c_n (c_n may be
 *  NULL otherwise). All or none are written. Each layer's direction is one
 *  autograd node whose backward runs back through time; gradients reach
 *  the input, h0, c0 and every weight. Since 1.6. */
PORTA_EXPORT porta_status porta_rnn(porta_tensor* input, porta_tensor* h0, porta_tensor* c0,
                                    porta_tensor* const* params, int32_t num_params,
                                    const porta_rnn_options* options, porta_tensor** output, porta_tensor** h_n,
                                    porta_tensor** c_n);

/* ========================== initializers ========================== */
/* In place, never recorded by autograd, drawn from Porta's generator (so a
 * seed gives the same model on every device). */

/** Fills `t` from U(low, high). Since 1.0. */
PORTA_EXPORT porta_status porta_init_uniform_(porta_tensor* t, double low, double high);
/** Fills `t` from N(mean, std^2). Since 1.0. */
PORTA_EXPORT porta_status porta_init_normal_(porta_tensor* t, double mean, double std);
/** PyTorch's kaiming_uniform_(t, a) with fan_in mode and leaky_relu gain:
 *  U(-b, b), b = sqrt(6 / ((1 + a^2) fan_in)). nn.Linear and nn.Conv2d use
 *  a = sqrt(5) for weights. Since 1.0. */
PORTA_EXPORT porta_status porta_init_kaiming_uniform_(porta_tensor* t, double a);
/** PyTorch's default initialization of a Linear or Conv2d layer (its
 *  reset_parameters): `weight` by porta_init_kaiming_uniform_ with a =
 *  sqrt(5), then `bias` (NULL: none) from U(-1/sqrt(fan_in), 1/sqrt(fan_in))
 *  with the weight's fan_in (0 bounds for a zero fan_in). The C++ and Python
 *  layers all initialize through it. Since 1.3. */
PORTA_EXPORT porta_status porta_init_layer_default_(porta_tensor* weight, porta_tensor* bias);
/** fan_in of a weight: size(1) times the product of sizes from dim 2 on. Since 1.0. */
PORTA_EXPORT porta_status porta_init_fan_in(const porta_tensor* t, int64_t* out);

/* =========================== optimizers =========================== */

/** An optimizer over a fixed list of parameters. Its state tensors are
 *  created on each parameter's device at the first step and follow the
 *  parameter if it moves (there is no optimizer "to"). Since 1.0. */
typedef struct porta_optimizer porta_optimizer;

/** torch.optim.SGD options. Since 1.0. */
typedef struct porta_sgd_options {
  size_t struct_size;  /**< set by the caller: sizeof(porta_sgd_options) */
  double lr;           /**< learning rate (> 0) */
  double momentum;     /**< momentum factor (>= 0) */
  double dampening;    /**< dampening for momentum */
  double weight_decay; /**< L2 penalty (>= 0) */
  int32_t nesterov;    /**< Nesterov momentum (needs momentum > 0, dampening 0) */
} porta_sgd_options;
/** sizeof(porta_sgd_options) on LP64. */
#define PORTA_SGD_OPTIONS_SIZE 48
PORTA_LAYOUT_FIELD(porta_sgd_options, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_sgd_options, lr, 8, 8)
PORTA_LAYOUT_FIELD(porta_sgd_options, momentum, 16, 8)
PORTA_LAYOUT_FIELD(porta_sgd_options, dampening, 24, 8)
PORTA_LAYOUT_FIELD(porta_sgd_options, weight_decay, 32, 8)
PORTA_LAYOUT_FIELD(porta_sgd_options, nesterov, 40, 4)
PORTA_LAYOUT_SIZE(porta_sgd_options, PORTA_SGD_OPTIONS_SIZE)

/** torch.optim.Adam / AdamW options. Since 1.0. */
typedef struct porta_adam_options {
  size_t struct_size;  /**< set by the caller: sizeof(porta_adam_options) */
  double lr;           /**< learning rate (PyTorch default 1e-3) */
  double beta1;        /**< (default 0.9) */
  double beta2;        /**< (default 0.999) */
  double eps;          /**< (default 1e-8) */
  double weight_decay; /**< Adam: L2 (default 0); AdamW: decoupled (default 1e-2) */
  int32_t amsgrad;     /**< nonzero: the maximum of past second moments (PyTorch's amsgrad; composed, not fused). Since 1.5. */
} porta_adam_options;
/** sizeof(porta_adam_options) on LP64. */
#define PORTA_ADAM_OPTIONS_SIZE 56
PORTA_LAYOUT_FIELD(porta_adam_options, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_adam_options, lr, 8, 8)
PORTA_LAYOUT_FIELD(porta_adam_options, beta1, 16, 8)
PORTA_LAYOUT_FIELD(porta_adam_options, beta2, 24, 8)
PORTA_LAYOUT_FIELD(porta_adam_options, eps, 32, 8)
PORTA_LAYOUT_FIELD(porta_adam_options, weight_decay, 40, 8)
PORTA_LAYOUT_FIELD(porta_adam_options, amsgrad, 48, 4)
PORTA_LAYOUT_SIZE(porta_adam_options, PORTA_ADAM_OPTIONS_SIZE)

/** torch.optim.RMSprop options. Since 1.5. */
typedef struct porta_rmsprop_options {
  size_t struct_size;  /**< set by the caller: sizeof(porta_rmsprop_options) */
  double lr;           /**< learning rate (PyTorch default 1e-2) */
  double alpha;        /**< smoothing constant (default 0.99) */
  double eps;          /**< denominator term (default 1e-8) */
  double weight_decay; /**< L2 penalty (default 0) */
  double momentum;     /**< momentum factor (default 0) */
  int32_t centered;    /**< nonzero: normalize by the estimated variance of the gradient */
} porta_rmsprop_options;
/** sizeof(porta_rmsprop_options) on LP64. */
#define PORTA_RMSPROP_OPTIONS_SIZE 56
PORTA_LAYOUT_FIELD(porta_rmsprop_options, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_rmsprop_options, lr, 8, 8)
PORTA_LAYOUT_FIELD(porta_rmsprop_options, alpha, 16, 8)
PORTA_LAYOUT_FIELD(porta_rmsprop_options, eps, 24, 8)
PORTA_LAYOUT_FIELD(porta_rmsprop_options, weight_decay, 32, 8)
PORTA_LAYOUT_FIELD(porta_rmsprop_options, momentum, 40, 8)
PORTA_LAYOUT_FIELD(porta_rmsprop_options, centered, 48, 4)
PORTA_LAYOUT_SIZE(porta_rmsprop_options, PORTA_RMSPROP_OPTIONS_SIZE)

/** torch.optim.Adagrad options. Since 1.5. */
typedef struct porta_adagrad_options {
  size_t struct_size;               /**< set by the caller: sizeof(porta_adagrad_options) */
  double lr;                        /**< learning rate (PyTorch default 1e-2) */
  double lr_decay;                  /**< (default 0) */
  double weight_decay;              /**< L2 penalty (default 0) */
  double initial_accumulator_value; /**< the sum's start (default 0) */
  double eps;                       /**< denominator term (default 1e-10) */
} porta_adagrad_options;
/** sizeof(porta_adagrad_options) on LP64. */
#define PORTA_ADAGRAD_OPTIONS_SIZE 48
PORTA_LAYOUT_FIELD(porta_adagrad_options, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_adagrad_options, lr, 8, 8)
PORTA_LAYOUT_FIELD(porta_adagrad_options, lr_decay, 16, 8)
PORTA_LAYOUT_FIELD(porta_adagrad_options, weight_decay, 24, 8)
PORTA_LAYOUT_FIELD(porta_adagrad_options, initial_accumulator_value, 32, 8)
PORTA_LAYOUT_FIELD(porta_adagrad_options, eps, 40, 8)
PORTA_LAYOUT_SIZE(porta_adagrad_options, PORTA_ADAGRAD_OPTIONS_SIZE)

/** SGD over `params` (n leaf tensors that require grad; references kept). Since 1.0. */
PORTA_EXPORT porta_status porta_sgd_create(porta_tensor* const* params, int32_t n,
                                           const porta_sgd_options* options, porta_optimizer** out);
/** Adam over `params`. Since 1.0. */
PORTA_EXPORT porta_status porta_adam_create(porta_tensor* const* params, int32_t n,
                                            const porta_adam_options* options, porta_optimizer** out);
/** AdamW (decoupled weight decay) over `params`. Since 1.0. */
PORTA_EXPORT porta_status porta_adamw_create(porta_tensor* const* params, int32_t n,
                                             const porta_adam_options* options, porta_optimizer** out);
/** RMSprop over `params` (options NULL: PyTorch's defaults). Its update is
 *  composed from elementwise ops on each parameter's device. Since 1.5. */
PORTA_EXPORT porta_status porta_rmsprop_create(porta_tensor* const* params, int32_t n,
                                               const porta_rmsprop_options* options, porta_optimizer** out);
/** Adagrad over `params` (options NULL: PyTorch's defaults), composed as
 *  RMSprop. Since 1.5. */
PORTA_EXPORT porta_status porta_adagrad_create(porta_tensor* const* params, int32_t n,
                                               const porta_adagrad_options* options, porta_optimizer** out);
/** One update of every parameter that has a gradient: one fused kernel per
 *  parameter on the parameter's device (RMSprop, Adagrad and amsgrad: a few
 *  elementwise ops). Not recorded by autograd. Since 1.0. */
PORTA_EXPORT porta_status porta_optimizer_step(porta_optimizer* opt);
/** Clears every parameter's gradient (PyTorch's set_to_none behaviour). Since 1.0. */
PORTA_EXPORT porta_status porta_optimizer_zero_grad(porta_optimizer* opt);
/** Sets the learning rate (for schedules). Since 1.0. */
PORTA_EXPORT porta_status porta_optimizer_set_lr(porta_optimizer* opt, double lr);
/** Reads the learning rate. Since 1.0. */
PORTA_EXPORT porta_status porta_optimizer_get_lr(const porta_optimizer* opt, double* out);
/** How many state tensors each parameter has: SGD 1 with momentum (the
 *  momentum buffer) else 0; Adam and AdamW 2 (exp_avg, exp_avg_sq), 3 with
 *  amsgrad (max_exp_avg_sq); RMSprop square_avg, then momentum_buffer with
 *  momentum, then grad_avg when centered; Adagrad 1 (sum). Since 1.2. */
PORTA_EXPORT porta_status porta_optimizer_state_slots(const porta_optimizer* opt, int32_t* out);
/** A copy of state `slot` of parameter `param` (its index in the list the
 *  optimizer was created with), on the parameter's device; *out is NULL
 *  before the parameter's first step. For checkpoints (state_dict). Since 1.2. */
PORTA_EXPORT porta_status porta_optimizer_get_state(const porta_optimizer* opt, int32_t param, int32_t slot,
                                                    porta_tensor** out);
/** Replaces state `slot` of parameter `param` with a copy of `state` (the
 *  parameter's shape, any float dtype and device: cast and moved to the
 *  parameter's). Adam's other moment, if not yet set, starts at zero. Since 1.2. */
PORTA_EXPORT porta_status porta_optimizer_set_state(porta_optimizer* opt, int32_t param, int32_t slot,
                                                    porta_tensor* state);
/** The number of steps parameter `param` has taken (Adam's bias correction uses it). Since 1.2. */
PORTA_EXPORT porta_status porta_optimizer_get_step(const porta_optimizer* opt, int32_t param, int64_t* out);
/** Sets it (>= 0), e.g. when restoring a checkpoint. Since 1.2. */
PORTA_EXPORT porta_status porta_optimizer_set_step(porta_optimizer* opt, int32_t param, int64_t step);
/** Master weights for float16 and bfloat16 parameters (enabled != 0): each
 *  steps a float32 copy of itself with float32 state, then takes the copy
 *  rounded to its dtype, so that updates smaller than its precision
 *  accumulate (a parameter written by anything else is copied again before
 *  its next step). Existing state converts; 0 turns it off (the copies go,
 *  the state converts back). Other parameters are unaffected. Off by
 *  default: the parameter's own dtype, as PyTorch's optimizers. Since 1.10. */
PORTA_EXPORT porta_status porta_optimizer_set_master_weights(porta_optimizer* opt, int32_t enabled);
/** A copy of parameter `param`'s float32 master weight, for checkpoints;
 *  *out is NULL when it has none (master weights off, a parameter that is not
 *  float16/bfloat16, no step yet, or the parameter was written since, so the
 *  next step copies it again). With master weights on, the state of such a
 *  parameter (get_state/set_state) is float32 as well. Since 1.14. */
PORTA_EXPORT porta_status porta_optimizer_get_master_weight(const porta_optimizer* opt, int32_t param,
                                                            porta_tensor** out);
/** Restores parameter `param`'s master weight from a copy of `master` (the
 *  parameter's shape, any float dtype and device: cast to float32 and moved
 *  to the parameter's), used by the next step unless the parameter is
 *  written before it. INVALID_ARGUMENT when master weights are off or the
 *  parameter is not float16/bfloat16. Since 1.14. */
PORTA_EXPORT porta_status porta_optimizer_set_master_weight(porta_optimizer* opt, int32_t param,
                                                            porta_tensor* master);
/** PyTorch's maximize=: nonzero steps every parameter of the optimizer with its negated gradient (ascent),
 *  before weight decay, as every PyTorch optimizer does; 0 (the default) descends. Since 1.12. */
PORTA_EXPORT porta_status porta_optimizer_set_maximize(porta_optimizer* opt, int32_t enabled);
/** Frees the optimizer and its state (the parameters live on). NULL: no-op. Since 1.0. */
PORTA_EXPORT void porta_optimizer_release(porta_optimizer* opt);

/* ======================== files and datasets ======================== */

/** An ordered list of named tensors (a state dict). Since 1.0. */
typedef struct porta_tensor_list porta_tensor_list;

/** Writes tensors (any device; copied to the host) to a safetensors file,
 *  replacing it atomically. Names must be unique and non-empty. Since 1.0. */
PORTA_EXPORT porta_status porta_safetensors_save(const char* path, const char* const* names,
                                                 porta_tensor* const* tensors, int32_t n);
/** Reads a safetensors file onto `device`. Malformed or truncated files
 *  fail with PORTA_ERROR_IO naming what is wrong. Since 1.0. */
PORTA_EXPORT porta_status porta_safetensors_load(const char* path, DLDevice device,
                                                 porta_tensor_list** out);
/** Number of entries in `list`. Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_list_size(const porta_tensor_list* list, int32_t* out);
/** Entry `index`: *name is owned by the list; *tensor is a new reference. Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_list_get(const porta_tensor_list* list, int32_t index,
                                                const char** name, porta_tensor** tensor);
/** Frees the list (tensors taken from it live on). NULL: no-op. Since 1.0. */
PORTA_EXPORT void porta_tensor_list_release(porta_tensor_list* list);

/** Reads an IDX file (the MNIST / Fashion-MNIST format), gzip-compressed or
 *  not, into a cpu tensor: unsigned byte -> uint8, int8/int16/int32 ->
 *  int32, float -> float32, double -> float64. Since 1.0. */
PORTA_EXPORT porta_status porta_read_idx(const char* path, porta_tensor** out);
/** Reads one CIFAR-10 binary batch file (data_batch_N.bin, test_batch.bin):
 *  *images uint8 [N, 3, 32, 32] and *labels int64 [N], on the cpu. Since 1.0. */
PORTA_EXPORT porta_status porta_read_cifar10(const char* path, porta_tensor** images,
                                             porta_tensor** labels);

/** A new cpu tensor in page-locked memory provided by `for_device`'s plugin
 *  (for fast, asynchronous copies to it); ordinary memory when that plugin
 *  has no pinned allocator. Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_empty_pinned(DLDataType dtype, const int64_t* shape,
                                                    int32_t ndim, DLDevice for_device,
                                                    porta_tensor** out);
/** 1 if `t` lives in page-locked host memory. Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_is_pinned(const porta_tensor* t, int* out);


/* ============================== DLPack ============================== */
/* Zero-copy exchange with other frameworks (NumPy, PyTorch, CuPy, JAX...),
 * DLPack >= 1.0. Exported data pointers: for kDLCPU and kDLCUDA the
 * pointer already includes the tensor's offset (byte_offset 0); for other
 * device types (kDLOpenCL: the cl_mem) data is the allocation handle and the
 * offset is in byte_offset. */

/** Largest ndim porta_from_dlpack* accepts (PORTA_MAX_DIMS). Since 1.0. */
#define PORTA_DLPACK_MAX_NDIM PORTA_MAX_DIMS

/** Exports `t` without copying. *out is owned by the caller (the consumer),
 *  who must call (*out)->deleter(*out) exactly once; until then t's storage
 *  stays alive, whatever happens to `t`. `strides` is always filled.
 *  A size-0 tensor exports data NULL (as dlpack.h allows).
 *  flags: DLPACK_FLAG_BITMASK_READ_ONLY is set when the tensor is read-only
 *  (imported read-only); other bits of `flags` given here are added
 *  (e.g. DLPACK_FLAG_BITMASK_IS_COPIED for an export of a fresh copy). Since 1.0. */
PORTA_EXPORT porta_status porta_to_dlpack_versioned(porta_tensor* t, uint64_t flags,
                                                    DLManagedTensorVersioned** out);
/** Legacy (pre-1.0) export, for consumers that only know DLManagedTensor.
 *  Read-only tensors are refused (the legacy struct cannot say so). Since 1.0. */
PORTA_EXPORT porta_status porta_to_dlpack(porta_tensor* t, DLManagedTensor** out);

/** Imports a DLPack tensor without copying. On success Porta owns `managed`
 *  and calls its deleter exactly once, when the last Porta tensor viewing it
 *  is released. byte_offset is honoured; NULL strides mean row-major.
 *  Rejected with a message naming the field (ownership then stays with the
 *  caller): an unknown dtype code or bits, lanes != 1, negative shape or
 *  strides, ndim outside [0, PORTA_DLPACK_MAX_NDIM], a device no loaded
 *  plugin serves, NULL data with elements, a first element not aligned to
 *  the element size, an extent beyond 2^63 bytes. One exception: a major version other than
 *  DLPACK_MAJOR_VERSION means the layout cannot be trusted, so Porta calls
 *  only the deleter (it consumes `managed`) and returns
 *  PORTA_ERROR_INVALID_ARGUMENT. DLPACK_FLAG_BITMASK_READ_ONLY makes a
 *  read-only tensor: in-place writes into it are refused. Since 1.0. */
PORTA_EXPORT porta_status porta_from_dlpack_versioned(DLManagedTensorVersioned* managed,
                                                      porta_tensor** out);
/** Legacy import, as porta_from_dlpack_versioned (never read-only). Since 1.0. */
PORTA_EXPORT porta_status porta_from_dlpack(DLManagedTensor* managed, porta_tensor** out);
/** 1 if `t` is read-only (imported with DLPACK_FLAG_BITMASK_READ_ONLY). Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_is_read_only(const porta_tensor* t, int* out);
/** Address of the first element for host-addressable devices (kDLCPU), or
 *  the device pointer for kDLCUDA; INVALID_ARGUMENT for other device types,
 *  whose memory is opaque. For bindings that wrap memory in place. Since 1.0. */
PORTA_EXPORT porta_status porta_tensor_data_ptr(const porta_tensor* t, void** out);

/* ====================== distributed (since 1.9) ====================== */
/* Process groups over communicator plugins (porta/comm.h), shaped like
 * torch.distributed: one default group per process, made by
 * porta_init_process_group; subgroups by porta_new_group. A group argument
 * NULL means the default group. Ranks passed to broadcast, send and recv are
 * ranks of the default group (torch.distributed's global ranks), also for a
 * subgroup. Each operation returns a work handle in *work, or, with work
 * NULL, waits for completion before it returns. Tensors on a device the
 * backend does not serve (mock, opencl) are staged through host memory: a
 * copy in and, for outputs, a copy back when the work completes. See
 * docs/distributed.md. */

/** A process group; opaque. Since 1.9. */
typedef struct porta_process_group porta_process_group;
/** An enqueued collective or transfer; opaque. Since 1.9. */
typedef struct porta_work porta_work;

/** How porta_init_process_group finds its peers. Set struct_size. Since 1.9. */
typedef struct porta_init_options {
  size_t struct_size;      /**< sizeof(porta_init_options), set by the caller */
  const char* backend;     /**< communicator plugin: "mpi" (NULL: "mpi") */
  /** The rendezvous store: "env://" (NULL or ""): a TCP store served by rank
   *  0 at $MASTER_ADDR:$MASTER_PORT (as torchrun and porta-run set them; a
   *  process started by mpirun without them has none); "tcp://<host>:<port>":
   *  the same at that address; "file://<dir>": a directory every rank reaches,
   *  fresh for each job. With a TCP store a wait ends early when a member's
   *  process dies, and a timeout names the ranks missing. */
  const char* init_method;
  int32_t rank;            /**< this process's rank; -1: $RANK, else the backend's launcher's (mpirun) */
  int32_t world_size;      /**< number of processes; -1: $WORLD_SIZE, else the launcher's */
  int64_t timeout_ms;      /**< limit for each operation and the rendezvous; <= 0: 30 minutes */
} porta_init_options;
/** sizeof(porta_init_options) on LP64. */
#define PORTA_INIT_OPTIONS_SIZE 40
PORTA_LAYOUT_FIELD(porta_init_options, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_init_options, backend, 8, 8)
PORTA_LAYOUT_FIELD(porta_init_options, init_method, 16, 8)
PORTA_LAYOUT_FIELD(porta_init_options, rank, 24, 4)
PORTA_LAYOUT_FIELD(porta_init_options, world_size, 28, 4)
PORTA_LAYOUT_FIELD(porta_init_options, timeout_ms, 32, 8)
PORTA_LAYOUT_SIZE(porta_init_options, PORTA_INIT_OPTIONS_SIZE)

/** Makes the default process group (a collective call: every rank calls
 *  it). INVALID_ARGUMENT when one exists or rank and size are unknown;
 *  NO_SUCH_DEVICE or BACKEND when the backend's plugin is missing or failed
 *  to load. Since 1.9. */
PORTA_EXPORT porta_status porta_init_process_group(const porta_init_options* options);
/** 1 when the default process group exists. Since 1.9. */
PORTA_EXPORT porta_status porta_is_initialized(int32_t* out);
/** Waits for `group`'s outstanding work and releases its communicators (a
 *  collective call over its ranks); NULL: every group, the default one last,
 *  after which porta_init_process_group may be called again. Handles stay
 *  valid until released; using a destroyed group is INVALID_HANDLE. Since 1.9. */
PORTA_EXPORT porta_status porta_destroy_process_group(porta_process_group* group);
/** A group of the default group's ranks `ranks` (num_ranks of them; 0: all),
 *  with its own timeout (<= 0: the default group's). Every rank of the
 *  default group calls it, in the same order; *out is NULL on a rank that
 *  is not a member. Release with porta_process_group_release. Since 1.9. */
PORTA_EXPORT porta_status porta_new_group(const int32_t* ranks, int32_t num_ranks, int64_t timeout_ms,
                                          porta_process_group** out);
/** Releases a handle from porta_new_group (NULL is a no-op); the group
 *  itself lives on until destroyed. Since 1.9. */
PORTA_EXPORT void porta_process_group_release(porta_process_group* group);
/** This process's rank in `group` (NULL: the default group). Since 1.9. */
PORTA_EXPORT porta_status porta_get_rank(const porta_process_group* group, int32_t* out);
/** The number of ranks in `group` (NULL: the default group). Since 1.9. */
PORTA_EXPORT porta_status porta_get_world_size(const porta_process_group* group, int32_t* out);
/** The name of `group`'s backend ("mpi"), owned by Porta. Since 1.9. */
PORTA_EXPORT porta_status porta_get_backend(const porta_process_group* group, const char** out);
/** The rank in the default group (torch.distributed's global rank) of
 *  `group`'s rank `group_rank` (NULL: the default group); INVALID_ARGUMENT
 *  when group_rank is outside the group. get_global_rank(group, 0) is the
 *  source a subgroup broadcasts its first member's values from. Since 1.14. */
PORTA_EXPORT porta_status porta_get_global_rank(const porta_process_group* group, int32_t group_rank,
                                                int32_t* out);

/** t = op over every rank's t (a porta_reduce_op; AVG needs a floating
 *  dtype; on bool, SUM and MAX are a logical or, PROD and MIN a logical and).
 *  Since 1.9. */
PORTA_EXPORT porta_status porta_all_reduce(porta_tensor* t, int32_t op, porta_process_group* group,
                                           porta_work** work);
/** t = rank `src`'s t on every rank. Since 1.9. */
PORTA_EXPORT porta_status porta_broadcast(porta_tensor* t, int32_t src, porta_process_group* group,
                                          porta_work** work);
/** out (world_size times in's elements, any shape) = every rank's `in`,
 *  rank r's at elements [r * numel(in), (r + 1) * numel(in)), as
 *  torch.distributed.all_gather_into_tensor. Since 1.9. */
PORTA_EXPORT porta_status porta_all_gather_into_tensor(porta_tensor* out, porta_tensor* in,
                                                       porta_process_group* group, porta_work** work);
/** out (in's elements / world_size) = op over every rank's `in`, this rank's
 *  share, as torch.distributed.reduce_scatter_tensor. Since 1.9. */
PORTA_EXPORT porta_status porta_reduce_scatter_tensor(porta_tensor* out, porta_tensor* in, int32_t op,
                                                      porta_process_group* group, porta_work** work);
/** Completes when every rank of `group` has called it. Since 1.9. */
PORTA_EXPORT porta_status porta_barrier(porta_process_group* group, porta_work** work);
/** t to rank `dst`, matched with its porta_recv by (rank, tag >= 0). Since 1.9. */
PORTA_EXPORT porta_status porta_send(porta_tensor* t, int32_t dst, int32_t tag, porta_process_group* group,
                                     porta_work** work);
/** Into t from rank `src`, matching its porta_send by (rank, tag). Since 1.9. */
PORTA_EXPORT porta_status porta_recv(porta_tensor* t, int32_t src, int32_t tag, porta_process_group* group,
                                     porta_work** work);

/** Waits up to timeout_ms (< 0: the group's timeout) for `work`, then copies
 *  its results into the caller's tensors: TIMEOUT names the op, its sequence
 *  number and group (the work may be waited on again); the op's failure is
 *  reported once and again by each later wait. Since 1.9. */
PORTA_EXPORT porta_status porta_work_wait(porta_work* work, int64_t timeout_ms);
/** *out = 1 when `work` has completed (finishing it as porta_work_wait
 *  does), else 0; never blocks. Since 1.9. */
PORTA_EXPORT porta_status porta_work_is_completed(porta_work* work, int32_t* out);
/** Releases a work handle; the operation goes on, and its buffers live
 *  until it completes. NULL is a no-op. Since 1.9. */
PORTA_EXPORT void porta_work_release(porta_work* work);

/** DistributedDataParallel's gradient reducer; opaque. Since 1.9. */
typedef struct porta_reducer porta_reducer;

/** Registers on `params` (leaves that require grad, in parameters() order)
 *  the hooks that all-reduce their gradients over `group` (NULL: the default
 *  group) in buckets while backward runs: reverse order, one device and
 *  dtype per bucket, the first at most first_bucket_bytes, the others
 *  bucket_bytes (<= 0: torch's 25 MiB; first_bucket_bytes <= 0: 1 MiB, or
 *  bucket_bytes when that is smaller). After a backward the
 *  parameters' .grad is the average over the ranks of their .grad plus
 *  this backward's gradient. A backward not prepared by
 *  porta_reducer_prepare_for_backward (no_sync) accumulates locally. The
 *  parameters' values are not touched: broadcast them first. Since 1.9. */
PORTA_EXPORT porta_status porta_reducer_create(porta_tensor* const* params, int32_t num_params,
                                               porta_process_group* group, int64_t bucket_bytes,
                                               int64_t first_bucket_bytes, int32_t find_unused_parameters,
                                               porta_reducer** out);
/** porta_reducer_create_with_options's settings. Set struct_size. Since 1.11. */
typedef struct porta_reducer_options {
  size_t struct_size;             /**< sizeof(porta_reducer_options), set by the caller */
  int64_t bucket_bytes;           /**< as porta_reducer_create's (<= 0: 25 MiB) */
  int64_t first_bucket_bytes;     /**< as porta_reducer_create's (<= 0: 1 MiB, or bucket_bytes if smaller) */
  int32_t find_unused_parameters; /**< as porta_reducer_create's */
  /** Non-zero: after a synchronized backward each parameter's .grad is its
   *  place in its bucket (a view), not a copy of it, as torch's
   *  DistributedDataParallel(gradient_as_bucket_view=True): no copy per
   *  backward and no second copy of the gradients in memory; .grad keeps
   *  its memory from one backward to the next (zero_grad(set_to_none=False)
   *  zeroes the bucket), and the next synchronized backward overwrites it. */
  int32_t gradient_as_bucket_view;
} porta_reducer_options;
/** sizeof(porta_reducer_options) on LP64. */
#define PORTA_REDUCER_OPTIONS_SIZE 32
PORTA_LAYOUT_FIELD(porta_reducer_options, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_reducer_options, bucket_bytes, 8, 8)
PORTA_LAYOUT_FIELD(porta_reducer_options, first_bucket_bytes, 16, 8)
PORTA_LAYOUT_FIELD(porta_reducer_options, find_unused_parameters, 24, 4)
PORTA_LAYOUT_FIELD(porta_reducer_options, gradient_as_bucket_view, 28, 4)
PORTA_LAYOUT_SIZE(porta_reducer_options, PORTA_REDUCER_OPTIONS_SIZE)

/** porta_reducer_create with every setting in `options` (INVALID_ARGUMENT
 *  when options is NULL or its struct_size is too small). Since 1.11. */
PORTA_EXPORT porta_status porta_reducer_create_with_options(porta_tensor* const* params, int32_t num_params,
                                                            porta_process_group* group,
                                                            const porta_reducer_options* options, porta_reducer** out);
/** Arms the reducer for the backward of this forward's `outputs` (every
 *  rank calls it, or none: no_sync). With find_unused_parameters, the
 *  parameters `outputs` do not reach are ready at once; an unused parameter
 *  takes the ranks' average, or keeps its .grad when no rank used it. Without
 *  it, a parameter that gets no gradient fails the backward, naming it. Since 1.9. */
PORTA_EXPORT porta_status porta_reducer_prepare_for_backward(porta_reducer* reducer, porta_tensor* const* outputs,
                                                             int32_t num_outputs);
/** The number of buckets the parameters were split into. Since 1.9. */
PORTA_EXPORT porta_status porta_reducer_bucket_count(const porta_reducer* reducer, int32_t* out);
/** Removes the hooks and releases the reducer (NULL is a no-op). Since 1.9. */
PORTA_EXPORT void porta_reducer_release(porta_reducer* reducer);

/* =================== mixed precision (since 1.10) =================== */
/* torch.autocast and torch.amp.GradScaler's device side. docs/api.md lists
 * the ops autocast converts. */

/** Opens an autocast region for the calling thread on device type
 *  `device_type` (a plugin's name: "cpu", "cuda", "opencl"), as
 *  torch.autocast(device_type, dtype, enabled): with `enabled`, the ops of
 *  PyTorch's lists take float32 operands on devices of that type in `dtype`
 *  (float16 or bfloat16: matmul, mm, bmm, addmm, baddbmm, einsum, linear,
 *  convolutions, attention, recurrent layers) and float16/bfloat16 operands in
 *  float32 (softmax, log_softmax, the losses, sum, prod, cumsum, cumprod,
 *  logsumexp, vector_norm, layer_norm, group_norm, softplus, exp, expm1, log,
 *  log2, log10, log1p, pow, asin, acos, tan, sinh, cosh, erfinv); every other
 *  op promotes as usual. A parameter (a leaf that requires grad) is
 *  converted once per region. enabled == 0 opens a region without autocast
 *  (nested in one that has it). Regions nest; close each with
 *  porta_autocast_exit on the same thread. Since 1.10. */
PORTA_EXPORT porta_status porta_autocast_enter(const char* device_type, DLDataType dtype, int32_t enabled);
/** Closes the calling thread's innermost autocast region on `device_type`,
 *  restoring the state before it; INVALID_ARGUMENT when none is open. The
 *  cache of converted parameters empties with the thread's outermost region.
 *  Since 1.10. */
PORTA_EXPORT porta_status porta_autocast_exit(const char* device_type);
/** Whether autocast is on for `device_type` on the calling thread, and its
 *  dtype (bfloat16 when off). Either pointer may be NULL. Since 1.10.
 *  Since 1.13 the dtype is PyTorch's get_autocast_dtype: the innermost
 *  region's, enabled or not, and outside every region the device type's
 *  default (bfloat16 on the CPU, float16 elsewhere). */
PORTA_EXPORT porta_status porta_autocast_state(const char* device_type, int32_t* enabled, DLDataType* dtype);

/** GradScaler's unscale, in place, as torch._amp_foreach_non_finite_check_and_unscale_:
 *  every tensor of `grads` (floating, all on found_inf's device) is multiplied
 *  by inv_scale, and found_inf (one float32 element) becomes 1 when any of
 *  them held an infinity or NaN before, else keeps its value. inv_scale: one
 *  float32 element on the same device. NULL entries are skipped. Since 1.10. */
PORTA_EXPORT porta_status porta_amp_unscale_(porta_tensor* const* grads, int32_t num_grads, porta_tensor* found_inf,
                                             porta_tensor* inv_scale);
/** GradScaler's update, in place, as torch._amp_update_scale_: with found_inf
 *  nonzero, scale *= backoff_factor and growth_tracker = 0; else
 *  growth_tracker += 1, and on reaching growth_interval, scale *=
 *  growth_factor and growth_tracker = 0. scale and found_inf: one float32
 *  element; growth_tracker: one int32 element; one device. growth_factor > 1,
 *  0 < backoff_factor < 1, growth_interval >= 1 (else INVALID_ARGUMENT).
 *  Since 1.10. */
PORTA_EXPORT porta_status porta_amp_update_scale_(porta_tensor* scale, porta_tensor* growth_tracker,
                                                  porta_tensor* found_inf, double growth_factor, double backoff_factor,
                                                  int32_t growth_interval);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PORTA_PORTA_H_ */
