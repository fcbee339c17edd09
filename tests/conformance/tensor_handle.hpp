// The conformance suite's grip on the C API: an owning handle for
// porta_tensor*, CHECK_OK (fails the test with porta_last_error(), or
// reports a kernel the plugin lacks), metadata getters and expect_failure
// for the error contract.
#pragma once

#include <gtest/gtest.h>
#include <porta/porta.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "missing_kernel.hpp"

namespace conformance {

// Thrown by CHECK_OK; GoogleTest (or run_op_case) reports it as a failure of
// the running test, with the call, the status and porta_last_error() in the
// description. A kernel the plugin lacks throws KernelNotImplemented instead
// (missing_kernel.hpp).
struct PortaFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void fail_status(porta_status status, const char* expr, const char* file, int line);

#define CHECK_OK(expr)                                                                                         \
  do {                                                                                                         \
    const porta_status check_ok_status_ = (expr);                                                              \
    if (check_ok_status_ != PORTA_OK) ::conformance::fail_status(check_ok_status_, #expr, __FILE__, __LINE__); \
  } while (0)

// Owns one reference to a porta_tensor; converts implicitly to the raw handle.
class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(porta_tensor* t) : t_(t) {}
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;
  Tensor(Tensor&& o) noexcept : t_(std::exchange(o.t_, nullptr)) {}
  Tensor& operator=(Tensor&& o) noexcept {
    if (this != &o) reset(std::exchange(o.t_, nullptr));
    return *this;
  }
  ~Tensor() { porta_tensor_release(t_); }

  porta_tensor* get() const { return t_; }
  operator porta_tensor*() const { return t_; }  // NOLINT: used as a C argument
  // For out-parameters: drops the current reference and exposes the slot.
  porta_tensor** out() {
    reset(nullptr);
    return &t_;
  }
  void reset(porta_tensor* t) {
    porta_tensor_release(t_);
    t_ = t;
  }

 private:
  porta_tensor* t_ = nullptr;
};

// ---- metadata (each CHECK_OKs its call)
DLDataType dtype_of(const porta_tensor* t);
std::vector<int64_t> shape_of(const porta_tensor* t);
std::vector<int64_t> strides_of(const porta_tensor* t);
DLDevice device_of(const porta_tensor* t);
int64_t numel_of(const porta_tensor* t);
uint64_t byte_offset_of(const porta_tensor* t);
bool is_contiguous(const porta_tensor* t);
std::string device_string(DLDevice d);  // "cpu:0"

// A pointer value no successful call would write: out-parameters start here
// so a test can see that a failing call left them untouched.
porta_tensor* sentinel();

// Calls `call(&out)` with out = sentinel(); expects status `expected`, out
// untouched and a non-empty porta_last_error(). Returns that message. A
// status that is a missing kernel means the case cannot be checked here.
template <typename Call>
std::string expect_failure(porta_status expected, Call&& call) {
  porta_tensor* out = sentinel();
  const porta_status st = call(&out);
  // A missing kernel is never the refusal a case expects, not even a NOT_IMPLEMENTED one.
  if (st != expected || st == PORTA_ERROR_NOT_IMPLEMENTED) throw_if_missing_kernel(st, __FILE__, __LINE__);
  const std::string message = porta_last_error();
  EXPECT_STREQ(porta_status_name(st), porta_status_name(expected)) << "message: " << message;
  EXPECT_EQ(out, sentinel()) << "the out-parameter was written on error";
  EXPECT_FALSE(message.empty()) << "no porta_last_error() message";
  if (st == PORTA_OK && out != sentinel()) porta_tensor_release(out);
  return message;
}

// expect_failure for an integer division by zero: INVALID_ARGUMENT whose
// message names PyTorch's ZeroDivisionError.
template <typename Call>
void expect_zero_division_error(Call&& call) {
  const std::string message = expect_failure(PORTA_ERROR_INVALID_ARGUMENT, call);
  EXPECT_NE(message.find("ZeroDivisionError"), std::string::npos) << message;
}

}  // namespace conformance
