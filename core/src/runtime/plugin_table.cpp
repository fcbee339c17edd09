#include "runtime/plugin_table.hpp"

#include <algorithm>
#include <cstring>

#include "runtime/error.hpp"

namespace porta {
namespace {

// The first required slot that is NULL, or nullptr when all are present.
const char* missing_required_slot(const porta_plugin_api& a) {
  if (!a.initialize) return "initialize";
  if (!a.device_count) return "device_count";
  if (!a.device_props) return "device_props";
  if (!a.alloc) return "alloc";
  if (!a.free) return "free";
  if (!a.copy_to_device) return "copy_to_device";
  if (!a.copy_to_host) return "copy_to_host";
  if (!a.copy_on_device) return "copy_on_device";
  if (!a.synchronize) return "synchronize";
  if (!a.find_kernel) return "find_kernel";
  if (a.alloc_pinned_host && !a.free_pinned_host) return "free_pinned_host (required with alloc_pinned_host)";
  return nullptr;
}

}  // namespace

bool valid_device_type_name(const char* name) {
  if (name == nullptr || *name < 'a' || *name > 'z') return false;
  size_t length = 0;
  for (const char* p = name; *p; ++p, ++length)
    if (length >= 31 || !((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')) return false;
  return true;
}

std::optional<std::string> check_plugin_table(const porta_plugin_api* table, int32_t device_type_limit,
                                              porta_plugin_api* copy) {
  *copy = porta_plugin_api{};
  const size_t size = table->struct_size;
  if (size < kPluginTableHeaderSize)
    return cat("plugin table too small (struct_size ", size, " < ", PORTA_PLUGIN_API_SIZE_1_0,
               " of ABI 1.0; is struct_size set to sizeof(porta_plugin_api)?)");
  if (size % alignof(porta_plugin_api) != 0)
    return cat("plugin table struct_size ", size, " is not a multiple of ", alignof(porta_plugin_api),
               ", so it is no version's sizeof(porta_plugin_api) (set struct_size = sizeof(porta_plugin_api))");
  std::memcpy(copy, table, kPluginTableHeaderSize);
  if (copy->abi_major != PORTA_PLUGIN_ABI_MAJOR)
    return cat("built for plugin ABI ", copy->abi_major, ".", copy->abi_minor, "; this core supports ",
               PORTA_PLUGIN_ABI_MAJOR, ".x (rebuild the plugin)");
  if (size < PORTA_PLUGIN_API_SIZE_1_0)
    return cat("plugin table too small (struct_size ", size, " < ", PORTA_PLUGIN_API_SIZE_1_0, " of ABI 1.0)");

  std::memcpy(copy, table, std::min(size, sizeof(porta_plugin_api)));
  copy->struct_size = sizeof(porta_plugin_api);
  if (!valid_device_type_name(copy->name))
    return "invalid device type name (lowercase letters, digits, '_', starting with a letter, under 32 characters)";
  if (const char* slot = missing_required_slot(*copy)) return cat("required slot '", slot, "' is NULL");
  if (copy->device_type <= 0 || copy->device_type >= device_type_limit)
    return cat("device type ", copy->device_type, " out of range (DLPack device types are 1 to ",
               device_type_limit - 1, ")");
  return std::nullopt;
}

}  // namespace porta
