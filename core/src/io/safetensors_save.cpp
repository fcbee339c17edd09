// safetensors_save (porta_safetensors_save): writes named tensors from any
// device to a safetensors file, replacing it atomically. Tensors are written
// in the order given, so a load returns them in that order.
#include <string_view>
#include <unordered_map>

#include "io/atomic_file.hpp"
#include "io/io.hpp"
#include "io/json.hpp"
#include "io/safetensors_format.hpp"
#include "ops/ops.hpp"
#include "runtime/error.hpp"

namespace porta::io {
namespace {

constexpr const char* kOp = "safetensors_save";

uint64_t nbytes(const porta_tensor& t) { return static_cast<uint64_t>(t.numel()) * t.itemsize(); }

// The JSON header, padded with spaces to a multiple of 8 bytes so the data
// buffer starts aligned (as the reference writer does).
std::string header(const std::vector<std::string_view>& names, const std::vector<TensorPtr>& tensors) {
  std::string h = "{\"__metadata__\":{\"format\":\"pt\"}";
  uint64_t offset = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const porta_tensor& t = *tensors[i];
    h += cat(",", json::quote(names[i]), ":{\"dtype\":\"", safetensors_dtype(t.dtype), "\",\"shape\":[");
    for (int32_t d = 0; d < t.ndim(); ++d) h += cat(d ? "," : "", t.shape[d]);
    h += cat("],\"data_offsets\":[", offset, ",", offset + nbytes(t), "]}");
    offset += nbytes(t);
  }
  h += "}";
  h.append((8 - h.size() % 8) % 8, ' ');
  return h;
}

}  // namespace

std::vector<std::string_view> safetensors_names(const char* const* names, int32_t n) {
  std::vector<std::string_view> out;
  std::unordered_map<std::string_view, int32_t> first;
  for (int32_t i = 0; i < n; ++i) {
    if (names[i] == nullptr) fail(PORTA_ERROR_INVALID_ARGUMENT, kOp, ": names[", i, "] is NULL");
    const std::string_view name = names[i];
    if (name.empty()) fail(PORTA_ERROR_INVALID_ARGUMENT, kOp, ": names[", i, "] is empty; tensor names must be non-empty");
    if (name == kSafetensorsMetadataKey)
      fail(PORTA_ERROR_INVALID_ARGUMENT, kOp, ": names[", i, "] is \"__metadata__\", which safetensors reserves");
    if (!json::is_utf8(name)) fail(PORTA_ERROR_INVALID_ARGUMENT, kOp, ": names[", i, "] is not valid UTF-8");
    const auto [it, fresh] = first.emplace(name, i);
    if (!fresh)
      fail(PORTA_ERROR_INVALID_ARGUMENT, kOp, ": names[", i, "] '", name, "' repeats names[", it->second,
           "]; tensor names must be unique");
    out.push_back(name);
  }
  return out;
}

void safetensors_save(const char* path, const std::vector<std::string_view>& names,
                      const std::vector<TensorPtr>& tensors) {
  const std::string h = header(names, tensors);

  AtomicFile file(path, kOp);
  unsigned char length[8];
  for (int i = 0; i < 8; ++i) length[i] = static_cast<unsigned char>(static_cast<uint64_t>(h.size()) >> (8 * i));
  file.write(length, sizeof length);
  file.write(h.data(), h.size());
  std::vector<unsigned char> host;
  for (const TensorPtr& t : tensors) {
    host.resize(static_cast<size_t>(nbytes(*t)));
    ops::to_host(*t, host.data(), host.size());
    file.write(host.data(), host.size());
  }
  file.commit();
}

}  // namespace porta::io
