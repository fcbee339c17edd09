#include "op_case.hpp"

#include <gtest/gtest.h>

#include <mutex>

#include "host_tensor.hpp"
#include "missing_kernel.hpp"
#include "tensor_handle.hpp"

namespace conformance {
namespace {

std::mutex g_records_mu;
std::vector<CaseRecord> g_records;
thread_local bool t_inside_case = false;

// Marks this thread as inside a case for as long as it lives.
class InsideCase {
 public:
  InsideCase() { t_inside_case = true; }
  ~InsideCase() { t_inside_case = false; }
  InsideCase(const InsideCase&) = delete;
  InsideCase& operator=(const InsideCase&) = delete;
};

}  // namespace

void run_op_case(const std::string& device, const std::string& op, DLDataType dtype,
                 const std::function<void()>& body) {
  if (t_inside_case) return body();
  const testing::TestResult& result = *testing::UnitTest::GetInstance()->current_test_info()->result();
  const int parts_before = result.total_part_count();
  CaseRecord record{device, op, dtype_name(dtype), Outcome::Passed, ""};
  {
    const InsideCase inside;
    try {
      body();
    } catch (const KernelNotImplemented& e) {
      record.outcome = missing_kernels_allowed() ? Outcome::NotImplemented : Outcome::Failed;
      record.detail = e.kernel().seen_from(device);
    } catch (const PortaFailure& e) {
      ADD_FAILURE() << e.what();  // ends this case; the test goes on with the next
    } catch (...) {
      record.outcome = Outcome::Failed;
      record.detail = "an unexpected exception (see the test's output)";
      record_case(record);
      throw;
    }
  }
  for (int i = parts_before; i < result.total_part_count(); ++i)
    if (result.GetTestPartResult(i).failed()) {
      record.outcome = Outcome::Failed;
      record.detail = one_line(result.GetTestPartResult(i));
      break;
    }
  record_case(std::move(record));
}

bool inside_op_case() { return t_inside_case; }

void record_case(CaseRecord record) {
  const std::lock_guard<std::mutex> lock(g_records_mu);
  g_records.push_back(std::move(record));
}

size_t recorded_case_count() {
  const std::lock_guard<std::mutex> lock(g_records_mu);
  return g_records.size();
}

std::vector<CaseRecord> recorded_cases() {
  const std::lock_guard<std::mutex> lock(g_records_mu);
  return g_records;
}

std::string one_line(const testing::TestPartResult& part) {
  constexpr size_t kMax = 160;
  auto base = [](const std::string& path) { return path.substr(path.rfind('/') + 1); };
  std::string text = part.summary();
  if (text.rfind("Failed\n", 0) == 0) text.erase(0, 7);  // ADD_FAILURE's heading says nothing
  std::string line = text.substr(0, text.find('\n'));
  // A CHECK_OK failure starts with the full path of its call site; else say where it was.
  const size_t colon = line.find(':');
  if (line.rfind('/', 0) == 0 && colon != std::string::npos)
    line = base(line.substr(0, colon)) + line.substr(colon);
  else if (part.file_name() != nullptr)
    line = base(part.file_name()) + ":" + std::to_string(part.line_number()) + ": " + line;
  if (line.size() > kMax) line = line.substr(0, kMax - 3) + "...";
  return line;
}

}  // namespace conformance
