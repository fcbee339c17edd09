// Every differentiable op's backward against finite differences, in float64,
// on every loaded device.
#include <string>

#include "../conformance/op_tables.hpp"
#include "gradcheck_suite.hpp"

using gradcheck::call;
using gradcheck::Case;
using gradcheck::GradCheck;
using gradcheck::ok;
using gradcheck::Temps;
using gradcheck::Tensors;

namespace {

// f(x) = op(x) for the C unary op.
Case unary(const char* name, porta_status (*op)(porta_tensor*, porta_tensor**), double lo = -1, double hi = 1) {
  return Case{name, {{{2, 3}, lo, hi}}, [op](const Tensors& x) { return call(op, x[0]); }};
}

Case binary(const char* name, porta_status (*op)(porta_tensor*, porta_tensor*, porta_tensor**),
            std::vector<int64_t> sa, std::vector<int64_t> sb, double lo = -1, double hi = 1) {
  return Case{name, {{sa, lo, hi}, {sb, lo, hi}}, [op](const Tensors& x) { return call(op, x[0], x[1]); }};
}

bool differentiable(porta_op op) {
  porta_op_info info{};
  info.struct_size = sizeof(info);
  return porta_op_get_info(op, &info) == PORTA_OK && info.differentiable != 0;
}

// Where each op's finite differences are taken: inside its domain (the op
// table's domain column) and away from its kinks and jumps. For binary ops,
// a's range then b's.
struct Domain {
  double lo = -1, hi = 1, b_lo = -1, b_hi = 1;
};
Domain domain_of(porta_op op) {
  switch (conformance::domain_of(op)) {
    case PORTA_DOMAIN_REAL: return {};
    case PORTA_DOMAIN_POSITIVE: return {0.5, 2, 0.5, 2};
    case PORTA_DOMAIN_UNIT: return {-0.8, 0.8};
    case PORTA_DOMAIN_KINK_AT_ZERO: return {0.1, 1};  // and *_negative below
    case PORTA_DOMAIN_STEPS: return {0.1, 0.4};      // no integer or half-integer inside
    case PORTA_DOMAIN_QUOTIENT: return {1.1, 1.4, 0.5, 0.54};  // a / b in (2.03, 2.8): no jump inside
  }
  return {};
}

std::vector<Case> elementwise_cases() {
  std::vector<Case> c;
  // Every differentiable UNARY and BINARY row of the op table.
  for (const conformance::UnaryOp& u : conformance::kUnaryOps)
    if (differentiable(u.op)) c.push_back(unary(u.name, u.fn, domain_of(u.op).lo, domain_of(u.op).hi));
  for (const conformance::BinaryOp& b : conformance::kBinaryOps)
    if (!b.compare && differentiable(b.op)) {
      const Domain d = domain_of(b.op);
      c.push_back(Case{b.name, {{{2, 3}, d.lo, d.hi}, {{2, 3}, d.b_lo, d.b_hi}},
                       [fn = b.fn](const Tensors& x) { return call(fn, x[0], x[1]); }});
    }
  // The other side of the kinks, and broadcasting (gradients summed back).
  for (Case extra : {unary("relu_negative", porta_relu, -1, -0.1), unary("abs_negative", porta_abs, -1, -0.1),
                     binary("add_broadcast", porta_add, {2, 3}, {3}),
                     binary("sub_broadcast", porta_sub, {2, 1, 3}, {4, 1}),
                     binary("mul_broadcast", porta_mul, {2, 3}, {2, 1}),
                     binary("pow_broadcast", porta_pow, {2, 3}, {3}, 0.5, 2),
                     binary("minimum_broadcast", porta_minimum, {3}, {2, 3}),
                     binary("atan2_broadcast", porta_atan2, {2, 3}, {3}, 0.2, 1)})
    c.push_back(extra);
  c.push_back(Case{"scalar_ops", {{{2, 3}, 0.5, 2}}, [](const Tensors& x) {
                     Temps temp;
                     porta_tensor* a = temp(call(porta_mul_scalar, x[0], 3.0));
                     porta_tensor* b = temp(call(porta_pow_scalar, a, 1.5));
                     porta_tensor* c = temp(call(porta_div_scalar, b, 2.0));
                     return call(porta_sub_scalar, c, 1.0);
                   }});
  c.push_back(Case{"where", {{{2, 3}}, {{3}}}, [](const Tensors& x) {
                     Temps temp;
                     porta_tensor* cond = temp(call(porta_gt_scalar, x[0], 0.0));
                     return call(porta_where, cond, x[0], x[1]);
                   }});
  return c;
}

Case reduction(const char* name, porta_status (*op)(porta_tensor*, const int32_t*, int32_t, int, porta_tensor**),
               std::vector<int32_t> dims, int keepdim) {
  return Case{name, {{{2, 3, 4}}}, [=](const Tensors& x) {
                porta_tensor* out = nullptr;
                return ok(op(x[0], dims.data(), static_cast<int32_t>(dims.size()), keepdim, &out), out);
              }};
}

std::vector<Case> reduction_and_matmul_cases() {
  return {
      reduction("sum_all", porta_sum, {}, 0),      reduction("sum_dim1_keep", porta_sum, {1}, 1),
      reduction("sum_dims_0_2", porta_sum, {0, 2}, 0), reduction("mean_dim_last", porta_mean, {-1}, 0),
      reduction("max_dim1", porta_max, {1}, 0),    reduction("min_all", porta_min, {}, 1),
      binary("matmul_2d", porta_matmul, {3, 4}, {4, 2}),
      binary("matmul_vec_mat", porta_matmul, {4}, {4, 2}),
      binary("matmul_mat_vec", porta_matmul, {3, 4}, {4}),
      binary("matmul_vec_vec", porta_matmul, {4}, {4}),
      binary("matmul_batched_broadcast", porta_matmul, {2, 3, 4}, {4, 2}),
      binary("matmul_batched_both", porta_matmul, {2, 1, 3, 4}, {3, 4, 2}),
  };
}

// Where to_other_device_and_back goes: cpu, or from cpu the first other loaded
// device (mock:0 under ctest); cpu itself when nothing else is loaded.
DLDevice other_device(DLDevice here) {
  DLDevice cpu{};
  porta_device_parse("cpu", &cpu);
  if (here.device_type != kDLCPU) return cpu;
  for (const conformance::DeviceCase& c : conformance::loaded_devices())
    if (c.device.device_type != kDLCPU) return c.device;
  return here;
}

std::vector<Case> view_cases() {
  return {
      Case{"view", {{{2, 3, 2}}}, [](const Tensors& x) {
             const int64_t s[2] = {-1, 4};
             porta_tensor* out = nullptr;
             return ok(porta_view(x[0], s, 2, &out), out);
           }},
      Case{"reshape_of_transposed", {{{3, 4}}}, [](const Tensors& x) {
             Temps temp;
             porta_tensor* t = temp(call(porta_transpose, x[0], int32_t{0}, int32_t{1}));
             const int64_t s[1] = {12};
             porta_tensor* out = nullptr;
             return ok(porta_reshape(t, s, 1, &out), out);
           }},
      Case{"slice_step", {{{5, 3}}}, [](const Tensors& x) {
             return call(porta_slice, x[0], int32_t{0}, int64_t{1}, int64_t{5}, int64_t{2});
           }},
      Case{"select", {{{3, 4}}}, [](const Tensors& x) { return call(porta_select, x[0], int32_t{1}, int64_t{-1}); }},
      Case{"permute", {{{2, 3, 4}}}, [](const Tensors& x) {
             const int32_t d[3] = {2, 0, 1};
             porta_tensor* out = nullptr;
             return ok(porta_permute(x[0], d, 3, &out), out);
           }},
      Case{"expand", {{{3, 1}}}, [](const Tensors& x) {
             const int64_t s[3] = {2, 3, 4};
             porta_tensor* out = nullptr;
             return ok(porta_expand(x[0], s, 3, &out), out);
           }},
      Case{"unsqueeze_squeeze", {{{3, 1, 2}}}, [](const Tensors& x) {
             Temps temp;
             porta_tensor* a = temp(call(porta_squeeze, x[0], int32_t{1}));
             return call(porta_unsqueeze, a, int32_t{0});
           }},
      Case{"contiguous_clone", {{{3, 4}}}, [](const Tensors& x) {
             Temps temp;
             porta_tensor* t = temp(call(porta_transpose, x[0], int32_t{0}, int32_t{1}));
             porta_tensor* c = temp(call(porta_contiguous, t));
             return call(porta_clone, c);
           }},
      Case{"flatten", {{{2, 3, 2, 2}}}, [](const Tensors& x) { return call(porta_flatten, x[0], int32_t{1}, int32_t{-1}); }},
      Case{"to_other_device_and_back", {{{2, 3}}}, [](const Tensors& x) {
             const DLDevice here = gradcheck::device_of(x[0]);
             Temps temp;
             porta_tensor* a = temp(call(porta_tensor_to, x[0], other_device(here)));
             if (!a) return a;
             porta_tensor* b = temp(call(porta_exp, a));
             return call(porta_tensor_to, b, here);
           }},
  };
}

porta_conv2d_options conv_options(int32_t stride, int32_t padding, int32_t dilation, int32_t groups = 1) {
  return porta_conv2d_options{sizeof(porta_conv2d_options), {stride, stride}, {padding, padding},
                              {dilation, dilation}, groups};
}

// x [2, 3 groups, 5, 5], weight [2 groups, 3, 3, 3]: 3 channels and 2 filters per group.
Case conv(const char* name, porta_conv2d_options o, bool bias) {
  const int64_t g = o.groups;
  std::vector<gradcheck::Input> in = {{{2, 3 * g, 5, 5}}, {{2 * g, 3, 3, 3}}};
  if (bias) in.push_back({{2 * g}});
  return Case{name, in, [o, bias](const Tensors& x) {
                porta_tensor* out = nullptr;
                return ok(porta_conv2d(x[0], x[1], bias ? x[2] : nullptr, &o, &out), out);
              }};
}

Case pool(const char* name, bool max, porta_pool2d_options o) {
  return Case{name, {{{2, 2, 5, 5}}}, [max, o](const Tensors& x) {
                porta_tensor* out = nullptr;
                return ok(max ? porta_max_pool2d(x[0], &o, &out) : porta_avg_pool2d(x[0], &o, &out), out);
              }};
}

Case loss(const char* name, porta_reduction r, bool cross_entropy, bool ignore = false) {
  return Case{name, {{{4, 5}}, {{4, 5}}}, [r, cross_entropy, ignore](const Tensors& x) {
                porta_tensor* out = nullptr;
                if (!cross_entropy) return ok(porta_mse_loss(x[0], x[1], r, &out), out);
                const int64_t labels[4] = {0, 4, 2, 2}, shape[1] = {4};
                porta_tensor* target = nullptr;
                Temps temp;
                temp(ok(porta_tensor_from_host(labels, porta_int64, shape, 1, gradcheck::device_of(x[0]), &target),
                        target));
                // Labels {0, 4, 2, 2}; ignoring class 2 leaves two samples (the mean is over them).
                return ok(ignore ? porta_cross_entropy_ignore(x[0], target, r, 2, &out)
                                 : porta_cross_entropy(x[0], target, r, &out),
                          out);
              }};
}

std::vector<Case> nn_cases() {
  const size_t ps = sizeof(porta_pool2d_options);
  return {
      Case{"linear",
           {{{4, 3}}, {{2, 3}}, {{2}}},
           [](const Tensors& x) {
             porta_tensor* out = nullptr;
             return ok(porta_linear(x[0], x[1], x[2], &out), out);
           }},
      Case{"linear_3d_no_bias",
           {{{2, 2, 3}}, {{4, 3}}},
           [](const Tensors& x) {
             porta_tensor* out = nullptr;
             return ok(porta_linear(x[0], x[1], nullptr, &out), out);
           }},
      conv("conv2d", conv_options(1, 1, 1), true),
      conv("conv2d_stride2", conv_options(2, 1, 1), true),
      conv("conv2d_dilation2_nobias", conv_options(1, 2, 2), false),
      conv("conv2d_groups2_stride2", conv_options(2, 1, 1, 2), true),
      Case{"conv1d_groups2_dilation2_unbatched",
           {{{4, 9}}, {{4, 2, 3}}, {{4}}},
           [](const Tensors& x) {
             porta_tensor* out = nullptr;
             return ok(porta_conv1d(x[0], x[1], x[2], 2, 1, 2, 2, &out), out);
           }},
      pool("max_pool2d", true, porta_pool2d_options{ps, {2, 2}, {0, 0}, {0, 0}, {1, 1}, 1, 0, 0}),
      pool("max_pool2d_pad_stride", true, porta_pool2d_options{ps, {3, 3}, {2, 2}, {1, 1}, {1, 1}, 1, 0, 0}),
      pool("avg_pool2d", false, porta_pool2d_options{ps, {2, 2}, {0, 0}, {0, 0}, {1, 1}, 1, 0, 0}),
      pool("avg_pool2d_pad_exclude", false, porta_pool2d_options{ps, {3, 3}, {2, 2}, {1, 1}, {1, 1}, 0, 0, 0}),
      pool("max_pool2d_ceil", true, porta_pool2d_options{ps, {2, 2}, {2, 2}, {0, 0}, {1, 1}, 1, 0, 1}),
      pool("avg_pool2d_ceil", false, porta_pool2d_options{ps, {2, 2}, {2, 2}, {0, 0}, {1, 1}, 1, 0, 1}),
      pool("avg_pool2d_ceil_exclude", false, porta_pool2d_options{ps, {2, 2}, {2, 2}, {0, 0}, {1, 1}, 0, 0, 1}),
      Case{"conv_transpose2d_stride2_output_padding",
           {{{2, 4, 3, 3}}, {{4, 3, 3, 2}}, {{3}}},
           [](const Tensors& x) {
             porta_tensor* out = nullptr;
             const porta_conv2d_options o{sizeof(o), {2, 2}, {1, 0}, {1, 2}, 1};
             const int32_t extra[2] = {1, 1};
             return ok(porta_conv_transpose2d(x[0], x[1], x[2], &o, extra, &out), out);
           }},
      Case{"conv_transpose1d_groups2_unbatched",
           {{{4, 5}}, {{4, 1, 3}}},
           [](const Tensors& x) {
             porta_tensor* out = nullptr;
             return ok(porta_conv_transpose1d(x[0], x[1], nullptr, 2, 1, 0, 1, 2, &out), out);
           }},
      Case{"softmax_dim1", {{{3, 4}}}, [](const Tensors& x) { return call(porta_softmax, x[0], int32_t{1}); }},
      Case{"softmax_dim0", {{{3, 4, 2}}}, [](const Tensors& x) { return call(porta_softmax, x[0], int32_t{0}); }},
      Case{"log_softmax", {{{3, 4}}}, [](const Tensors& x) { return call(porta_log_softmax, x[0], int32_t{-1}); }},
      loss("cross_entropy_mean", PORTA_REDUCTION_MEAN, true),
      loss("cross_entropy_sum", PORTA_REDUCTION_SUM, true),
      loss("cross_entropy_none", PORTA_REDUCTION_NONE, true),
      loss("cross_entropy_ignore_mean", PORTA_REDUCTION_MEAN, true, true),
      loss("mse_mean", PORTA_REDUCTION_MEAN, false),
      loss("mse_none", PORTA_REDUCTION_NONE, false),
      Case{"dropout", {{{4, 5}}}, [](const Tensors& x) { return call(porta_dropout, x[0], 0.3, 1); }},
  };
}

// x [2, 3] plus a constant offset per column, so that an input drawn in a
// narrow range lands in several regions of a piecewise op, each well away
// from its kinks.
porta_tensor* offset(porta_tensor* x, std::vector<double> per_column, Temps& temp) {
  porta_tensor* c = temp(gradcheck::constant(std::move(per_column), {3}, gradcheck::device_of(x)));
  return temp(call(porta_add, x, c));
}

// f(offset(x)) for x in [-0.4, 0.4] and an op of x alone.
Case piecewise(const char* name, std::vector<double> per_column, std::function<porta_tensor*(porta_tensor*)> op) {
  return Case{name, {{{2, 3}, -0.4, 0.4}}, [per_column, op](const Tensors& x) {
                Temps temp;
                porta_tensor* y = offset(x[0], per_column, temp);
                return y ? op(y) : nullptr;
              }};
}

// The composite ops of porta.h: their gradients are derived through their
// parts (core/src/ops/composite), checked here like any op's.
std::vector<Case> composite_cases() {
  const std::vector<double> around_bounds = {-2, 0, 2};  // below -1, inside [-1, 1], above 1
  const std::vector<double> around_zero = {-1, 1, -1};   // both sides of 0, at least 0.6 away
  const double lo = -1, hi = 1;
  return {
      piecewise("clamp", around_bounds, [=](porta_tensor* y) { return call(porta_clamp, y, &lo, &hi); }),
      piecewise("clamp_min_only", around_bounds, [=](porta_tensor* y) { return call(porta_clamp, y, &lo, nullptr); }),
      piecewise("clamp_max_only", around_bounds, [=](porta_tensor* y) { return call(porta_clamp, y, nullptr, &hi); }),
      // Tensor bounds (broadcast, gradients summed back): y in three bands
      // ±0.4 around -2, 0, 2; lo in [-1.2, -0.8], hi in [0.8, 1.2].
      Case{"clamp_tensor",
           {{{2, 3}, -0.4, 0.4}, {{3}, -1.2, -0.8}, {{2, 1}, 0.8, 1.2}},
           [=](const Tensors& x) {
             Temps temp;
             porta_tensor* y = offset(x[0], around_bounds, temp);
             return y ? call(porta_clamp_tensor, y, x[1], x[2]) : nullptr;
           }},
      Case{"clamp_tensor_max_only",
           {{{2, 3}, -0.4, 0.4}, {{2, 3}, 0.8, 1.2}},
           [=](const Tensors& x) {
             Temps temp;
             porta_tensor* y = offset(x[0], around_bounds, temp);
             return y ? call(porta_clamp_tensor, y, static_cast<porta_tensor*>(nullptr), x[1]) : nullptr;
           }},
      piecewise("hardtanh", around_bounds, [](porta_tensor* y) { return call(porta_hardtanh, y, -1.0, 1.0); }),
      Case{
          "gelu", {{{2, 3}, -2, 2}}, [](const Tensors& x) { return call(porta_gelu, x[0], int32_t{PORTA_GELU_NONE}); }},
      Case{"gelu_tanh",
           {{{2, 3}, -2, 2}},
           [](const Tensors& x) { return call(porta_gelu, x[0], int32_t{PORTA_GELU_TANH}); }},
      Case{"silu", {{{2, 3}, -3, 3}}, [](const Tensors& x) { return call(porta_silu, x[0]); }},
      Case{"softplus", {{{2, 3}, -2, 2}}, [](const Tensors& x) { return call(porta_softplus, x[0], 1.0, 20.0); }},
      // beta 2, threshold 1: beta*y in [-4.8, -3.2], [-0.8, 0.8] (log1p(exp)) and [3.2, 4.8] (linear).
      piecewise("softplus_beta2_both_regions", around_bounds,
                [](porta_tensor* y) { return call(porta_softplus, y, 2.0, 1.0); }),
      Case{"softplus_beta2_linear",
           {{{2, 3}, 10.5, 12}},
           [](const Tensors& x) { return call(porta_softplus, x[0], 2.0, 20.0); }},
      piecewise("leaky_relu", around_zero, [](porta_tensor* y) { return call(porta_leaky_relu, y, 0.1); }),
      piecewise("elu", around_zero, [](porta_tensor* y) { return call(porta_elu, y, 0.5); }),
      // lerp's two formulas: |weight| < 0.5 from start, else from end (negative weights too).
      Case{"lerp_small_weight",
           {{{2, 3}}, {{2, 3}}, {{2, 3}, -0.45, 0.45}},
           [](const Tensors& x) { return call(porta_lerp, x[0], x[1], x[2]); }},
      Case{"lerp_large_weight",
           {{{2, 3}}, {{3}}, {{2, 1}, 0.55, 1.5}},
           [](const Tensors& x) { return call(porta_lerp, x[0], x[1], x[2]); }},
      Case{"lerp_negative_weight",
           {{{3}}, {{2, 3}}, {{2, 3}, -1.5, -0.55}},
           [](const Tensors& x) { return call(porta_lerp, x[0], x[1], x[2]); }},
      reduction("logsumexp_all", porta_logsumexp, {}, 0),
      reduction("logsumexp_dim1", porta_logsumexp, {1}, 0),
      reduction("logsumexp_dims_0_2_keep", porta_logsumexp, {0, 2}, 1),
      reduction("logsumexp_dim_last_keep", porta_logsumexp, {-1}, 1),
      Case{"nan_to_num",
           {{{2, 3}}},
           [](const Tensors& x) {
             const double nan = 0.5, posinf = 2, neginf = -2;  // finite inputs: the identity, gradient 1
             return call(porta_nan_to_num, x[0], &nan, &posinf, &neginf);
           }},
      Case{"nan_to_num_defaults",
           {{{2, 3}}},
           [](const Tensors& x) {
             const double* none = nullptr;
             return call(porta_nan_to_num, x[0], none, none, none);
           }},
  };
}

TEST_P(GradCheck, Elementwise) { check_all(elementwise_cases()); }
TEST_P(GradCheck, ReductionsAndMatmul) { check_all(reduction_and_matmul_cases()); }
TEST_P(GradCheck, Views) { check_all(view_cases()); }

// Double backward (create_graph) of the ops whose backward is recorded:
// elementwise, reductions, matmul, views but slice/select, moves, cat.
std::vector<Case> second_order_cases() {
  std::vector<Case> c = elementwise_cases();
  for (std::vector<Case> more : {reduction_and_matmul_cases(), view_cases()})
    for (Case& k : more)
      if (k.name != "slice_step" && k.name != "select") c.push_back(std::move(k));
  for (Case& k : nn_cases())
    if (k.name.rfind("linear", 0) == 0) c.push_back(std::move(k));  // LinearBackward is recorded too
  for (Case& k : composite_cases())  // the NORM nodes record their formulas under create_graph
    if (k.name.rfind("layer_norm", 0) == 0 || k.name.rfind("batch_norm", 0) == 0) c.push_back(std::move(k));
  c.push_back(Case{"cat_mlp", {{{2, 3}}, {{3, 3}}, {{1, 3}}}, [](const Tensors& x) {
                     Temps temp;
                     porta_tensor* h = temp(call(porta_tanh, temp(call(porta_matmul, x[0], x[1]))));
                     porta_tensor* parts[2] = {h, x[2]};
                     porta_tensor* joined = temp(call(porta_cat, parts, int32_t{2}, int32_t{0}));
                     return call(porta_mul, joined, temp(call(porta_sigmoid, joined)));
                   }});
  return c;
}
TEST_P(GradCheck, SecondOrder) { check_all_second_order(second_order_cases()); }

// A node whose backward is not recorded refuses create_graph, naming itself, instead of
// returning a gradient that silently lacks terms.
TEST_P(GradCheck, SecondOrderRefusesNodesWithoutARecordedBackward) {
  Temps temp;
  porta_tensor* x = temp(gradcheck::constant({1, 2, 3, 4, 5, 6}, {2, 3}, dev()));
  ASSERT_EQ(porta_tensor_set_requires_grad(x, 1), PORTA_OK);
  porta_tensor* s = temp(call(porta_select, x, int32_t{0}, int64_t{1}));
  porta_tensor* y = temp(call(porta_sum, temp(call(porta_mul, s, s)), static_cast<const int32_t*>(nullptr),
                              int32_t{0}, 0));
  porta_tensor* grad = nullptr;
  porta_backward_options o{};
  o.struct_size = sizeof(o);
  o.create_graph = o.retain_graph = 1;
  o.inputs = &x, o.num_inputs = 1, o.grads_out = &grad;
  EXPECT_EQ(porta_backward_ex(&y, nullptr, 1, &o), PORTA_ERROR_NOT_IMPLEMENTED);
  EXPECT_NE(std::string(porta_last_error()).find("SelectBackward"), std::string::npos) << porta_last_error();
  EXPECT_EQ(grad, nullptr);
  o.create_graph = 0;  // without create_graph the same graph runs
  ASSERT_EQ(porta_backward_ex(&y, nullptr, 1, &o), PORTA_OK) << porta_last_error();
  ASSERT_NE(grad, nullptr);
  std::vector<double> g(6);
  ASSERT_EQ(porta_tensor_to_host(grad, g.data(), g.size() * sizeof(double)), PORTA_OK);
  EXPECT_EQ(g, (std::vector<double>{0, 0, 0, 8, 10, 12}));
  porta_tensor_release(grad);
}
TEST_P(GradCheck, NeuralNetworkOps) { check_all(nn_cases()); }
TEST_P(GradCheck, CompositeOps) { check_all(composite_cases()); }

PORTA_INSTANTIATE_FOR_EVERY_DEVICE(GradCheck);

}  // namespace
