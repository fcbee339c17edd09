// The checks a plugin's table must pass before the core calls into it: ABI
// major, table size, device type name and number, required slots. Pure: it
// reads only the table, never past the plugin's struct_size, and calls no slot.
#pragma once

#include <porta/plugin.h>

#include <cstddef>
#include <optional>
#include <string>

namespace porta {

// The prefix every ABI major shares (struct_size, abi_major, abi_minor): the
// core reads it before it knows whether the rest of the layout is its own.
inline constexpr size_t kPluginTableHeaderSize = offsetof(porta_plugin_api, name);

// True for a device type name such as "cpu" or "my_npu2": [a-z][a-z0-9_]*, under 32 characters.
bool valid_device_type_name(const char* name);

// Copies `table` into `*copy` (slots beyond the plugin's struct_size are NULL,
// copy->struct_size is the core's) and checks it. Returns why the plugin must
// be refused, or nothing when it may be initialized. Reads at most
// min(table->struct_size, sizeof(porta_plugin_api)) bytes of `table`; on a
// refusal `*copy` holds what was read so far. Device types must lie in
// [1, device_type_limit).
std::optional<std::string> check_plugin_table(const porta_plugin_api* table, int32_t device_type_limit,
                                              porta_plugin_api* copy);

}  // namespace porta
