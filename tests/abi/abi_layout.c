/* The published layout of the ABI tables and enums, fixed at compile time
 * (x86-64 / LP64): appending is the only change a minor version may make, so
 * an offset that moves fails the build. Compiled into porta_abi_runtime_tests. */
#include <porta/plugin.h>
#include <porta/porta.h>
#include <stddef.h>

#define AT(type, field, offset) _Static_assert(offsetof(type, field) == (offset), #type "." #field " moved")

/* plugin ABI: the host table (1.0, num_threads since 1.2) */
AT(porta_host_api, struct_size, 0);
AT(porta_host_api, abi_major, 8);
AT(porta_host_api, abi_minor, 12);
AT(porta_host_api, set_error, 16);
AT(porta_host_api, log, 24);
AT(porta_host_api, num_threads, 32);
_Static_assert(sizeof(porta_host_api) == 40, "porta_host_api grew without a new field's assert");

/* plugin ABI: the plugin table (1.0 up to find_kernel, then the 1.1 slots, capabilities since 1.2) */
AT(porta_plugin_api, struct_size, 0);
AT(porta_plugin_api, name, 16);
AT(porta_plugin_api, device_type, 24);
AT(porta_plugin_api, initialize, 40);
AT(porta_plugin_api, find_kernel, 120);
AT(porta_plugin_api, copy_between_devices, 128);
AT(porta_plugin_api, alloc_pinned_host, 136);
AT(porta_plugin_api, free_pinned_host, 144);
AT(porta_plugin_api, capabilities, 152);
_Static_assert(PORTA_PLUGIN_API_SIZE_1_0 == 128, "the 1.0 table size changed");

/* user ABI: the plugin attempt record */
AT(porta_plugin_info, struct_size, 0);
AT(porta_plugin_info, path, 8);
AT(porta_plugin_info, name, 16);
AT(porta_plugin_info, version, 24);
AT(porta_plugin_info, reason, 32);
AT(porta_plugin_info, state, 40);
AT(porta_plugin_info, device_type, 44);
AT(porta_plugin_info, device_count, 48);
AT(porta_plugin_info, abi_major, 52);
AT(porta_plugin_info, abi_minor, 56);

/* enum values are part of the ABI too */
_Static_assert(PORTA_PLUGIN_REJECTED == 3 && PORTA_PLUGIN_EXCLUDED == 4, "porta_plugin_state values moved");
_Static_assert(PORTA_LOG_DEBUG == 0 && PORTA_LOG_WARN == 2 && PORTA_LOG_ERROR == 3 && PORTA_LOG_OFF == 4,
               "porta_log_level values moved");

/* What porta.h's "For other languages (FFI)" section tells bindings, fixed here
 * (tests/unit/test_ffi_values.cpp checks that the section says the same). */
_Static_assert(PORTA_OK == 0 && PORTA_ERROR_INVALID_ARGUMENT == 1 && PORTA_ERROR_DEVICE_MISMATCH == 2 &&
                   PORTA_ERROR_SHAPE_MISMATCH == 3 && PORTA_ERROR_UNSUPPORTED_DTYPE == 4 &&
                   PORTA_ERROR_NO_SUCH_DEVICE == 5 && PORTA_ERROR_NOT_IMPLEMENTED == 6 &&
                   PORTA_ERROR_OUT_OF_MEMORY == 7 && PORTA_ERROR_BACKEND == 8 && PORTA_ERROR_INVALID_HANDLE == 9 &&
                   PORTA_ERROR_IO == 10 && PORTA_ERROR_INTERNAL == 11,
               "porta_status values moved");
_Static_assert(PORTA_DEVICE_KIND_CPU == 0 && PORTA_DEVICE_KIND_GPU == 1 && PORTA_DEVICE_KIND_ACCELERATOR == 2 &&
                   PORTA_DEVICE_KIND_VIRTUAL == 3,
               "porta_device_kind values moved");
_Static_assert(PORTA_LOG_INFO == 1, "porta_log_level values moved");
_Static_assert(PORTA_PLUGIN_LOADED == 0 && PORTA_PLUGIN_NO_DEVICES == 1 && PORTA_PLUGIN_FAILED == 2,
               "porta_plugin_state values moved");
_Static_assert(PORTA_REDUCTION_NONE == 0 && PORTA_REDUCTION_MEAN == 1 && PORTA_REDUCTION_SUM == 2,
               "porta_reduction values moved");
_Static_assert(PORTA_OP_NEG == 6 && PORTA_OP_ABS == 13 && PORTA_OP_ADD == 14 && PORTA_OP_MINIMUM == 20 &&
                   PORTA_OP_EQ == 21 && PORTA_OP_GE == 26,
               "the in-place calls' op ids moved");
_Static_assert(PORTA_ABI_MAJOR == 1 && PORTA_MAX_DIMS == 16 && PORTA_DLPACK_MAX_NDIM == 16 &&
                   PORTA_ALL_DIMS == -2147483647 - 1,
               "a documented limit changed");
_Static_assert(sizeof(porta_status) == 4 && sizeof(porta_reduction) == 4, "enums are not 32-bit");
_Static_assert(kDLCPU == 1 && kDLCUDA == 2 && kDLOpenCL == 4 && kDLExtDev == 12, "DLDeviceType values moved");
_Static_assert(kDLInt == 0 && kDLUInt == 1 && kDLFloat == 2 && kDLBool == 6, "DLDataTypeCode values moved");
_Static_assert(DLPACK_MAJOR_VERSION == 1 && DLPACK_FLAG_BITMASK_READ_ONLY == 1 && DLPACK_FLAG_BITMASK_IS_COPIED == 2,
               "DLPack's version or flags changed");
AT(DLDevice, device_type, 0);
AT(DLDevice, device_id, 4);
_Static_assert(sizeof(DLDevice) == 8 && _Alignof(DLDevice) == 4, "DLDevice's layout changed");
AT(DLDataType, code, 0);
AT(DLDataType, bits, 1);
AT(DLDataType, lanes, 2);
_Static_assert(sizeof(DLDataType) == 4 && _Alignof(DLDataType) == 2, "DLDataType's layout changed");
_Static_assert(sizeof(porta_plugin_info) == 64 && sizeof(porta_device_info) == 168 && sizeof(porta_memory_stats) == 88,
               "a user ABI struct grew: update porta.h's FFI section");
_Static_assert(sizeof(porta_conv2d_options) == 32 && sizeof(porta_pool2d_options) == 48 &&
                   sizeof(porta_sgd_options) == 48 && sizeof(porta_adam_options) == 48,
               "an options struct grew: update porta.h's FFI section");
