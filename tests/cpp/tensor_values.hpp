// Small literals for the C++ binding's tests: a float64 (vec) or int64
// (ivec) tensor from values, and a tensor's values read back as doubles.
#pragma once

#include <cstdint>
#include <vector>

#include <porta/porta.hpp>

namespace porta_test {

using D = std::vector<double>;
using I = std::vector<int64_t>;

inline porta::Tensor vec(D values, porta::Shape shape = {}) {
  if (shape.empty()) shape = {static_cast<int64_t>(values.size())};
  return porta::Tensor::from_vector(values, shape);
}
inline porta::Tensor ivec(I values, porta::Shape shape = {}) {
  if (shape.empty()) shape = {static_cast<int64_t>(values.size())};
  return porta::Tensor::from_vector(values, shape);
}
inline D values(const porta::Tensor& t) { return t.cast(porta::kFloat64).to_vector<double>(); }

}  // namespace porta_test
