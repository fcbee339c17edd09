// Sampling beyond rand / randn, from the counter-based generator (the global
// one, or a caller's state: ops::Counters): randint, normal with tensor
// parameters, bernoulli and multinomial. Same state, same numbers on every
// device, as the kernels behind them (RAND_UNIFORM, RAND_NORMAL) promise.
#include <cmath>

#include "autograd/function.hpp"
#include "runtime/error.hpp"
#include "ops/composite/composite.hpp"

namespace porta::composite {
namespace {

void require_float(const char* op, const char* what, const porta_tensor& t) {
  if (!is_floating(t.dtype))
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op, ": ", what,
         " must be floating (float16, bfloat16, float32 or float64), got ", dtype_name(t.dtype));
}

// One class per row of the float64 cumulative weights cdf [N, C], for each of the N x k uniforms u in [0, 1):
// the first class whose cumulative weight exceeds u * total.
TensorPtr draw_classes(const TensorPtr& cdf, const TensorPtr& u) {
  const int64_t classes = cdf->shape[1];
  TensorPtr total = ops::slice(cdf, 1, classes - 1, classes, 1);                                   // [N, 1]
  TensorPtr target = ops::unsqueeze(ops::binary(PORTA_OP_MUL, u, total), 2);                      // [N, k, 1]
  TensorPtr below = ops::binary(PORTA_OP_LE, ops::unsqueeze(cdf, 1), target);                      // [N, k, C]
  const int32_t last = 2;
  TensorPtr idx = ops::reduce(PORTA_OP_SUM, below, &last, 1, false);                              // [N, k]
  return ops::binary_scalar(PORTA_OP_MINIMUM, idx, static_cast<double>(classes - 1));  // rounding at u * total
}

}  // namespace

TensorPtr randint(DeviceState& dev, int64_t low, int64_t high, const Dims& shape, Dtype dtype, ops::Counters c) {
  if (!(low < high))
    fail(PORTA_ERROR_INVALID_ARGUMENT, "randint: expects low to be less than high, but got low=", low, " >= high=", high);
  if (dtype == Dtype::Bool) fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "randint: bool is not an integer dtype here; use rand() < p");
  const double span = static_cast<double>(high) - static_cast<double>(low);
  if (span > 9007199254740992.0)
    fail(PORTA_ERROR_NOT_IMPLEMENTED, "randint: ranges wider than 2^53 are not supported (one double per draw)");
  ops::check_fill_value("randint", Scalar::of_int(low), dtype, /*strict_unsigned=*/true);
  ops::check_fill_value("randint", Scalar::of_int(high - 1), dtype, /*strict_unsigned=*/true);
  TensorPtr u = ops::random(PORTA_OP_RAND_UNIFORM, dev, shape, Dtype::Float64, 0.0, 1.0, c);
  TensorPtr k = ops::binary_scalar(PORTA_OP_MINIMUM, ops::unary(PORTA_OP_FLOOR, ops::binary_scalar(PORTA_OP_MUL, u, span)),
                                   span - 1.0);
  TensorPtr v = ops::binary(PORTA_OP_ADD, ops::cast(k, Dtype::Int64), ops::full_int(dev, Dims{}, low, Dtype::Int64));
  return ops::cast(v, dtype);
}

TensorPtr normal_tensor(const TensorPtr& mean, const TensorPtr& std, ops::Counters c) {
  if (!mean && !std) fail(PORTA_ERROR_INVALID_ARGUMENT, "normal: give mean, std or both as tensors");
  const TensorPtr& any = mean ? mean : std;
  if (mean) require_float("normal", "mean", *mean);
  if (std) require_float("normal", "std", *std);
  if (mean && std) check_same_device("normal", {mean.get(), std.get()});
  const Dims shape = mean && std ? ops::broadcast_shapes("normal", mean->shape, std->shape) : any->shape;
  const Dtype dt = mean && std ? promote(mean->dtype, std->dtype) : any->dtype;
  if (std && std->numel() > 0 && !(ops::reduce_to_host(PORTA_OP_MIN, std) >= 0.0))
    fail(PORTA_ERROR_INVALID_ARGUMENT, "normal: expects all elements of std >= 0.0");
  TensorPtr z = ops::random(PORTA_OP_RAND_NORMAL, *any->device, shape, dt, 0.0, 1.0, c);
  if (std) z = ops::binary(PORTA_OP_MUL, z, ops::cast(std, dt));
  // mean and std get zero gradients, as PyTorch's (a sample is not reparameterized)
  return autograd::attach_zero_gradients(mean ? ops::binary(PORTA_OP_ADD, z, ops::cast(mean, dt)) : z, {mean, std},
                                         "NormalBackward");
}

TensorPtr bernoulli(const TensorPtr& p, ops::Counters c) {
  require_float("bernoulli", "p", *p);
  if (p->numel() > 0) {
    const double lo = ops::reduce_to_host(PORTA_OP_MIN, p), hi = ops::reduce_to_host(PORTA_OP_MAX, p);
    if (!(lo >= 0.0 && hi <= 1.0))
      fail(PORTA_ERROR_INVALID_ARGUMENT, "bernoulli: expects 0 <= p <= 1, got values in [", lo, ", ", hi, "]");
  }
  TensorPtr u = ops::random(PORTA_OP_RAND_UNIFORM, *p->device, p->shape, p->dtype, 0.0, 1.0, c);
  return autograd::attach_zero_gradients(ops::cast(ops::binary(PORTA_OP_LT, u, p), p->dtype), {p},
                                         "BernoulliBackward");  // zeros, as PyTorch's
}

TensorPtr multinomial(const TensorPtr& probs, int64_t num_samples, bool replacement, ops::Counters c) {
  require_float("multinomial", "probs", *probs);
  if (probs->ndim() != 1 && probs->ndim() != 2)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "multinomial: prob_dist must be 1 or 2 dim, got ", probs->shape.str());
  const int64_t classes = probs->shape[probs->ndim() - 1];
  if (classes == 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "multinomial: the number of categories cannot be 0");
  if (num_samples <= 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "multinomial: cannot sample n_sample <= 0 samples");
  if (!replacement && num_samples > classes)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "multinomial: cannot sample n_sample > prob_dist.size(-1) samples without "
                                       "replacement (", num_samples, " > ", classes, ")");
  TensorPtr w = ops::cast(probs->ndim() == 1 ? ops::unsqueeze(probs, 0) : probs, Dtype::Float64);  // [N, C]
  const int64_t rows = w->shape[0];
  if (rows > 0) {
    if (!(ops::reduce_to_host(PORTA_OP_MIN, w) >= 0.0) || !std::isfinite(ops::reduce_to_host(PORTA_OP_MAX, w)))
      fail(PORTA_ERROR_INVALID_ARGUMENT, "multinomial: probability tensor contains either inf, nan or element < 0");
    const int32_t last = 1;
    if (!(ops::reduce_to_host(PORTA_OP_MIN, ops::reduce(PORTA_OP_SUM, w, &last, 1, false)) > 0.0))
      fail(PORTA_ERROR_INVALID_ARGUMENT, "multinomial: invalid distribution (a row sums to 0)");
  }
  DeviceState& dev = *probs->device;
  TensorPtr out;
  if (replacement || num_samples == 1) {
    TensorPtr u = ops::random(PORTA_OP_RAND_UNIFORM, dev, Dims{rows, num_samples}, Dtype::Float64, 0.0, 1.0, c);
    out = draw_classes(ops::scan(PORTA_OP_CUMSUM, w, 1, false), u);
  } else {  // one draw per row at a time, each drawn class's weight then zeroed
    std::vector<TensorPtr> picks;
    for (int64_t j = 0; j < num_samples; ++j) {
      TensorPtr u = ops::random(PORTA_OP_RAND_UNIFORM, dev, Dims{rows, 1}, Dtype::Float64, 0.0, 1.0, c);
      TensorPtr pick = draw_classes(ops::scan(PORTA_OP_CUMSUM, w, 1, false), u);  // [N, 1]
      w = ops::scatter(w, 1, pick, ops::full(dev, Dims{rows, 1}, 0.0, Dtype::Float64), PORTA_SCATTER_ASSIGN);
      picks.push_back(pick);
    }
    out = ag::cat(picks, 1);
  }
  return probs->ndim() == 1 ? ops::reshape(out, Dims{num_samples}) : out;
}

}  // namespace porta::composite
