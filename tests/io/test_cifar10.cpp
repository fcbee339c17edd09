// CIFAR-10 binary batches: a hand-made file, bad sizes and bad labels.
#include "io_test_util.hpp"

using namespace porta_io_test;

namespace {

unsigned char pixel(size_t record, size_t channel, size_t y, size_t x) {
  return static_cast<unsigned char>((record * 101 + channel * 37 + y * 5 + x * 3) % 256);
}

Bytes cifar(const std::vector<unsigned char>& labels) {
  Bytes b;
  for (size_t r = 0; r < labels.size(); ++r) {
    b.push_back(labels[r]);
    for (size_t c = 0; c < 3; ++c)
      for (size_t y = 0; y < 32; ++y)
        for (size_t x = 0; x < 32; ++x) b.push_back(pixel(r, c, y, x));
  }
  return b;
}

void expect_refused(const ScratchDir& dir, const Bytes& bytes, const std::vector<std::string>& parts) {
  const std::string path = dir.file("bad.bin");
  write_file(path, bytes);
  porta_tensor* const sentinel = reinterpret_cast<porta_tensor*>(0x1);
  porta_tensor *images = sentinel, *labels = sentinel;
  EXPECT_EQ(porta_read_cifar10(path.c_str(), &images, &labels), PORTA_ERROR_IO) << error();
  EXPECT_EQ(images, sentinel);
  EXPECT_EQ(labels, sentinel);
  const std::string message = error();
  EXPECT_TRUE(has(message, "read_cifar10: '" + path + "'")) << message;
  for (const std::string& p : parts) EXPECT_TRUE(has(message, p)) << "missing \"" << p << "\" in: " << message;
}

}  // namespace

TEST(Cifar10, ReadsATwoRecordBatch) {
  ScratchDir dir;
  const std::string path = dir.file("data_batch_1.bin");
  write_file(path, cifar({3, 9}));
  porta_tensor *im = nullptr, *lb = nullptr;
  PORTA_ASSERT_OK(porta_read_cifar10(path.c_str(), &im, &lb));
  Tensor images(im), labels(lb);
  EXPECT_TRUE(same(dtype_of(images.get()), porta_uint8));
  EXPECT_EQ(shape_of(images.get()), (std::vector<int64_t>{2, 3, 32, 32}));
  EXPECT_TRUE(same(dtype_of(labels.get()), porta_int64));
  EXPECT_EQ(shape_of(labels.get()), std::vector<int64_t>{2});
  EXPECT_EQ(device_of(images.get()).device_type, kDLCPU);
  EXPECT_EQ(device_of(labels.get()).device_type, kDLCPU);
  EXPECT_EQ(values<int64_t>(labels.get()), (std::vector<int64_t>{3, 9}));
  const std::vector<uint8_t> px = values<uint8_t>(images.get());
  ASSERT_EQ(px.size(), 2u * 3072u);
  size_t wrong = 0;
  for (size_t r = 0; r < 2; ++r)
    for (size_t c = 0; c < 3; ++c)
      for (size_t y = 0; y < 32; ++y)
        for (size_t x = 0; x < 32; ++x) wrong += px[((r * 3 + c) * 32 + y) * 32 + x] != pixel(r, c, y, x);
  EXPECT_EQ(wrong, 0u) << "images are [N, 3 (R, G, B planes), 32, 32]";
}

TEST(Cifar10, ReadsGzippedBatches) {
  ScratchDir dir;
  const std::string path = dir.file("test_batch.bin.gz");
  write_gzip(path, cifar({0, 1, 2}));
  porta_tensor *im = nullptr, *lb = nullptr;
  PORTA_ASSERT_OK(porta_read_cifar10(path.c_str(), &im, &lb));
  Tensor images(im), labels(lb);
  EXPECT_EQ(values<int64_t>(labels.get()), (std::vector<int64_t>{0, 1, 2}));
}

TEST(Cifar10, BadSizesAreRefused) {
  ScratchDir dir;
  expect_refused(dir, {}, {"has 0 bytes", "positive multiple of the 3073-byte record"});
  Bytes one = cifar({1});
  expect_refused(dir, Bytes(one.begin(), one.end() - 1), {"has 3072 bytes"});
  one.push_back(0);
  expect_refused(dir, one, {"has 3074 bytes"});
  const Bytes two = cifar({1, 2});
  expect_refused(dir, Bytes(two.begin(), two.end() - 1), {"has 6145 bytes"});
}

TEST(Cifar10, LabelsOutOfRangeAreRefused) {
  ScratchDir dir;
  expect_refused(dir, cifar({0, 10}), {"record 1 has label 10", "0 to 9"});
  expect_refused(dir, cifar({255}), {"record 0 has label 255"});
}

TEST(Cifar10, ArgumentsAreChecked) {
  porta_tensor *im = nullptr, *lb = nullptr;
  EXPECT_EQ(porta_read_cifar10(nullptr, &im, &lb), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(has(error(), "path must not be NULL")) << error();
  EXPECT_EQ(porta_read_cifar10("/x.bin", nullptr, &lb), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(has(error(), "images must not be NULL")) << error();
  EXPECT_EQ(porta_read_cifar10("/x.bin", &im, nullptr), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(has(error(), "labels must not be NULL")) << error();
  EXPECT_EQ(porta_read_cifar10("/nonexistent/x.bin", &im, &lb), PORTA_ERROR_IO);
  EXPECT_TRUE(has(error(), "cannot open")) << error();
  EXPECT_EQ(im, nullptr);
  EXPECT_EQ(lb, nullptr);
}
