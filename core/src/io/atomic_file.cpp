#include "atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "../error.hpp"

namespace porta::io {

AtomicFile::AtomicFile(const char* path, const char* op)
    : path_(path), tmp_(cat(path, ".tmp")), where_(cat(op, ": '", path, "'")) {
  file_ = std::fopen(tmp_.c_str(), "wb");
  if (file_ == nullptr)
    fail(PORTA_ERROR_IO, where_, ": cannot create '", tmp_, "': ", std::strerror(errno),
         " (check that the directory exists and is writable)");
}

AtomicFile::~AtomicFile() {
  if (file_ != nullptr) std::fclose(file_);
  if (!committed_) std::remove(tmp_.c_str());
}

void AtomicFile::write(const void* data, size_t bytes) {
  if (bytes != 0 && std::fwrite(data, 1, bytes, file_) != bytes)
    fail(PORTA_ERROR_IO, where_, ": writing '", tmp_, "' failed: ", std::strerror(errno),
         " (is the disk full?)");
}

void AtomicFile::commit() {
  const bool flushed = std::fflush(file_) == 0 && ::fsync(fileno(file_)) == 0;
  const int flush_errno = errno;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!flushed || !closed)
    fail(PORTA_ERROR_IO, where_, ": writing '", tmp_, "' failed: ", std::strerror(flushed ? errno : flush_errno),
         " (is the disk full?)");
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0)
    fail(PORTA_ERROR_IO, where_, ": cannot replace it with '", tmp_, "': ", std::strerror(errno),
         " (is the path a directory, or the directory read-only?)");
  committed_ = true;
}

}  // namespace porta::io
