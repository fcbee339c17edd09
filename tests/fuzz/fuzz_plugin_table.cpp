// Fuzzes the checks a plugin's table passes at load (check_plugin_table,
// core/src/runtime/plugin_table.cpp): struct_size, ABI version, name, version string,
// device type and every function slot (NULL or not) come from the input. The
// table lives in a heap block of exactly the bytes the plugin's struct_size
// promises, so AddressSanitizer reports any read past it.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "fuzz_input.hpp"
#include "runtime/plugin_table.hpp"

namespace {

void dummy_slot() {}

constexpr size_t kFirstSlot = offsetof(porta_plugin_api, initialize);
constexpr int32_t kDeviceTypeLimit = 64;

size_t take_struct_size(FuzzInput& in) {
  switch (in.take<uint8_t>() % 5) {
    case 0: return sizeof(porta_plugin_api);
    case 1: return PORTA_PLUGIN_API_SIZE_1_0;
    case 2: return porta::kPluginTableHeaderSize;
    case 3: return sizeof(porta_plugin_api) + in.take<uint8_t>();
    default: return in.take<uint16_t>();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  porta_plugin_api full{};
  full.struct_size = take_struct_size(in);
  const auto choices = in.take<uint8_t>();
  full.abi_major = (choices & 1) ? in.take<uint32_t>() : PORTA_PLUGIN_ABI_MAJOR;
  full.abi_minor = in.take<uint32_t>();
  full.device_type = (choices & 2) ? in.take<int32_t>() : in.take<uint8_t>() % 4;
  const auto slots = in.take<uint16_t>();
  const std::string name = in.take_c_string(), version = in.take_c_string();
  full.name = (choices & 4) ? nullptr : name.c_str();
  full.version = (choices & 8) ? nullptr : version.c_str();
  auto* slot_bytes = reinterpret_cast<uint8_t*>(&full) + kFirstSlot;
  const auto dummy = reinterpret_cast<void (*)()>(&dummy_slot);
  for (size_t i = 0; kFirstSlot + (i + 1) * sizeof(dummy) <= sizeof(full); ++i)
    if (!(slots & (1u << (i % 16)))) std::memcpy(slot_bytes + i * sizeof(dummy), &dummy, sizeof(dummy));

  // Only what the plugin's struct_size covers exists (and at least struct_size itself).
  const size_t readable = std::max(sizeof(size_t), std::min(full.struct_size, sizeof(full)));
  const auto table = std::make_unique<uint8_t[]>(readable);
  std::memcpy(table.get(), &full, readable);

  porta_plugin_api copy{};
  const auto refusal =
      porta::check_plugin_table(reinterpret_cast<const porta_plugin_api*>(table.get()), kDeviceTypeLimit, &copy);
  if (refusal) {
    FUZZ_CHECK(!refusal->empty(), "a refusal without a reason");
    return 0;
  }
  FUZZ_CHECK(full.abi_major == PORTA_PLUGIN_ABI_MAJOR, "a foreign ABI major was accepted");
  FUZZ_CHECK(full.struct_size >= PORTA_PLUGIN_API_SIZE_1_0, "a table smaller than ABI 1.0 was accepted");
  FUZZ_CHECK(copy.struct_size == sizeof(porta_plugin_api), "the copy does not carry the core's struct_size");
  FUZZ_CHECK(porta::valid_device_type_name(copy.name), "an invalid name was accepted");
  FUZZ_CHECK(copy.device_type > 0 && copy.device_type < kDeviceTypeLimit, "an out-of-range device type was accepted");
  FUZZ_CHECK(copy.initialize && copy.device_count && copy.device_props && copy.alloc && copy.free &&
                 copy.copy_to_device && copy.copy_to_host && copy.copy_on_device && copy.synchronize &&
                 copy.find_kernel,
             "a table with a NULL required slot was accepted");
  FUZZ_CHECK(!copy.alloc_pinned_host || copy.free_pinned_host, "alloc_pinned_host without free_pinned_host accepted");
  const auto* copied = reinterpret_cast<const uint8_t*>(&copy);
  for (size_t at = std::min(full.struct_size, sizeof(copy)); at < sizeof(copy); ++at)
    FUZZ_CHECK(copied[at] == 0, "a slot beyond the plugin's struct_size was not NULL in the copy");
  return 0;
}
