// A file replaced atomically. Bytes go to a temporary file of a unique name
// in the destination's directory, created exclusively (O_CREAT|O_EXCL|
// O_NOFOLLOW: an existing file or a planted symlink is never opened), which
// commit() renames over the destination. Until then the destination is
// untouched; a temporary file that is never committed is removed. Two saves
// to one path leave one of them whole. The destination, if it exists, keeps
// its permission bits; a symlink is written through: its target is
// replaced. A destination that is not a regular file (a directory, FIFO,
// device) or a symlink to nothing is refused. Failures are PORTA_ERROR_IO.
#pragma once

#include <cstddef>
#include <string>

namespace porta::io {

class AtomicFile {
 public:
  // `op` ("safetensors_save") starts error messages.
  AtomicFile(const char* path, const char* op);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const void* data, size_t bytes);
  // Flushes to disk, renames the temporary file over the destination and
  // flushes the directory entry.
  void commit();

 private:
  std::string target_;  // the file replaced: `path`, or what its symlink points to
  std::string tmp_, where_;
  int fd_ = -1;
  bool committed_ = false;
};

}  // namespace porta::io
