// One op x dtype case: the unit porta-conformance's summary reports. A test
// runs the code that checks one case through run_op_case, so that a kernel
// the plugin lacks ends that case (not implemented) instead of the whole
// test, and the cases after it still run.
#pragma once

#include <gtest/gtest.h>
#include <porta/porta.h>

#include <functional>
#include <string>
#include <vector>

namespace conformance {

enum class Outcome { Passed, Failed, NotImplemented, Skipped };

struct CaseRecord {
  std::string device;  // "mock:0"; "-" for tests of no device
  std::string op;      // the C entry point checked ("add", "add_scalar", "conv2d_backward"), or a whole test
  std::string dtype;   // "float32"; "-" for a whole test
  Outcome outcome;
  std::string detail;  // the missing kernel (MissingKernel::seen_from), or the first failure
};

// Runs `body` as the case (op, dtype) of the running test on `device`, and
// records how it ended: failed if it added a failure (a PortaFailure from
// CHECK_OK is reported as one and ends only the case), not implemented if
// it stopped at a missing kernel (missing_kernel.hpp), passed otherwise.
// Inside another case it only runs `body`: the outer case owns the outcome.
void run_op_case(const std::string& device, const std::string& op, DLDataType dtype, const std::function<void()>& body);

// Whether this thread is inside run_op_case (failures there belong to the case).
bool inside_op_case();

// Appends a record made outside run_op_case (a whole test, by the tool's listener).
void record_case(CaseRecord record);

// Every record so far, in the order the cases ended, and how many there are.
std::vector<CaseRecord> recorded_cases();
size_t recorded_case_count();

// A failure (or skip) in a line for a table cell: "test_unary.cpp:23: <what was wrong>".
std::string one_line(const testing::TestPartResult& part);

}  // namespace conformance
