// What the multi-process tests run on, from the environment CMakeLists.txt
// sets: PORTA_TEST_BACKEND (the communicator backend, default "mpi") and
// PORTA_TEST_DEVICES (comma-separated device strings; default: the cpu, then
// each mock and emulated cuda device the process sees). The first device is
// where the tests that need only one put their tensors.
#pragma once

#include <cstdlib>
#include <porta/porta.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace test_world {

inline std::string backend() {
  const char* b = std::getenv("PORTA_TEST_BACKEND");
  return b && *b ? b : "mpi";
}

inline std::vector<porta::Device> devices() {
  std::vector<porta::Device> out;
  if (const char* list = std::getenv("PORTA_TEST_DEVICES"); list && *list) {
    std::istringstream in(list);
    for (std::string name; std::getline(in, name, ',');) out.emplace_back(name);
    return out;
  }
  out.emplace_back("cpu");
  for (const char* name : {"mock:0", "cuda:0"}) {
    try {
      out.emplace_back(name);
    } catch (const porta::Error&) {
    }
  }
  return out;
}

inline porta::Device home() { return devices().front(); }

}  // namespace test_world
