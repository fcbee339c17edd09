// The lists of cases that may differ from PyTorch's answer, read as the Python replay reads them
// (differences.py, expected.py), plus the C++ replay's own list of C++-binding bugs.
#pragma once

#include <fnmatch.h>

#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace oracle {

// docs/differences-from-pytorch.md: each table row's first cell, one or more patterns over case ids in backticks.
inline std::vector<std::string> deliberate_patterns(const std::string& path) {
  std::ifstream in(path);
  const std::regex first_cell(R"(^\|\s*(`[^|]*`)\s*\|)"), pattern("`([^`]+)`");
  std::vector<std::string> patterns;
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (!std::regex_search(line, m, first_cell)) continue;
    const std::string cell = m[1];
    for (std::sregex_iterator it(cell.begin(), cell.end(), pattern), end; it != end; ++it)
      patterns.push_back((*it)[1]);
  }
  return patterns;
}

// The first pattern that lists `id` (fnmatch's rules: * any text, ? one character, [...] a set, no escapes),
// else "".
inline std::string listed(const std::vector<std::string>& patterns, const std::string& id) {
  for (const std::string& p : patterns)
    if (fnmatch(p.c_str(), id.c_str(), FNM_NOESCAPE) == 0) return p;
  return "";
}

// expected_failures/<device type>.txt and cpp/known_cpp_differences.txt: a case id a line, before an optional
// tab and note; lines starting with # are comments. A file that does not exist lists nothing.
inline std::set<std::string> case_ids(const std::string& path) {
  std::ifstream in(path);
  std::set<std::string> ids;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') ids.insert(line.substr(0, line.find('\t')));
  return ids;
}

}  // namespace oracle
