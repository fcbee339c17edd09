// What the cuda tests share: the CUDA runtime's own view of the machine
// (to compare the plugin's answers with), porta-smi's output, and RAII for
// tensors.
#pragma once

#include <gtest/gtest.h>
#include <porta/porta.h>

#include <string>

#include "../support/run_command.hpp"

namespace cuda_test {

// cudaGetDeviceCount as this process sees it: count, or 0 and the error text.
struct RuntimeView {
  int devices = 0;
  std::string error;  // cudaGetErrorString of the failure, "" on success
};
const RuntimeView& runtime_view();

// The cuda plugin's load record (state, reason, ...); fails the test if absent.
porta_plugin_info cuda_plugin_info();

// Owns one tensor reference.
class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(porta_tensor* t) : t_(t) {}
  ~Tensor() { porta_tensor_release(t_); }
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;
  porta_tensor** out() { return &t_; }
  operator porta_tensor*() const { return t_; }

 private:
  porta_tensor* t_ = nullptr;
};

}  // namespace cuda_test

#define CUDA_TEST_OK(expr) ASSERT_EQ((expr), PORTA_OK) << #expr << ": " << porta_last_error()

// Skips a test that needs a CUDA device, naming why there is none.
#define CUDA_TEST_REQUIRE_GPU(n)                                                                \
  do {                                                                                          \
    if (::cuda_test::runtime_view().devices < (n))                                              \
      GTEST_SKIP() << "no CUDA device" << ((n) > 1 ? " pair" : "") << ": "                      \
                   << (::cuda_test::runtime_view().error.empty()                                \
                           ? std::to_string(::cuda_test::runtime_view().devices) + " device(s)" \
                           : ::cuda_test::runtime_view().error);                                \
  } while (0)
