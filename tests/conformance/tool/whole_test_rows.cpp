#include "whole_test_rows.hpp"

#include "missing_kernel.hpp"
#include "op_case.hpp"

namespace conformance {
namespace {

// "Unary.EveryDtypeAndLayout" for Devices/Unary.EveryDtypeAndLayout/mock_0.
std::string label(const testing::TestInfo& t) {
  std::string suite = t.test_suite_name(), name = t.name();
  if (const size_t slash = suite.rfind('/'); slash != std::string::npos) suite = suite.substr(slash + 1);
  if (const size_t slash = name.find('/'); slash != std::string::npos) name = name.substr(0, slash);
  return suite + "." + name;
}

}  // namespace

void WholeTestRows::OnTestStart(const testing::TestInfo& test) {
  cases_at_start_ = recorded_case_count();
  device_ = test.value_param() ? test.value_param() : "-";  // DeviceCase prints as its device
  failure_outside_cases_.clear();
  missing_outside_cases_.clear();
}

void WholeTestRows::OnTestPartResult(const testing::TestPartResult& part) {
  if (inside_op_case()) return;  // the case's own record has it
  if (part.failed() && failure_outside_cases_.empty()) failure_outside_cases_ = one_line(part);
  // A missing kernel outside a case is reported as a skip: the marker, then the core's message.
  const std::string message = part.message();
  if (!part.skipped() || !missing_outside_cases_.empty() || message.rfind(kNotImplementedMarker, 0) != 0) return;
  const std::string core_message = message.substr(kNotImplementedMarker.size() + 1);
  if (const auto k = missing_kernel(PORTA_ERROR_NOT_IMPLEMENTED, core_message))
    missing_outside_cases_ = k->seen_from(device_);
}

void WholeTestRows::OnTestEnd(const testing::TestInfo& test) {
  ++tests_ended_;
  CaseRecord row{device_, label(test), "-", Outcome::Passed, ""};
  if (!failure_outside_cases_.empty()) {
    row.outcome = Outcome::Failed, row.detail = failure_outside_cases_;
  } else if (!missing_outside_cases_.empty()) {
    row.outcome = Outcome::NotImplemented, row.detail = missing_outside_cases_;
  } else if (recorded_case_count() > cases_at_start_) {
    return;  // its cases say it all
  } else if (test.result()->Skipped()) {
    row.outcome = Outcome::Skipped;
    for (int i = 0; i < test.result()->total_part_count(); ++i)
      if (test.result()->GetTestPartResult(i).skipped()) row.detail = one_line(test.result()->GetTestPartResult(i));
  }
  record_case(std::move(row));
}

}  // namespace conformance
