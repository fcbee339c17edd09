// PyTorch's losses composed from Porta ops (their gradients come through the
// parts): nll_loss and cross_entropy with class weights, ignore_index,
// label smoothing, [N, C, d...] inputs and probability targets; binary
// cross entropy (on probabilities, log clamped at -100 as PyTorch's, and on
// logits, stable for any magnitude; both with PyTorch's backward formulas,
// finite where the composition's are not); l1, smooth_l1, huber; kl_div.
#include <cmath>

#include "runtime/error.hpp"
#include "nn/nn.hpp"
#include "autograd/function.hpp"
#include "autograd/node.hpp"
#include "ops/composite/composite.hpp"

namespace porta::nn {
namespace {

TensorPtr scalar(const porta_tensor& like, double v) { return ops::full(*like.device, Dims{}, v, like.dtype); }

void check_pair(const char* op, const TensorPtr& input, const TensorPtr& target) {
  check_float(op, "input", *input);
  check_same_device(op, {input.get(), target.get()});
  if (input->shape != target->shape)
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": input shape ", input->shape.str(), " and target shape ",
         target->shape.str(), " differ; reshape one so they match (broadcasting them is almost always a bug)");
  if (target->dtype != input->dtype)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op, ": target is ", dtype_name(target->dtype), " but input is ",
         dtype_name(input->dtype), "; convert it (.float())");
}

// [N, C, d...] (or [C]) as [M, C], the class dim last; target [N, d...] (or []) as [M].
void flatten_classes(const char* op, TensorPtr* x, TensorPtr* target) {
  const porta_tensor& in = **x;
  if (in.ndim() == 1) {
    *x = ag::unsqueeze(*x, 0);
    *target = ops::reshape(*target, Dims{1});
    return;
  }
  Dims expected;
  for (int32_t i = 0; i < in.ndim(); ++i)
    if (i != 1) expected.push_back(in.shape[i]);
  if ((*target)->shape != expected)
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": expected target of shape ", expected.str(), " for input ", in.shape.str(),
         ", got ", (*target)->shape.str());
  const int64_t classes = in.shape[1];
  if (in.ndim() > 2) {
    std::vector<int32_t> order{0};
    for (int32_t i = 2; i < in.ndim(); ++i) order.push_back(i);
    order.push_back(1);
    *x = ag::permute(*x, order.data(), in.ndim());
  }
  *x = ag::reshape(*x, Dims{in.numel() / std::max<int64_t>(classes, 1), classes});
  *target = ops::reshape(*target, Dims{(*target)->numel()});
}

// PyTorch has no gradient for a loss's weight (nor pos_weight): one that requires grad is refused.
void refuse_weight_grad(const char* op, const TensorPtr& weight) {
  if (weight && weight->requires_grad && autograd::grad_enabled())
    fail(PORTA_ERROR_NOT_IMPLEMENTED, op, ": the derivative for 'weight' is not implemented (as in PyTorch); "
         "detach() the weight");
}

void check_class_weight(const char* op, const TensorPtr& weight, const porta_tensor& x, int64_t classes) {
  if (!weight) return;
  check_same_device(op, {&x, weight.get()});
  if (weight->shape != Dims{classes} || weight->dtype != x.dtype)
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": weight must be a ", dtype_name(x.dtype), " tensor of shape [", classes,
         "] (one per class), got ", dtype_name(weight->dtype), " ", weight->shape.str());
}

// -w[t] x[m, t] per row of x [M, C] (0 where t is ignore_index), and the weights w[t].
std::pair<TensorPtr, TensorPtr> picked(const TensorPtr& x, const TensorPtr& target, const TensorPtr& weight,
                                       int64_t ignore_index, const char* op) {
  DeviceState& dev = *x->device;
  TensorPtr t = ops::cast(target, Dtype::Int64);
  TensorPtr keep = ops::binary(PORTA_OP_NE, t, ops::full_int(dev, Dims{}, ignore_index, Dtype::Int64));
  TensorPtr safe = ops::where(keep, t, ops::full(dev, Dims{}, 0.0, Dtype::Int64));
  TensorPtr value = ag::squeeze(ag::gather(x, 1, ops::unsqueeze(safe, 1), op), 1);
  TensorPtr w = weight ? ag::gather(weight, 0, safe, op) : ops::full(dev, t->shape, 1.0, x->dtype);
  w = ag::where(keep, w, scalar(*x, 0.0));
  return {ag::unary(PORTA_OP_NEG, ag::binary(PORTA_OP_MUL, value, w)), w};
}

// |d| < t ? 0.5 d^2 * quad : |d| * lin - off. The quadratic piece is computed on 0 where it is not taken, so an
// infinite |d| gives the linear piece's gradient, not 0 * inf (PyTorch's).
TensorPtr piecewise(const TensorPtr& input, const TensorPtr& target, double threshold, double quad, double lin,
                    double off) {
  TensorPtr loss;
  {
    autograd::NoGradGuard no_grad;
    TensorPtr d = ops::unary(PORTA_OP_ABS, ops::binary(PORTA_OP_SUB, input, target));
    TensorPtr near = ops::binary_scalar(PORTA_OP_LT, d, threshold);
    TensorPtr small = ops::binary_scalar(PORTA_OP_MUL, ops::binary(PORTA_OP_MUL, d, d), 0.5 * quad);
    TensorPtr large = ops::binary_scalar(PORTA_OP_SUB, ops::binary_scalar(PORTA_OP_MUL, d, lin), off);
    loss = ops::where(near, small, large);
  }
  // PyTorch's slope in x - y: -lin below -threshold, lin above it, quad (x - y) between, so NaN at NaN
  // (a composition through |x - y| would give the gradient of |NaN|, 0).
  return autograd::attach_function(
      loss, {input, target},
      [input, target, threshold, quad, lin](const TensorPtr& g) -> std::vector<TensorPtr> {
        TensorPtr diff = ag::binary(PORTA_OP_SUB, input, target);
        TensorPtr inner = ag::binary_scalar(PORTA_OP_MUL, diff, quad);
        TensorPtr slope = ag::where(ops::binary_scalar(PORTA_OP_LT, diff, -threshold), scalar(*diff, -lin),
                                    ag::where(ops::binary_scalar(PORTA_OP_GT, diff, threshold), scalar(*diff, lin), inner));
        TensorPtr d_input = ag::binary(PORTA_OP_MUL, g, slope);
        return {d_input, ag::unary(PORTA_OP_NEG, d_input)};
      },
      "PiecewiseLossBackward");
}

// Sum / mean (weighted: by the sum of weights) / none (shaped as `shape`).
TensorPtr reduce_weighted(const TensorPtr& loss, const TensorPtr& w, porta_reduction reduction, const Dims& shape) {
  if (reduction == PORTA_REDUCTION_NONE) return ag::reshape(loss, shape);
  TensorPtr total = ag::reduce(PORTA_OP_SUM, loss, nullptr, 0, false);
  if (reduction == PORTA_REDUCTION_SUM) return total;
  return mean_of_kept(total, ag::reduce(PORTA_OP_SUM, w, nullptr, 0, false));
}

// The class-index target PyTorch's nll_loss takes: int64 or uint8.
void check_class_target(const char* op, const porta_tensor& target) {
  if (!is_class_index(target.dtype))
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op, ": expected target dtype to be Long or Byte, but got ",
         dtype_name(target.dtype), " (as PyTorch); convert the class indices with .long()");
}

}  // namespace

TensorPtr nll_loss(const TensorPtr& log_probs, const TensorPtr& target_in, const TensorPtr& weight,
                   int64_t ignore_index, porta_reduction reduction) {
  check_reduction(reduction, "nll_loss");
  check_float("nll_loss", "input", *log_probs);
  check_same_device("nll_loss", {log_probs.get(), target_in.get()});
  check_class_target("nll_loss", *target_in);
  refuse_weight_grad("nll_loss", weight);
  const Dims out_shape = target_in->shape;
  TensorPtr x = log_probs, target = target_in;
  flatten_classes("nll_loss", &x, &target);
  check_class_weight("nll_loss", weight, *x, x->shape[1]);
  auto [loss, w] = picked(x, target, weight, ignore_index, "nll_loss");
  return reduce_weighted(loss, w, reduction, out_shape);
}

TensorPtr cross_entropy_loss(const TensorPtr& logits, const TensorPtr& target_in, const TensorPtr& weight,
                             int64_t ignore_index, porta_reduction reduction, double label_smoothing) {
  const char* op = "cross_entropy";
  check_reduction(reduction, op);
  check_float(op, "input", *logits);
  check_same_device(op, {logits.get(), target_in.get()});
  if (!(label_smoothing >= 0.0 && label_smoothing <= 1.0))
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": label_smoothing must be between 0.0 and 1.0, got ", label_smoothing);
  if (logits->ndim() == 0) fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": input must have a class dimension, got a 0-d tensor");
  const int32_t class_dim = logits->ndim() == 1 ? 0 : 1;
  const int64_t classes = logits->shape[class_dim];
  TensorPtr logp = softmax(logits, class_dim, true);
  const double eps = label_smoothing;
  if (is_floating(target_in->dtype)) {  // class probabilities, input's shape (a weight there has a gradient)
    if (ignore_index != -100)
      fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": ignore_index is not supported for floating point target (class "
           "probabilities), as in PyTorch");
    check_pair(op, logits, target_in);
    check_class_weight(op, weight, *logits, classes);
    TensorPtr t = target_in;
    if (eps > 0)
      t = ag::binary_scalar(PORTA_OP_ADD, ag::binary_scalar(PORTA_OP_MUL, t, 1.0 - eps), eps / static_cast<double>(classes));
    TensorPtr terms = ag::binary(PORTA_OP_MUL, logp, t);
    if (weight) {
      Dims shape;
      for (int32_t i = 0; i < logits->ndim(); ++i) shape.push_back(i == class_dim ? classes : 1);
      terms = ag::binary(PORTA_OP_MUL, terms, ag::reshape(weight, shape));
    }
    TensorPtr loss = ag::unary(PORTA_OP_NEG, ag::reduce(PORTA_OP_SUM, terms, &class_dim, 1, false));
    return apply_reduction(loss, reduction, op);  // mean: over the samples, as PyTorch
  }
  check_class_target(op, *target_in);
  refuse_weight_grad(op, weight);  // nll_loss's, as PyTorch's
  const Dims out_shape = target_in->shape;
  TensorPtr x = logp, target = target_in;
  flatten_classes(op, &x, &target);
  check_class_weight(op, weight, *x, classes);
  auto [nll, w] = picked(x, target, weight, ignore_index, op);
  TensorPtr loss = reduce_weighted(nll, w, reduction, out_shape);
  if (eps == 0) return loss;
  // PyTorch's smoothing term: -sum_c w_c logp_c per sample, reduced alike, over C.
  TensorPtr terms = weight ? ag::binary(PORTA_OP_MUL, x, ag::unsqueeze(weight, 0)) : x;
  const int32_t last = 1;
  TensorPtr smooth = ag::unary(PORTA_OP_NEG, ag::reduce(PORTA_OP_SUM, terms, &last, 1, false));
  TensorPtr keep = ops::binary(PORTA_OP_NE, ops::cast(target, Dtype::Int64),
                               ops::full_int(*x->device, Dims{}, ignore_index, Dtype::Int64));
  smooth = ag::where(keep, smooth, scalar(*x, 0.0));
  TensorPtr smooth_loss = reduce_weighted(smooth, w, reduction, out_shape);
  return ag::binary(PORTA_OP_ADD, ag::binary_scalar(PORTA_OP_MUL, loss, 1.0 - eps),
                    ag::binary_scalar(PORTA_OP_MUL, smooth_loss, eps / static_cast<double>(classes)));
}

TensorPtr binary_cross_entropy(const TensorPtr& input, const TensorPtr& target, const TensorPtr& weight,
                               porta_reduction reduction) {
  const char* op = "binary_cross_entropy";
  check_reduction(reduction, op);
  check_pair(op, input, target);
  if (input->numel() > 0) {
    const double lo = ops::reduce_to_host(PORTA_OP_MIN, input), hi = ops::reduce_to_host(PORTA_OP_MAX, input);
    if (!(lo >= 0.0 && hi <= 1.0))
      fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": all elements of input should be between 0 and 1 (got values in [", lo,
           ", ", hi, "]); apply sigmoid first, or use binary_cross_entropy_with_logits");
  }
  refuse_weight_grad(op, weight);
  // -(y max(log p, -100) + (1 - y) max(log(1 - p), -100)); PyTorch's gradients, finite where p is 0 or 1:
  // dL/dp = (p - y) / max(p (1 - p), 1e-12) and dL/dy = log(1 - p) - log(p)
  TensorPtr loss;
  {
    autograd::NoGradGuard no_grad;
    TensorPtr log_p = composite::clamp(ops::unary(PORTA_OP_LOG, input), -100.0, std::nullopt);
    TensorPtr log_q = composite::clamp(ops::unary(PORTA_OP_LOG1P, ops::unary(PORTA_OP_NEG, input)), -100.0, std::nullopt);
    loss = ops::unary(PORTA_OP_NEG, ops::binary(PORTA_OP_ADD, ops::binary(PORTA_OP_MUL, target, log_p),
                                                ops::binary(PORTA_OP_MUL, ops::binary(PORTA_OP_SUB, scalar(*input, 1.0), target),
                                                            log_q)));
    if (weight) loss = ops::binary(PORTA_OP_MUL, loss, weight);
  }
  loss = autograd::attach_function(
      loss, {input, target},
      [input, target, weight](const TensorPtr& g) -> std::vector<TensorPtr> {
        TensorPtr gw = weight ? ag::binary(PORTA_OP_MUL, g, weight) : g;
        TensorPtr q = ag::binary(PORTA_OP_SUB, scalar(*input, 1.0), input);
        TensorPtr denominator = composite::clamp(ag::binary(PORTA_OP_MUL, q, input), 1e-12, std::nullopt);
        TensorPtr d_input = ag::binary(PORTA_OP_MUL, gw, ag::binary(PORTA_OP_DIV, ag::binary(PORTA_OP_SUB, input, target),
                                                                    denominator));
        TensorPtr d_target = ag::binary(PORTA_OP_MUL, gw, ag::binary(PORTA_OP_SUB, ag::unary(PORTA_OP_LOG, q),
                                                                     ag::unary(PORTA_OP_LOG, input)));
        return {d_input, d_target};
      },
      "BinaryCrossEntropyBackward");
  return apply_reduction(loss, reduction, op);
}

TensorPtr binary_cross_entropy_with_logits(const TensorPtr& input, const TensorPtr& target, const TensorPtr& weight,
                                           const TensorPtr& pos_weight, porta_reduction reduction) {
  const char* op = "binary_cross_entropy_with_logits";
  check_reduction(reduction, op);
  check_pair(op, input, target);
  refuse_weight_grad(op, weight);
  refuse_weight_grad(op, pos_weight);
  // (1 - y) x + (1 + (pw - 1) y) (log(1 + e^-|x|) + max(-x, 0)), stable for any |x|; PyTorch's gradients:
  // dL/dx = (1 + (pw - 1) y) sigmoid(x) - pw y (sigmoid(x) - y without pw: 0.5 - y at x = 0),
  // dL/dy = -x + (pw - 1) softplus(-x)
  TensorPtr loss, softplus_neg;
  {
    autograd::NoGradGuard no_grad;
    softplus_neg = ops::binary(PORTA_OP_ADD,
                               ops::unary(PORTA_OP_LOG1P, ops::unary(PORTA_OP_EXP, ops::unary(PORTA_OP_NEG, ops::unary(PORTA_OP_ABS, input)))),
                               ops::unary(PORTA_OP_RELU, ops::unary(PORTA_OP_NEG, input)));
    TensorPtr scale = pos_weight ? ops::binary_scalar(PORTA_OP_ADD, ops::binary(PORTA_OP_MUL, ops::binary_scalar(PORTA_OP_SUB, pos_weight, 1.0), target), 1.0)
                                 : scalar(*input, 1.0);
    loss = ops::binary(PORTA_OP_ADD, ops::binary(PORTA_OP_MUL, ops::binary(PORTA_OP_SUB, scalar(*input, 1.0), target), input),
                       ops::binary(PORTA_OP_MUL, scale, softplus_neg));
    if (weight) loss = ops::binary(PORTA_OP_MUL, loss, weight);
  }
  loss = autograd::attach_function(
      loss, {input, target},
      [input, target, weight, pos_weight, softplus_neg](const TensorPtr& g) -> std::vector<TensorPtr> {
        TensorPtr gw = weight ? ag::binary(PORTA_OP_MUL, g, weight) : g;
        TensorPtr sig = ag::unary(PORTA_OP_SIGMOID, input);
        TensorPtr d_input, d_target;
        if (pos_weight) {
          TensorPtr t = ag::binary(PORTA_OP_MUL, pos_weight, target);
          d_input = ag::binary(PORTA_OP_SUB, ag::binary(PORTA_OP_MUL, ag::binary(PORTA_OP_SUB, ag::binary_scalar(PORTA_OP_ADD, t, 1.0), target), sig), t);
          d_target = ag::binary(PORTA_OP_SUB, ag::binary(PORTA_OP_MUL, ag::binary_scalar(PORTA_OP_SUB, pos_weight, 1.0), softplus_neg), input);
        } else {
          d_input = ag::binary(PORTA_OP_SUB, sig, target);
          d_target = ag::unary(PORTA_OP_NEG, input);
        }
        return {ag::binary(PORTA_OP_MUL, gw, d_input), ag::binary(PORTA_OP_MUL, gw, d_target)};
      },
      "BinaryCrossEntropyWithLogitsBackward");
  return apply_reduction(loss, reduction, op);
}

TensorPtr l1_loss(const TensorPtr& input, const TensorPtr& target, porta_reduction reduction) {
  check_pair("l1_loss", input, target);
  return apply_reduction(ag::unary(PORTA_OP_ABS, ag::binary(PORTA_OP_SUB, input, target)), reduction, "l1_loss");
}

TensorPtr smooth_l1_loss(const TensorPtr& input, const TensorPtr& target, porta_reduction reduction, double beta) {
  check_pair("smooth_l1_loss", input, target);
  if (!(beta >= 0)) fail(PORTA_ERROR_INVALID_ARGUMENT, "smooth_l1_loss: beta must be non-negative, got ", beta);
  if (beta == 0) return l1_loss(input, target, reduction);
  return apply_reduction(piecewise(input, target, beta, 1.0 / beta, 1.0, 0.5 * beta), reduction, "smooth_l1_loss");
}

TensorPtr huber_loss(const TensorPtr& input, const TensorPtr& target, porta_reduction reduction, double delta) {
  check_pair("huber_loss", input, target);
  if (!(delta > 0)) fail(PORTA_ERROR_INVALID_ARGUMENT, "huber_loss: delta must be positive, got ", delta);
  return apply_reduction(piecewise(input, target, delta, 1.0, delta, 0.5 * delta * delta), reduction, "huber_loss");
}

TensorPtr kl_div(const TensorPtr& input, const TensorPtr& target, porta_reduction reduction, bool log_target) {
  const char* op = "kl_div";
  check_pair(op, input, target);
  TensorPtr loss;
  if (log_target) {  // e^t (t - x)
    loss = ag::binary(PORTA_OP_MUL, ag::unary(PORTA_OP_EXP, target), ag::binary(PORTA_OP_SUB, target, input));
  } else {  // t log t - t x, with 0 log 0 = 0
    TensorPtr zero = ops::binary_scalar(PORTA_OP_EQ, target, 0.0);
    TensorPtr safe = ag::where(zero, scalar(*target, 1.0), target);
    TensorPtr xlogx = ag::where(zero, scalar(*target, 0.0), ag::binary(PORTA_OP_MUL, target, ag::unary(PORTA_OP_LOG, safe)));
    loss = ag::binary(PORTA_OP_SUB, xlogx, ag::binary(PORTA_OP_MUL, target, input));
  }
  if (reduction == PORTA_REDUCTION_BATCHMEAN) {
    const double batch = input->ndim() == 0 ? 1.0 : static_cast<double>(input->shape[0]);
    return ag::binary_scalar(PORTA_OP_DIV, ag::reduce(PORTA_OP_SUM, loss, nullptr, 0, false), batch);
  }
  return apply_reduction(loss, reduction, op);
}

}  // namespace porta::nn
