// The tables that end a tool run, in the manner of ggml's test-backend-ops:
// one row per device x op x dtype (the op cases of every test merged), one
// per test of no single op, then the totals over both.
#pragma once

#include <ostream>
#include <vector>

#include "op_case.hpp"

namespace conformance {

struct Totals {
  int passed = 0, failed = 0, not_implemented = 0, skipped = 0;
};

// Prints the table the records make and returns the totals it ends with.
Totals print_summary(std::ostream& os, const std::vector<CaseRecord>& records);

}  // namespace conformance
