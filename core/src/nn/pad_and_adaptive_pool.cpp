// torch.nn.functional.pad (constant, reflect, replicate, circular) and
// adaptive_avg_pool2d, composed from differentiable Porta ops.
//
// Adaptive average pooling is separable: PyTorch's output bin i of a
// dimension of n covers [floor(i n / out), ceil((i + 1) n / out)), and the mean
// over a rectangle of bins is the mean over its rows of the means over its
// columns. Each dimension is one mean per bin, joined: a NaN or an infinity
// reaches only the bins that hold it, as in PyTorch.
#include <vector>

#include "runtime/error.hpp"
#include "nn/nn.hpp"
#include "ops/composite/composite.hpp"

namespace porta::nn {
namespace {

// x pooled along `dim` into `out` bins: each bin's mean, joined.
TensorPtr adaptive_mean(const TensorPtr& x, int32_t dim, int64_t out) {
  const int64_t n = x->shape[dim];
  std::vector<TensorPtr> bins;
  for (int64_t i = 0; i < out; ++i) {
    const int64_t start = i * n / out, end = ((i + 1) * n + out - 1) / out;
    bins.push_back(ag::reduce(PORTA_OP_MEAN, ag::slice(x, dim, start, end, 1), &dim, 1, true));
  }
  return bins.size() == 1 ? bins[0] : ag::cat(bins, dim);
}

// Where each position of a padded dimension of n (left pad l, right r) reads from.
int64_t source_of(porta_pad_mode mode, int64_t j, int64_t n) {
  switch (mode) {
    case PORTA_PAD_REFLECT: return j < 0 ? -j : j >= n ? 2 * (n - 1) - j : j;
    case PORTA_PAD_REPLICATE: return j < 0 ? 0 : j >= n ? n - 1 : j;
    default: return ((j % n) + n) % n;  // circular
  }
}

const char* mode_name(porta_pad_mode mode) {
  return mode == PORTA_PAD_REFLECT ? "reflect" : mode == PORTA_PAD_REPLICATE ? "replicate" : "circular";
}

// One dimension of a non-constant pad: the rows it reads, gathered.
TensorPtr pad_by_index(const TensorPtr& x, int32_t dim, int64_t left, int64_t right, porta_pad_mode mode) {
  const int64_t n = x->shape[dim];
  const bool fits = mode == PORTA_PAD_REFLECT    ? left < n && right < n
                    : mode == PORTA_PAD_CIRCULAR ? left <= n && right <= n
                                                 : n > 0;
  if (!fits)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "pad: ", mode_name(mode), " padding of (", left, ", ", right,
         ") does not fit dimension ", dim, " of size ", n,
         mode == PORTA_PAD_REFLECT ? " (each side must be smaller than the size)" : " (at most the size)");
  std::vector<int64_t> index;
  for (int64_t j = -left; j < n + right; ++j) index.push_back(source_of(mode, j, n));
  TensorPtr idx = ops::from_host(index.data(), Dtype::Int64, Dims{static_cast<int64_t>(index.size())}, *x->device);
  return composite::index_select(x, dim, idx);
}

// One dimension of a constant pad: blocks of `value` joined on either side;
// a negative pad crops.
TensorPtr pad_constant(const TensorPtr& x, int32_t dim, int64_t left, int64_t right, double value) {
  TensorPtr t = x;
  const int64_t n = t->shape[dim];
  if (left < 0 || right < 0) {
    const int64_t start = left < 0 ? -left : 0, stop = right < 0 ? n + right : n;
    if (stop < start)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "pad: cropping (", left, ", ", right, ") leaves a negative size of dimension ",
           dim, " (", n, ")");
    t = ag::slice(t, dim, start, stop, 1);
  }
  std::vector<TensorPtr> parts;
  auto block = [&](int64_t size) {
    Dims shape = t->shape;
    shape[dim] = size;
    return ops::full(*t->device, shape, value, t->dtype);
  };
  if (left > 0) parts.push_back(block(left));
  parts.push_back(t);
  if (right > 0) parts.push_back(block(right));
  return parts.size() == 1 ? t : ag::cat(parts, dim);
}

}  // namespace

namespace {

// PyTorch's rule for the reflect, replicate and circular modes: padding k dims takes an input of k + 1 dims
// ([C, ...]) or k + 2 ([N, C, ...]); reflect and replicate also want no empty dim but N, and no bool.
void check_batch_mode(const TensorPtr& x, int32_t padded, porta_pad_mode mode) {
  const int32_t nd = x->ndim();
  if (nd != padded + 1 && nd != padded + 2)
    fail(PORTA_ERROR_NOT_IMPLEMENTED, "pad: padding size ", 2 * padded, " is not supported for ", nd,
         "D input tensor (", mode_name(mode), " padding of ", padded, " dims takes a ", padded + 1, "D [C, ...] or ",
         padded + 2, "D [N, C, ...] input, as PyTorch)");
  if (mode == PORTA_PAD_CIRCULAR) return;
  if (x->dtype == Dtype::Bool)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "pad: ", mode_name(mode), " padding is not implemented for bool (as in "
         "PyTorch); pad a uint8 copy");
  for (int32_t i = nd == padded + 2 ? 1 : 0; i < nd; ++i)
    if (x->shape[i] == 0)
      fail(PORTA_ERROR_SHAPE_MISMATCH, "pad: expected a ", padded + 1, "D or ", padded + 2, "D (batch mode) tensor "
           "with possibly 0 batch size and other non-zero dimensions for input, but got: ", x->shape.str());
}

}  // namespace

TensorPtr pad(const TensorPtr& x, const std::vector<int64_t>& pads, porta_pad_mode mode, double value) {
  const char* op = "pad";
  if (mode != PORTA_PAD_CONSTANT && mode != PORTA_PAD_REFLECT && mode != PORTA_PAD_REPLICATE &&
      mode != PORTA_PAD_CIRCULAR)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": unknown mode ", int64_t(mode),
         " (use PORTA_PAD_CONSTANT, REFLECT, REPLICATE or CIRCULAR)");
  if (pads.size() % 2 != 0) fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": padding length must be even, got ", pads.size());
  if (static_cast<int64_t>(pads.size() / 2) > x->ndim())
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": padding length ", pads.size(), " pads more dimensions than the input's ",
         x->ndim(), " (two values per dimension, the last dimension first)");
  if (mode == PORTA_PAD_CONSTANT) {
    ops::check_fill_value(op, value, x->dtype);
  } else {
    if (value != 0.0)
      fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": value is for the constant mode only, not ", mode_name(mode));
    for (int64_t p : pads)
      if (p < 0) fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": ", mode_name(mode), " padding must be >= 0, got ", p);
    check_batch_mode(x, static_cast<int32_t>(pads.size() / 2), mode);
  }
  TensorPtr out = x;
  for (size_t k = 0; k < pads.size() / 2; ++k) {
    const int32_t dim = x->ndim() - 1 - static_cast<int32_t>(k);
    const int64_t left = pads[2 * k], right = pads[2 * k + 1];
    if (left == 0 && right == 0) continue;
    out = mode == PORTA_PAD_CONSTANT ? pad_constant(out, dim, left, right, value)
                                     : pad_by_index(out, dim, left, right, mode);
  }
  return out;
}

TensorPtr adaptive_avg_pool2d(const TensorPtr& x, int64_t out_h, int64_t out_w) {
  const char* op = "adaptive_avg_pool2d";
  check_float(op, "input", *x);
  if (x->ndim() != 3 && x->ndim() != 4)
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": expected input [N, C, H, W] or [C, H, W], got ", x->shape.str());
  if (out_h < 1 || out_w < 1)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": output size must be at least 1x1, got ", out_h, "x", out_w);
  const int64_t h = x->shape[x->ndim() - 2], w = x->shape[x->ndim() - 1];
  if (h < 1 || w < 1) fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": the input's spatial size ", h, "x", w, " is empty");
  return ag::in_opmath(x, [&](const TensorPtr& x32) {  // one rounding
    return adaptive_mean(adaptive_mean(x32, x32->ndim() - 1, out_w), x32->ndim() - 2, out_h);
  });
}

TensorPtr feature_dropout(const TensorPtr& x, double p, bool training, int32_t spatial_dims) {
  const char* op = "feature_dropout";
  if (!(p >= 0.0 && p <= 1.0)) fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": p must be in [0, 1], got ", p);
  if (spatial_dims < 1 || spatial_dims > 3)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": spatial_dims must be 1, 2 or 3 (dropout1d, 2d, 3d), got ", spatial_dims);
  if (x->ndim() != spatial_dims + 1 && x->ndim() != spatial_dims + 2)
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": expected ", spatial_dims + 2, "-D [N, C, ...] or ", spatial_dims + 1,
         "-D [C, ...] input for ", spatial_dims, " spatial dims, got ", x->shape.str());
  if (!training || p == 0.0) return x;
  check_float(op, "input", *x);
  Dims mask_shape = x->shape;
  for (int32_t d = 0; d < spatial_dims; ++d) mask_shape[x->ndim() - 1 - d] = 1;
  return ag::binary(PORTA_OP_MUL, x, dropout_scale(*x->device, mask_shape, x->dtype, p));
}

}  // namespace porta::nn
