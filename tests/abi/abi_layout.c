/* The published layout of the ABI structs and the values of the ABI enums,
 * fixed at compile time: appending is the only change a minor version may
 * make, so a field that moves or changes width fails the build, and so does
 * a struct that grows without an assert for its new field. Every struct of
 * the abi/porta headers is here, every field by its offset and width (the
 * numbers are written out, not computed: they are what bindings and plugins
 * built against an older header rely on). Offsets and sizes are those of
 * Linux LP64 (x86-64, aarch64: the same layout), the platforms Porta
 * supports; other ABIs compile only the checks that hold everywhere.
 * Compiled into porta_abi_runtime_tests. */
#include <porta/plugin.h>
#include <porta/porta.h>
#include <stddef.h>

/* A field at its offset, of its width (a field followed by padding could widen,
 * or narrow, without moving anything). A field inserted into padding moves
 * nothing: no check here can see it. */
#define AT(type, field, offset, width)                                          \
  _Static_assert(offsetof(type, field) == (offset), #type "." #field " moved"); \
  _Static_assert(sizeof(((type*)0)->field) == (width), #type "." #field " changed width")
#define SIZE(type, size) \
  _Static_assert(sizeof(type) == (size), #type " changed size: a field changed without its assert")
/* For the structs porta.h's "For other languages (FFI)" section lists by size. */
#define FFI_SIZE(type, size) \
  _Static_assert(sizeof(type) == (size), #type " changed size: update porta.h's FFI section and its asserts here")

#if defined(__LP64__)

/* ================================ plugin ABI (plugin.h) ================================ */

/* The host table (1.0, num_threads since 1.2) */
AT(porta_host_api, struct_size, 0, 8);
AT(porta_host_api, abi_major, 8, 4);
AT(porta_host_api, abi_minor, 12, 4);
AT(porta_host_api, set_error, 16, 8);
AT(porta_host_api, log, 24, 8);
AT(porta_host_api, num_threads, 32, 8);
_Static_assert(sizeof(porta_host_api) == 40, "porta_host_api grew without a new field's assert");

/* One device's properties (1.0); the same layout as porta_device_info */
AT(porta_device_props, struct_size, 0, 8);
AT(porta_device_props, name, 8, 128);
AT(porta_device_props, memory_total, 136, 8);
AT(porta_device_props, memory_free, 144, 8);
AT(porta_device_props, compute_units, 152, 4);
AT(porta_device_props, kind, 156, 4);
AT(porta_device_props, capability_major, 160, 4);
AT(porta_device_props, capability_minor, 164, 4);
SIZE(porta_device_props, 168);

/* One kernel invocation (1.0); padding after device and after each count */
AT(porta_kernel_call, struct_size, 0, 8);
AT(porta_kernel_call, device, 8, 4);
AT(porta_kernel_call, stream, 16, 8);
AT(porta_kernel_call, inputs, 24, 8);
AT(porta_kernel_call, num_inputs, 32, 4);
AT(porta_kernel_call, outputs, 40, 8);
AT(porta_kernel_call, num_outputs, 48, 4);
AT(porta_kernel_call, params, 56, 8);
SIZE(porta_kernel_call, 64);

/* The plugin table (1.0 up to find_kernel, then the 1.1 slots, capabilities since 1.2) */
AT(porta_plugin_api, struct_size, 0, 8);
AT(porta_plugin_api, abi_major, 8, 4);
AT(porta_plugin_api, abi_minor, 12, 4);
AT(porta_plugin_api, name, 16, 8);
AT(porta_plugin_api, device_type, 24, 4);
AT(porta_plugin_api, version, 32, 8);
AT(porta_plugin_api, initialize, 40, 8);
AT(porta_plugin_api, device_count, 48, 8);
AT(porta_plugin_api, unavailable_reason, 56, 8);
AT(porta_plugin_api, device_props, 64, 8);
AT(porta_plugin_api, alloc, 72, 8);
AT(porta_plugin_api, free, 80, 8);
AT(porta_plugin_api, copy_to_device, 88, 8);
AT(porta_plugin_api, copy_to_host, 96, 8);
AT(porta_plugin_api, copy_on_device, 104, 8);
AT(porta_plugin_api, synchronize, 112, 8);
AT(porta_plugin_api, find_kernel, 120, 8);
AT(porta_plugin_api, copy_between_devices, 128, 8);
AT(porta_plugin_api, alloc_pinned_host, 136, 8);
AT(porta_plugin_api, free_pinned_host, 144, 8);
AT(porta_plugin_api, capabilities, 152, 8);
AT(porta_plugin_api, native_stream, 160, 8);
SIZE(porta_plugin_api, 168);
_Static_assert(PORTA_PLUGIN_API_SIZE_1_0 == 128, "the 1.0 table size changed");

/* ================== op parameter structs (ops.h, plugin ABI): kernel_call.params ================== */

/* FULL (1.0) */
AT(porta_fill_params, struct_size, 0, 8);
AT(porta_fill_params, value, 8, 8);
AT(porta_fill_params, int_value, 16, 8);
SIZE(porta_fill_params, 24);

/* ARANGE (1.0) */
AT(porta_arange_params, struct_size, 0, 8);
AT(porta_arange_params, start, 8, 8);
AT(porta_arange_params, step, 16, 8);
SIZE(porta_arange_params, 24);

/* RAND_UNIFORM / RAND_NORMAL (1.0) */
AT(porta_random_params, struct_size, 0, 8);
AT(porta_random_params, seed, 8, 8);
AT(porta_random_params, offset, 16, 8);
AT(porta_random_params, a, 24, 8);
AT(porta_random_params, b, 32, 8);
SIZE(porta_random_params, 40);

/* MATMUL (1.0) */
AT(porta_matmul_params, struct_size, 0, 8);
AT(porta_matmul_params, alpha, 8, 8);
AT(porta_matmul_params, beta, 16, 8);
SIZE(porta_matmul_params, 24);

/* IM2COL / COL2IM (1.1) */
AT(porta_conv2d_params, struct_size, 0, 8);
AT(porta_conv2d_params, kernel_h, 8, 4);
AT(porta_conv2d_params, kernel_w, 12, 4);
AT(porta_conv2d_params, stride_h, 16, 4);
AT(porta_conv2d_params, stride_w, 20, 4);
AT(porta_conv2d_params, padding_h, 24, 4);
AT(porta_conv2d_params, padding_w, 28, 4);
AT(porta_conv2d_params, dilation_h, 32, 4);
AT(porta_conv2d_params, dilation_w, 36, 4);
AT(porta_conv2d_params, groups, 40, 4);  /* plugin ABI 1.7 */
SIZE(porta_conv2d_params, 48);

/* the pooling ops (1.1); 4 bytes of tail padding */
AT(porta_pool2d_params, struct_size, 0, 8);
AT(porta_pool2d_params, kernel_h, 8, 4);
AT(porta_pool2d_params, kernel_w, 12, 4);
AT(porta_pool2d_params, stride_h, 16, 4);
AT(porta_pool2d_params, stride_w, 20, 4);
AT(porta_pool2d_params, padding_h, 24, 4);
AT(porta_pool2d_params, padding_w, 28, 4);
AT(porta_pool2d_params, dilation_h, 32, 4);
AT(porta_pool2d_params, dilation_w, 36, 4);
AT(porta_pool2d_params, count_include_pad, 40, 4);
SIZE(porta_pool2d_params, 48);

/* SGD_STEP (1.1) */
AT(porta_sgd_params, struct_size, 0, 8);
AT(porta_sgd_params, lr, 8, 8);
AT(porta_sgd_params, momentum, 16, 8);
AT(porta_sgd_params, dampening, 24, 8);
AT(porta_sgd_params, weight_decay, 32, 8);
AT(porta_sgd_params, nesterov, 40, 4);
AT(porta_sgd_params, first_step, 44, 4);
SIZE(porta_sgd_params, 48);

/* ADAM_STEP (1.1); 4 bytes of tail padding */
AT(porta_adam_params, struct_size, 0, 8);
AT(porta_adam_params, lr, 8, 8);
AT(porta_adam_params, beta1, 16, 8);
AT(porta_adam_params, beta2, 24, 8);
AT(porta_adam_params, eps, 32, 8);
AT(porta_adam_params, weight_decay, 40, 8);
AT(porta_adam_params, step, 48, 8);
AT(porta_adam_params, decoupled, 56, 4);
SIZE(porta_adam_params, 64);

/* ========= user ABI (porta.h); the sizes are the ones its FFI section lists ========= */

/* The plugin attempt record (1.0); 4 bytes of tail padding */
AT(porta_plugin_info, struct_size, 0, 8);
AT(porta_plugin_info, path, 8, 8);
AT(porta_plugin_info, name, 16, 8);
AT(porta_plugin_info, version, 24, 8);
AT(porta_plugin_info, reason, 32, 8);
AT(porta_plugin_info, state, 40, 4);
AT(porta_plugin_info, device_type, 44, 4);
AT(porta_plugin_info, device_count, 48, 4);
AT(porta_plugin_info, abi_major, 52, 4);
AT(porta_plugin_info, abi_minor, 56, 4);
FFI_SIZE(porta_plugin_info, 64);

/* One device's properties (1.0) */
AT(porta_device_info, struct_size, 0, 8);
AT(porta_device_info, name, 8, 128);
AT(porta_device_info, memory_total, 136, 8);
AT(porta_device_info, memory_free, 144, 8);
AT(porta_device_info, compute_units, 152, 4);
AT(porta_device_info, kind, 156, 4);
AT(porta_device_info, capability_major, 160, 4);
AT(porta_device_info, capability_minor, 164, 4);
FFI_SIZE(porta_device_info, 168);

/* The allocator's counters (1.0, peak_reserved_bytes since 1.1) */
AT(porta_memory_stats, struct_size, 0, 8);
AT(porta_memory_stats, allocated_bytes, 8, 8);
AT(porta_memory_stats, reserved_bytes, 16, 8);
AT(porta_memory_stats, peak_allocated_bytes, 24, 8);
AT(porta_memory_stats, allocations, 32, 8);
AT(porta_memory_stats, cache_hits, 40, 8);
AT(porta_memory_stats, device_allocations, 48, 8);
AT(porta_memory_stats, device_frees, 56, 8);
AT(porta_memory_stats, bytes_to_device, 64, 8);
AT(porta_memory_stats, bytes_from_device, 72, 8);
AT(porta_memory_stats, peak_reserved_bytes, 80, 8);
FFI_SIZE(porta_memory_stats, 88);

/* One row of the op table (1.2) */
AT(porta_op_info, struct_size, 0, 8);
AT(porta_op_info, name, 8, 8);
AT(porta_op_info, id, 16, 4);
AT(porta_op_info, kind, 20, 4);
AT(porta_op_info, inputs, 24, 4);
AT(porta_op_info, dtypes, 28, 4);
AT(porta_op_info, result, 32, 4);
AT(porta_op_info, differentiable, 36, 4);
AT(porta_op_info, doc, 40, 8);
AT(porta_op_info, kind_name, 48, 8);
FFI_SIZE(porta_op_info, 56);

/* porta_conv2d's options (1.0); int32_t[2] pairs; groups appended in 1.6, 4 bytes of tail padding */
AT(porta_conv2d_options, struct_size, 0, 8);
AT(porta_conv2d_options, stride, 8, 8);
AT(porta_conv2d_options, padding, 16, 8);
AT(porta_conv2d_options, dilation, 24, 8);
AT(porta_conv2d_options, groups, 32, 4);
FFI_SIZE(porta_conv2d_options, 40);

/* the pooling ops' options (1.0); int32_t[2] pairs, 4 bytes of tail padding */
AT(porta_pool2d_options, struct_size, 0, 8);
AT(porta_pool2d_options, kernel, 8, 8);
AT(porta_pool2d_options, stride, 16, 8);
AT(porta_pool2d_options, padding, 24, 8);
AT(porta_pool2d_options, dilation, 32, 8);
AT(porta_pool2d_options, count_include_pad, 40, 4);
AT(porta_pool2d_options, reserved, 44, 4);
AT(porta_pool2d_options, ceil_mode, 48, 4);
FFI_SIZE(porta_pool2d_options, 56);

/* SGD's options (1.0); 4 bytes of tail padding */
AT(porta_sgd_options, struct_size, 0, 8);
AT(porta_sgd_options, lr, 8, 8);
AT(porta_sgd_options, momentum, 16, 8);
AT(porta_sgd_options, dampening, 24, 8);
AT(porta_sgd_options, weight_decay, 32, 8);
AT(porta_sgd_options, nesterov, 40, 4);
FFI_SIZE(porta_sgd_options, 48);

/* Adam's and AdamW's options (1.0; amsgrad 1.5, then 4 bytes of tail padding) */
AT(porta_adam_options, struct_size, 0, 8);
AT(porta_adam_options, lr, 8, 8);
AT(porta_adam_options, beta1, 16, 8);
AT(porta_adam_options, beta2, 24, 8);
AT(porta_adam_options, eps, 32, 8);
AT(porta_adam_options, weight_decay, 40, 8);
AT(porta_adam_options, amsgrad, 48, 4);
FFI_SIZE(porta_adam_options, 56);

/* RMSprop's options (1.5); 4 bytes of tail padding */
AT(porta_rmsprop_options, struct_size, 0, 8);
AT(porta_rmsprop_options, lr, 8, 8);
AT(porta_rmsprop_options, alpha, 16, 8);
AT(porta_rmsprop_options, eps, 24, 8);
AT(porta_rmsprop_options, weight_decay, 32, 8);
AT(porta_rmsprop_options, momentum, 40, 8);
AT(porta_rmsprop_options, centered, 48, 4);
FFI_SIZE(porta_rmsprop_options, 56);

/* Adagrad's options (1.5) */
AT(porta_adagrad_options, struct_size, 0, 8);
AT(porta_adagrad_options, lr, 8, 8);
AT(porta_adagrad_options, lr_decay, 16, 8);
AT(porta_adagrad_options, weight_decay, 24, 8);
AT(porta_adagrad_options, initial_accumulator_value, 32, 8);
AT(porta_adagrad_options, eps, 40, 8);
FFI_SIZE(porta_adagrad_options, 48);

/* The recurrent layers' options (1.6) */
AT(porta_rnn_options, struct_size, 0, 8);
AT(porta_rnn_options, mode, 8, 4);
AT(porta_rnn_options, num_layers, 12, 4);
AT(porta_rnn_options, bidirectional, 16, 4);
AT(porta_rnn_options, batch_first, 20, 4);
AT(porta_rnn_options, has_biases, 24, 4);
AT(porta_rnn_options, training, 28, 4);
AT(porta_rnn_options, dropout, 32, 8);
FFI_SIZE(porta_rnn_options, 40);

/* porta_backward_ex's options (1.6) */
AT(porta_backward_options, struct_size, 0, 8);
AT(porta_backward_options, retain_graph, 8, 4);
AT(porta_backward_options, create_graph, 12, 4);
AT(porta_backward_options, inputs, 16, 8);
AT(porta_backward_options, num_inputs, 24, 4);
AT(porta_backward_options, allow_unused, 28, 4);
AT(porta_backward_options, grads_out, 32, 8);
FFI_SIZE(porta_backward_options, 40);

/* porta_init_process_group's options (1.9) */
AT(porta_init_options, struct_size, 0, 8);
AT(porta_init_options, backend, 8, 8);
AT(porta_init_options, init_method, 16, 8);
AT(porta_init_options, rank, 24, 4);
AT(porta_init_options, world_size, 28, 4);
AT(porta_init_options, timeout_ms, 32, 8);
FFI_SIZE(porta_init_options, 40);

/* porta_reducer_create_with_options's options (1.11) */
AT(porta_reducer_options, struct_size, 0, 8);
AT(porta_reducer_options, bucket_bytes, 8, 8);
AT(porta_reducer_options, first_bucket_bytes, 16, 8);
AT(porta_reducer_options, find_unused_parameters, 24, 4);
AT(porta_reducer_options, gradient_as_bucket_view, 28, 4);
FFI_SIZE(porta_reducer_options, 32);

/* SORT's parameters (plugin ABI 1.5; 1.6 named the 4 bytes of tail padding and appended k) */
AT(porta_sort_params, struct_size, 0, 8);
AT(porta_sort_params, descending, 8, 4);
AT(porta_sort_params, reserved, 12, 4);
AT(porta_sort_params, k, 16, 8);
FFI_SIZE(porta_sort_params, 24);

/* NORM's parameters (plugin ABI 1.7) */
AT(porta_norm_params, struct_size, 0, 8);
AT(porta_norm_params, eps, 8, 8);
FFI_SIZE(porta_norm_params, 16);

#else /* another ABI: no numbers, only the rule every struct follows */

_Static_assert(offsetof(porta_host_api, struct_size) == 0 && offsetof(porta_device_props, struct_size) == 0 &&
                   offsetof(porta_kernel_call, struct_size) == 0 && offsetof(porta_plugin_api, struct_size) == 0 &&
                   offsetof(porta_fill_params, struct_size) == 0 && offsetof(porta_arange_params, struct_size) == 0 &&
                   offsetof(porta_random_params, struct_size) == 0 && offsetof(porta_matmul_params, struct_size) == 0 &&
                   offsetof(porta_conv2d_params, struct_size) == 0 && offsetof(porta_pool2d_params, struct_size) == 0 &&
                   offsetof(porta_sgd_params, struct_size) == 0 && offsetof(porta_adam_params, struct_size) == 0 &&
                   offsetof(porta_plugin_info, struct_size) == 0 && offsetof(porta_device_info, struct_size) == 0 &&
                   offsetof(porta_memory_stats, struct_size) == 0 && offsetof(porta_conv2d_options, struct_size) == 0 &&
                   offsetof(porta_pool2d_options, struct_size) == 0 && offsetof(porta_sgd_options, struct_size) == 0 &&
                   offsetof(porta_adam_options, struct_size) == 0 && offsetof(porta_rmsprop_options, struct_size) == 0 &&
                   offsetof(porta_adagrad_options, struct_size) == 0 && offsetof(porta_sort_params, struct_size) == 0 &&
                   offsetof(porta_norm_params, struct_size) == 0 && offsetof(porta_rnn_options, struct_size) == 0 &&
                   offsetof(porta_backward_options, struct_size) == 0,
               "every ABI struct begins with size_t struct_size");

#endif /* __LP64__ */

/* ============ on every ABI: enum values, limits and DLPack's small structs ============ */

/* enum values are part of the ABI too */
_Static_assert(PORTA_PLUGIN_REJECTED == 3 && PORTA_PLUGIN_EXCLUDED == 4, "porta_plugin_state values moved");
_Static_assert(PORTA_LOG_DEBUG == 0 && PORTA_LOG_WARN == 2 && PORTA_LOG_ERROR == 3 && PORTA_LOG_OFF == 4,
               "porta_log_level values moved");

/* What porta.h's "For other languages (FFI)" section tells bindings, fixed here
 * (tests/unit/test_ffi_values.cpp checks that the section says the same; its
 * struct sizes are the FFI_SIZE asserts above). */
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
