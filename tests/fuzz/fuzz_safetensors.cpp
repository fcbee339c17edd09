// Fuzzes the safetensors reader (porta_safetensors_load) with whole files:
// every input either loads, and each tensor reads back, or fails with
// PORTA_ERROR_IO / UNSUPPORTED_DTYPE and a message.
#include <porta/porta.h>

#include <vector>

#include "fuzz_input.hpp"
#include "fuzz_input_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const char* path = FuzzInputFile::get("safetensors").write(data, size);
  porta_tensor_list* list = nullptr;
  const porta_status status = porta_safetensors_load(path, DLDevice{kDLCPU, 0}, &list);
  if (status != PORTA_OK) {
    FUZZ_CHECK(status == PORTA_ERROR_IO || status == PORTA_ERROR_UNSUPPORTED_DTYPE,
               "a bad file failed with a status other than IO or UNSUPPORTED_DTYPE");
    FUZZ_CHECK(*porta_last_error() != '\0', "a failed load left no message");
    return 0;
  }
  int32_t n = 0;
  FUZZ_CHECK(porta_tensor_list_size(list, &n) == PORTA_OK, "tensor_list_size failed");
  uint64_t total = 0;
  for (int32_t i = 0; i < n; ++i) {
    const char* name = nullptr;
    porta_tensor* t = nullptr;
    FUZZ_CHECK(porta_tensor_list_get(list, i, &name, &t) == PORTA_OK, "tensor_list_get failed");
    int64_t numel = 0;
    DLDataType dtype{};
    FUZZ_CHECK(porta_tensor_numel(t, &numel) == PORTA_OK && porta_tensor_dtype(t, &dtype) == PORTA_OK,
               "numel/dtype of a loaded tensor failed");
    std::vector<uint8_t> bytes(static_cast<size_t>(numel) * dtype.bits / 8);
    FUZZ_CHECK(porta_tensor_to_host(t, bytes.data(), bytes.size()) == PORTA_OK, "to_host of a loaded tensor failed");
    total += bytes.size();
    porta_tensor_release(t);
  }
  FUZZ_CHECK(total + 8 <= size, "the loaded tensors hold more bytes than the file");
  porta_tensor_list_release(list);
  return 0;
}
