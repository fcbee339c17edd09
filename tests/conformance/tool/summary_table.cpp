#include "summary_table.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

namespace conformance {
namespace {

struct Row {
  std::string device, op, dtype;
  int cases = 0, passed = 0;
  Outcome outcome = Outcome::Skipped;  // the worst of its cases
  std::string first_failure{}, first_note{};
  std::vector<std::string> missing{};  // distinct kernels, in the order found
};

// A row is as bad as its worst case.
int severity(Outcome o) {
  switch (o) {
    case Outcome::Skipped:
      return 0;
    case Outcome::Passed:
      return 1;
    case Outcome::NotImplemented:
      return 2;
    case Outcome::Failed:
      return 3;
  }
  return 3;
}

const char* status_name(Outcome o) {
  switch (o) {
    case Outcome::Passed:
      return "passed";
    case Outcome::Failed:
      return "failed";
    case Outcome::NotImplemented:
      return "not implemented";
    case Outcome::Skipped:
      return "skipped";
  }
  return "?";
}

// Rows in the order their first case ran, grouped by device in the same order.
std::vector<Row> merge(const std::vector<CaseRecord>& records) {
  std::vector<Row> rows;
  std::map<std::tuple<std::string, std::string, std::string>, size_t> index;
  std::map<std::string, size_t> device_order;
  for (const CaseRecord& r : records) {
    device_order.emplace(r.device, device_order.size());
    const auto [it, added] = index.emplace(std::make_tuple(r.device, r.op, r.dtype), rows.size());
    if (added) rows.push_back(Row{.device = r.device, .op = r.op, .dtype = r.dtype});
    Row& row = rows[it->second];
    ++row.cases;
    row.passed += r.outcome == Outcome::Passed;
    if (severity(r.outcome) > severity(row.outcome)) row.outcome = r.outcome;
    if (r.outcome == Outcome::Failed && row.first_failure.empty()) row.first_failure = r.detail;
    if (r.outcome == Outcome::NotImplemented &&
        std::find(row.missing.begin(), row.missing.end(), r.detail) == row.missing.end())
      row.missing.push_back(r.detail);
    if (row.first_note.empty()) row.first_note = r.detail;
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [&](const Row& a, const Row& b) { return device_order[a.device] < device_order[b.device]; });
  return rows;
}

std::string detail(const Row& row) {
  if (row.outcome == Outcome::Failed) return row.first_failure;
  if (row.outcome == Outcome::Skipped) return row.first_note;
  if (row.outcome != Outcome::NotImplemented) return "";
  constexpr size_t kShown = 2;
  std::string s = "missing " + row.missing.front();
  for (size_t i = 1; i < std::min(row.missing.size(), kShown); ++i) s += ", " + row.missing[i];
  if (row.missing.size() > kShown) s += " and " + std::to_string(row.missing.size() - kShown) + " more";
  return s;
}

void print_table(std::ostream& os, const std::vector<std::vector<std::string>>& table) {
  if (table.size() == 1) {
    os << "(none)\n";
    return;
  }
  std::vector<size_t> width(table.front().size(), 0);
  for (const auto& cells : table)
    for (size_t c = 0; c < cells.size(); ++c) width[c] = std::max(width[c], cells[c].size());
  for (const auto& cells : table) {
    std::string line;
    for (size_t c = 0; c < cells.size(); ++c)
      line += c + 1 < cells.size() ? cells[c] + std::string(width[c] - cells[c].size() + 2, ' ') : cells[c];
    line.erase(line.find_last_not_of(' ') + 1);  // an empty last column leaves padding behind
    os << line << "\n";
  }
}

}  // namespace

Totals print_summary(std::ostream& os, const std::vector<CaseRecord>& records) {
  std::vector<std::vector<std::string>> cases = {{"DEVICE", "OP", "DTYPE", "STATUS", "CASES", "DETAIL"}};
  std::vector<std::vector<std::string>> tests = {{"DEVICE", "TEST", "STATUS", "DETAIL"}};
  Totals totals;
  for (const Row& row : merge(records)) {
    if (row.dtype == "-")
      tests.push_back({row.device, row.op, status_name(row.outcome), detail(row)});
    else
      cases.push_back({row.device, row.op, row.dtype, status_name(row.outcome),
                       std::to_string(row.passed) + "/" + std::to_string(row.cases), detail(row)});
    totals.passed += row.outcome == Outcome::Passed;
    totals.failed += row.outcome == Outcome::Failed;
    totals.not_implemented += row.outcome == Outcome::NotImplemented;
    totals.skipped += row.outcome == Outcome::Skipped;
  }
  os << "\nOp x dtype cases (CASES: how many of the checks run passed)\n";
  print_table(os, cases);
  os << "\nTests of no single op\n";
  print_table(os, tests);
  os << "\n"
     << totals.passed << " passed, " << totals.failed << " failed, " << totals.not_implemented << " not implemented";
  if (totals.skipped > 0) os << ", " << totals.skipped << " skipped";
  os << "\n";
  return totals;
}

}  // namespace conformance
