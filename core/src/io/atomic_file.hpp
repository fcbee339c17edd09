// A file replaced atomically: bytes go to "<path>.tmp", which commit()
// renames over `path`. Until then `path` is untouched, and a file that is
// never committed (an error midway) is removed. Failures are PORTA_ERROR_IO.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

namespace porta::io {

class AtomicFile {
 public:
  // Creates "<path>.tmp"; `op` ("safetensors_save") starts error messages.
  AtomicFile(const char* path, const char* op);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const void* data, size_t bytes);
  // Flushes to disk and renames the temporary file over `path`.
  void commit();

 private:
  std::string path_, tmp_, where_;
  std::FILE* file_ = nullptr;
  bool committed_ = false;
};

}  // namespace porta::io
