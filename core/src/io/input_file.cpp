#include "io/input_file.hpp"

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "runtime/error.hpp"
#include "io/regular_file.hpp"

namespace porta::io {
namespace {

constexpr size_t kChunk = size_t{1} << 20;

gzFile as_gz(void* p) { return static_cast<gzFile>(p); }

}  // namespace

InputFile::InputFile(const char* path, const char* op) : where_(cat(op, ": '", path, "'")) {
  const int fd = open_regular_file(path, where_);
  gz_ = gzdopen(fd, "rb");
  if (gz_ == nullptr) {
    ::close(fd);
    fail(PORTA_ERROR_OUT_OF_MEMORY, where_, ": out of host memory opening it");
  }
  gzbuffer(as_gz(gz_), 256 * 1024);
}

InputFile::~InputFile() {
  if (gz_ != nullptr) gzclose(as_gz(gz_));
}

size_t InputFile::read_some(void* dst, size_t n) {
  const unsigned want = static_cast<unsigned>(std::min(n, kChunk));
  const int got = gzread(as_gz(gz_), dst, want);
  int code = Z_OK;
  const char* message = gzerror(as_gz(gz_), &code);
  if (got < 0 || (code != Z_OK && code != Z_BUF_ERROR))
    fail(PORTA_ERROR_IO, where_, ": read failed: ", code == Z_ERRNO ? std::strerror(errno) : message,
         code == Z_DATA_ERROR ? " (the gzip data is corrupt)" : "");
  if (got == 0 && code == Z_BUF_ERROR)
    fail(PORTA_ERROR_IO, where_, ": the gzip stream is truncated (the file ends mid-stream; download it again)");
  return static_cast<size_t>(got);
}

std::vector<unsigned char> InputFile::read_up_to(uint64_t n) {
  std::vector<unsigned char> out;
  while (out.size() < n) {
    const size_t have = out.size();
    const size_t want = static_cast<size_t>(std::min<uint64_t>(n - have, kChunk));
    try {
      out.resize(have + want);
    } catch (const std::bad_alloc&) {
      fail(PORTA_ERROR_OUT_OF_MEMORY, where_, ": out of host memory reading ", n, " bytes (", have, " read so far)");
    }
    const size_t got = read_some(out.data() + have, want);
    out.resize(have + got);
    if (got == 0) break;
  }
  return out;
}

uint64_t InputFile::skip_rest() {
  std::vector<unsigned char> scratch(64 * 1024);
  uint64_t total = 0;
  while (size_t got = read_some(scratch.data(), scratch.size())) total += got;
  return total;
}

}  // namespace porta::io
