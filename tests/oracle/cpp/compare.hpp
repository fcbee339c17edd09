// Whether a porta::Tensor is PyTorch's recorded tensor, by compare.py's rules: the same dtype, shape, device and
// requires_grad, and values equal for integers and bool (and for floats in an exact case), within
// torch.testing's per-dtype tolerances (times the case's factor) for floats; NaN where NaN.
#pragma once

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <utility>

#include "tensor_record.hpp"

namespace oracle {

struct Rules {
  bool exact = false;
  double tol = 1.0;
};

namespace detail {

// The multi-index of flat element i, as "[1, 0]".
inline std::string position(size_t i, const porta::Shape& shape) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = static_cast<int64_t>(i) % shape[d];
    i /= static_cast<size_t>(shape[d]);
  }
  std::ostringstream os;
  os << "[";
  for (size_t d = 0; d < index.size(); ++d) os << (d ? ", " : "") << index[d];
  os << "]";
  return os.str();
}

inline std::string shape_text(const porta::Shape& shape) {
  std::ostringstream os;
  os << "[";
  for (size_t d = 0; d < shape.size(); ++d) os << (d ? ", " : "") << shape[d];
  os << "]";
  return os.str();
}

}  // namespace detail

// The first difference as a sentence ("result: dtype float32 where PyTorch gives float64"), or "" when the same.
inline std::string diff(const Json& want, const porta::Tensor& got, const porta::Device& device, const Rules& rules,
                        const std::string& where) {
  const Values e = decode(want);
  if (porta::dtype_name(got.dtype()) != e.dtype)
    return where + ": dtype " + porta::dtype_name(got.dtype()) + " where PyTorch gives " + e.dtype;
  if (got.shape() != e.shape)
    return where + ": shape " + detail::shape_text(got.shape()) + " where PyTorch gives " + detail::shape_text(e.shape);
  if (got.requires_grad()) return where + ": requires_grad True where PyTorch gives False";
  if (!(got.device() == device))
    return where + ": device " + got.device().str() + " where PyTorch gives " + device.str();
  const Values a = read(got);
  // (rtol, atol): torch.testing.assert_close's defaults, times the case's factor; 0 for integers and exact cases
  static const std::map<std::string, std::pair<double, double>> tolerance = {
      {"float16", {1e-3, 1e-5}}, {"bfloat16", {1.6e-2, 1e-5}}, {"float32", {1.3e-6, 1e-5}}, {"float64", {1e-7, 1e-7}}};
  const auto found = rules.exact ? tolerance.end() : tolerance.find(e.dtype);
  const double rtol = found == tolerance.end() ? 0 : found->second.first * rules.tol;
  const double atol = found == tolerance.end() ? 0 : found->second.second * rules.tol;
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < e.size(); ++i) {
    bool same = true;
    if (e.floating) {
      const double x = e.floats[i], y = a.floats[i];
      same = x == y || (std::isnan(x) && std::isnan(y)) || std::fabs(x - y) <= atol + rtol * std::fabs(x);
    } else {
      same = e.ints[i] == a.ints[i];
    }
    if (!same && bad++ == 0) first = i;
  }
  if (bad == 0) return "";
  std::ostringstream os;
  os.precision(e.dtype == "float64" ? 17 : 9);  // enough digits to tell any two values of the dtype apart
  os << where << ": " << bad << " of " << e.size() << " values differ, first at " << detail::position(first, e.shape)
     << ": PyTorch ";
  if (e.floating)
    os << e.floats[first] << ", Porta " << a.floats[first];
  else
    os << e.ints[first] << ", Porta " << a.ints[first];
  return os.str();
}

}  // namespace oracle
