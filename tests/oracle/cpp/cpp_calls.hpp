// The C++ spellings export_cpp.py names ("porta::add(a, b)", "a.exp_()", "b < a", "a.sum(dims, keepdim)"), each
// a call through porta.hpp of a case's operands.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <porta/porta.hpp>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace oracle {

// An operand: a tensor, or a Python scalar as the C++ type Python typed it (bool, int -> int64_t, float -> double).
using Operand = std::variant<porta::Tensor, bool, int64_t, double>;

struct Args {
  std::vector<Operand> operands;  // a, b
  porta::Dims dims;               // a reduction's
  std::optional<int32_t> dim;     // an argreduce's or a scan's
  bool keepdim = false;
  const porta::Tensor& a() const { return std::get<porta::Tensor>(operands.at(0)); }
};

// Thrown for a call porta.hpp has no overload for (logical_and with a scalar): the C++ API refuses it, as
// PyTorch's TypeError does.
struct NoOverload : std::runtime_error {
  NoOverload() : std::runtime_error("porta.hpp has no overload for these operand types") {}
};

using Call = porta::Tensor (*)(const Args&);

// Every spelling, by its text.
const std::map<std::string, Call>& cpp_calls();

}  // namespace oracle
