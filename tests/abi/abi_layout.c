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
