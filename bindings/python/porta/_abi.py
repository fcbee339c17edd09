"""Generated from abi/porta/{types,porta,ops}.h by bindings/python/generate_signatures.py: do not edit.

Every enum value and integer #define of the headers (as module constants, and each enum as a dict
in ENUMS), the DLPack numbers porta.h's FFI section lists, and a ctypes Structure for every
porta_* struct of porta.h (STRUCTS: C name -> class)."""
from ctypes import POINTER, Structure, c_char, c_char_p, c_double, c_int, c_int32, c_int64, c_size_t, c_uint32, \
    c_uint64, c_void_p  # noqa: F401 (what the Structures below may use)

# ---- types.h
# porta_status
PORTA_OK = 0
PORTA_ERROR_INVALID_ARGUMENT = 1
PORTA_ERROR_DEVICE_MISMATCH = 2
PORTA_ERROR_SHAPE_MISMATCH = 3
PORTA_ERROR_UNSUPPORTED_DTYPE = 4
PORTA_ERROR_NO_SUCH_DEVICE = 5
PORTA_ERROR_NOT_IMPLEMENTED = 6
PORTA_ERROR_OUT_OF_MEMORY = 7
PORTA_ERROR_BACKEND = 8
PORTA_ERROR_INVALID_HANDLE = 9
PORTA_ERROR_IO = 10
PORTA_ERROR_INTERNAL = 11
PORTA_ERROR_TIMEOUT = 12
# porta_device_kind
PORTA_DEVICE_KIND_CPU = 0
PORTA_DEVICE_KIND_GPU = 1
PORTA_DEVICE_KIND_ACCELERATOR = 2
PORTA_DEVICE_KIND_VIRTUAL = 3
# porta_log_level
PORTA_LOG_DEBUG = 0
PORTA_LOG_INFO = 1
PORTA_LOG_WARN = 2
PORTA_LOG_ERROR = 3
PORTA_LOG_OFF = 4
# porta_reduce_op
PORTA_REDUCE_SUM = 0
PORTA_REDUCE_AVG = 1
PORTA_REDUCE_MAX = 2
PORTA_REDUCE_MIN = 3
PORTA_REDUCE_PROD = 4
PORTA_MAX_DIMS = 16

# ---- porta.h
PORTA_ABI_MAJOR = 1
PORTA_ABI_MINOR = 15
# porta_error_detail
PORTA_ERROR_DETAIL_NONE = 0
PORTA_ERROR_DETAIL_DIMENSION_OUT_OF_RANGE = 1
PORTA_OP_INFO_SIZE = 56
# porta_plugin_state
PORTA_PLUGIN_LOADED = 0
PORTA_PLUGIN_NO_DEVICES = 1
PORTA_PLUGIN_FAILED = 2
PORTA_PLUGIN_REJECTED = 3
PORTA_PLUGIN_EXCLUDED = 4
PORTA_PLUGIN_INFO_SIZE = 64
PORTA_DEVICE_INFO_SIZE = 168
PORTA_MEMORY_STATS_SIZE = 88
PORTA_GENERATOR_STATE_SIZE = 24
# porta_scalar_kind
PORTA_SCALAR_BOOL = 0
PORTA_SCALAR_INT = 1
PORTA_SCALAR_FLOAT = 2
PORTA_ALL_DIMS = -2147483648
# porta_gelu_approximation
PORTA_GELU_NONE = 0
PORTA_GELU_TANH = 1
PORTA_SCATTER_MEAN = 5
# porta_meshgrid_indexing
PORTA_MESHGRID_IJ = 0
PORTA_MESHGRID_XY = 1
PORTA_MESHGRID_INDEXING_INT32_ = 2147483647
PORTA_BACKWARD_OPTIONS_SIZE = 40
# porta_reduction
PORTA_REDUCTION_NONE = 0
PORTA_REDUCTION_MEAN = 1
PORTA_REDUCTION_SUM = 2
PORTA_REDUCTION_BATCHMEAN = 3
PORTA_REDUCTION_INT32_ = 2147483647
PORTA_CONV2D_OPTIONS_SIZE = 40
PORTA_POOL2D_OPTIONS_SIZE = 56
# porta_pad_mode
PORTA_PAD_CONSTANT = 0
PORTA_PAD_REFLECT = 1
PORTA_PAD_REPLICATE = 2
PORTA_PAD_CIRCULAR = 3
PORTA_PAD_MODE_INT32_ = 2147483647
# porta_interpolate_mode
PORTA_INTERPOLATE_NEAREST = 0
PORTA_INTERPOLATE_NEAREST_EXACT = 1
PORTA_INTERPOLATE_BILINEAR = 2
PORTA_INTERPOLATE_MODE_INT32_ = 2147483647
# porta_rnn_mode
PORTA_RNN_TANH = 0
PORTA_RNN_RELU = 1
PORTA_RNN_LSTM = 2
PORTA_RNN_GRU = 3
PORTA_RNN_MODE_INT32_ = 2147483647
PORTA_RNN_OPTIONS_SIZE = 40
PORTA_SGD_OPTIONS_SIZE = 48
PORTA_ADAM_OPTIONS_SIZE = 56
PORTA_RMSPROP_OPTIONS_SIZE = 56
PORTA_ADAGRAD_OPTIONS_SIZE = 48
PORTA_DLPACK_MAX_NDIM = 16
PORTA_INIT_OPTIONS_SIZE = 40
PORTA_REDUCER_OPTIONS_SIZE = 32

# ---- ops.h
# porta_op_dtypes
PORTA_DTYPES_ANY = 0
PORTA_DTYPES_NUMERIC = 1
PORTA_DTYPES_FLOAT = 2
PORTA_DTYPES_WIDE = 3
PORTA_DTYPES_INTEGRAL = 4
PORTA_DTYPES_INTEGER = 5
# porta_op_result
PORTA_RESULT_SAME = 0
PORTA_RESULT_FLOAT = 1
PORTA_RESULT_BOOL = 2
PORTA_RESULT_INDEX = 3
PORTA_RESULT_WIDE = 4
# porta_op_domain
PORTA_DOMAIN_REAL = 0
PORTA_DOMAIN_POSITIVE = 1
PORTA_DOMAIN_UNIT = 2
PORTA_DOMAIN_KINK_AT_ZERO = 3
PORTA_DOMAIN_STEPS = 4
PORTA_DOMAIN_QUOTIENT = 5
# porta_op_autocast
PORTA_AUTOCAST_PROMOTE = 0
PORTA_AUTOCAST_LOWER = 1
PORTA_AUTOCAST_FLOAT32_ON_ACCELERATORS = 2
# porta_op_kind
PORTA_OP_KIND_FACTORY = 0
PORTA_OP_KIND_COPY = 1
PORTA_OP_KIND_UNARY = 2
PORTA_OP_KIND_BINARY = 3
PORTA_OP_KIND_COMPARE = 4
PORTA_OP_KIND_WHERE = 5
PORTA_OP_KIND_REDUCE = 6
PORTA_OP_KIND_ARGREDUCE = 7
PORTA_OP_KIND_MATMUL = 8
PORTA_OP_KIND_CONV = 9
PORTA_OP_KIND_POOL = 10
PORTA_OP_KIND_SOFTMAX = 11
PORTA_OP_KIND_LOSS = 12
PORTA_OP_KIND_OPTIMIZER = 13
PORTA_OP_KIND_INDEX = 14
PORTA_OP_KIND_SCAN = 15
PORTA_OP_KIND_SORT = 16
PORTA_OP_KIND_NORM = 17
PORTA_OP_KIND_RNN = 18
PORTA_OP_KIND_RUNNING_EXTREME = 19
PORTA_FILL_PARAMS_SIZE = 24
PORTA_ARANGE_PARAMS_SIZE = 24
PORTA_RANDOM_PARAMS_SIZE = 40
PORTA_MATMUL_PARAMS_SIZE = 24
PORTA_CONV2D_PARAMS_SIZE = 48
PORTA_POOL2D_PARAMS_SIZE = 48
PORTA_SGD_PARAMS_SIZE = 48
PORTA_ADAM_PARAMS_SIZE = 64
# porta_scatter_reduce
PORTA_SCATTER_ASSIGN = 0
PORTA_SCATTER_SUM = 1
PORTA_SCATTER_PROD = 2
PORTA_SCATTER_AMAX = 3
PORTA_SCATTER_AMIN = 4
PORTA_INDEX_PARAMS_SIZE = 16
PORTA_SCAN_PARAMS_SIZE = 16
PORTA_SORT_PARAMS_SIZE = 24
PORTA_NORM_PARAMS_SIZE = 16

ENUMS = {
    "porta_status": {
        "PORTA_OK": PORTA_OK,
        "PORTA_ERROR_INVALID_ARGUMENT": PORTA_ERROR_INVALID_ARGUMENT,
        "PORTA_ERROR_DEVICE_MISMATCH": PORTA_ERROR_DEVICE_MISMATCH,
        "PORTA_ERROR_SHAPE_MISMATCH": PORTA_ERROR_SHAPE_MISMATCH,
        "PORTA_ERROR_UNSUPPORTED_DTYPE": PORTA_ERROR_UNSUPPORTED_DTYPE,
        "PORTA_ERROR_NO_SUCH_DEVICE": PORTA_ERROR_NO_SUCH_DEVICE,
        "PORTA_ERROR_NOT_IMPLEMENTED": PORTA_ERROR_NOT_IMPLEMENTED,
        "PORTA_ERROR_OUT_OF_MEMORY": PORTA_ERROR_OUT_OF_MEMORY,
        "PORTA_ERROR_BACKEND": PORTA_ERROR_BACKEND,
        "PORTA_ERROR_INVALID_HANDLE": PORTA_ERROR_INVALID_HANDLE,
        "PORTA_ERROR_IO": PORTA_ERROR_IO,
        "PORTA_ERROR_INTERNAL": PORTA_ERROR_INTERNAL,
        "PORTA_ERROR_TIMEOUT": PORTA_ERROR_TIMEOUT,
    },
    "porta_device_kind": {
        "PORTA_DEVICE_KIND_CPU": PORTA_DEVICE_KIND_CPU,
        "PORTA_DEVICE_KIND_GPU": PORTA_DEVICE_KIND_GPU,
        "PORTA_DEVICE_KIND_ACCELERATOR": PORTA_DEVICE_KIND_ACCELERATOR,
        "PORTA_DEVICE_KIND_VIRTUAL": PORTA_DEVICE_KIND_VIRTUAL,
    },
    "porta_log_level": {
        "PORTA_LOG_DEBUG": PORTA_LOG_DEBUG,
        "PORTA_LOG_INFO": PORTA_LOG_INFO,
        "PORTA_LOG_WARN": PORTA_LOG_WARN,
        "PORTA_LOG_ERROR": PORTA_LOG_ERROR,
        "PORTA_LOG_OFF": PORTA_LOG_OFF,
    },
    "porta_reduce_op": {
        "PORTA_REDUCE_SUM": PORTA_REDUCE_SUM,
        "PORTA_REDUCE_AVG": PORTA_REDUCE_AVG,
        "PORTA_REDUCE_MAX": PORTA_REDUCE_MAX,
        "PORTA_REDUCE_MIN": PORTA_REDUCE_MIN,
        "PORTA_REDUCE_PROD": PORTA_REDUCE_PROD,
    },
    "porta_error_detail": {
        "PORTA_ERROR_DETAIL_NONE": PORTA_ERROR_DETAIL_NONE,
        "PORTA_ERROR_DETAIL_DIMENSION_OUT_OF_RANGE": PORTA_ERROR_DETAIL_DIMENSION_OUT_OF_RANGE,
    },
    "porta_plugin_state": {
        "PORTA_PLUGIN_LOADED": PORTA_PLUGIN_LOADED,
        "PORTA_PLUGIN_NO_DEVICES": PORTA_PLUGIN_NO_DEVICES,
        "PORTA_PLUGIN_FAILED": PORTA_PLUGIN_FAILED,
        "PORTA_PLUGIN_REJECTED": PORTA_PLUGIN_REJECTED,
        "PORTA_PLUGIN_EXCLUDED": PORTA_PLUGIN_EXCLUDED,
    },
    "porta_scalar_kind": {
        "PORTA_SCALAR_BOOL": PORTA_SCALAR_BOOL,
        "PORTA_SCALAR_INT": PORTA_SCALAR_INT,
        "PORTA_SCALAR_FLOAT": PORTA_SCALAR_FLOAT,
    },
    "porta_gelu_approximation": {
        "PORTA_GELU_NONE": PORTA_GELU_NONE,
        "PORTA_GELU_TANH": PORTA_GELU_TANH,
    },
    "porta_meshgrid_indexing": {
        "PORTA_MESHGRID_IJ": PORTA_MESHGRID_IJ,
        "PORTA_MESHGRID_XY": PORTA_MESHGRID_XY,
        "PORTA_MESHGRID_INDEXING_INT32_": PORTA_MESHGRID_INDEXING_INT32_,
    },
    "porta_reduction": {
        "PORTA_REDUCTION_NONE": PORTA_REDUCTION_NONE,
        "PORTA_REDUCTION_MEAN": PORTA_REDUCTION_MEAN,
        "PORTA_REDUCTION_SUM": PORTA_REDUCTION_SUM,
        "PORTA_REDUCTION_BATCHMEAN": PORTA_REDUCTION_BATCHMEAN,
        "PORTA_REDUCTION_INT32_": PORTA_REDUCTION_INT32_,
    },
    "porta_pad_mode": {
        "PORTA_PAD_CONSTANT": PORTA_PAD_CONSTANT,
        "PORTA_PAD_REFLECT": PORTA_PAD_REFLECT,
        "PORTA_PAD_REPLICATE": PORTA_PAD_REPLICATE,
        "PORTA_PAD_CIRCULAR": PORTA_PAD_CIRCULAR,
        "PORTA_PAD_MODE_INT32_": PORTA_PAD_MODE_INT32_,
    },
    "porta_interpolate_mode": {
        "PORTA_INTERPOLATE_NEAREST": PORTA_INTERPOLATE_NEAREST,
        "PORTA_INTERPOLATE_NEAREST_EXACT": PORTA_INTERPOLATE_NEAREST_EXACT,
        "PORTA_INTERPOLATE_BILINEAR": PORTA_INTERPOLATE_BILINEAR,
        "PORTA_INTERPOLATE_MODE_INT32_": PORTA_INTERPOLATE_MODE_INT32_,
    },
    "porta_rnn_mode": {
        "PORTA_RNN_TANH": PORTA_RNN_TANH,
        "PORTA_RNN_RELU": PORTA_RNN_RELU,
        "PORTA_RNN_LSTM": PORTA_RNN_LSTM,
        "PORTA_RNN_GRU": PORTA_RNN_GRU,
        "PORTA_RNN_MODE_INT32_": PORTA_RNN_MODE_INT32_,
    },
    "porta_op_dtypes": {
        "PORTA_DTYPES_ANY": PORTA_DTYPES_ANY,
        "PORTA_DTYPES_NUMERIC": PORTA_DTYPES_NUMERIC,
        "PORTA_DTYPES_FLOAT": PORTA_DTYPES_FLOAT,
        "PORTA_DTYPES_WIDE": PORTA_DTYPES_WIDE,
        "PORTA_DTYPES_INTEGRAL": PORTA_DTYPES_INTEGRAL,
        "PORTA_DTYPES_INTEGER": PORTA_DTYPES_INTEGER,
    },
    "porta_op_result": {
        "PORTA_RESULT_SAME": PORTA_RESULT_SAME,
        "PORTA_RESULT_FLOAT": PORTA_RESULT_FLOAT,
        "PORTA_RESULT_BOOL": PORTA_RESULT_BOOL,
        "PORTA_RESULT_INDEX": PORTA_RESULT_INDEX,
        "PORTA_RESULT_WIDE": PORTA_RESULT_WIDE,
    },
    "porta_op_domain": {
        "PORTA_DOMAIN_REAL": PORTA_DOMAIN_REAL,
        "PORTA_DOMAIN_POSITIVE": PORTA_DOMAIN_POSITIVE,
        "PORTA_DOMAIN_UNIT": PORTA_DOMAIN_UNIT,
        "PORTA_DOMAIN_KINK_AT_ZERO": PORTA_DOMAIN_KINK_AT_ZERO,
        "PORTA_DOMAIN_STEPS": PORTA_DOMAIN_STEPS,
        "PORTA_DOMAIN_QUOTIENT": PORTA_DOMAIN_QUOTIENT,
    },
    "porta_op_autocast": {
        "PORTA_AUTOCAST_PROMOTE": PORTA_AUTOCAST_PROMOTE,
        "PORTA_AUTOCAST_LOWER": PORTA_AUTOCAST_LOWER,
        "PORTA_AUTOCAST_FLOAT32_ON_ACCELERATORS": PORTA_AUTOCAST_FLOAT32_ON_ACCELERATORS,
    },
    "porta_op_kind": {
        "PORTA_OP_KIND_FACTORY": PORTA_OP_KIND_FACTORY,
        "PORTA_OP_KIND_COPY": PORTA_OP_KIND_COPY,
        "PORTA_OP_KIND_UNARY": PORTA_OP_KIND_UNARY,
        "PORTA_OP_KIND_BINARY": PORTA_OP_KIND_BINARY,
        "PORTA_OP_KIND_COMPARE": PORTA_OP_KIND_COMPARE,
        "PORTA_OP_KIND_WHERE": PORTA_OP_KIND_WHERE,
        "PORTA_OP_KIND_REDUCE": PORTA_OP_KIND_REDUCE,
        "PORTA_OP_KIND_ARGREDUCE": PORTA_OP_KIND_ARGREDUCE,
        "PORTA_OP_KIND_MATMUL": PORTA_OP_KIND_MATMUL,
        "PORTA_OP_KIND_CONV": PORTA_OP_KIND_CONV,
        "PORTA_OP_KIND_POOL": PORTA_OP_KIND_POOL,
        "PORTA_OP_KIND_SOFTMAX": PORTA_OP_KIND_SOFTMAX,
        "PORTA_OP_KIND_LOSS": PORTA_OP_KIND_LOSS,
        "PORTA_OP_KIND_OPTIMIZER": PORTA_OP_KIND_OPTIMIZER,
        "PORTA_OP_KIND_INDEX": PORTA_OP_KIND_INDEX,
        "PORTA_OP_KIND_SCAN": PORTA_OP_KIND_SCAN,
        "PORTA_OP_KIND_SORT": PORTA_OP_KIND_SORT,
        "PORTA_OP_KIND_NORM": PORTA_OP_KIND_NORM,
        "PORTA_OP_KIND_RNN": PORTA_OP_KIND_RNN,
        "PORTA_OP_KIND_RUNNING_EXTREME": PORTA_OP_KIND_RUNNING_EXTREME,
    },
    "porta_scatter_reduce": {
        "PORTA_SCATTER_ASSIGN": PORTA_SCATTER_ASSIGN,
        "PORTA_SCATTER_SUM": PORTA_SCATTER_SUM,
        "PORTA_SCATTER_PROD": PORTA_SCATTER_PROD,
        "PORTA_SCATTER_AMAX": PORTA_SCATTER_AMAX,
        "PORTA_SCATTER_AMIN": PORTA_SCATTER_AMIN,
    },
}

# ---- DLPack (dlpack.h), as porta.h's "For other languages (FFI)" section lists them
DLPACK_MAJOR_VERSION = 1
kDLCPU = 1
kDLCUDA = 2
kDLOpenCL = 4
kDLExtDev = 12
kDLInt = 0
kDLUInt = 1
kDLFloat = 2
kDLBfloat = 4
kDLBool = 6
DLPACK_FLAG_BITMASK_READ_ONLY = 1
DLPACK_FLAG_BITMASK_IS_COPIED = 2

# ---- porta.h's structs


class OpInfo(Structure):
    """porta_op_info."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("name", c_char_p),
        ("id", c_int32),
        ("kind", c_int32),
        ("inputs", c_int32),
        ("dtypes", c_int32),
        ("result", c_int32),
        ("differentiable", c_int32),
        ("doc", c_char_p),
        ("kind_name", c_char_p),
    ]


class PluginInfo(Structure):
    """porta_plugin_info."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("path", c_char_p),
        ("name", c_char_p),
        ("version", c_char_p),
        ("reason", c_char_p),
        ("state", c_int32),
        ("device_type", c_int32),
        ("device_count", c_int32),
        ("abi_major", c_uint32),
        ("abi_minor", c_uint32),
    ]


class DeviceInfo(Structure):
    """porta_device_info."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("name", c_char * 128),
        ("memory_total", c_uint64),
        ("memory_free", c_uint64),
        ("compute_units", c_int32),
        ("kind", c_int32),
        ("capability_major", c_int32),
        ("capability_minor", c_int32),
    ]


class MemoryStats(Structure):
    """porta_memory_stats."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("allocated_bytes", c_uint64),
        ("reserved_bytes", c_uint64),
        ("peak_allocated_bytes", c_uint64),
        ("allocations", c_uint64),
        ("cache_hits", c_uint64),
        ("device_allocations", c_uint64),
        ("device_frees", c_uint64),
        ("bytes_to_device", c_uint64),
        ("bytes_from_device", c_uint64),
        ("peak_reserved_bytes", c_uint64),
    ]


class GeneratorState(Structure):
    """porta_generator_state."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("seed", c_uint64),
        ("offset", c_uint64),
    ]


class BackwardOptions(Structure):
    """porta_backward_options."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("retain_graph", c_int32),
        ("create_graph", c_int32),
        ("inputs", POINTER(c_void_p)),
        ("num_inputs", c_int32),
        ("allow_unused", c_int32),
        ("grads_out", POINTER(c_void_p)),
    ]


class Conv2dOptions(Structure):
    """porta_conv2d_options."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("stride", c_int32 * 2),
        ("padding", c_int32 * 2),
        ("dilation", c_int32 * 2),
        ("groups", c_int32),
    ]


class Pool2dOptions(Structure):
    """porta_pool2d_options."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("kernel", c_int32 * 2),
        ("stride", c_int32 * 2),
        ("padding", c_int32 * 2),
        ("dilation", c_int32 * 2),
        ("count_include_pad", c_int32),
        ("reserved", c_int32),
        ("ceil_mode", c_int32),
    ]


class RnnOptions(Structure):
    """porta_rnn_options."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("mode", c_int32),
        ("num_layers", c_int32),
        ("bidirectional", c_int32),
        ("batch_first", c_int32),
        ("has_biases", c_int32),
        ("training", c_int32),
        ("dropout", c_double),
    ]


class SgdOptions(Structure):
    """porta_sgd_options."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("lr", c_double),
        ("momentum", c_double),
        ("dampening", c_double),
        ("weight_decay", c_double),
        ("nesterov", c_int32),
    ]


class AdamOptions(Structure):
    """porta_adam_options."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("lr", c_double),
        ("beta1", c_double),
        ("beta2", c_double),
        ("eps", c_double),
        ("weight_decay", c_double),
        ("amsgrad", c_int32),
    ]


class RmspropOptions(Structure):
    """porta_rmsprop_options."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("lr", c_double),
        ("alpha", c_double),
        ("eps", c_double),
        ("weight_decay", c_double),
        ("momentum", c_double),
        ("centered", c_int32),
    ]


class AdagradOptions(Structure):
    """porta_adagrad_options."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("lr", c_double),
        ("lr_decay", c_double),
        ("weight_decay", c_double),
        ("initial_accumulator_value", c_double),
        ("eps", c_double),
    ]


class InitOptions(Structure):
    """porta_init_options."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("backend", c_char_p),
        ("init_method", c_char_p),
        ("rank", c_int32),
        ("world_size", c_int32),
        ("timeout_ms", c_int64),
    ]


class ReducerOptions(Structure):
    """porta_reducer_options."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("bucket_bytes", c_int64),
        ("first_bucket_bytes", c_int64),
        ("find_unused_parameters", c_int32),
        ("gradient_as_bucket_view", c_int32),
    ]


STRUCTS = {
    "porta_op_info": OpInfo,
    "porta_plugin_info": PluginInfo,
    "porta_device_info": DeviceInfo,
    "porta_memory_stats": MemoryStats,
    "porta_generator_state": GeneratorState,
    "porta_backward_options": BackwardOptions,
    "porta_conv2d_options": Conv2dOptions,
    "porta_pool2d_options": Pool2dOptions,
    "porta_rnn_options": RnnOptions,
    "porta_sgd_options": SgdOptions,
    "porta_adam_options": AdamOptions,
    "porta_rmsprop_options": RmspropOptions,
    "porta_adagrad_options": AdagradOptions,
    "porta_init_options": InitOptions,
    "porta_reducer_options": ReducerOptions,
}

# ---- ops.h's op table: the columns porta_op_get_info does not report, by op name
# (id, since: the plugin ABI minor, domain, autocast, vector)
OP_TRAITS = {
    "full": (0, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "arange": (1, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "rand_uniform": (2, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "rand_normal": (3, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "copy": (4, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "cast": (5, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "neg": (6, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "exp": (7, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_FLOAT32_ON_ACCELERATORS, "SLEEF(exp, u10)"),
    "log": (8, 0, PORTA_DOMAIN_POSITIVE, PORTA_AUTOCAST_FLOAT32_ON_ACCELERATORS, "SLEEF(log, u10)"),
    "sqrt": (9, 0, PORTA_DOMAIN_POSITIVE, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "relu": (10, 0, PORTA_DOMAIN_KINK_AT_ZERO, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "sigmoid": (11, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SLEEF(exp, u10)"),
    "tanh": (12, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SLEEF(tanh, u35)"),
    "abs": (13, 0, PORTA_DOMAIN_KINK_AT_ZERO, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "add": (14, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "sub": (15, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "mul": (16, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "div": (17, 0, PORTA_DOMAIN_POSITIVE, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "pow": (18, 0, PORTA_DOMAIN_POSITIVE, PORTA_AUTOCAST_FLOAT32_ON_ACCELERATORS, "SCALAR"),
    "maximum": (19, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "minimum": (20, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "eq": (21, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "ne": (22, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "lt": (23, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "le": (24, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "gt": (25, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "ge": (26, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "where": (27, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "sum": (28, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_FLOAT32_ON_ACCELERATORS, "SCALAR"),
    "mean": (29, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "max": (30, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "min": (31, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "argmax": (32, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "argmin": (33, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "matmul": (34, 0, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_LOWER, "SCALAR"),
    "im2col": (35, 1, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "col2im": (36, 1, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "max_pool2d": (37, 1, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "max_pool2d_backward": (38, 1, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "avg_pool2d": (39, 1, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "avg_pool2d_backward": (40, 1, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "softmax": (41, 1, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "log_softmax": (42, 1, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "softmax_backward": (43, 1, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "log_softmax_backward": (44, 1, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "cross_entropy": (45, 1, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "cross_entropy_backward": (46, 1, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "sgd_step": (47, 1, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "adam_step": (48, 1, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "sin": (49, 3, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SLEEF(sin, u10)"),
    "cos": (50, 3, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SLEEF(cos, u10)"),
    "tan": (51, 3, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_FLOAT32_ON_ACCELERATORS, "SLEEF(tan, u10)"),
    "asin": (52, 3, PORTA_DOMAIN_UNIT, PORTA_AUTOCAST_FLOAT32_ON_ACCELERATORS, "SLEEF(asin, u10)"),
    "acos": (53, 3, PORTA_DOMAIN_UNIT, PORTA_AUTOCAST_FLOAT32_ON_ACCELERATORS, "SLEEF(acos, u10)"),
    "atan": (54, 3, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SLEEF(atan, u10)"),
    "sinh": (55, 3, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_FLOAT32_ON_ACCELERATORS, "SLEEF(sinh, u10)"),
    "cosh": (56, 3, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_FLOAT32_ON_ACCELERATORS, "SLEEF(cosh, u10)"),
    "floor": (57, 3, PORTA_DOMAIN_STEPS, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "ceil": (58, 3, PORTA_DOMAIN_STEPS, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "round": (59, 3, PORTA_DOMAIN_STEPS, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "trunc": (60, 3, PORTA_DOMAIN_STEPS, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "sign": (61, 3, PORTA_DOMAIN_STEPS, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "erf": (62, 3, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SLEEF(erf, u10)"),
    "erfinv": (63, 3, PORTA_DOMAIN_UNIT, PORTA_AUTOCAST_FLOAT32_ON_ACCELERATORS, "SCALAR"),
    "log1p": (64, 3, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_FLOAT32_ON_ACCELERATORS, "SLEEF(log1p, u10)"),
    "expm1": (65, 3, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_FLOAT32_ON_ACCELERATORS, "SLEEF(expm1, u10)"),
    "log2": (66, 3, PORTA_DOMAIN_POSITIVE, PORTA_AUTOCAST_FLOAT32_ON_ACCELERATORS, "SLEEF(log2, u10)"),
    "log10": (67, 3, PORTA_DOMAIN_POSITIVE, PORTA_AUTOCAST_FLOAT32_ON_ACCELERATORS, "SLEEF(log10, u10)"),
    "exp2": (68, 3, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SLEEF(exp2, u10)"),
    "atan2": (69, 3, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "remainder": (70, 3, PORTA_DOMAIN_QUOTIENT, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "fmod": (71, 3, PORTA_DOMAIN_QUOTIENT, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "floor_divide": (72, 3, PORTA_DOMAIN_QUOTIENT, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "asinh": (73, 3, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SLEEF(asinh, u10)"),
    "gather": (74, 4, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "scatter": (75, 4, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "cumsum": (76, 4, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_FLOAT32_ON_ACCELERATORS, "SCALAR"),
    "cumprod": (77, 4, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_FLOAT32_ON_ACCELERATORS, "SCALAR"),
    "sort": (78, 5, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "layer_norm": (79, 7, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "layer_norm_backward": (80, 7, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "batch_norm": (81, 7, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "batch_norm_backward": (82, 7, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "conv2d": (83, 7, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "conv2d_backward_input": (84, 7, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "conv2d_backward_weight": (85, 7, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "lstm_cell": (86, 7, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "lstm_cell_backward": (87, 7, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "cummax": (88, 8, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "cummin": (89, 8, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "bitwise_and": (90, 11, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "bitwise_or": (91, 11, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "bitwise_xor": (92, 11, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "bitwise_not": (93, 11, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "bitwise_left_shift": (94, 11, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
    "bitwise_right_shift": (95, 11, PORTA_DOMAIN_REAL, PORTA_AUTOCAST_PROMOTE, "SCALAR"),
}
