// read_cifar10 (porta_read_cifar10): one CIFAR-10 binary batch, a run of
// 3073-byte records: a label byte (0..9), then 1024 red, 1024 green and 1024
// blue bytes of a 32x32 image in row-major order.
#include "io/input_file.hpp"
#include "io/io.hpp"
#include "ops/ops.hpp"
#include "runtime/error.hpp"

namespace porta::io {
namespace {

constexpr size_t kImageBytes = 3 * 32 * 32;
constexpr size_t kRecordBytes = 1 + kImageBytes;
constexpr int kClasses = 10;

}  // namespace

std::pair<TensorPtr, TensorPtr> read_cifar10(const char* path) {
  InputFile file(path, "read_cifar10");
  const std::string& where = file.where();
  // No batch is near this size (10000 records is 30 MB); stop reading at it.
  const uint64_t limit = uint64_t{1} << 34;
  const std::vector<unsigned char> bytes = file.read_up_to(limit);
  if (bytes.size() == limit) fail(PORTA_ERROR_IO, where, ": the file is over 16 GiB; CIFAR-10 batches are 30 MB");
  if (bytes.empty() || bytes.size() % kRecordBytes != 0)
    fail(PORTA_ERROR_IO, where, ": the file has ", bytes.size(), " bytes, not a positive multiple of the ",
         kRecordBytes, "-byte record (1 label + 3072 pixels); is it a CIFAR-10 binary batch (not the Python one)?");
  const size_t n = bytes.size() / kRecordBytes;
  std::vector<unsigned char> pixels(n * kImageBytes);
  std::vector<int64_t> classes(n);
  for (size_t i = 0; i < n; ++i) {
    const unsigned char* record = &bytes[i * kRecordBytes];
    if (record[0] >= kClasses)
      fail(PORTA_ERROR_IO, where, ": record ", i, " has label ", int(record[0]), "; CIFAR-10 labels are 0 to ",
           kClasses - 1, " (is this a CIFAR-100 file?)");
    classes[i] = record[0];
    std::copy(record + 1, record + kRecordBytes, &pixels[i * kImageBytes]);
  }
  DeviceState& cpu = Registry::get().device(DLDevice{kDLCPU, 0});
  const auto count = static_cast<int64_t>(n);
  return {ops::from_host(pixels.data(), Dtype::UInt8, Dims{count, 3, 32, 32}, cpu),
          ops::from_host(classes.data(), Dtype::Int64, Dims{count}, cpu)};
}

}  // namespace porta::io
