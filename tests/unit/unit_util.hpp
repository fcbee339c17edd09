// Small helpers for the core unit tests, over the C API only.
#pragma once

#include <gtest/gtest.h>
#include <porta/porta.h>

#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace porta_test {

struct Release {
  void operator()(porta_tensor* t) const { porta_tensor_release(t); }
};
using Tensor = std::unique_ptr<porta_tensor, Release>;

#define PORTA_ASSERT_OK(expr) ASSERT_EQ((expr), PORTA_OK) << porta_last_error()
#define PORTA_EXPECT_OK(expr) EXPECT_EQ((expr), PORTA_OK) << porta_last_error()

inline DLDevice device(const char* s) {
  DLDevice d{};
  EXPECT_EQ(porta_device_parse(s, &d), PORTA_OK) << porta_last_error();
  return d;
}

inline Tensor from(const std::vector<float>& v, std::vector<int64_t> shape, DLDevice dev) {
  porta_tensor* t = nullptr;
  EXPECT_EQ(porta_tensor_from_host(v.data(), porta_float32, shape.data(), static_cast<int32_t>(shape.size()), dev, &t),
            PORTA_OK)
      << porta_last_error();
  return Tensor(t);
}

inline std::vector<float> values(porta_tensor* t) {
  int64_t n = 0;
  EXPECT_EQ(porta_tensor_numel(t, &n), PORTA_OK);
  std::vector<float> v(static_cast<size_t>(n));
  EXPECT_EQ(porta_tensor_to_host(t, v.data(), v.size() * sizeof(float)), PORTA_OK) << porta_last_error();
  return v;
}

inline std::string error() { return porta_last_error(); }

}  // namespace porta_test
