// IDX (MNIST / Fashion-MNIST): the real dataset files, hand-made files of
// every element type (raw and gzipped), and damaged files.
#include <cmath>
#include <cstdlib>
#include <numeric>

#include "io_test_util.hpp"

using namespace porta_io_test;

namespace {

// An IDX file: magic, big-endian sizes, then `payload` (already big-endian).
Bytes idx(unsigned char type, std::vector<uint32_t> dims, const Bytes& payload) {
  Bytes b = {0, 0, type, static_cast<unsigned char>(dims.size())};
  for (uint32_t d : dims)
    for (int s = 24; s >= 0; s -= 8) b.push_back(static_cast<unsigned char>(d >> s));
  b.insert(b.end(), payload.begin(), payload.end());
  return b;
}

// `v` as big-endian bytes of its width.
template <typename T>
Bytes big_endian(const std::vector<T>& v) {
  Bytes b;
  for (T x : v) {
    unsigned char le[sizeof(T)];
    std::memcpy(le, &x, sizeof(T));
    for (size_t i = sizeof(T); i-- > 0;) b.push_back(le[i]);
  }
  return b;
}

std::string dataset_dir() {
  const char* env = std::getenv("PORTA_FASHION_MNIST_DIR");
  return env ? env : PORTA_FASHION_MNIST_DIR;
}

Tensor read_ok(const std::string& path) {
  porta_tensor* t = nullptr;
  EXPECT_EQ(porta_read_idx(path.c_str(), &t), PORTA_OK) << error();
  return Tensor(t);
}

class IdxFiles : public ::testing::TestWithParam<bool> {  // param: gzipped
 protected:
  std::string put(const Bytes& bytes) {
    // Built piecewise: GCC 12 at -O2 warns falsely (-Wrestrict) on "f" + string + literal.
    std::string name = "f";
    name += std::to_string(count_++);
    name += GetParam() ? ".gz" : ".idx";
    const std::string path = dir_.file(name);
    if (GetParam())
      write_gzip(path, bytes);
    else
      write_file(path, bytes);
    return path;
  }
  void expect_refused(const Bytes& bytes, std::vector<std::string> parts) {
    const std::string path = put(bytes);
    porta_tensor* const sentinel = reinterpret_cast<porta_tensor*>(0x1);
    porta_tensor* out = sentinel;
    EXPECT_EQ(porta_read_idx(path.c_str(), &out), PORTA_ERROR_IO) << error();
    EXPECT_EQ(out, sentinel);
    const std::string message = error();
    EXPECT_TRUE(has(message, "read_idx: '" + path + "'")) << message;
    for (const std::string& p : parts) EXPECT_TRUE(has(message, p)) << "missing \"" << p << "\" in: " << message;
  }

  ScratchDir dir_;
  int count_ = 0;
};

}  // namespace

TEST(FashionMnist, TrainLabels) {
  const std::string path = dataset_dir() + "/train-labels-idx1-ubyte.gz";
  if (!exists(dataset_dir())) GTEST_SKIP() << dataset_dir() << " is absent (Fashion-MNIST is not installed)";
  Tensor t = read_ok(path);
  ASSERT_TRUE(t);
  EXPECT_TRUE(same(dtype_of(t.get()), porta_uint8));
  EXPECT_EQ(shape_of(t.get()), std::vector<int64_t>{60000});
  EXPECT_EQ(device_of(t.get()).device_type, kDLCPU);
  const std::vector<uint8_t> v = values<uint8_t>(t.get());
  EXPECT_EQ(std::vector<uint8_t>(v.begin(), v.begin() + 6), (std::vector<uint8_t>{9, 0, 0, 3, 0, 2}));
  std::vector<int> per_class(10, 0);
  for (uint8_t c : v) {
    ASSERT_LT(c, 10);
    ++per_class[c];
  }
  EXPECT_EQ(per_class, std::vector<int>(10, 6000)) << "Fashion-MNIST's training set is balanced";
}

TEST(FashionMnist, TrainImages) {
  const std::string path = dataset_dir() + "/train-images-idx3-ubyte.gz";
  if (!exists(dataset_dir())) GTEST_SKIP() << dataset_dir() << " is absent (Fashion-MNIST is not installed)";
  Tensor t = read_ok(path);
  ASSERT_TRUE(t);
  EXPECT_TRUE(same(dtype_of(t.get()), porta_uint8));
  EXPECT_EQ(shape_of(t.get()), (std::vector<int64_t>{60000, 28, 28}));
  const std::vector<uint8_t> v = values<uint8_t>(t.get());
  EXPECT_EQ(std::accumulate(v.begin(), v.begin() + 784, 0L), 76247L) << "pixel sum of the first image";
}

TEST(FashionMnist, TestSet) {
  if (!exists(dataset_dir())) GTEST_SKIP() << dataset_dir() << " is absent (Fashion-MNIST is not installed)";
  Tensor labels = read_ok(dataset_dir() + "/t10k-labels-idx1-ubyte.gz");
  Tensor images = read_ok(dataset_dir() + "/t10k-images-idx3-ubyte.gz");
  ASSERT_TRUE(labels && images);
  EXPECT_EQ(shape_of(labels.get()), std::vector<int64_t>{10000});
  EXPECT_EQ(shape_of(images.get()), (std::vector<int64_t>{10000, 28, 28}));
  EXPECT_EQ(values<uint8_t>(labels.get())[0], 9);
}

TEST_P(IdxFiles, UnsignedBytes) {
  Tensor t = read_ok(put(idx(0x08, {2, 3}, {0, 1, 2, 128, 254, 255})));
  ASSERT_TRUE(t);
  EXPECT_TRUE(same(dtype_of(t.get()), porta_uint8));
  EXPECT_EQ(shape_of(t.get()), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values<uint8_t>(t.get()), (std::vector<uint8_t>{0, 1, 2, 128, 254, 255}));
}

TEST_P(IdxFiles, SignedBytesBecomeInt32) {
  Tensor t = read_ok(put(idx(0x09, {4}, {0x00, 0x7F, 0x80, 0xFF})));
  ASSERT_TRUE(t);
  EXPECT_TRUE(same(dtype_of(t.get()), porta_int32));
  EXPECT_EQ(values<int32_t>(t.get()), (std::vector<int32_t>{0, 127, -128, -1}));
}

TEST_P(IdxFiles, ShortsBecomeInt32) {
  const std::vector<int16_t> v = {0, 1, -1, 32767, -32768, 258};
  Tensor t = read_ok(put(idx(0x0B, {3, 2}, big_endian(v))));
  ASSERT_TRUE(t);
  EXPECT_TRUE(same(dtype_of(t.get()), porta_int32));
  EXPECT_EQ(shape_of(t.get()), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(values<int32_t>(t.get()), (std::vector<int32_t>{0, 1, -1, 32767, -32768, 258}));
}

TEST_P(IdxFiles, Ints) {
  const std::vector<int32_t> v = {0, -1, INT32_MIN, INT32_MAX, 0x01020304};
  Tensor t = read_ok(put(idx(0x0C, {5}, big_endian(v))));
  ASSERT_TRUE(t);
  EXPECT_TRUE(same(dtype_of(t.get()), porta_int32));
  EXPECT_EQ(values<int32_t>(t.get()), v);
}

TEST_P(IdxFiles, Floats) {
  const std::vector<float> v = {0.f, -1.5f, 3.25e-20f, INFINITY, 1e30f, -0.f};
  Tensor t = read_ok(put(idx(0x0D, {1, 2, 3}, big_endian(v))));
  ASSERT_TRUE(t);
  EXPECT_TRUE(same(dtype_of(t.get()), porta_float32));
  EXPECT_EQ(shape_of(t.get()), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(values<float>(t.get()), v);
}

TEST_P(IdxFiles, Doubles) {
  const std::vector<double> v = {3.141592653589793, -2.0, 1e-300};
  Tensor t = read_ok(put(idx(0x0E, {3}, big_endian(v))));
  ASSERT_TRUE(t);
  EXPECT_TRUE(same(dtype_of(t.get()), porta_float64));
  EXPECT_EQ(values<double>(t.get()), v);
}

TEST_P(IdxFiles, EmptyDimension) {
  Tensor t = read_ok(put(idx(0x0D, {0, 28}, {})));
  ASSERT_TRUE(t);
  EXPECT_EQ(shape_of(t.get()), (std::vector<int64_t>{0, 28}));
}

TEST_P(IdxFiles, TruncatedData) {
  expect_refused(idx(0x08, {2, 3}, {1, 2, 3, 4, 5}), {"truncated", "[2, 3]", "needs 6", "only 5"});
  expect_refused(idx(0x0C, {2}, {0, 0, 0, 1, 0, 0}), {"truncated", "needs 8", "only 6"});
}

TEST_P(IdxFiles, TrailingGarbage) {
  expect_refused(idx(0x08, {2}, {1, 2, 3, 4, 5}), {"3 bytes of trailing garbage", "[2]"});
}

TEST_P(IdxFiles, CorruptHeaders) {
  expect_refused({0, 0}, {"2 bytes", "magic"});
  expect_refused({}, {"0 bytes"});
  expect_refused({1, 0, 0x08, 1, 0, 0, 0, 0}, {"bad IDX magic"});
  expect_refused({0, 0, 0x0A, 1, 0, 0, 0, 0}, {"unknown IDX element type 0xa"});
  expect_refused({0, 0, 0x08, 0}, {"declares 0 dimensions", "1 to 16"});
  expect_refused(idx(0x08, std::vector<uint32_t>(17, 1), {0}), {"declares 17 dimensions"});
  expect_refused({0, 0, 0x08, 2, 0, 0, 0, 1, 0, 0}, {"ends inside the 2 dimension sizes"});
  expect_refused(idx(0x0E, {0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF}, {1}), {"too large", "overflows"});
  expect_refused(idx(0x08, {0x10000000, 0x10}, {1, 2}), {"truncated", "only 2"});  // claims 4 GiB
}

INSTANTIATE_TEST_SUITE_P(RawAndGzip, IdxFiles, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "gzip" : "raw"; });

TEST(IdxGzip, TruncatedOrCorruptStreamsAreRefused) {
  ScratchDir dir;
  Bytes payload(4000);
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<unsigned char>((i * 7919) % 251);
  const std::string whole = dir.file("whole.gz");
  write_gzip(whole, idx(0x08, {40, 100}, payload));
  const Bytes gz = read_file(whole);

  const std::string cut = dir.file("cut.gz");
  write_file(cut, Bytes(gz.begin(), gz.begin() + static_cast<std::ptrdiff_t>(gz.size() / 2)));
  porta_tensor* out = nullptr;
  EXPECT_EQ(porta_read_idx(cut.c_str(), &out), PORTA_ERROR_IO);
  EXPECT_TRUE(has(error(), cut) && (has(error(), "truncated") || has(error(), "corrupt"))) << error();
  EXPECT_EQ(out, nullptr);

  Bytes flipped = gz;
  flipped[gz.size() - 6] ^= 0xFF;  // inside the CRC-32 trailer
  const std::string bad = dir.file("bad.gz");
  write_file(bad, flipped);
  EXPECT_EQ(porta_read_idx(bad.c_str(), &out), PORTA_ERROR_IO);
  EXPECT_TRUE(has(error(), bad) && has(error(), "corrupt")) << error();
  EXPECT_EQ(out, nullptr);
}

TEST(IdxArguments, AreChecked) {
  porta_tensor* out = nullptr;
  EXPECT_EQ(porta_read_idx(nullptr, &out), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(has(error(), "path must not be NULL")) << error();
  EXPECT_EQ(porta_read_idx("/nonexistent/x.idx", nullptr), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(porta_read_idx("/nonexistent/x.idx", &out), PORTA_ERROR_IO);
  EXPECT_TRUE(has(error(), "'/nonexistent/x.idx'") && has(error(), "cannot open")) << error();
  EXPECT_EQ(out, nullptr);
}
