// One temporary file per fuzzing process, rewritten with each input: the
// file readers (safetensors, IDX, CIFAR-10) take a path, so the fuzz bytes
// go through a real file, as users' data does. Removed at exit.
#pragma once

#include <unistd.h>
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

class FuzzInputFile {
 public:
  // The process's file; `tag` ("idx") names it.
  static FuzzInputFile& get(const char* tag) {
    static FuzzInputFile file(tag);
    return file;
  }

  // Replaces the file's contents with `data`; returns its path.
  const char* write(const uint8_t* data, size_t size) {
    if (ftruncate(fd_, 0) != 0 || pwrite(fd_, data, size, 0) != static_cast<ssize_t>(size)) {
      std::perror("fuzz input file");
      std::abort();
    }
    return path_.c_str();
  }

  // As write(), with `data` gzip-compressed first (for readers that go through zlib).
  const char* write_gzipped(const uint8_t* data, size_t size) {
    z_stream z{};
    if (deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) std::abort();
    std::vector<uint8_t> out(deflateBound(&z, size) + 32);
    z.next_in = const_cast<uint8_t*>(data);
    z.avail_in = static_cast<uInt>(size);
    z.next_out = out.data();
    z.avail_out = static_cast<uInt>(out.size());
    if (deflate(&z, Z_FINISH) != Z_STREAM_END) std::abort();
    out.resize(z.total_out);
    deflateEnd(&z);
    return write(out.data(), out.size());
  }

 private:
  explicit FuzzInputFile(const char* tag) {
    const char* dir = std::getenv("TMPDIR");
    path_ = std::string(dir && *dir ? dir : "/tmp") + "/porta-fuzz-" + tag + "-XXXXXX";
    fd_ = mkstemp(path_.data());
    if (fd_ < 0) {
      std::perror("mkstemp");
      std::abort();
    }
  }
  ~FuzzInputFile() {
    close(fd_);
    unlink(path_.c_str());
  }

  std::string path_;
  int fd_ = -1;
};
