// Fuzzes the IDX reader (porta_read_idx). The first byte chooses whether the
// rest is written as it is or gzip-compressed first, so the IDX parser is
// reached through both of the reader's paths; raw bytes also exercise zlib's
// handling of corrupt or truncated gzip data.
#include <porta/porta.h>

#include <vector>

#include "fuzz_input.hpp"
#include "fuzz_input_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  FuzzInputFile& file = FuzzInputFile::get("idx");
  const char* path = (data[0] & 1) ? file.write_gzipped(data + 1, size - 1) : file.write(data + 1, size - 1);
  porta_tensor* t = nullptr;
  if (porta_read_idx(path, &t) != PORTA_OK) {
    FUZZ_CHECK(*porta_last_error() != '\0', "a failed read left no message");
    return 0;
  }
  int64_t numel = 0;
  DLDataType dtype{};
  FUZZ_CHECK(porta_tensor_numel(t, &numel) == PORTA_OK && porta_tensor_dtype(t, &dtype) == PORTA_OK,
             "numel/dtype of a read tensor failed");
  FUZZ_CHECK(static_cast<uint64_t>(numel) <= size * uint64_t{1032}, "more elements than the input could hold");
  std::vector<uint8_t> bytes(static_cast<size_t>(numel) * dtype.bits / 8);
  FUZZ_CHECK(porta_tensor_to_host(t, bytes.data(), bytes.size()) == PORTA_OK, "to_host of a read tensor failed");
  porta_tensor_release(t);
  return 0;
}
