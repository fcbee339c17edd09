// Finite-difference gradient checking over the C API, in float64.
//
// For a case f(x1, ..., xk) and a fixed random weight W of f's output shape,
// L = sum(f(x) * W). Autograd's dL/dxi (from porta_backward) is compared with
// central differences (L(x + h e_j) - L(x - h e_j)) / 2h, every input
// element j, every evaluation on the device under test.
#pragma once

#include <gtest/gtest.h>
#include <porta/porta.h>

#include <functional>
#include <string>
#include <vector>

namespace gradcheck {

struct Input {
  std::vector<int64_t> shape;
  double low = -1.0, high = 1.0;  // sampling range (keep away from kinks)
};

// Builds f's output from device tensors (borrowed); returns a new reference.
using Fn = std::function<porta_tensor*(const std::vector<porta_tensor*>&)>;

struct Case {
  std::string name;
  std::vector<Input> inputs;
  Fn f;
  double tolerance = 1e-6;
};

// Runs one case on `device`; reports mismatches with EXPECT_*.
void check(const Case& c, DLDevice device);
// The same for the case's second derivatives (double backward, create_graph):
// G(x) = sum_i sum(dL/dx_i * V_i) for fixed random V_i, dG/dx from
// differentiating the recorded backward pass against central differences of
// G (each G from a first-order backward).
void check_second_order(const Case& c, DLDevice device);

// Helpers for writing cases: fail the test (and return NULL) on error; a
// kernel the plugin lacks ends the case instead (missing_kernel.hpp).
// `result` is read after `status` is computed (it is taken by reference).
porta_tensor* ok(porta_status status, porta_tensor* const& result);
porta_tensor* constant(std::vector<double> values, std::vector<int64_t> shape, DLDevice device);
DLDevice device_of(const porta_tensor* t);

}  // namespace gradcheck
