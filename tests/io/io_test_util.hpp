// Helpers for the file-format tests, over the C API only: owning handles,
// a scratch directory, raw and gzip file writers, and typed host reads.
#pragma once

#include <gtest/gtest.h>
#include <porta/porta.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace porta_io_test {

struct ReleaseTensor {
  void operator()(porta_tensor* t) const { porta_tensor_release(t); }
};
struct ReleaseList {
  void operator()(porta_tensor_list* l) const { porta_tensor_list_release(l); }
};
using Tensor = std::unique_ptr<porta_tensor, ReleaseTensor>;
using List = std::unique_ptr<porta_tensor_list, ReleaseList>;
using Bytes = std::vector<unsigned char>;

#define PORTA_ASSERT_OK(expr) ASSERT_EQ((expr), PORTA_OK) << porta_last_error()
#define PORTA_EXPECT_OK(expr) EXPECT_EQ((expr), PORTA_OK) << porta_last_error()

inline std::string error() { return porta_last_error(); }
inline bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

inline DLDevice device(const char* s) {
  DLDevice d{};
  EXPECT_EQ(porta_device_parse(s, &d), PORTA_OK) << porta_last_error();
  return d;
}

// A fresh directory under the test's build directory, removed afterwards.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = std::string(PORTA_IO_TEST_TMP) + "/io-XXXXXX";
    std::filesystem::create_directories(PORTA_IO_TEST_TMP);
    if (::mkdtemp(pattern.data()) == nullptr) ADD_FAILURE() << "mkdtemp failed: " << std::strerror(errno);
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline void write_file(const std::string& path, const Bytes& bytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr) << path;
  if (!bytes.empty()) {
    EXPECT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), f), bytes.size());
  }
  std::fclose(f);
}

inline void write_gzip(const std::string& path, const Bytes& bytes) {
  gzFile f = gzopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr) << path;
  ASSERT_EQ(gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size())), static_cast<int>(bytes.size()));
  ASSERT_EQ(gzclose(f), Z_OK);
}

inline Bytes read_file(const std::string& path) {
  Bytes out;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return out;
  unsigned char buf[4096];
  while (size_t n = std::fread(buf, 1, sizeof buf, f)) out.insert(out.end(), buf, buf + n);
  std::fclose(f);
  return out;
}

inline bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

inline void append(Bytes& out, const void* p, size_t n) {
  const auto* b = static_cast<const unsigned char*>(p);
  out.insert(out.end(), b, b + n);
}
inline void append(Bytes& out, const std::string& s) { append(out, s.data(), s.size()); }

// A safetensors file from its header text and data buffer, laid out by hand.
inline Bytes safetensors_bytes(const std::string& header, const Bytes& data) {
  Bytes out;
  const uint64_t n = header.size();
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<unsigned char>(n >> (8 * i)));
  append(out, header);
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

inline std::vector<int64_t> shape_of(porta_tensor* t) {
  int32_t nd = 0;
  EXPECT_EQ(porta_tensor_ndim(t, &nd), PORTA_OK);
  std::vector<int64_t> s(static_cast<size_t>(nd));
  if (nd > 0) {
    EXPECT_EQ(porta_tensor_shape(t, s.data()), PORTA_OK);
  }
  return s;
}

inline DLDataType dtype_of(porta_tensor* t) {
  DLDataType d{};
  EXPECT_EQ(porta_tensor_dtype(t, &d), PORTA_OK);
  return d;
}

inline bool same(DLDataType a, DLDataType b) { return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes; }

inline DLDevice device_of(porta_tensor* t) {
  DLDevice d{};
  EXPECT_EQ(porta_tensor_device(t, &d), PORTA_OK);
  return d;
}

// The elements of `t` as T, in row-major order.
template <typename T>
std::vector<T> values(porta_tensor* t) {
  int64_t n = 0;
  EXPECT_EQ(porta_tensor_numel(t, &n), PORTA_OK);
  std::vector<T> v(static_cast<size_t>(n));
  EXPECT_EQ(porta_tensor_to_host(t, v.data(), v.size() * sizeof(T)), PORTA_OK) << porta_last_error();
  return v;
}

template <typename T>
Tensor from(const std::vector<T>& v, DLDataType dtype, std::vector<int64_t> shape, DLDevice dev) {
  porta_tensor* t = nullptr;
  EXPECT_EQ(porta_tensor_from_host(v.data(), dtype, shape.data(), static_cast<int32_t>(shape.size()), dev, &t),
            PORTA_OK)
      << porta_last_error();
  return Tensor(t);
}

inline int32_t list_size(porta_tensor_list* l) {
  int32_t n = -1;
  EXPECT_EQ(porta_tensor_list_size(l, &n), PORTA_OK) << porta_last_error();
  return n;
}

// Entry i of a list: its name and a new reference to its tensor.
inline std::pair<std::string, Tensor> entry(porta_tensor_list* l, int32_t i) {
  const char* name = nullptr;
  porta_tensor* t = nullptr;
  EXPECT_EQ(porta_tensor_list_get(l, i, &name, &t), PORTA_OK) << porta_last_error();
  return {name ? name : "", Tensor(t)};
}

}  // namespace porta_io_test
