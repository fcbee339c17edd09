// Rows for what happened in a test outside its op cases: a test of no single
// op (DeviceInfo.InfoAndSynchronize) becomes one row, and a failure or a
// missing kernel between the cases of a test that has them becomes one too,
// so that every failure GoogleTest reports shows in the summary.
#pragma once

#include <gtest/gtest.h>

#include <string>

namespace conformance {

class WholeTestRows : public testing::EmptyTestEventListener {
 public:
  void OnTestStart(const testing::TestInfo& test) override;
  void OnTestPartResult(const testing::TestPartResult& part) override;
  void OnTestEnd(const testing::TestInfo& test) override;
  int tests_ended() const { return tests_ended_; }

 private:
  size_t cases_at_start_ = 0;
  std::string device_;                                         // of the running test, "-" if none
  std::string failure_outside_cases_, missing_outside_cases_;  // the first of each, "" if none
  int tests_ended_ = 0;
};

}  // namespace conformance
