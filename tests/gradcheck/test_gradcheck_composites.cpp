// The backward passes of porta.h's statistics, shapes and products and of the
// nn losses, normalizations and attention of ABI 1.4, against finite
// differences in float64 on every loaded device. Small shapes: these are
// composites, so each case checks the gradients of their parts put together.
#include <cmath>
#include <cstdint>
#include <vector>

#include "gradcheck_suite.hpp"

using gradcheck::call;
using gradcheck::Case;
using gradcheck::GradCheck;
using gradcheck::ok;
using gradcheck::Temps;
using gradcheck::Tensors;

namespace {

// A constant int64 tensor on `like`'s device, held by `temp`.
porta_tensor* index_of(const std::vector<int64_t>& values, std::vector<int64_t> shape, const porta_tensor* like,
                       Temps& temp) {
  porta_tensor* t = nullptr;
  return temp(ok(porta_tensor_from_host(values.data(), porta_int64, shape.data(), static_cast<int32_t>(shape.size()),
                                        gradcheck::device_of(like), &t),
                 t));
}
// A constant float64 tensor on `like`'s device, held by `temp`.
porta_tensor* values_of(std::vector<double> values, std::vector<int64_t> shape, const porta_tensor* like, Temps& temp) {
  return temp(gradcheck::constant(std::move(values), std::move(shape), gradcheck::device_of(like)));
}

std::vector<Case> statistics_cases() {
  const int32_t dim1 = 1, dims02[2] = {0, 2};
  return {
      Case{"var_dim1_correction1", {{{3, 4}}},
           [=](const Tensors& x) { return call(porta_var, x[0], &dim1, int32_t{1}, 1.0, 0); }},
      Case{"var_dims02_correction0_keepdim", {{{2, 3, 2}}},
           [=](const Tensors& x) { return call(porta_var, x[0], dims02, int32_t{2}, 0.0, 1); }},
      Case{"std_all_dims", {{{3, 4}}},
           [](const Tensors& x) { return call(porta_std, x[0], static_cast<const int32_t*>(nullptr), int32_t{0}, 1.0, 0); }},
      Case{"prod_dim1_no_zeros", {{{3, 4}, 0.5, 1.5}},
           [](const Tensors& x) { return call(porta_prod, x[0], int32_t{1}, 0); }},
      Case{"prod_all_negative", {{{2, 3}, -1.5, -0.5}},
           [](const Tensors& x) { return call(porta_prod, x[0], int32_t{PORTA_ALL_DIMS}, 0); }},
      Case{"vector_norm_ord2_dim1", {{{3, 4}}},
           [=](const Tensors& x) { return call(porta_vector_norm, x[0], 2.0, &dim1, int32_t{1}, 0); }},
      Case{"vector_norm_ord1_all", {{{3, 4}, 0.2, 1.0}},  // away from the kink at 0
           [](const Tensors& x) {
             return call(porta_vector_norm, x[0], 1.0, static_cast<const int32_t*>(nullptr), int32_t{0}, 0);
           }},
      Case{"vector_norm_ord3_dim1_keepdim", {{{3, 4}, 0.2, 1.0}},
           [=](const Tensors& x) { return call(porta_vector_norm, x[0], 3.0, &dim1, int32_t{1}, 1); }},
      Case{"vector_norm_inf_dim1", {{{3, 4}}},
           [=](const Tensors& x) { return call(porta_vector_norm, x[0], double(INFINITY), &dim1, int32_t{1}, 0); }},
  };
}

std::vector<Case> shape_and_product_cases() {
  const int32_t flip_dims[2] = {0, -1}, roll_dims[2] = {0, 1};
  const int64_t shifts[2] = {1, -2}, flat_shift[1] = {5}, repeats[3] = {2, 1, 3};
  return {
      Case{"flip_dims0_last", {{{2, 3, 2}}}, [=](const Tensors& x) { return call(porta_flip, x[0], flip_dims, int32_t{2}); }},
      Case{"roll_two_dims", {{{3, 4}}},
           [=](const Tensors& x) { return call(porta_roll, x[0], shifts, int32_t{2}, roll_dims, int32_t{2}); }},
      Case{"roll_flattened", {{{3, 4}}},
           [=](const Tensors& x) {
             return call(porta_roll, x[0], flat_shift, int32_t{1}, static_cast<const int32_t*>(nullptr), int32_t{0});
           }},
      Case{"repeat_new_leading_dim", {{{2, 3}}}, [=](const Tensors& x) { return call(porta_repeat, x[0], repeats, int32_t{3}); }},
      Case{"tril_diagonal_minus1", {{{2, 3, 4}}}, [](const Tensors& x) { return call(porta_tril, x[0], int64_t{-1}); }},
      Case{"triu_diagonal1", {{{3, 4}}}, [](const Tensors& x) { return call(porta_triu, x[0], int64_t{1}); }},
      Case{"outer", {{{3}}, {{4}}}, [](const Tensors& x) { return call(porta_outer, x[0], x[1]); }},
      Case{"mm", {{{2, 3}}, {{3, 4}}}, [](const Tensors& x) { return call(porta_mm, x[0], x[1]); }},
      Case{"mv", {{{3, 4}}, {{4}}}, [](const Tensors& x) { return call(porta_mv, x[0], x[1]); }},
      Case{"dot", {{{5}}, {{5}}}, [](const Tensors& x) { return call(porta_dot, x[0], x[1]); }},
      Case{"bmm", {{{2, 2, 3}}, {{2, 3, 2}}}, [](const Tensors& x) { return call(porta_bmm, x[0], x[1]); }},
      Case{"addmm_broadcast_row_beta_alpha", {{{3}}, {{2, 4}}, {{4, 3}}},
           [](const Tensors& x) { return call(porta_addmm, x[0], x[1], x[2], 0.5, -1.5); }},
      Case{"baddbmm_beta_alpha", {{{2, 2, 2}}, {{2, 2, 3}}, {{2, 3, 2}}},
           [](const Tensors& x) { return call(porta_baddbmm, x[0], x[1], x[2], 2.0, 0.25); }},
  };
}

// The values of a (values, indices) op, its indices released.
porta_tensor* values_only(porta_status status, porta_tensor* values, porta_tensor* indices) {
  if (status == PORTA_OK) porta_tensor_release(indices);
  return ok(status, values);
}

// ABI 1.7: moved, repeated and windowed elements, einsum, var_mean, median, cummax and mode.
std::vector<Case> rearrange_cases() {
  const int32_t src[2] = {0, 2}, dst[2] = {-1, 0}, dim1 = 1;
  return {
      Case{"movedim_two_dims",
           {{{2, 3, 4}}},
           [=](const Tensors& x) { return call(porta_movedim, x[0], src, dst, int32_t{2}); }},
      Case{"diagonal_offset1_dims12",
           {{{2, 3, 4}}},
           [](const Tensors& x) { return call(porta_diagonal, x[0], int64_t{1}, int32_t{1}, int32_t{2}); }},
      Case{"diag_vector_below", {{{3}}}, [](const Tensors& x) { return call(porta_diag, x[0], int64_t{-1}); }},
      Case{"diag_matrix_above", {{{3, 4}}}, [](const Tensors& x) { return call(porta_diag, x[0], int64_t{2}); }},
      Case{"repeat_interleave_int_dim1",
           {{{2, 3}}},
           [](const Tensors& x) { return call(porta_repeat_interleave_int, x[0], int64_t{2}, int32_t{1}); }},
      Case{"repeat_interleave_counts_with_zero",
           {{{3, 2}}},
           [](const Tensors& x) {
             Temps temp;
             porta_tensor* r = index_of({2, 0, 3}, {3}, x[0], temp);
             return r ? call(porta_repeat_interleave, x[0], r, int32_t{0}, int64_t{-1}) : nullptr;
           }},
      Case{"unfold_overlapping_windows",
           {{{2, 7}}},
           [](const Tensors& x) { return call(porta_unfold, x[0], int32_t{1}, int64_t{3}, int64_t{2}); }},
      Case{"einsum_batched_contraction",
           {{{2, 3, 4}}, {{4, 2}}},
           [](const Tensors& x) {
             porta_tensor* in[2] = {x[0], x[1]};
             return call(porta_einsum, "bij,jk->bik", in, int32_t{2});
           }},
      Case{"einsum_diagonal_and_sum",
           {{{3, 3}}, {{3, 2}}},
           [](const Tensors& x) {
             porta_tensor* in[2] = {x[0], x[1]};
             return call(porta_einsum, "ii,ij->j", in, int32_t{2});
           }},
      Case{"einsum_ellipsis_broadcast",
           {{{2, 1, 3}}, {{4, 3}}},
           [](const Tensors& x) {
             porta_tensor* in[2] = {x[0], x[1]};
             return call(porta_einsum, "...j,kj->...k", in, int32_t{2});
           }},
      Case{"var_mean_dim1",
           {{{3, 4}}},
           [=](const Tensors& x) {
             porta_tensor *var = nullptr, *mean = nullptr;
             if (!ok(porta_var_mean(x[0], &dim1, 1, 1.0, 0, &var, &mean), var))
               return static_cast<porta_tensor*>(nullptr);
             porta_tensor* both = nullptr;
             const porta_status st = porta_add(var, mean, &both);  // both outputs' gradients at once
             porta_tensor_release(var);
             porta_tensor_release(mean);
             return ok(st, both);
           }},
      Case{"median_dim1",
           {{{3, 5}}},
           [](const Tensors& x) {
             porta_tensor *values = nullptr, *indices = nullptr;
             const porta_status st = porta_median(x[0], 1, 0, &values, &indices);
             return values_only(st, values, indices);
           }},
      Case{"cummax_dim1",
           {{{3, 6}}},
           [](const Tensors& x) {
             porta_tensor *values = nullptr, *indices = nullptr;
             const porta_status st = porta_cummax(x[0], 1, &values, &indices);
             return values_only(st, values, indices);
           }},
      Case{"cummin_dim0",
           {{{5, 2}}},
           [](const Tensors& x) {
             porta_tensor *values = nullptr, *indices = nullptr;
             const porta_status st = porta_cummin(x[0], 0, &values, &indices);
             return values_only(st, values, indices);
           }},
      Case{"mode_dim0_keepdim",
           {{{4, 3}}},
           [](const Tensors& x) {
             porta_tensor *values = nullptr, *indices = nullptr;
             const porta_status st = porta_mode(x[0], 0, 1, &values, &indices);
             return values_only(st, values, indices);
           }},
  };
}

std::vector<Case> loss_cases() {
  // A class weight is a constant: PyTorch's nll_loss has no gradient for it (Porta refuses one that requires
  // grad with class-index targets, as PyTorch does).
  return {
      Case{"nll_loss_weight_ignore_index_mean", {{{4, 3}, -2.0, -0.1}},
           [](const Tensors& x) {
             Temps temp;
             porta_tensor* t = index_of({2, -1, 0, 1}, {4}, x[0], temp);
             porta_tensor* w = values_of({0.5, 1.5, 0.8}, {3}, x[0], temp);
             return t && w ? call(porta_nll_loss, x[0], t, w, int64_t{-1}, PORTA_REDUCTION_MEAN) : nullptr;
           }},
      Case{"cross_entropy_nCd_weight_smoothing", {{{2, 3, 2}}},
           [](const Tensors& x) {
             Temps temp;
             porta_tensor* t = index_of({0, 2, 1, 1}, {2, 2}, x[0], temp);
             porta_tensor* w = values_of({0.5, 1.5, 0.8}, {3}, x[0], temp);
             return t && w ? call(porta_cross_entropy_loss, x[0], t, w, int64_t{-100}, PORTA_REDUCTION_MEAN, 0.2)
                           : nullptr;
           }},
      Case{"cross_entropy_probability_targets", {{{3, 4}}, {{3, 4}, 0.0, 1.0}},
           [](const Tensors& x) {
             return call(porta_cross_entropy_loss, x[0], x[1], static_cast<porta_tensor*>(nullptr), int64_t{-100},
                         PORTA_REDUCTION_SUM, 0.1);
           }},
      // The weights are constants: PyTorch has no gradient for them (and Porta refuses one that requires grad).
      Case{"binary_cross_entropy_weight", {{{2, 3}, 0.1, 0.9}, {{2, 3}, 0.0, 1.0}},
           [](const Tensors& x) {
             Temps temp;
             porta_tensor* w = values_of({0.5, 1.0, 1.5, 0.7, 1.2, 0.9}, {2, 3}, x[0], temp);
             return w ? call(porta_binary_cross_entropy, x[0], x[1], w, PORTA_REDUCTION_MEAN) : nullptr;
           }},
      Case{"bce_with_logits_pos_weight", {{{2, 3}, -3.0, 3.0}, {{2, 3}, 0.0, 1.0}},
           [](const Tensors& x) {
             Temps temp;
             porta_tensor* pw = values_of({0.5, 1.0, 2.0}, {3}, x[0], temp);
             return pw ? call(porta_binary_cross_entropy_with_logits, x[0], x[1], static_cast<porta_tensor*>(nullptr),
                              pw, PORTA_REDUCTION_SUM)
                       : nullptr;
           }},
      Case{"l1_loss_away_from_0", {{{2, 3}, 0.5, 1.0}, {{2, 3}, -1.0, -0.5}},
           [](const Tensors& x) { return call(porta_l1_loss, x[0], x[1], PORTA_REDUCTION_MEAN); }},
      Case{"smooth_l1_loss_beta", {{{2, 4}, -2.0, 2.0}, {{2, 4}, -0.1, 0.1}},  // both pieces (C1 at |d| = beta)
           [](const Tensors& x) { return call(porta_smooth_l1_loss, x[0], x[1], PORTA_REDUCTION_SUM, 0.5); }},
      Case{"huber_loss_delta", {{{2, 4}, -2.0, 2.0}, {{2, 4}, -0.1, 0.1}},
           [](const Tensors& x) { return call(porta_huber_loss, x[0], x[1], PORTA_REDUCTION_MEAN, 0.7); }},
      Case{"kl_div_batchmean", {{{3, 4}, -2.0, -0.2}, {{3, 4}, 0.1, 1.0}},
           [](const Tensors& x) { return call(porta_kl_div, x[0], x[1], PORTA_REDUCTION_BATCHMEAN, 0); }},
      Case{"kl_div_log_target", {{{3, 4}, -2.0, -0.2}, {{3, 4}, -2.0, -0.2}},
           [](const Tensors& x) { return call(porta_kl_div, x[0], x[1], PORTA_REDUCTION_SUM, 1); }},
  };
}

std::vector<Case> normalization_and_attention_cases() {
  return {
      Case{"layer_norm_weight_bias", {{{2, 3, 4}}, {{3, 4}}, {{3, 4}}},
           [](const Tensors& x) {
             const int64_t shape[2] = {3, 4};
             return call(porta_layer_norm, x[0], shape, int32_t{2}, x[1], x[2], 1e-5);
           }},
      Case{"group_norm_weight_bias", {{{2, 4, 3}}, {{4}}, {{4}}},
           [](const Tensors& x) { return call(porta_group_norm, x[0], int64_t{2}, x[1], x[2], 1e-5); }},
      Case{"batch_norm_training_weight_bias", {{{3, 2, 2}}, {{2}}, {{2}}},
           [](const Tensors& x) {
             Temps temp;  // the running statistics are updated, not recorded
             porta_tensor* rm = values_of({0.0, 0.0}, {2}, x[0], temp);
             porta_tensor* rv = values_of({1.0, 1.0}, {2}, x[0], temp);
             return call(porta_batch_norm, x[0], rm, rv, x[1], x[2], 1, 0.1, 1e-5);
           }},
      Case{"batch_norm_eval", {{{3, 2, 2}}, {{2}}, {{2}}},
           [](const Tensors& x) {
             Temps temp;
             porta_tensor* rm = values_of({0.2, -0.3}, {2}, x[0], temp);
             porta_tensor* rv = values_of({0.5, 2.0}, {2}, x[0], temp);
             return call(porta_batch_norm, x[0], rm, rv, x[1], x[2], 0, 0.1, 1e-5);
           }},
      Case{"sdpa_plain", {{{2, 3, 4}}, {{2, 5, 4}}, {{2, 5, 2}}},
           [](const Tensors& x) {
             return call(porta_scaled_dot_product_attention, x[0], x[1], x[2], static_cast<porta_tensor*>(nullptr), 0.0,
                         0, double(NAN), 0);
           }},
      Case{"sdpa_causal_scale", {{{1, 4, 3}}, {{1, 4, 3}}, {{1, 4, 3}}},
           [](const Tensors& x) {
             return call(porta_scaled_dot_product_attention, x[0], x[1], x[2], static_cast<porta_tensor*>(nullptr), 0.0,
                         1, 0.7, 0);
           }},
      Case{"sdpa_additive_mask", {{{3, 4}}, {{5, 4}}, {{5, 2}}, {{3, 5}}},
           [](const Tensors& x) {
             return call(porta_scaled_dot_product_attention, x[0], x[1], x[2], x[3], 0.0, 0, double(NAN), 0);
           }},
      // The mask is the scores GEMM's added term, broadcast over the batch
      // (its gradient summed back over it), and k broadcast against q's batch.
      Case{"sdpa_additive_mask_broadcast", {{{2, 3, 4}}, {{1, 5, 4}}, {{2, 5, 2}}, {{3, 5}}},
           [](const Tensors& x) {
             return call(porta_scaled_dot_product_attention, x[0], x[1], x[2], x[3], 0.0, 0, 0.6, 0);
           }},
  };
}

}  // namespace

namespace {

// porta_pad in every mode (a negative pad crops), adaptive pooling to sizes that do not divide the input's,
// and interpolation.
std::vector<Case> padding_and_adaptive_pool_cases() {
  static const int64_t crop[4] = {2, -1, 1, 0}, both[4] = {2, 1, 1, 2};
  return {
      Case{"pad_constant_with_crop", {{{2, 3, 4}}},
           [](const Tensors& x) { return call(porta_pad, x[0], crop, int32_t{4}, PORTA_PAD_CONSTANT, 0.5); }},
      Case{"pad_reflect", {{{2, 3, 4}}},
           [](const Tensors& x) { return call(porta_pad, x[0], both, int32_t{4}, PORTA_PAD_REFLECT, 0.0); }},
      Case{"pad_replicate", {{{2, 3, 4}}},
           [](const Tensors& x) { return call(porta_pad, x[0], both, int32_t{4}, PORTA_PAD_REPLICATE, 0.0); }},
      Case{"pad_circular", {{{2, 3, 4}}},
           [](const Tensors& x) { return call(porta_pad, x[0], both, int32_t{4}, PORTA_PAD_CIRCULAR, 0.0); }},
      Case{"adaptive_avg_pool2d_5x7_to_3x2", {{{1, 2, 5, 7}}},
           [](const Tensors& x) { return call(porta_adaptive_avg_pool2d, x[0], int64_t{3}, int64_t{2}); }},
      Case{"adaptive_avg_pool2d_unbatched_to_1x1", {{{2, 3, 3}}},
           [](const Tensors& x) { return call(porta_adaptive_avg_pool2d, x[0], int64_t{1}, int64_t{1}); }},
      Case{"interpolate_nearest_3x4_to_5x7", {{{1, 2, 3, 4}}},
           [](const Tensors& x) {
             return call(porta_interpolate, x[0], int64_t{5}, int64_t{7}, double(NAN), double(NAN),
                         PORTA_INTERPOLATE_NEAREST, 0);
           }},
      Case{"interpolate_bilinear_scale_1_5", {{{1, 2, 3, 4}}},
           [](const Tensors& x) {
             return call(porta_interpolate, x[0], int64_t{4}, int64_t{6}, 1.5, 1.5, PORTA_INTERPOLATE_BILINEAR, 0);
           }},
      Case{"interpolate_bilinear_align_corners_down", {{{1, 1, 5, 6}}},
           [](const Tensors& x) {
             return call(porta_interpolate, x[0], int64_t{3}, int64_t{4}, double(NAN), double(NAN),
                         PORTA_INTERPOLATE_BILINEAR, 1);
           }},
  };
}

}  // namespace

TEST_P(GradCheck, PaddingAndAdaptivePooling) { check_all(padding_and_adaptive_pool_cases()); }
TEST_P(GradCheck, StatisticsOps) { check_all(statistics_cases()); }
TEST_P(GradCheck, ShapesAndProducts) { check_all(shape_and_product_cases()); }
TEST_P(GradCheck, RearrangeEinsumAndMedian) { check_all(rearrange_cases()); }
TEST_P(GradCheck, Losses) { check_all(loss_cases()); }
TEST_P(GradCheck, NormalizationAndAttention) { check_all(normalization_and_attention_cases()); }
