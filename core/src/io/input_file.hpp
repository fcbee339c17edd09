// A file read front to back through zlib, so gzip-compressed and plain files
// read alike (zlib passes data that is not gzip through unchanged). Every
// failure is PORTA_ERROR_IO naming the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace porta::io {

class InputFile {
 public:
  // Opens `path`; `op` ("read_idx") starts every error message.
  InputFile(const char* path, const char* op);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  // Up to `n` bytes: fewer only when the data ends first. The buffer grows
  // as data arrives, so a header that claims too much cannot exhaust memory.
  std::vector<unsigned char> read_up_to(uint64_t n);
  // Reads and discards the rest of the data; returns how many bytes it was.
  uint64_t skip_rest();
  // "read_idx: '/data/file.gz'": the start of every error message.
  const std::string& where() const { return where_; }

 private:
  // Reads at most n bytes into dst; 0 only at the end of the data.
  size_t read_some(void* dst, size_t n);

  void* gz_ = nullptr;  // gzFile
  std::string where_;
};

}  // namespace porta::io
