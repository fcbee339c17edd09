/* The published ABI, fixed at compile time. The struct layouts live in the
 * headers themselves (porta/types.h explains them): every struct of
 * plugin.h, ops.h, porta.h and comm.h is followed by its PORTA_<NAME>_SIZE
 * constant and a PORTA_LAYOUT_ line per field, checked by every C11 and C++
 * file that includes it, so they are not restated here; abi.LayoutInHeaders
 * (layout_count.cmake) checks that no struct lacks them. What stays here is
 * what only this file checks: the values of the ABI enums and limits, the
 * 1.0 plugin table's size and DLPack's small structs (the sizes porta.h's
 * "For other languages (FFI)" section lists: tests/unit/test_ffi_values.cpp
 * against sizeof, which the headers fix). Compiled (as C11, so that the
 * headers' asserts are live) into porta_abi_runtime_tests. */
#include <porta/comm.h>
#include <porta/plugin.h>
#include <porta/porta.h>
#include <stddef.h>

#if !defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L
#error "compile as C11 or later: the headers' layout asserts are _Static_assert"
#endif

/* A field at its offset, of its width (DLPack's structs, on every ABI). */
#define AT(type, field, offset, width)                                          \
  _Static_assert(offsetof(type, field) == (offset), #type "." #field " moved"); \
  _Static_assert(sizeof(((type*)0)->field) == (width), #type "." #field " changed width")

#if defined(__LP64__) || defined(_LP64)
/* porta_plugin_api as the 1.0 plugins built it (the loader accepts it) */
_Static_assert(PORTA_PLUGIN_API_SIZE_1_0 == 128, "the 1.0 table size changed");
#endif

/* ============ on every ABI: enum values, limits and DLPack's small structs ============ */

/* enum values are part of the ABI too */
_Static_assert(PORTA_PLUGIN_REJECTED == 3 && PORTA_PLUGIN_EXCLUDED == 4, "porta_plugin_state values moved");
_Static_assert(PORTA_LOG_DEBUG == 0 && PORTA_LOG_WARN == 2 && PORTA_LOG_ERROR == 3 && PORTA_LOG_OFF == 4,
               "porta_log_level values moved");

/* What porta.h's "For other languages (FFI)" section tells bindings, fixed here
 * (tests/unit/test_ffi_values.cpp checks that the section says the same; its
 * struct sizes are the headers' PORTA_<NAME>_SIZE constants). */
_Static_assert(PORTA_OK == 0 && PORTA_ERROR_INVALID_ARGUMENT == 1 && PORTA_ERROR_DEVICE_MISMATCH == 2 &&
                   PORTA_ERROR_SHAPE_MISMATCH == 3 && PORTA_ERROR_UNSUPPORTED_DTYPE == 4 &&
                   PORTA_ERROR_NO_SUCH_DEVICE == 5 && PORTA_ERROR_NOT_IMPLEMENTED == 6 &&
                   PORTA_ERROR_OUT_OF_MEMORY == 7 && PORTA_ERROR_BACKEND == 8 && PORTA_ERROR_INVALID_HANDLE == 9 &&
                   PORTA_ERROR_IO == 10 && PORTA_ERROR_INTERNAL == 11 && PORTA_ERROR_TIMEOUT == 12,
               "porta_status values moved");
_Static_assert(PORTA_DEVICE_KIND_CPU == 0 && PORTA_DEVICE_KIND_GPU == 1 && PORTA_DEVICE_KIND_ACCELERATOR == 2 &&
                   PORTA_DEVICE_KIND_VIRTUAL == 3,
               "porta_device_kind values moved");
_Static_assert(PORTA_LOG_INFO == 1, "porta_log_level values moved");
_Static_assert(PORTA_PLUGIN_LOADED == 0 && PORTA_PLUGIN_NO_DEVICES == 1 && PORTA_PLUGIN_FAILED == 2,
               "porta_plugin_state values moved");
_Static_assert(PORTA_REDUCTION_NONE == 0 && PORTA_REDUCTION_MEAN == 1 && PORTA_REDUCTION_SUM == 2,
               "porta_reduction values moved");
_Static_assert(PORTA_RNN_TANH == 0 && PORTA_RNN_RELU == 1 && PORTA_RNN_LSTM == 2 && PORTA_RNN_GRU == 3 &&
                   sizeof(porta_rnn_mode) == 4,
               "porta_rnn_mode values moved");
_Static_assert(PORTA_PAD_CONSTANT == 0 && PORTA_PAD_REFLECT == 1 && PORTA_PAD_REPLICATE == 2 &&
                   PORTA_PAD_CIRCULAR == 3 && sizeof(porta_pad_mode) == 4,
               "porta_pad_mode values moved");
_Static_assert(PORTA_INTERPOLATE_NEAREST == 0 && PORTA_INTERPOLATE_NEAREST_EXACT == 1 &&
                   PORTA_INTERPOLATE_BILINEAR == 2 && sizeof(porta_interpolate_mode) == 4,
               "porta_interpolate_mode values moved");
_Static_assert(PORTA_MESHGRID_IJ == 0 && PORTA_MESHGRID_XY == 1 && sizeof(porta_meshgrid_indexing) == 4,
               "porta_meshgrid_indexing values moved");
_Static_assert(PORTA_SCALAR_BOOL == 0 && PORTA_SCALAR_INT == 1 && PORTA_SCALAR_FLOAT == 2 &&
                   sizeof(porta_scalar_kind) == 4,
               "porta_scalar_kind values moved");
_Static_assert(PORTA_OP_NEG == 6 && PORTA_OP_ABS == 13 && PORTA_OP_ADD == 14 && PORTA_OP_MINIMUM == 20 &&
                   PORTA_OP_EQ == 21 && PORTA_OP_GE == 26,
               "the in-place calls' op ids moved");
_Static_assert(PORTA_PLUGIN_CAP_FORK_SAFE == 1 && PORTA_PLUGIN_CAP_CHECKS_INDEX_RANGE == 2,
               "plugin capability bits moved");
_Static_assert(PORTA_OP_KIND_SCAN == 15 && PORTA_OP_KIND_RNN == 18 && PORTA_OP_KIND_RUNNING_EXTREME == 19,
               "op kinds moved");
_Static_assert(PORTA_OP_LAYER_NORM == 79 && PORTA_OP_LSTM_CELL_BACKWARD == 87 && PORTA_OP_CUMMAX == 88 &&
                   PORTA_OP_CUMMIN == 89,
               "plugin ABI 1.7-1.8 op ids moved");
_Static_assert(PORTA_ABI_MAJOR == 1 && PORTA_MAX_DIMS == 16 && PORTA_DLPACK_MAX_NDIM == 16 &&
                   PORTA_ALL_DIMS == -2147483647 - 1,
               "a documented limit changed");
_Static_assert(sizeof(porta_status) == 4 && sizeof(porta_reduction) == 4, "enums are not 32-bit");
_Static_assert(kDLCPU == 1 && kDLCUDA == 2 && kDLOpenCL == 4 && kDLExtDev == 12, "DLDeviceType values moved");
_Static_assert(kDLInt == 0 && kDLUInt == 1 && kDLFloat == 2 && kDLBool == 6, "DLDataTypeCode values moved");
_Static_assert(DLPACK_MAJOR_VERSION == 1 && DLPACK_FLAG_BITMASK_READ_ONLY == 1 && DLPACK_FLAG_BITMASK_IS_COPIED == 2,
               "DLPack's version or flags changed");
AT(DLDevice, device_type, 0, 4);
AT(DLDevice, device_id, 4, 4);
_Static_assert(sizeof(DLDevice) == 8 && _Alignof(DLDevice) == 4, "DLDevice's layout changed");
AT(DLDataType, code, 0, 1);
AT(DLDataType, bits, 1, 1);
AT(DLDataType, lanes, 2, 2);
_Static_assert(sizeof(DLDataType) == 4 && _Alignof(DLDataType) == 2, "DLDataType's layout changed");
