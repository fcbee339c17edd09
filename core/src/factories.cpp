// Factories and the global counter-based random generator.
#include <cmath>
#include <mutex>

#include "error.hpp"
#include "ops.hpp"

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
  KernelArg out(*t);
  launch(dev, PORTA_OP_FULL, dtype, nullptr, 0, out, &p);
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

void random_into(porta_op op, const TensorPtr& t, double a, double b) {
  if (!is_floating(t->dtype))
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op_name(op), ": random numbers are float32 or float64, not ", dtype_name(t->dtype));
  begin_write(*t, op_name(op));
  if (t->numel() == 0) return;
  porta_random_params p{sizeof(p), 0, 0, a, b};
  p.offset = reserve_counters(static_cast<uint64_t>(t->numel()), &p.seed);
  KernelArg out(*t);
  launch(*t->device, op, t->dtype, nullptr, 0, out, &p);
}

TensorPtr random(porta_op op, DeviceState& dev, const Dims& shape, Dtype dtype, double a, double b) {
  if (!is_floating(dtype))
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op_name(op), ": random numbers are float32 or float64, not ", dtype_name(dtype));
  TensorPtr t = empty(dev, dtype, shape);
  random_into(op, t, a, b);
  return t;
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
