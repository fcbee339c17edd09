// What every harness shares: FuzzInput reads typed values off the front of a
// fuzz input, so raw bytes become structured arguments (past the end every
// value is zero, so every input, however short, describes some call), and
// FUZZ_CHECK turns a broken invariant into a crash the fuzzer records.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

class FuzzInput {
 public:
  FuzzInput(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  // The next sizeof(T) bytes as a T (zero-filled past the end).
  template <typename T>
  T take() {
    static_assert(std::is_trivially_copyable_v<T>);
    T value{};
    const size_t n = sizeof(T) < size_ ? sizeof(T) : size_;
    std::memcpy(&value, data_, n);
    data_ += n;
    size_ -= n;
    return value;
  }

  // A small value in [0, 16) most of the time, any int64 when the selector's top bit is set:
  // mutations reach both the common case and the extremes.
  int64_t take_mostly_small() {
    const auto selector = take<uint8_t>();
    return (selector & 0x80) ? take<int64_t>() : static_cast<int64_t>(selector & 0x0F);
  }

  // The next bytes up to (not including) a NUL, or to the end.
  std::string take_c_string() {
    size_t n = 0;
    while (n < size_ && data_[n] != 0) ++n;
    std::string s(reinterpret_cast<const char*>(data_), n);
    const size_t used = n < size_ ? n + 1 : n;
    data_ += used;
    size_ -= used;
    return s;
  }

  const uint8_t* rest() const { return data_; }
  size_t rest_size() const { return size_; }

 private:
  const uint8_t* data_;
  size_t size_;
};

// Aborts with `what` when `ok` is false: a broken invariant is a finding.
#define FUZZ_CHECK(ok, what)                                                      \
  do {                                                                            \
    if (!(ok)) {                                                                  \
      std::fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, what); \
      std::abort();                                                               \
    }                                                                             \
  } while (0)
