// Tensor printing as PyTorch's repr: the one implementation behind
// porta_tensor_format, which the C++ operator<< and Python's repr call.
// Floats are printed together ("1." when all are integral, else 4 decimals,
// or scientific when magnitudes span too much); rows wrap at 80 columns;
// tensors over 1000 elements are summarized with "..." (only the edges are
// copied to the host); the device is named unless cpu, the dtype unless
// PyTorch would infer it; requires_grad=True or grad_fn=<...> as PyTorch.
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "autograd/node.hpp"
#include "runtime/error.hpp"
#include "ops/format.hpp"
#include "ops/ops.hpp"

namespace porta {
namespace {

constexpr size_t kLineWidth = 80;
constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdgeItems = 3;

std::vector<std::string> format_floats(const std::vector<double>& values) {
  double lo = std::numeric_limits<double>::infinity(), hi = 0;
  bool integral = true;
  for (double x : values) {
    if (!std::isfinite(x) || x == 0) continue;
    lo = std::min(lo, std::fabs(x));
    hi = std::max(hi, std::fabs(x));
    integral = integral && x == std::ceil(x);
  }
  const bool scientific = hi > 0 && (hi / lo > 1000 || hi > 1e8 || (!integral && lo < 1e-4));
  const char* format = scientific ? "%.4e" : integral ? "%.0f." : "%.4f";
  std::vector<std::string> out;
  out.reserve(values.size());
  char buf[400];
  for (double x : values) {
    if (std::isnan(x)) out.emplace_back("nan");
    else if (std::isinf(x)) out.emplace_back(x > 0 ? "inf" : "-inf");
    else out.emplace_back(buf, static_cast<size_t>(std::snprintf(buf, sizeof buf, format, x)));
  }
  return out;
}

template <class T>
std::vector<T> host_values(const TensorPtr& t) {
  std::vector<T> v(static_cast<size_t>(t->numel()));
  ops::to_host(*ops::contiguous(t), v.data(), v.size() * sizeof(T));
  return v;
}

// Every element of `t` as text, row-major, right-aligned to one width.
std::vector<std::string> element_strings(const TensorPtr& t) {
  std::vector<std::string> cells;
  switch (t->dtype) {
    case Dtype::Float16:
    case Dtype::BFloat16: return element_strings(ops::cast(t, Dtype::Float64));  // exact
    case Dtype::Int8:
    case Dtype::Int16: return element_strings(ops::cast(t, Dtype::Int64));
    case Dtype::Float32: {
      const std::vector<float> v = host_values<float>(t);
      cells = format_floats({v.begin(), v.end()});
      break;
    }
    case Dtype::Float64: cells = format_floats(host_values<double>(t)); break;
    case Dtype::Bool:
      for (uint8_t b : host_values<uint8_t>(t)) cells.emplace_back(b ? "True" : "False");
      break;
    case Dtype::UInt8:
      for (uint8_t x : host_values<uint8_t>(t)) cells.push_back(std::to_string(x));
      break;
    case Dtype::Int32:
      for (int32_t x : host_values<int32_t>(t)) cells.push_back(std::to_string(x));
      break;
    case Dtype::Int64:
      for (int64_t x : host_values<int64_t>(t)) cells.push_back(std::to_string(x));
      break;
  }
  size_t width = 0;
  for (const auto& c : cells) width = std::max(width, c.size());
  for (auto& c : cells) c.insert(0, width - c.size(), ' ');
  return cells;
}

// Only what a summary shows: the first and last kEdgeItems along every
// dimension longer than twice that, gathered on the tensor's device.
TensorPtr edges(const TensorPtr& t) {
  TensorPtr cur = t;
  for (int32_t d = 0; d < cur->ndim(); ++d) {
    Dims shape = cur->shape;
    const int64_t size = shape[d];
    if (size <= 2 * kEdgeItems) continue;
    shape[d] = 2 * kEdgeItems;
    TensorPtr both = empty(*cur->device, cur->dtype, shape);
    ops::copy_into(ops::slice(both, d, 0, kEdgeItems, 1), ops::slice(cur, d, 0, kEdgeItems, 1));
    ops::copy_into(ops::slice(both, d, kEdgeItems, 2 * kEdgeItems, 1), ops::slice(cur, d, size - kEdgeItems, size, 1));
    cur = both;
  }
  return cur;
}

// The bracketed text of dims [dim, ndim) starting at cell `first`; `shape`
// is the cells' (edges only when summarized), `full` the tensor's.
std::string nest(const std::vector<std::string>& cells, const Dims& shape, const Dims& full, int32_t dim, int64_t first,
                 size_t indent, bool summarize) {
  int64_t stride = 1;
  for (int32_t d = dim + 1; d < shape.n; ++d) stride *= shape[d];
  std::vector<int64_t> shown;  // -1: "..."
  for (int64_t i = 0; i < shape[dim]; ++i) {
    if (summarize && full[dim] > 2 * kEdgeItems && i == kEdgeItems) shown.push_back(-1);
    shown.push_back(i);
  }
  const bool last = dim + 1 == shape.n;
  std::vector<std::string> parts;
  for (int64_t i : shown) {
    if (last) parts.push_back(i < 0 ? " ..." : cells[static_cast<size_t>(first + i)]);
    else parts.push_back(i < 0 ? "..." : nest(cells, shape, full, dim + 1, first + i * stride, indent + 1, summarize));
  }
  std::string out = "[";
  if (last) {
    const size_t per_line = std::max<size_t>(1, (kLineWidth - indent) / (cells[0].size() + 2));
    for (size_t i = 0; i < parts.size(); ++i)
      out += (i == 0 ? "" : i % per_line ? ", " : ",\n" + std::string(indent + 1, ' ')) + parts[i];
  } else {
    const std::string sep = "," + std::string(static_cast<size_t>(shape.n - dim - 1), '\n') + std::string(indent + 1, ' ');
    for (size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
  }
  return out + "]";
}

// Appends ", suffix" parts and ")", wrapping before a suffix that would pass the line width.
std::string add_suffixes(std::string text, const std::vector<std::string>& suffixes, size_t indent) {
  const size_t newline = text.rfind('\n');
  size_t line = newline == std::string::npos ? text.size() + 2 : text.size() - newline + 1;
  for (const auto& s : suffixes) {
    if (line + s.size() + 2 > kLineWidth) {
      text += ",\n" + std::string(indent, ' ') + s;
      line = indent + s.size();
    } else {
      text += ", " + s;
      line += s.size() + 2;
    }
  }
  return text + ")";
}

std::string shape_tuple(const Dims& shape) {
  std::string s = "(";
  for (int32_t i = 0; i < shape.n; ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.n == 1 ? ",)" : ")");
}

}  // namespace

std::string format_tensor(const TensorPtr& t) {
  const std::string prefix = "tensor(";
  std::vector<std::string> suffixes;
  if (t->device->dl.device_type != kDLCPU) suffixes.push_back("device='" + t->device->name + "'");
  // The dtypes PyTorch infers from the values shown.
  bool show_dtype = !(t->dtype == Dtype::Float32 || t->dtype == Dtype::Int64 || t->dtype == Dtype::Bool);
  std::string body;
  if (t->numel() == 0) {
    if (t->ndim() != 1) suffixes.push_back("size=" + shape_tuple(t->shape));
    show_dtype = t->dtype != Dtype::Float32;  // an empty tensor has no values to infer int64 or bool from
    body = "[]";
  } else {
    const bool summarize = t->numel() > kThreshold;
    const TensorPtr shown = summarize ? edges(t) : t;
    const std::vector<std::string> cells = element_strings(shown);
    body = t->ndim() == 0 ? cells[0] : nest(cells, shown->shape, t->shape, 0, 0, prefix.size(), summarize);
  }
  if (show_dtype) suffixes.push_back(std::string("dtype=") + dtype_name(t->dtype));
  if (t->grad_fn) suffixes.push_back(std::string("grad_fn=<") + t->grad_fn->name() + ">");
  else if (t->requires_grad) suffixes.push_back("requires_grad=True");
  return add_suffixes(prefix + body, suffixes, prefix.size());
}

}  // namespace porta
