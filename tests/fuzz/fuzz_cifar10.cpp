// Fuzzes the CIFAR-10 binary reader (porta_read_cifar10). The first byte
// chooses whether the rest is written as it is or gzip-compressed first
// (the reader goes through zlib either way).
#include <porta/porta.h>

#include <vector>

#include "fuzz_input.hpp"
#include "fuzz_input_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  FuzzInputFile& file = FuzzInputFile::get("cifar10");
  const char* path = (data[0] & 1) ? file.write_gzipped(data + 1, size - 1) : file.write(data + 1, size - 1);
  porta_tensor* images = nullptr;
  porta_tensor* labels = nullptr;
  if (porta_read_cifar10(path, &images, &labels) != PORTA_OK) {
    FUZZ_CHECK(*porta_last_error() != '\0', "a failed read left no message");
    FUZZ_CHECK(images == nullptr && labels == nullptr, "a failed read wrote its out-parameters");
    return 0;
  }
  int64_t n_images = 0, n_labels = 0;
  FUZZ_CHECK(porta_tensor_numel(images, &n_images) == PORTA_OK && porta_tensor_numel(labels, &n_labels) == PORTA_OK,
             "numel of a read tensor failed");
  FUZZ_CHECK(n_images == n_labels * 3072, "images and labels disagree on the record count");
  std::vector<int64_t> classes(static_cast<size_t>(n_labels));
  FUZZ_CHECK(porta_tensor_to_host(labels, classes.data(), classes.size() * sizeof(int64_t)) == PORTA_OK,
             "to_host of the labels failed");
  for (int64_t c : classes) FUZZ_CHECK(c >= 0 && c < 10, "a label outside 0..9 was accepted");
  porta_tensor_release(images);
  porta_tensor_release(labels);
  return 0;
}
