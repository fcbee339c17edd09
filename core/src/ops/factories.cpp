// Factories and the global counter-based random generator.
#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <numeric>
#include <string>
#include <vector>

#include "runtime/error.hpp"
#include "ops/ops.hpp"

namespace porta::ops {
namespace {

struct Generator {
  std::mutex mu;
  uint64_t seed = 67280421310721ull;  // PyTorch's default seed
  uint64_t offset = 0;
};

Generator& generator() {
  static Generator g;
  return g;
}

// Reserves `n` counters and returns the first.
uint64_t reserve_counters(uint64_t n, uint64_t* seed) {
  Generator& g = generator();
  std::lock_guard<std::mutex> lock(g.mu);
  *seed = g.seed;
  const uint64_t first = g.offset;
  g.offset += n;
  return first;
}

// Runs the FULL kernel over `t` (which has elements).
void launch_fill(const porta_tensor& t, const porta_fill_params& p) {
  KernelArg out(t);
  launch(*t.device, PORTA_OP_FULL, t.dtype, nullptr, 0, out, &p);
}

// Runs a RAND_* kernel over `t` (which has elements) from generator state (seed, offset).
void launch_random(porta_op op, const porta_tensor& t, double a, double b, uint64_t seed, uint64_t offset) {
  porta_random_params p{sizeof(p), seed, offset, a, b};
  KernelArg out(t);
  launch(*t.device, op, t.dtype, nullptr, 0, out, &p);
}

}  // namespace

TensorPtr full(DeviceState& dev, const Dims& shape, double value, Dtype dtype) {
  TensorPtr t = empty(dev, dtype, shape);
  if (t->numel() == 0) return t;
  porta_fill_params p{sizeof(p), value, 0};
  if (!is_floating(dtype)) {
    if (!(value >= -0x1p63 && value < 0x1p63))  // also NaN and infinities: converting those is undefined
      fail(PORTA_ERROR_INVALID_ARGUMENT, "full: ", value, " cannot be stored in ", dtype_name(dtype),
           " (integer values must lie within the range of int64)");
    p.int_value = dtype == Dtype::Bool ? (value != 0) : static_cast<int64_t>(value);
  }
  launch_fill(*t, p);
  return t;
}

TensorPtr arange(DeviceState& dev, double start, double end, double step, Dtype dtype) {
  if (step == 0 || !std::isfinite(step) || !std::isfinite(start) || !std::isfinite(end))
    fail(PORTA_ERROR_INVALID_ARGUMENT, "arange: start, end and step must be finite and step nonzero (got ", start, ", ",
         end, ", ", step, ")");
  if ((end - start) / step < 0)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "arange: step ", step, " moves away from end (start ", start, ", end ", end, ")");
  if (dtype == Dtype::Bool) fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "arange: bool is not supported");
  const double count = std::ceil((end - start) / step);
  if (count > 9.0e15) fail(PORTA_ERROR_INVALID_ARGUMENT, "arange: ", count, " elements is too many");
  TensorPtr t = empty(dev, dtype, Dims{static_cast<int64_t>(count)});
  if (t->numel() == 0) return t;
  porta_arange_params p{sizeof(p), start, step};
  KernelArg out(*t);
  launch(dev, PORTA_OP_ARANGE, dtype, nullptr, 0, out, &p);
  return t;
}

void int_range(Dtype dtype, int64_t* lo, int64_t* hi) {
  switch (dtype) {
    case Dtype::UInt8: *lo = 0, *hi = 255; return;
    case Dtype::Int8:
      *lo = INT8_MIN, *hi = INT8_MAX;
      return;
    case Dtype::Int16:
      *lo = INT16_MIN, *hi = INT16_MAX;
      return;
    case Dtype::Int32: *lo = INT32_MIN, *hi = INT32_MAX; return;
    default: *lo = INT64_MIN, *hi = INT64_MAX; return;  // int64, and bool (any number is true or false)
  }
}

namespace {

[[noreturn]] void overflow(const char* op, const std::string& value, Dtype dtype) {
  fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": value ", value, " cannot be converted to type ", dtype_name(dtype),
       " without overflow (as in PyTorch); pick a wider dtype");
}
}  // namespace

double float_max(Dtype dtype) {
  switch (dtype) {
    case Dtype::Float16:
      return 65504.0;
    case Dtype::BFloat16:
      return 3.3895313892515355e38;
    case Dtype::Float32:
      return 3.4028234663852886e38;
    default:
      return std::numeric_limits<double>::max();
  }
}

void check_fill_value(const char* op, const Scalar& s, Dtype dtype, bool strict_unsigned) {
  if (s.kind == Scalar::Kind::Bool || dtype == Dtype::Bool) return;
  if (is_floating(dtype)) {
    const double v = s.as_double();
    if (std::isfinite(v) && std::fabs(v) > float_max(dtype)) overflow(op, cat(v), dtype);
    return;
  }
  int64_t lo, hi;
  int_range(dtype, &lo, &hi);
  if (s.kind == Scalar::Kind::Int) {
    if (dtype == Dtype::UInt8 && !strict_unsigned) lo = -hi;  // -255..-1 wrap into uint8, as PyTorch's conversion
    if (s.i < lo || s.i > hi) overflow(op, cat(s.i), dtype);
    return;
  }
  if (!(s.f >= static_cast<double>(lo) && s.f <= static_cast<double>(hi))) overflow(op, cat(s.f), dtype);  // NaN too
}

void check_fill_value(const char* op, double value, Dtype dtype) {
  check_fill_value(op, Scalar::from_double(value), dtype);
}

TensorPtr full_int(DeviceState& dev, const Dims& shape, int64_t value, Dtype dtype) {
  if (is_floating(dtype)) return full(dev, shape, static_cast<double>(value), dtype);
  check_fill_value("full", Scalar::of_int(value), dtype);
  TensorPtr t = empty(dev, dtype, shape);
  if (t->numel() == 0) return t;
  launch_fill(*t, porta_fill_params{sizeof(porta_fill_params), static_cast<double>(value),
                                    dtype == Dtype::Bool ? int64_t{value != 0} : value});
  return t;
}

TensorPtr arange_int(DeviceState& dev, int64_t start, int64_t end, int64_t step, Dtype dtype) {
  if (step == 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "arange: step must be nonzero");
  if (dtype == Dtype::Bool) fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "arange: bool is not supported");
  const __int128 span = static_cast<__int128>(end) - start;
  if ((span > 0 && step < 0) || (span < 0 && step > 0))
    fail(PORTA_ERROR_INVALID_ARGUMENT, "arange: step ", step, " moves away from end (start ", start, ", end ", end, ")");
  if (span > INT64_MAX || span < INT64_MIN)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "arange: end - start (", end, " - ", start, ") is beyond int64");
  const __int128 count = span == 0 ? 0 : (span + step + (step > 0 ? -1 : 1)) / step;  // ceil(span / step)
  if (count > 9'000'000'000'000'000) fail(PORTA_ERROR_INVALID_ARGUMENT, "arange: too many elements");
  if (is_floating(dtype) || count == 0) {
    // Floats cannot hold more than 2^53 exactly anyway; the double path is PyTorch's there.
    return arange(dev, static_cast<double>(start), static_cast<double>(end), static_cast<double>(step), dtype);
  }
  const int64_t last = static_cast<int64_t>(start + (count - 1) * step);
  int64_t lo, hi;
  int_range(dtype, &lo, &hi);
  if (std::min(start, last) < lo || std::max(start, last) > hi) overflow("arange", cat(start < lo || start > hi ? start : last), dtype);
  // start + i * step in int64, exactly (i < 2^53 is exact in the double kernel).
  TensorPtr i = arange(dev, 0.0, static_cast<double>(count), 1.0, Dtype::Int64);
  TensorPtr v = binary(PORTA_OP_ADD, binary(PORTA_OP_MUL, i, full_int(dev, Dims{}, step, Dtype::Int64)),
                       full_int(dev, Dims{}, start, Dtype::Int64));
  return cast(v, dtype);
}

uint64_t Counters::take(uint64_t n, uint64_t* seed) const {
  if (!state) return reserve_counters(n, seed);
  *seed = state->seed;
  const uint64_t first = state->offset;
  state->offset += n;
  return first;
}

void random_into(porta_op op, const TensorPtr& t, double a, double b, Counters counters) {
  if (!is_floating(t->dtype))
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op_name(op),
         ": random numbers are floating (float16, bfloat16, float32 or float64), not ", dtype_name(t->dtype));
  begin_write(*t, op_name(op));
  if (t->numel() == 0) return;
  uint64_t seed = 0;
  const uint64_t offset = counters.take(static_cast<uint64_t>(t->numel()), &seed);
  launch_random(op, *t, a, b, seed, offset);
}

TensorPtr random(porta_op op, DeviceState& dev, const Dims& shape, Dtype dtype, double a, double b, Counters counters) {
  if (!is_floating(dtype))
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op_name(op),
         ": random numbers are floating (float16, bfloat16, float32 or float64), not ", dtype_name(dtype));
  TensorPtr t = empty(dev, dtype, shape);
  random_into(op, t, a, b, counters);
  return t;
}

TensorPtr randperm_at(DeviceState& dev, int64_t n, uint64_t seed, uint64_t offset) {
  if (n < 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "randperm: n must be >= 0, got ", n);
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), int64_t{0});
  if (n > 1) {
    // Fisher-Yates over n uniforms of the counter-based generator at (seed,
    // offset), drawn on the cpu: one permutation per state on every device.
    TensorPtr u = empty(Registry::get().device(DLDevice{kDLCPU, 0}), Dtype::Float64, Dims{n});
    launch_random(PORTA_OP_RAND_UNIFORM, *u, 0.0, 1.0, seed, offset);
    std::vector<double> host(static_cast<size_t>(n));
    to_host(*u, host.data(), host.size() * sizeof(double));
    for (int64_t i = n - 1; i > 0; --i) {
      const int64_t j = std::min<int64_t>(i, static_cast<int64_t>(host[static_cast<size_t>(i)] * static_cast<double>(i + 1)));
      std::swap(order[static_cast<size_t>(i)], order[static_cast<size_t>(j)]);
    }
  }
  return from_host(order.data(), Dtype::Int64, Dims{n}, dev);
}

TensorPtr randperm(DeviceState& dev, int64_t n) {
  if (n < 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "randperm: n must be >= 0, got ", n);
  uint64_t seed = 0;
  const uint64_t offset = reserve_counters(static_cast<uint64_t>(n), &seed);
  return randperm_at(dev, n, seed, offset);
}

void manual_seed(uint64_t seed) {
  Generator& g = generator();
  std::lock_guard<std::mutex> lock(g.mu);
  g.seed = seed;
  g.offset = 0;
}

void generator_state(uint64_t* seed, uint64_t* offset) {
  Generator& g = generator();
  std::lock_guard<std::mutex> lock(g.mu);
  *seed = g.seed;
  *offset = g.offset;
}

void set_generator_state(uint64_t seed, uint64_t offset) {
  Generator& g = generator();
  std::lock_guard<std::mutex> lock(g.mu);
  g.seed = seed;
  g.offset = offset;
}

}  // namespace porta::ops
