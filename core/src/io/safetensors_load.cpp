// safetensors_load (porta_safetensors_load): reads a whole safetensors file
// onto one device.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "io/io.hpp"
#include "io/regular_file.hpp"
#include "io/safetensors_format.hpp"
#include "io/tensor_list.hpp"
#include "ops/ops.hpp"
#include "runtime/error.hpp"

namespace porta::io {
namespace {

using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

// Reads exactly `n` bytes at `offset`.
void read_at(std::FILE* f, uint64_t offset, void* dst, size_t n, const std::string& where) {
  if (n == 0) return;
  if (fseeko(f, static_cast<off_t>(offset), SEEK_SET) != 0 || std::fread(dst, 1, n, f) != n)
    fail(PORTA_ERROR_IO, where, ": could not read bytes [", offset, ", ", offset + n, "): ",
         std::ferror(f) ? std::strerror(errno) : "unexpected end of file", " (did the file change while loading?)");
}

uint64_t file_size(std::FILE* f, const std::string& where) {
  struct stat st {};
  if (fstat(fileno(f), &st) != 0) fail(PORTA_ERROR_IO, where, ": cannot stat: ", std::strerror(errno));
  return static_cast<uint64_t>(st.st_size);
}

// Bool tensors must hold 0 or 1 in every byte.
void check_bools(const std::vector<unsigned char>& bytes, const SafetensorsEntry& e, const std::string& where) {
  for (size_t i = 0; i < bytes.size(); ++i)
    if (bytes[i] > 1)
      fail(PORTA_ERROR_IO, where, ": tensor '", e.name, "': BOOL element ", i, " holds byte ", int(bytes[i]),
           " (only 0 and 1 are valid)");
}

}  // namespace

void safetensors_load(const char* path, DeviceState& dev, porta_tensor_list& list) {
  const std::string where = cat("safetensors_load: '", path, "'");
  const int fd = open_regular_file(path, where);
  File f(fdopen(fd, "rb"), &std::fclose);
  if (!f) {
    ::close(fd);
    fail(PORTA_ERROR_OUT_OF_MEMORY, where, ": out of host memory opening it");
  }
  const uint64_t size = file_size(f.get(), where);
  if (size < 8)
    fail(PORTA_ERROR_IO, where, ": the file has ", size, " bytes, fewer than the 8-byte header length "
         "(it is truncated or not a safetensors file)");
  unsigned char length_bytes[8];
  read_at(f.get(), 0, length_bytes, 8, where);
  uint64_t header_bytes = 0;
  for (int i = 7; i >= 0; --i) header_bytes = (header_bytes << 8) | length_bytes[i];
  if (header_bytes > size - 8)
    fail(PORTA_ERROR_IO, where, ": the header length ", header_bytes, " exceeds the ", size - 8,
         " bytes after the length field (the file is truncated or not a safetensors file)");
  std::string header(static_cast<size_t>(header_bytes), '\0');
  read_at(f.get(), 8, header.data(), header.size(), where);
  const uint64_t data_start = 8 + header_bytes;
  const std::vector<SafetensorsEntry> entries = parse_safetensors_header(header, size - data_start, where);

  std::vector<unsigned char> bytes;
  for (const SafetensorsEntry& e : entries) {
    const uint64_t n = e.end - e.begin;
    try {
      bytes.resize(static_cast<size_t>(n));
    } catch (const std::bad_alloc&) {
      fail(PORTA_ERROR_OUT_OF_MEMORY, where, ": out of host memory reading tensor '", e.name, "' (", n, " bytes)");
    }
    read_at(f.get(), data_start + e.begin, bytes.data(), bytes.size(), where);
    if (e.dtype == Dtype::Bool) check_bools(bytes, e, where);
    list.names.push_back(e.name);
    try {
      list.tensors.push_back(ops::from_host(bytes.data(), e.dtype, e.shape, dev));
    } catch (const Error& err) {
      if (err.status() != PORTA_ERROR_OUT_OF_MEMORY) throw;
      fail(PORTA_ERROR_OUT_OF_MEMORY, where, ": tensor '", e.name, "' (", n, " bytes): ", err.what());
    }
  }
}

}  // namespace porta::io
