// Composite ops: defined once in the core from the kernel ops, recorded by
// autograd through their parts (so their backward is derived, never
// written), and reached from C, C++ and Python through porta.h like any op.
// Each family has its file: clamp.cpp, activations.cpp, float_classes.cpp,
// logical.cpp, lerp.cpp, scaled_sums.cpp, nan_reductions.cpp, logspace.cpp, similarity.cpp, logsumexp.cpp,
// indexing.cpp, sorting.cpp, order_scans.cpp, statistics.cpp, shape.cpp, rearrange.cpp, einsum.cpp, sampling.cpp.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "ops/ag.hpp"

namespace porta::composite {

// ---- clamp.cpp
// min(max(a, lo), hi), as torch.clamp: the gradient passes where lo <= a <= hi;
// lo > hi gives hi everywhere; a NaN bound gives NaN.
TensorPtr clamp(const TensorPtr& a, std::optional<double> lo, std::optional<double> hi);
TensorPtr clamp_tensor(const TensorPtr& a, const TensorPtr& lo, const TensorPtr& hi);  // either may be null
// clamp to [lo, hi] with no gradient at the bounds themselves (torch's hardtanh).
TensorPtr hardtanh(const TensorPtr& a, double lo, double hi);

// ---- activations.cpp (floating tensors)
enum class GeluApproximation { None, Tanh };
TensorPtr gelu(const TensorPtr& a, GeluApproximation approximate);
TensorPtr silu(const TensorPtr& a);
TensorPtr softplus(const TensorPtr& a, double beta, double threshold);
TensorPtr leaky_relu(const TensorPtr& a, double negative_slope);
TensorPtr elu(const TensorPtr& a, double alpha);

// ---- float_classes.cpp: bool results (no gradient), and nan_to_num
TensorPtr isnan(const TensorPtr& a);
TensorPtr isinf(const TensorPtr& a);
TensorPtr isfinite(const TensorPtr& a);
// Defaults as torch's: NaN -> 0, +inf -> the dtype's largest finite, -inf -> its lowest.
TensorPtr nan_to_num(const TensorPtr& a, std::optional<double> nan, std::optional<double> posinf,
                     std::optional<double> neginf);

// ---- logical.cpp: every dtype, nonzero is true, bool results
TensorPtr logical_not(const TensorPtr& a);
TensorPtr logical_and(const TensorPtr& a, const TensorPtr& b);
TensorPtr logical_or(const TensorPtr& a, const TensorPtr& b);
TensorPtr logical_xor(const TensorPtr& a, const TensorPtr& b);

// ---- lerp.cpp: start + weight * (end - start), floating, as torch.lerp
TensorPtr lerp(const TensorPtr& start, const TensorPtr& end, const TensorPtr& weight);

// ---- scaled_sums.cpp: a scalar factor (a 0-d tensor, a wrapped number keeping an int64 exact) converted as
// PyTorch converts it. add_alpha: a + alpha * b (op ADD) or a - alpha * b (SUB), b * alpha rounded in the result
// dtype first; an integral result refuses a floating alpha, a bool alpha needs a bool result. addcmul:
// input + value * t1 * t2 (op MUL) or * t1 / t2 (DIV: integer t1 and t2 refused), float16/bfloat16 computed in
// float32, an integral result truncating value.
TensorPtr add_alpha(porta_op op, const TensorPtr& a, const TensorPtr& b, const TensorPtr& alpha);
TensorPtr addcmul(porta_op op, const TensorPtr& input, const TensorPtr& t1, const TensorPtr& t2, const TensorPtr& value);

// ---- nan_reductions.cpp: over dims as porta_sum; NaN is 0 in nansum and left out of nanmean's count
// (nanmean takes floating tensors only, as PyTorch)
TensorPtr nansum(const TensorPtr& a, const int32_t* dims, int32_t num_dims, bool keepdim);
TensorPtr nanmean(const TensorPtr& a, const int32_t* dims, int32_t num_dims, bool keepdim);

// ---- logspace.cpp: torch.logspace's steps values from base ** start to base ** end
TensorPtr logspace(DeviceState& dev, double start, double end, int64_t steps, double base, Dtype dtype);

// ---- logsumexp.cpp: log(sum(exp(a))) over dims, without overflow
TensorPtr logsumexp(const TensorPtr& a, const int32_t* dims, int32_t num_dims, bool keepdim);

// ---- indexing.cpp: index tensors are int64 (int32 where PyTorch takes it too)
TensorPtr index_select(const TensorPtr& src, int32_t dim, const TensorPtr& index);
TensorPtr index_add(const TensorPtr& self, int32_t dim, const TensorPtr& index, const TensorPtr& source, double alpha);
TensorPtr index_copy(const TensorPtr& self, int32_t dim, const TensorPtr& index, const TensorPtr& source);
TensorPtr index_fill(const TensorPtr& self, int32_t dim, const TensorPtr& index, const TensorPtr& value);  // value 0-d
// porta_scatter: reduce is a porta_scatter_reduce or PORTA_SCATTER_MEAN.
TensorPtr scatter_reduce(const TensorPtr& self, int32_t dim, const TensorPtr& index, const TensorPtr& src,
                         int32_t reduce, bool include_self);
TensorPtr masked_fill(const TensorPtr& self, const TensorPtr& mask, const TensorPtr& value);  // value 0-d
TensorPtr masked_select(const TensorPtr& self, const TensorPtr& mask);
TensorPtr nonzero(const TensorPtr& t);
// The row-major positions of t's nonzero elements (int64 [count]); reads only the count back.
TensorPtr flat_nonzero(const TensorPtr& t);
TensorPtr take(const TensorPtr& t, const TensorPtr& index);
// padding_idx INT64_MIN: none.
TensorPtr embedding(const TensorPtr& weight, const TensorPtr& indices, int64_t padding_idx);

// ---- statistics.cpp: over dims (num_dims 0: all), as porta_sum
TensorPtr var(const TensorPtr& a, const int32_t* dims, int32_t num_dims, double correction, bool keepdim);
TensorPtr std_dev(const TensorPtr& a, const int32_t* dims, int32_t num_dims, double correction, bool keepdim);
// torch.var_mean (root: std_mean): the spread and the mean over dims.
std::pair<TensorPtr, TensorPtr> var_mean(const TensorPtr& a, const int32_t* dims, int32_t num_dims, double correction,
                                         bool keepdim, bool root);
TensorPtr prod(const TensorPtr& a, int32_t dim, bool keepdim);  // dim PORTA_ALL_DIMS: every element
// torch.histc: counts of a's elements in `bins` equal bins over [min, max] (min == max: the data's range),
// in a's floating dtype; values outside and NaNs are left out. Not differentiable.
TensorPtr histc(const TensorPtr& a, int64_t bins, double min, double max);
TensorPtr any(const TensorPtr& a, const int32_t* dims, int32_t num_dims, bool keepdim);
TensorPtr all(const TensorPtr& a, const int32_t* dims, int32_t num_dims, bool keepdim);
TensorPtr count_nonzero(const TensorPtr& a, const int32_t* dims, int32_t num_dims);
TensorPtr vector_norm(const TensorPtr& a, double ord, const int32_t* dims, int32_t num_dims, bool keepdim);
// ---- similarity.cpp: F.normalize (a / max(||a||_p, eps) along dim) and F.cosine_similarity (along dim, the
// operands broadcast and promoted to a floating dtype)
TensorPtr normalize(const TensorPtr& a, double p, int32_t dim, double eps);
TensorPtr cosine_similarity(const TensorPtr& x1, const TensorPtr& x2, int32_t dim, double eps);

// ---- shape.cpp: PyTorch's shape rules, gradients through the parts
TensorPtr flip(const TensorPtr& a, const int32_t* dims, int32_t num_dims);
TensorPtr roll(const TensorPtr& a, const int64_t* shifts, int32_t num_shifts, const int32_t* dims, int32_t num_dims);
TensorPtr repeat(const TensorPtr& a, const int64_t* repeats, int32_t n);
TensorPtr triangle(const TensorPtr& a, int64_t diagonal, bool lower);  // tril (lower) / triu
// col - row of each position of a rows x cols matrix (int64): the diagonal it lies on (0 main, > 0 above).
TensorPtr diagonal_number(DeviceState& dev, int64_t rows, int64_t cols);
// ---- rearrange.cpp: moved, repeated and windowed elements
TensorPtr movedim(const TensorPtr& a, const int32_t* source, const int32_t* destination, int32_t n);  // a view
TensorPtr diag(const TensorPtr& a, int64_t diagonal);  // 1-D: the square matrix; 2-D: the diagonal (a copy)
std::vector<TensorPtr> meshgrid(const std::vector<TensorPtr>& tensors, bool xy);  // expanded views
// dim PORTA_ALL_DIMS: over the flattened a. The tensor form reads its total back (checked against output_size >= 0).
TensorPtr repeat_interleave(const TensorPtr& a, int64_t repeats, int32_t dim);
TensorPtr repeat_interleave(const TensorPtr& a, const TensorPtr& repeats, int32_t dim, int64_t output_size);
TensorPtr unfold(const TensorPtr& a, int32_t dim, int64_t size, int64_t step);  // windows as a last dim (a view)
// unfold's gradient: g [..., windows, ..., size] summed back into a tensor of in_shape.
TensorPtr unfold_backward(const TensorPtr& g, const Dims& in_shape, int32_t dim, int64_t size, int64_t step);
// ---- einsum.cpp: diagonals, early sums and one batched matmul per pair of operands
TensorPtr einsum(const char* equation, const std::vector<TensorPtr>& operands);
TensorPtr outer(const TensorPtr& a, const TensorPtr& b);
TensorPtr mm(const TensorPtr& a, const TensorPtr& b);
TensorPtr mv(const TensorPtr& a, const TensorPtr& v);
TensorPtr dot(const TensorPtr& a, const TensorPtr& b);
TensorPtr bmm(const TensorPtr& a, const TensorPtr& b);
TensorPtr addmm(const TensorPtr& c, const TensorPtr& a, const TensorPtr& b, double beta, double alpha);
TensorPtr baddbmm(const TensorPtr& c, const TensorPtr& a, const TensorPtr& b, double beta, double alpha);

// ---- sampling.cpp: from the global generator or a caller's state (ops::Counters)
TensorPtr randint(DeviceState& dev, int64_t low, int64_t high, const Dims& shape, Dtype dtype, ops::Counters c);
TensorPtr normal_tensor(const TensorPtr& mean, const TensorPtr& std, ops::Counters c);  // either may be null
TensorPtr bernoulli(const TensorPtr& p, ops::Counters c);
TensorPtr multinomial(const TensorPtr& probs, int64_t num_samples, bool replacement, ops::Counters c);

// ---- sorting.cpp: stable sorts (NaN last ascending), values differentiable
// through a gather of the input; indices int64.
// The values at `indices` along dim: kernel_values when nothing needs a gradient, else a recorded gather of t
// (so the gradient flows back to where each value came from). `op` names the caller in errors.
TensorPtr values_at(const TensorPtr& t, int32_t dim, const TensorPtr& indices, const TensorPtr& kernel_values,
                    const char* op);
ops::Sorted sort(const TensorPtr& t, int32_t dim, bool descending);
ops::Sorted topk(const TensorPtr& t, int64_t k, int32_t dim, bool largest);  // always sorted
ops::Sorted kthvalue(const TensorPtr& t, int64_t k, int32_t dim, bool keepdim);  // k from 1
// torch.max / min along dim: the extreme values (NaN wins) and the first index of each, the values' gradient
// going to that index, as PyTorch's.
ops::Sorted extreme(const TensorPtr& t, int32_t dim, bool keepdim, bool is_max);
// torch.median / nanmedian along dim: the lower middle value (median: NaN where a row has one).
ops::Sorted median(const TensorPtr& t, int32_t dim, bool keepdim, bool ignore_nan);

// ---- order_scans.cpp
// torch.cummax / cummin along dim: ties and NaNs as PyTorch's (the later one's index).
ops::Sorted cumulative_extreme(const TensorPtr& t, int32_t dim, bool is_max);
// torch.mode along dim: the smallest of the most frequent values, at its last occurrence.
ops::Sorted mode(const TensorPtr& t, int32_t dim, bool keepdim);
// torch.searchsorted: where each value goes in the last dim of `sorted` (1-D, or batch dims matching values');
// sorter (may be null) orders an unsorted one. int64 (int32 when out_int32).
TensorPtr searchsorted(const TensorPtr& sorted, const TensorPtr& values, bool right, bool out_int32,
                       const TensorPtr& sorter);
// torch.bucketize: searchsorted(boundaries, t) with 1-D boundaries.
TensorPtr bucketize(const TensorPtr& t, const TensorPtr& boundaries, bool right, bool out_int32);
// torch.unique / unique_consecutive of the flattened t: the values (sorted
// for unique), each element's group (t's shape) and the group sizes.
struct Unique {
  TensorPtr values, inverse, counts;
};
Unique unique(const TensorPtr& t);
Unique unique_consecutive(const TensorPtr& t);
// torch.unique(dim=) / unique_consecutive(dim=): the distinct slices along dim (sorted lexicographically, or
// each run of equal neighbours); inverse [t.shape[dim]], counts per slice.
Unique unique_dim(const TensorPtr& t, int32_t dim);
Unique unique_consecutive_dim(const TensorPtr& t, int32_t dim);
// Counts (or sums weights, which may be null) of each value of a 1-D non-negative integer x.
TensorPtr bincount(const TensorPtr& x, const TensorPtr& weights, int64_t minlength);

// Fails (UNSUPPORTED_DTYPE, naming `op`) unless `a` is floating.
void require_floating(const char* op, const TensorPtr& a);

}  // namespace porta::composite
