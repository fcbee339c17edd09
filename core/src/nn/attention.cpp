// torch.nn.functional.scaled_dot_product_attention, composed: softmax(q k^T
// * scale + mask) v, with a causal mask (the upper triangle above the main
// diagonal, PyTorch's tril(ones(L, S)) convention), a bool mask (false:
// excluded) or an additive float mask, and dropout on the weights.
#include <algorithm>
#include <cmath>
#include <vector>

#include "nn/nn.hpp"
#include "ops/composite/composite.hpp"
#include "runtime/error.hpp"

namespace porta::nn {
namespace {

// Whether `mask` broadcasts to the shape of q @ k^T, [batch..., l, s],
// without widening it (then it can be the GEMM's added term).
bool fits_scores(const porta_tensor& mask, const porta_tensor& q, const porta_tensor& k, int64_t l, int64_t s) {
  Dims qb, kb;
  for (int32_t i = 0; i + 2 < q.ndim(); ++i) qb.push_back(q.shape[i]);
  for (int32_t i = 0; i + 2 < k.ndim(); ++i) kb.push_back(k.shape[i]);
  Dims scores = ops::broadcast_shapes("scaled_dot_product_attention", qb, kb);
  scores.push_back(l);
  scores.push_back(s);
  return ops::broadcast_shapes("scaled_dot_product_attention", mask.shape, scores) == scores;
}

// Causal attention by blocks of query rows: rows [r0, r1) see keys [0, r1)
// only, so each block's GEMMs and softmax skip the keys every one of its
// rows masks out (about a quarter of the work at two blocks, as PyTorch's
// flash kernel skips them). Fewer rows than two blocks stay one block.
constexpr int64_t kCausalBlockRows = 64;

// The additive causal bias of rows [r0, r0 + rows) over keys [0, keys):
// 0 where key j <= row i (PyTorch's tril(ones(L, S)) convention), -inf above.
TensorPtr causal_bias(DeviceState& dev, Dtype dtype, int64_t r0, int64_t rows, int64_t keys) {
  TensorPtr keep = composite::triangle(ops::full(dev, Dims{rows, keys}, 1.0, Dtype::Bool), r0, true);
  return ops::where(keep, ops::full(dev, Dims{}, 0.0, dtype), ops::full(dev, Dims{}, -INFINITY, dtype));
}

TensorPtr causal_blocks(const TensorPtr& q, const TensorPtr& kt, const TensorPtr& v, double factor, int64_t l,
                        int64_t s) {
  DeviceState& dev = *q->device;
  std::vector<TensorPtr> outs;
  for (int64_t r0 = 0; r0 < l; r0 += kCausalBlockRows) {
    const int64_t r1 = std::min(l, r0 + kCausalBlockRows), keys = std::min(s, r1);
    const TensorPtr qb = ag::slice(q, -2, r0, r1, 1);
    const TensorPtr kb = keys == s ? kt : ag::slice(kt, -1, 0, keys, 1);
    const TensorPtr vb = keys == s ? v : ag::slice(v, -2, 0, keys, 1);
    const TensorPtr scores = ag::matmul(qb, kb, factor, causal_bias(dev, q->dtype, r0, r1 - r0, keys), 1.0);
    outs.push_back(ag::matmul(softmax(scores, -1, false, true), vb));
  }
  return ag::cat(outs, -2);
}

}  // namespace

TensorPtr scaled_dot_product_attention(const TensorPtr& q, const TensorPtr& k, const TensorPtr& v,
                                       const TensorPtr& attn_mask, double dropout_p, bool is_causal, double scale,
                                       bool training) {
  const char* op = "scaled_dot_product_attention";
  check_float(op, "query", *q);
  check_same_device(op, {q.get(), k.get(), v.get()});
  if (q->ndim() < 2 || k->ndim() < 2 || v->ndim() < 2)
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": query, key and value must be at least 2-D [..., L, E], got ",
         q->shape.str(), ", ", k->shape.str(), " and ", v->shape.str());
  const int64_t e = q->shape[q->ndim() - 1], l = q->shape[q->ndim() - 2], s = k->shape[k->ndim() - 2];
  if (k->shape[k->ndim() - 1] != e || v->shape[v->ndim() - 2] != s)
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": expected key [..., S, ", e, "] and value [..., S, Ev] beside query ",
         q->shape.str(), ", got key ", k->shape.str(), " and value ", v->shape.str());
  if (attn_mask && attn_mask->dtype != Dtype::Bool && !is_floating(attn_mask->dtype))
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op, ": expected attn_mask dtype to be bool or float, but got ",
         dtype_name(attn_mask->dtype), " (as PyTorch); compare it (mask != 0) for a bool mask");
  if (is_causal && attn_mask)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": give attn_mask or is_causal, not both (as PyTorch)");
  if (!(dropout_p >= 0.0 && dropout_p <= 1.0))
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": dropout_p must be in [0, 1], got ", dropout_p);
  const double factor = std::isnan(scale) ? 1.0 / std::sqrt(static_cast<double>(e)) : scale;
  const TensorPtr kt = ag::transpose(k, -2, -1);
  DeviceState& dev = *q->device;
  const bool dropping = dropout_p > 0.0 && training;
  // With dropout in training the weights stay one tensor, so that its mask
  // draws the random numbers it always drew.
  if (is_causal && !dropping && s > 0 && l >= 2 * kCausalBlockRows) return causal_blocks(q, kt, v, factor, l, s);
  // The scale and an additive mask in the GEMM that makes the scores
  // (MATMUL's alpha and beta): no pass of their own over [..., L, S].
  TensorPtr scores;
  if (is_causal) {
    // PyTorch's math path: the mask as an additive bias, 0 on and below the
    // diagonal and -inf above it.
    scores = ag::matmul(q, kt, factor, causal_bias(dev, q->dtype, 0, l, s), 1.0);
  } else if (attn_mask) {
    check_same_device(op, {q.get(), attn_mask.get()});
    if (attn_mask->dtype == Dtype::Bool)
      scores = ag::where(attn_mask, ag::matmul(q, kt, factor, TensorPtr(), 0.0),
                         ops::full(dev, Dims{}, -INFINITY, q->dtype));
    else if (attn_mask->dtype == q->dtype && fits_scores(*attn_mask, *q, *k, l, s))
      scores = ag::matmul(q, kt, factor, attn_mask, 1.0);
    else
      scores = ag::binary(PORTA_OP_ADD, ag::matmul(q, kt, factor, TensorPtr(), 0.0), attn_mask);
  } else {
    scores = ag::matmul(q, kt, factor, TensorPtr(), 0.0);
  }
  TensorPtr weights = softmax(scores, -1, false, true);  // a fully masked row attends to nothing: 0
  if (dropout_p > 0.0) weights = dropout(weights, dropout_p, training);
  return ag::matmul(weights, v);
}

}  // namespace porta::nn
