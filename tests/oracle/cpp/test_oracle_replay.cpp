// The differential suite through Porta's C++ API: every recorded case porta.hpp can express
// (cpp_cases.json.gz, written by export_cpp.py beside answers.json.gz) replayed with the same input values
// through porta.hpp on cpu and mock:0, against PyTorch's recorded answer, by compare.py's rules. The Python
// replay (oracle.py replay) runs the same cases through the Python API, so the two front doors cannot drift
// apart. A case may differ where the Python replay's lists say so (docs/differences-from-pytorch.md,
// expected_failures/<device type>.txt) or where known_cpp_differences.txt, the C++ replay's own list, does.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "compare.hpp"
#include "cpp_calls.hpp"
#include "known_differences.hpp"

namespace {

using oracle::Json;

const std::string kOracleDir = PORTA_ORACLE_DIR;

// The case's operands on `device`, made afresh for each call (an in-place call writes its first).
oracle::Args operands(const Json& c, const porta::Device& device) {
  oracle::Args args;
  for (const Json& a : c.at("args")) {
    if (a.contains("dt"))
      args.operands.emplace_back(oracle::make_tensor(a, device));
    else if (a.contains("bool"))
      args.operands.emplace_back(a["bool"].get<bool>());
    else if (a.contains("int"))
      args.operands.emplace_back(a["int"].get<int64_t>());
    else
      args.operands.emplace_back(std::strtod(a["float"].get<std::string>().c_str(), nullptr));  // nan, -0.0
  }
  args.dims = c.value("dims", porta::Dims{});
  if (c.contains("dim") && !c["dim"].is_null()) args.dim = c["dim"].get<int32_t>();
  args.keepdim = c.value("keepdim", false);
  return args;
}

// How a call compares with PyTorch's answer (compare.outcome's kinds): the same; missing (Porta raises where
// PyTorch answers: counted, as the Python replay counts it); or different, and how.
struct Outcome {
  enum Kind { Same, Missing, Different } kind = Same;
  std::string problem;
};

Outcome replay(const Json& c, const std::string& call, const porta::Device& device) {
  const Json& want = c.at("want");
  const oracle::Rules rules{c.value("exact", false), c.value("tol", 1.0)};
  const auto spelled = oracle::cpp_calls().find(call);
  if (spelled == oracle::cpp_calls().end())
    return {Outcome::Different, "cpp_calls.cpp has no call `" + call + "` (export_cpp.py names it)"};
  oracle::Args args;
  porta::Tensor result;
  try {
    args = operands(c, device);  // as in the engine, making the inputs is part of the call
    result = spelled->second(args);
  } catch (const porta::Error& e) {
    if (want.contains("error")) return {};
    return {Outcome::Missing, std::string("Porta raises ") + e.status_name() + ": " + e.what()};
  } catch (const oracle::NoOverload& e) {
    if (want.contains("error")) return {};
    return {Outcome::Missing, e.what()};
  }
  if (want.contains("error"))
    return {Outcome::Different, "Porta answers where PyTorch raises " + want["error"].get<std::string>() + ": " +
                                    want["msg"].get<std::string>()};
  std::string problem = oracle::diff(want.at("r"), result, device, rules, "result");
  // an in-place call's tensor operands after it, in order
  std::vector<porta::Tensor> tensors;
  for (const oracle::Operand& op : args.operands)
    if (const auto* t = std::get_if<porta::Tensor>(&op)) tensors.push_back(*t);
  const Json after = want.value("after", Json::array());
  for (size_t i = 0; problem.empty() && i < after.size(); ++i)
    problem = oracle::diff(after[i], tensors.at(i), device, rules, "arguments after[" + std::to_string(i) + "]");
  return {problem.empty() ? Outcome::Same : Outcome::Different, problem};
}

class OracleCppReplay : public testing::TestWithParam<std::string> {};

TEST_P(OracleCppReplay, GivesPyTorchsAnswers) {
  const std::string name = GetParam(), type = name.substr(0, name.find(':'));
  int count = 0;
  if (porta_device_count(type.c_str(), &count) != PORTA_OK || count == 0)
    GTEST_SKIP() << name << " is not loaded: set PORTA_PLUGIN_PATH to the mock plugin's directory (ctest does)";
  const porta::Device device(name);
  const Json doc = oracle::read_json_gz(kOracleDir + "/cpp_cases.json.gz");
  ASSERT_EQ(doc.at("answers_crc32").get<uint32_t>(), oracle::file_crc32(kOracleDir + "/answers.json.gz"))
      << "cpp_cases.json.gz was exported from other answers than answers.json.gz: export them again with "
         "scripts/record-oracle.sh (or build/venv/bin/python tests/oracle/export_cpp.py, which needs no torch)";
  const auto deliberate = oracle::deliberate_patterns(PORTA_DIFFERENCES_MD);
  const auto known = oracle::case_ids(kOracleDir + "/expected_failures/" + type + ".txt");
  const auto cpp_listed = oracle::case_ids(kOracleDir + "/cpp/known_cpp_differences.txt");

  const auto start = std::chrono::steady_clock::now();
  size_t cases = 0, calls = 0, same = 0, missing = 0, listed = 0, known_python = 0, known_cpp = 0;
  std::vector<std::string> unlisted, fixed;
  for (const Json& c : doc.at("cases")) {
    const std::string id = c.at("id").get<std::string>();
    Outcome outcome;
    for (const Json& call : c.at("calls")) {
      ++calls;
      if (outcome.kind == Outcome::Same) {
        outcome = replay(c, call.get<std::string>(), device);
        if (outcome.kind != Outcome::Same) outcome.problem = call.get<std::string>() + ": " + outcome.problem;
      }
    }
    const std::string& problem = outcome.problem;
    ++cases;
    if (outcome.kind == Outcome::Same) {
      ++same;
      if (cpp_listed.count(id)) fixed.push_back(id);
    } else if (outcome.kind == Outcome::Missing && !cpp_listed.count(id)) {
      ++missing;
    } else if (!oracle::listed(deliberate, id).empty()) {
      ++listed;
    } else if (known.count(id)) {
      ++known_python;
    } else if (cpp_listed.count(id)) {
      ++known_cpp;
    } else {
      unlisted.push_back("DIFFERENT " + id + "\n    " + problem);
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "oracle through the C++ API on " << name << ", against PyTorch " << doc.at("torch").get<std::string>()
            << "'s recorded answers: " << cases << " cases (" << calls << " C++ calls) in " << std::fixed
            << std::setprecision(1) << seconds << " s: " << same << " same, " << missing
            << " missing (Porta raises where PyTorch answers), " << listed
            << " different and listed in docs/differences-from-pytorch.md, " << known_python
            << " different and known (expected_failures/), " << known_cpp
            << " different and listed in cpp/known_cpp_differences.txt, " << unlisted.size()
            << " different and not listed" << std::endl;
  std::string report;
  for (size_t i = 0; i < unlisted.size() && i < 40; ++i) report += unlisted[i] + "\n";
  if (unlisted.size() > 40) report += "... and " + std::to_string(unlisted.size() - 40) + " more\n";
  EXPECT_TRUE(unlisted.empty()) << report;
  std::string now_same;
  for (const std::string& id : fixed) now_same += "  " + id + "\n";
  EXPECT_TRUE(fixed.empty()) << fixed.size() << " cases listed in known_cpp_differences.txt give PyTorch's answer "
                             << "now: take them out\n"
                             << now_same;
}

INSTANTIATE_TEST_SUITE_P(oracle, OracleCppReplay, testing::Values("cpu", "mock:0"),
                         [](const testing::TestParamInfo<std::string>& info) {
                           return info.param.substr(0, info.param.find(':'));
                         });

}  // namespace
