#include "missing_kernel.hpp"

#include <atomic>
#include <regex>
#include <set>
#include <utility>

#include "op_case.hpp"
#include "op_tables.hpp"

namespace conformance {
namespace {

std::atomic<bool> g_allowed{false};

bool is_op_name(std::string_view name) {
  for (const OpInfo& op : kAllOps)
    if (name == op.name) return true;
  return false;
}

// Kernels already reported in this run of the running test (a test meets the same gap many times).
std::set<std::string>& reported_in_this_test() {
  thread_local std::pair<const testing::TestInfo*, int64_t> test{};  // and its start time, for --gtest_repeat
  thread_local std::set<std::string> reported;
  const testing::TestInfo* now = testing::UnitTest::GetInstance()->current_test_info();
  const std::pair<const testing::TestInfo*, int64_t> run{now, now ? now->result()->start_timestamp() : 0};
  if (run != test) test = run, reported.clear();
  return reported;
}

void add_skip(const std::string& message) { GTEST_SKIP() << message; }

}  // namespace

std::optional<MissingKernel> missing_kernel(porta_status status, std::string_view message) {
  if (status != PORTA_ERROR_NOT_IMPLEMENTED) return std::nullopt;
  // Anchored at the start only: an optimizer step appends where it stopped.
  static const std::regex kLookupFailure(
      R"(^([a-z0-9_]+) \(([a-z0-9]+)\) is not implemented by plugin '([a-z][a-z0-9_]*)')");
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_search(message.begin(), message.end(), m, kLookupFailure, std::regex_constants::match_continuous))
    return std::nullopt;
  if (!is_op_name(m.str(1))) return std::nullopt;
  return MissingKernel{m.str(1), m.str(2), m.str(3)};
}

void allow_missing_kernels(bool allow) { g_allowed = allow; }
bool missing_kernels_allowed() { return g_allowed; }

void throw_if_missing_kernel(porta_status status, const char* file, int line) {
  const std::optional<MissingKernel> k = missing_kernel(status, porta_last_error());
  if (!k) return;
  const std::string what = std::string(kNotImplementedMarker) + " " + k->kernel() + " is not implemented by plugin '" +
                           k->plugin + "' (" + file + ":" + std::to_string(line) + ")";
  // Within op cases each kernel is reported once per test (the summary table lists every case);
  // outside them, always: the test's listener turns that report into the test's row.
  std::set<std::string>& reported = reported_in_this_test();
  const bool first = reported.insert(k->kernel()).second;
  if (missing_kernels_allowed()) {
    // One skip marks the test as skipped; more would only repeat the summary.
    if ((first && reported.size() == 1) || !inside_op_case()) add_skip(what);
    throw KernelNotImplemented(testing::TestPartResult(testing::TestPartResult::kSkip, file, line, what.c_str()), *k);
  }
  const std::string failure = what +
                              ": the ctest suites require every kernel of this build's plugins "
                              "(porta-conformance reports a missing kernel as not implemented instead)";
  if (first || !inside_op_case()) ADD_FAILURE_AT(file, line) << failure;
  throw KernelNotImplemented(
      testing::TestPartResult(testing::TestPartResult::kNonFatalFailure, file, line, failure.c_str()), *k);
}

}  // namespace conformance
