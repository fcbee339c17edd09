// Calling the shared host kernels directly: owning contiguous host tensors,
// one call helper that looks the kernel up by (op, dtype) like a plugin
// does, the last error message, and seeded random data.
#pragma once

#include <gtest/gtest.h>
#include <host_kernels.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace porta_test {

template <class T>
DLDataType dl_dtype() {
  if constexpr (std::is_same_v<T, float>) return {kDLFloat, 32, 1};
  else if constexpr (std::is_same_v<T, double>) return {kDLFloat, 64, 1};
  else return {kDLInt, 64, 1};
}

// A contiguous host tensor owning its elements; `front` unused elements
// precede the data, reached through byte_offset.
template <class T>
struct Tensor {
  std::vector<int64_t> shape, strides;
  std::vector<T> storage;
  int64_t front = 0;

  explicit Tensor(std::vector<int64_t> s, T fill = T(0), int64_t front_pad = 0)
      : shape(std::move(s)), front(front_pad) {
    strides.assign(shape.size(), 1);
    for (size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * shape[d];
    storage.assign(static_cast<size_t>(numel() + front), fill);
  }
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }
  T* data() { return storage.data() + front; }
  const T* data() const { return storage.data() + front; }
  T& operator[](int64_t i) { return data()[i]; }
  const T& operator[](int64_t i) const { return data()[i]; }
  std::vector<T> values() const { return {data(), data() + numel()}; }
  DLTensor dl() {
    DLTensor t{};
    t.data = storage.data();
    t.device = {kDLCPU, 0};
    t.ndim = static_cast<int32_t>(shape.size());
    t.dtype = dl_dtype<T>();
    t.shape = shape.data();
    t.strides = strides.data();
    t.byte_offset = static_cast<uint64_t>(front) * sizeof(T);
    return t;
  }
};

// Uniform values in [lo, hi) from a fixed seed.
template <class T>
Tensor<T> random_tensor(std::vector<int64_t> shape, uint32_t seed, double lo = -1, double hi = 1) {
  Tensor<T> t(std::move(shape));
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  for (int64_t i = 0; i < t.numel(); ++i) t[i] = static_cast<T>(dist(gen));
  return t;
}

// The message of the last error a kernel reported.
inline std::string& last_error() {
  static std::string message;
  return message;
}

// Installs a host table that records error messages (once per process).
inline void install_error_sink() {
  static const porta_host_api host = {sizeof(porta_host_api), PORTA_PLUGIN_ABI_MAJOR, PORTA_PLUGIN_ABI_MINOR,
                                      [](const char* m) { last_error() = m; }, nullptr, nullptr};
  porta::host::set_host_api(&host);
}

// Runs the host kernel for (op, Kernel dtype) on the given operands.
template <class Kernel>
porta_status call(uint32_t op, std::vector<DLTensor> ins, std::vector<DLTensor> outs, const void* params) {
  install_error_sink();
  last_error().clear();
  const porta_kernel_fn fn = porta::host::find_host_kernel(op, dl_dtype<Kernel>());
  EXPECT_NE(fn, nullptr) << "no host kernel for op " << op;
  if (!fn) return PORTA_ERROR_NOT_IMPLEMENTED;
  porta_kernel_call c{};
  c.struct_size = sizeof c;
  c.inputs = ins.data();
  c.num_inputs = static_cast<int32_t>(ins.size());
  c.outputs = outs.data();
  c.num_outputs = static_cast<int32_t>(outs.size());
  c.params = params;
  return fn(&c);
}

// Relative-plus-absolute tolerance for comparing a T result to a double reference.
template <class T>
double tolerance() {
  return std::is_same_v<T, float> ? 2e-5 : 1e-12;
}

template <class T>
void expect_near_all(const Tensor<T>& got, const std::vector<double>& want, double tol, const char* what) {
  ASSERT_EQ(static_cast<size_t>(got.numel()), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) {
    const double g = static_cast<double>(got[static_cast<int64_t>(i)]);
    ASSERT_NEAR(g, want[i], tol * (1 + std::abs(want[i]))) << what << " at " << i;
  }
}

using FloatTypes = ::testing::Types<float, double>;

}  // namespace porta_test
