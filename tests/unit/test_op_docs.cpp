// docs/ops.md is porta/ops.h's table as a reader wants it: one row per op
// and the ids each plugin ABI minor appended, written from the table itself
// by this test. A row added or changed without the page fails here; to write
// the page again: PORTA_WRITE_OPS_DOC=1 build/bin/porta_unit_tests --gtest_filter='OpDocs.*'
#include <porta/ops.h>
#include <porta/plugin.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "unit_util.hpp"

namespace {

struct Row {
  const char *name, *kind, *dtypes, *result, *domain, *autocast, *vector, *doc;
  int id, inputs, grad, since;
};

// Every column as the table spells it (kind without its prefix).
const std::vector<Row>& rows() {
  static const std::vector<Row> r = {
#define PORTA_X_DOC_ROW(X, NAME, name, id, kind, inputs, dtypes, result, grad, since, domain, autocast, vector, doc) \
  Row{#name, #kind + sizeof("PORTA_OP_KIND_") - 1, #dtypes, #result, #domain, #autocast, #vector, doc,                \
      id,    inputs, grad, since},
      PORTA_OP_TABLE(PORTA_X_DOC_ROW, ~)
#undef PORTA_X_DOC_ROW
  };
  return r;
}

// A cell of a Markdown table: its pipes escaped.
std::string cell(const char* text) {
  std::string out;
  for (const char* c = text; *c; ++c) out += *c == '|' ? std::string("\\|") : std::string(1, *c);
  return out;
}

std::string render() {
  std::ostringstream md;
  md << "# The op table\n\n"
        "Written by `tests/unit/test_op_docs.cpp` from `abi/porta/ops.h`'s `PORTA_OP_TABLE`, the one list every\n"
        "other list of ops derives from (docs/architecture.md, \"One table\"): do not edit by hand. To write it\n"
        "again after changing the table: `PORTA_WRITE_OPS_DOC=1 build/bin/porta_unit_tests "
        "--gtest_filter='OpDocs.*'`.\n\n"
        "## Ids by plugin ABI minor\n\n"
        "Ops are only appended; a plugin declaring plugin ABI 1.m is asked for the kernels of the ids up to\n"
        "that minor's last.\n\n"
        "| plugin ABI | ids | ops |\n|---|---|---|\n";
  const std::vector<Row>& r = rows();
  for (size_t i = 0; i < r.size();) {
    size_t j = i;
    while (j + 1 < r.size() && r[j + 1].since == r[i].since) ++j;
    md << "| 1." << r[i].since << " | " << r[i].id;
    if (j > i) md << "-" << r[j].id;
    md << " | `" << r[i].name << "`";
    if (j > i) md << " to `" << r[j].name << "`";
    md << " |\n";
    i = j + 1;
  }
  md << "\n## Rows\n\n"
        "Columns as `porta/ops.h` defines them: kind (`porta_op_kind`), inputs, the dtypes its kernels take,\n"
        "the result's dtype rule, whether autograd records it, the plugin ABI minor that appended it, the\n"
        "domain the test suites sample, what autocast does to its operands, and its host vector function.\n\n"
        "| id | name | kind | inputs | dtypes | result | grad | since | domain | autocast | vector | doc |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Row& row : r)
    md << "| " << row.id << " | `" << row.name << "` | " << row.kind << " | " << row.inputs << " | " << row.dtypes
       << " | " << row.result << " | " << (row.grad ? "yes" : "no") << " | 1." << row.since << " | " << row.domain
       << " | " << row.autocast << " | " << row.vector << " | " << cell(row.doc) << " |\n";
  return md.str();
}

}  // namespace

TEST(OpDocs, TheOpsPageIsTheTable) {
  const std::string want = render();
  if (const char* w = std::getenv("PORTA_WRITE_OPS_DOC"); w && std::string(w) == "1") {
    std::ofstream(PORTA_OPS_DOC) << want;
  }
  std::ifstream in(PORTA_OPS_DOC);
  ASSERT_TRUE(in) << PORTA_OPS_DOC << " is missing: write it with PORTA_WRITE_OPS_DOC=1 (see this file's head)";
  std::stringstream have;
  have << in.rdbuf();
  EXPECT_EQ(have.str(), want) << "docs/ops.md is not porta/ops.h's table: write it again with PORTA_WRITE_OPS_DOC=1 "
                                 "build/bin/porta_unit_tests --gtest_filter='OpDocs.*'";
}
