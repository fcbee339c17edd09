// "The plugin has no kernel for this op and dtype", told apart from every
// other error. Only the core's kernel lookup (find_kernel in
// core/src/runtime/dispatch.cpp) reports PORTA_ERROR_NOT_IMPLEMENTED with a message
// that *starts* "<op> (<dtype>) is not implemented by plugin '<name>'"; an
// error a kernel itself returns starts "<op> (<dtype>) on <device>: [<name>
// plugin] ..." (check_plugin in core/src/runtime/registry.cpp), so it never matches.
//
// A missing kernel fails the running test, unless a tool (porta-conformance)
// allows missing kernels: then it is a GoogleTest skip whose message starts
// with kNotImplementedMarker. The ctest suites never allow them, so they fail
// if one of this build's plugins lacks a kernel.
#pragma once

#include <gtest/gtest.h>
#include <porta/porta.h>

#include <optional>
#include <string>
#include <string_view>

namespace conformance {

inline constexpr std::string_view kNotImplementedMarker = "[not implemented]";

struct MissingKernel {
  std::string op, dtype, plugin;
  std::string kernel() const { return op + " (" + dtype + ")"; }  // "add (float32)"
  // For the summary row of `device` ("mock:0"): the plugin is named only when it is another device's.
  std::string seen_from(const std::string& device) const {
    return device.substr(0, device.find(':')) == plugin ? kernel() : kernel() + " of plugin '" + plugin + "'";
  }
};

// The kernel a failed call lacked; nullopt for any other status or message.
std::optional<MissingKernel> missing_kernel(porta_status status, std::string_view message);

// Off by default; porta-conformance turns it on (and off again with --strict).
void allow_missing_kernels(bool allow);
bool missing_kernels_allowed();

// Thrown once the missing kernel has been reported (as a skip or a failure of
// the running test). run_op_case catches it; GoogleTest ignores it, as it
// ignores every AssertionException ("reported already").
class KernelNotImplemented : public testing::AssertionException {
 public:
  KernelNotImplemented(const testing::TestPartResult& reported, MissingKernel kernel)
      : AssertionException(reported), kernel_(std::move(kernel)) {}
  const MissingKernel& kernel() const { return kernel_; }

 private:
  MissingKernel kernel_;
};

// If `status` (with porta_last_error()) is a missing kernel: reports it for the
// running test, once per kernel and test, and throws KernelNotImplemented.
void throw_if_missing_kernel(porta_status status, const char* file, int line);

}  // namespace conformance
