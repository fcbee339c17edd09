// The composite ops of porta.h (core/src/ops/composite: clamp, lerp, logsumexp,
// the activations, isnan/isinf/isfinite, nan_to_num, the logical ops), each
// against a double-precision reference written here from PyTorch's formulas,
// special values included, and their refusals.
#include <cmath>
#include <functional>
#include <limits>
#include <optional>

#include "device_params.hpp"
#include "host_tensor.hpp"
#include "reference.hpp"  // Reduction

namespace conformance {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

using Call1 = std::function<porta_status(porta_tensor*, porta_tensor**)>;
using Ref1 = std::function<double(double)>;

// f of every element of `a`, stored as `out`.
HostTensor map_host(const HostTensor& a, DLDataType out, const Ref1& f) {
  HostTensor r{out, a.shape, {}};
  for (double x : a.v) r.v.push_back(store_as(out, f(x)));
  return r;
}

// The broadcast shape of several host tensors (each must broadcast).
Shape broadcast_all(std::initializer_list<const HostTensor*> ts) {
  Shape s;
  for (const HostTensor* t : ts) {
    Shape next;
    EXPECT_TRUE(broadcast_shape(s, t->shape, &next)) << shape_str(s) << " vs " << shape_str(t->shape);
    s = next;
  }
  return s;
}

// Where the formulas change branch (softplus thresholds 10 and 20 for beta 2 and 1), saturate or break down.
const std::vector<double> kSpecials = {0.0,  -0.0, 0.5,  -0.5,  1.0,  -1.0, 3.0,  -3.0,  9.75, 10.25,
                                       19.5, 20.5, 25.0, -25.0, 100., -100, kInf, -kInf, kNan};

HostTensor specials(DLDataType d) { return make_host(d, {static_cast<int64_t>(kSpecials.size())}, kSpecials); }
// kSpecials without the magnitudes where tanh saturates (GeluTanhSaturatesAsPyTorch has those).
HostTensor unsaturated_specials(DLDataType d) {
  std::vector<double> v;
  for (double x : kSpecials)
    if (!(std::fabs(x) >= 25)) v.push_back(x);
  return make_host(d, {static_cast<int64_t>(v.size())}, v);
}

// Runs `call` on `in` and compares with `ref` (its dtype and values), leaving `in` alone.
void check_unary_composite(const std::string& name, const std::string& device, const Call1& call, const HostTensor& in,
                           const HostTensor& ref, Tolerance tol, Layout layout, DLDevice dev) {
  SCOPED_TRACE(name + " " + dtype_name(in.dtype) + " " + shape_str(in.shape) + " " + layout_name(layout));
  Tensor a = upload(in, dev, layout), out;
  CHECK_OK(call(a, out.out()));
  EXPECT_EQ(device_string(device_of(out)), device);
  expect_close(download(out), ref, tol, name);
  expect_close(download(a), in, kExact, name + " left its input alone");
}

class Composite : public DeviceTest {
 protected:
  // call(in) against f elementwise, in in's dtype.
  void unary(const std::string& name, const Call1& call, const Ref1& f, const HostTensor& in, bool transcendental,
             Layout layout = Layout::Contiguous) {
    op_case(name, in.dtype, [&] {
      check_unary_composite(name, GetParam().name, call, in, map_host(in, in.dtype, f),
                            tolerance_for(in.dtype, transcendental), layout, dev());
    });
  }
  // call(in) against a reference tensor, exactly.
  void exact(const std::string& name, const Call1& call, const HostTensor& in, const HostTensor& ref) {
    op_case(name, in.dtype,
            [&] { check_unary_composite(name, GetParam().name, call, in, ref, kExact, Layout::Contiguous, dev()); });
  }
};
PORTA_INSTANTIATE_FOR_EVERY_DEVICE(Composite);

// ---- activations

struct Activation {
  std::string name;
  Call1 call;
  Ref1 ref;
  bool transcendental;
};

std::vector<Activation> activations() {
  const double s2 = std::sqrt(2.0), k = std::sqrt(2.0 / 3.14159265358979323846);
  const auto softplus = [](double beta, double threshold) {
    return [=](double x) { return x * beta > threshold ? x : std::log1p(std::exp(x * beta)) / beta; };
  };
  const auto leaky = [](double slope) { return [=](double x) { return x > 0 ? x : x * slope; }; };
  const auto elu = [](double alpha) { return [=](double x) { return x > 0 ? x : alpha * std::expm1(x); }; };
  const auto hardtanh = [](double lo, double hi) {
    return [=](double x) { return x <= lo ? lo : x >= hi ? hi : x; };  // NaN stays NaN
  };
  return {
      {"gelu", [](porta_tensor* a, porta_tensor** o) { return porta_gelu(a, PORTA_GELU_NONE, o); },
       [=](double x) { return x * 0.5 * (1 + std::erf(x / s2)); }, true},
      {"gelu_tanh", [](porta_tensor* a, porta_tensor** o) { return porta_gelu(a, PORTA_GELU_TANH, o); },
       [=](double x) { return 0.5 * x * (1 + std::tanh(k * (x + 0.044715 * x * x * x))); }, true},
      {"silu", porta_silu, [](double x) { return x / (1 + std::exp(-x)); }, true},
      {"softplus", [](porta_tensor* a, porta_tensor** o) { return porta_softplus(a, 1, 20, o); }, softplus(1, 20),
       true},
      {"softplus_beta2", [](porta_tensor* a, porta_tensor** o) { return porta_softplus(a, 2, 20, o); }, softplus(2, 20),
       true},
      {"softplus_beta0.5_threshold1", [](porta_tensor* a, porta_tensor** o) { return porta_softplus(a, 0.5, 1, o); },
       softplus(0.5, 1), true},
      {"leaky_relu", [](porta_tensor* a, porta_tensor** o) { return porta_leaky_relu(a, 0.01, o); }, leaky(0.01),
       false},
      {"leaky_relu_0.2", [](porta_tensor* a, porta_tensor** o) { return porta_leaky_relu(a, 0.2, o); }, leaky(0.2),
       false},
      {"elu", [](porta_tensor* a, porta_tensor** o) { return porta_elu(a, 1, o); }, elu(1), true},
      {"elu_0.5", [](porta_tensor* a, porta_tensor** o) { return porta_elu(a, 0.5, o); }, elu(0.5), true},
      {"hardtanh", [](porta_tensor* a, porta_tensor** o) { return porta_hardtanh(a, -1, 1, o); }, hardtanh(-1, 1),
       false},
      {"hardtanh_-0.5_2.25", [](porta_tensor* a, porta_tensor** o) { return porta_hardtanh(a, -0.5, 2.25, o); },
       hardtanh(-0.5, 2.25), false},
      {"hardtanh_point", [](porta_tensor* a, porta_tensor** o) { return porta_hardtanh(a, 0.5, 0.5, o); },
       hardtanh(0.5, 0.5), false},
  };
}

TEST_P(Composite, ActivationsOnFloats) {
  uint32_t seed = 1;
  for (const Activation& act : activations())
    for (DLDataType dt : {porta_float32, porta_float64}) {
      unary(act.name, act.call, act.ref, sample_host(dt, {6, 7}, seed++), act.transcendental, Layout::Transposed);
      unary(act.name, act.call, act.ref, sample_host(dt, {5, 5}, seed++, Values::Grid), act.transcendental);
      unary(act.name, act.call, act.ref, act.name == "gelu_tanh" ? unsaturated_specials(dt) : specials(dt),
            act.transcendental);
    }
}

// 0.5 x (1 + tanh(...)) needs tanh to reach -1 exactly where it saturates:
// PyTorch gives -0 for x = -25 and -100 and NaN (-inf * 0) for -inf.
TEST_P(Composite, GeluTanhSaturatesAsPyTorch) {
  for (const Activation& act : activations())
    if (act.name == "gelu_tanh")
      for (DLDataType dt : {porta_float32, porta_float64})
        unary(act.name, act.call, act.ref, make_host(dt, {6}, {-25, -100, -kInf, 25, 100, kInf}), act.transcendental);
}

TEST_P(Composite, ActivationsOnZeroDimAndEmpty) {
  for (const Activation& act : activations())
    for (const Shape& s : {Shape{}, Shape{0}, Shape{2, 0}})
      unary(act.name, act.call, act.ref, sample_host(porta_float32, s, 7), act.transcendental);
}

TEST_P(Composite, ActivationsRefuseIntegerAndBool) {
  for (const Activation& act : activations())
    for (DLDataType dt : {porta_int32, porta_int64, porta_uint8, porta_bool})
      op_case(act.name, dt, [&] {
        Tensor a = upload(sample_host(dt, {3}, 1), dev());
        const std::string m =
            expect_failure(PORTA_ERROR_UNSUPPORTED_DTYPE, [&](porta_tensor** o) { return act.call(a, o); });
        EXPECT_NE(m.find("floating"), std::string::npos) << m;
      });
}

TEST_P(Composite, ActivationArgumentsRefused) {
  Tensor a = upload(sample_host(porta_float32, {3}, 1), dev());
  op_case("gelu", porta_float32, [&] {
    for (int32_t approximate : {7, -1, 2})
      expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return porta_gelu(a, approximate, o); });
  });
  op_case("hardtanh", porta_float32, [&] {
    expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return porta_hardtanh(a, 1, -1, o); });
    expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return porta_hardtanh(a, kNan, 1, o); });
  });
  op_case("softplus", porta_float32, [&] {
    expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return porta_softplus(a, 0, 20, o); });
  });
}

// ---- gradients where the formulas tie or break (gradcheck avoids those points)

// d sum(f(a)) / da for a float64 leaf `a` on the device.
HostTensor grad_of_sum(DLDevice dev, const HostTensor& a, const Call1& f) {
  Tensor leaf = upload(a, dev), y, total, g;
  CHECK_OK(porta_tensor_set_requires_grad(leaf, 1));
  CHECK_OK(f(leaf, y.out()));
  CHECK_OK(porta_sum(y, nullptr, 0, 0, total.out()));
  CHECK_OK(porta_backward(total, nullptr));
  CHECK_OK(porta_tensor_grad(leaf, g.out()));
  return download(g);
}

TEST_P(Composite, GradientsAtTheBoundsAsPyTorch) {
  const HostTensor at = make_host(porta_float64, {7}, {-1, -0.5, 1, 2, -2, 0, 0.25});
  const double lo = -1, hi = 1;
  const struct {
    const char* name;
    Call1 f;
    std::vector<double> grad;
  } cases[] = {
      // clamp with number bounds and hardtanh pass the gradient strictly inside (PyTorch 2.15's, the oracle's).
      {"clamp", [&](porta_tensor* a, porta_tensor** o) { return porta_clamp(a, &lo, &hi, o); }, {0, 1, 0, 0, 0, 1, 1}},
      {"hardtanh",
       [](porta_tensor* a, porta_tensor** o) { return porta_hardtanh(a, -1, 1, o); },
       {0, 1, 0, 0, 0, 1, 1}},
      // x > 0 ? 1 : slope (at 0 too), and x > 0 ? 1 : alpha e^x.
      {"leaky_relu",
       [](porta_tensor* a, porta_tensor** o) { return porta_leaky_relu(a, 0.25, o); },
       {0.25, 0.25, 1, 1, 0.25, 0.25, 1}},
      {"elu",
       [](porta_tensor* a, porta_tensor** o) { return porta_elu(a, 0.5, o); },
       {0.5 * std::exp(-1.0), 0.5 * std::exp(-0.5), 1, 1, 0.5 * std::exp(-2.0), 0.5, 1}},
      // beta x > threshold is linear (gradient 1); at the threshold itself, sigmoid(beta x).
      {"softplus",
       [](porta_tensor* a, porta_tensor** o) { return porta_softplus(a, 2, 2, o); },
       {1 / (1 + std::exp(2.0)), 1 / (1 + std::exp(1.0)), 1 / (1 + std::exp(-2.0)), 1, 1 / (1 + std::exp(4.0)), 0.5,
        1 / (1 + std::exp(-0.5))}},
  };
  for (const auto& c : cases)
    op_case(std::string(c.name) + "_backward", porta_float64, [&] {
      expect_close(grad_of_sum(dev(), at, c.f), make_host(porta_float64, {7}, c.grad), tolerance_for(porta_float64),
                   std::string("d/da sum(") + c.name + "(a))");
    });
  // nan_to_num passes the gradient where a is finite only; logsumexp's is softmax, 0 at -inf.
  op_case("nan_to_num_backward", porta_float64, [&] {
    const HostTensor specials_in = make_host(porta_float64, {5}, {1.5, kInf, -kInf, kNan, -2});
    expect_close(grad_of_sum(dev(), specials_in,
                             [](porta_tensor* a, porta_tensor** o) {
                               return porta_nan_to_num(a, nullptr, nullptr, nullptr, o);
                             }),
                 make_host(porta_float64, {5}, {1, 0, 0, 0, 1}), kExact, "d/da sum(nan_to_num(a))");
  });
  op_case("logsumexp_backward", porta_float64, [&] {
    const HostTensor x = make_host(porta_float64, {3}, {-kInf, 0, std::log(3.0)});
    expect_close(
        grad_of_sum(dev(), x, [](porta_tensor* a, porta_tensor** o) { return porta_logsumexp(a, nullptr, 0, 0, o); }),
        make_host(porta_float64, {3}, {0, 0.25, 0.75}), tolerance_for(porta_float64), "d/da logsumexp(a)");
  });
}

// ---- clamp

struct Bounds {
  std::optional<double> lo, hi;
};

// torch.clamp with scalar bounds: a non-integral or non-finite bound makes an
// integer tensor float32; the lower bound first, then the upper (so lo > hi
// gives hi); a NaN bound gives NaN.
HostTensor ref_clamp(const HostTensor& a, Bounds b) {
  DLDataType out = a.dtype;
  for (const std::optional<double>& v : {b.lo, b.hi})
    if (v && !is_float(a.dtype) && (!std::isfinite(*v) || std::floor(*v) != *v)) out = porta_float32;
  const double lo = b.lo ? store_as(out, *b.lo) : 0, hi = b.hi ? store_as(out, *b.hi) : 0;
  return map_host(a, out, [&](double x) {
    if (b.lo) x = std::isnan(lo) ? kNan : x < lo ? lo : x;
    if (b.hi) x = std::isnan(hi) ? kNan : x > hi ? hi : x;
    return x;
  });
}

std::string bounds_name(const Bounds& b) {
  const auto s = [](const std::optional<double>& v) { return v ? std::to_string(*v) : std::string("NULL"); };
  return "clamp(min " + s(b.lo) + ", max " + s(b.hi) + ")";
}

TEST_P(Composite, ClampScalarBoundsOnEveryNumericDtype) {
  const Bounds cases[] = {{1, 4},
                          {2, std::nullopt},
                          {std::nullopt, 3},
                          {4, 1} /* min > max: max */,
                          {1.5, 3.25} /* int -> float32 */,
                          {std::nullopt, 2.5},
                          {kNan, 3},
                          {1, kNan},
                          {-kInf, kInf}};
  uint32_t seed = 10;
  for (DLDataType dt : {porta_float32, porta_float64, porta_int32, porta_int64, porta_uint8})
    for (const Bounds& b : cases)
      op_case("clamp", dt, [&] {
        const HostTensor in = sample_host(dt, {4, 5}, next_seed(seed), Values::Grid);
        SCOPED_TRACE(bounds_name(b) + " " + dtype_name(dt));
        Tensor a = upload(in, dev(), Layout::Transposed), out;
        const double lo = b.lo.value_or(0), hi = b.hi.value_or(0);
        CHECK_OK(porta_clamp(a, b.lo ? &lo : nullptr, b.hi ? &hi : nullptr, out.out()));
        expect_close(download(out), ref_clamp(in, b), kExact, bounds_name(b));
        expect_close(download(a), in, kExact, "clamp left its input alone");
      });
}

TEST_P(Composite, ClampSpecialFloatInputs) {
  for (DLDataType dt : {porta_float32, porta_float64})
    for (const Bounds& b : {Bounds{-1, 1}, Bounds{std::nullopt, 0.5}, Bounds{-2, std::nullopt}})
      op_case("clamp", dt, [&] {
        const HostTensor in = specials(dt);
        Tensor a = upload(in, dev()), out;
        const double lo = b.lo.value_or(0), hi = b.hi.value_or(0);
        CHECK_OK(porta_clamp(a, b.lo ? &lo : nullptr, b.hi ? &hi : nullptr, out.out()));
        expect_close(download(out), ref_clamp(in, b), kExact, bounds_name(b) + " of specials");
      });
}

// torch.clamp with tensor bounds, all three broadcast; the result dtype is
// what the two where() steps promote to (the bound, then the upper bound).
HostTensor ref_clamp_tensor(const HostTensor& a, const HostTensor* lo, const HostTensor* hi) {
  const Shape after_lo = lo ? broadcast_all({&a, lo}) : a.shape;
  const Shape shape = hi ? broadcast_all({&a, lo ? lo : &a, hi}) : after_lo;
  DLDataType out = a.dtype;
  if (lo) out = result_type(HostTensor{out, a.shape, {}}, *lo);
  if (hi) out = result_type(HostTensor{out, after_lo, {}}, *hi);
  const HostTensor x = broadcast_host(a, shape);
  const HostTensor l = lo ? broadcast_host(*lo, shape) : HostTensor{},
                   h = hi ? broadcast_host(*hi, shape) : HostTensor{};
  HostTensor r{out, shape, {}};
  for (size_t i = 0; i < x.v.size(); ++i) {
    double v = x.v[i];
    if (lo) v = std::isnan(l.v[i]) ? kNan : v < l.v[i] ? l.v[i] : v;
    if (hi) v = std::isnan(h.v[i]) ? kNan : v > h.v[i] ? h.v[i] : v;
    r.v.push_back(store_as(out, v));
  }
  return r;
}

TEST_P(Composite, ClampTensorBounds) {
  struct Case {
    DLDataType a, lo, hi;
    Shape sa, slo, shi;
    bool has_lo, has_hi;
  };
  const Case cases[] = {
      {porta_float32, porta_float32, porta_float32, {4, 5}, {5}, {4, 1}, true, true},
      {porta_float64, porta_float64, porta_float64, {4, 5}, {4, 5}, {}, true, true},
      {porta_float32, porta_float32, porta_float32, {3, 4}, {3, 4}, {}, true, false},
      {porta_float32, porta_float32, porta_float32, {3, 4}, {}, {4}, false, true},
      {porta_float32, porta_float32, porta_float32, {5}, {2, 5}, {2, 1}, true, true},  // the bounds widen a
      {porta_int32, porta_int32, porta_int32, {4, 5}, {5}, {4, 1}, true, true},
      {porta_int64, porta_float32, porta_float32, {4, 5}, {5}, {4, 1}, true, true},  // int a, float bounds
      {porta_uint8, porta_uint8, porta_uint8, {3, 3}, {3}, {3, 1}, true, true},
      {porta_float32, porta_float64, porta_float64, {3, 4}, {4}, {3, 1}, true, true},  // float64 bounds promote
  };
  uint32_t seed = 100;
  for (const Case& c : cases)
    op_case("clamp_tensor", c.a, [&] {
      const HostTensor a = sample_host(c.a, c.sa, next_seed(seed), Values::Grid);
      HostTensor lo = sample_host(c.lo, c.slo, next_seed(seed), Values::Grid);
      HostTensor hi = sample_host(c.hi, c.shi, next_seed(seed), Values::Grid);
      if (is_float(c.lo) && lo.numel() > 2) lo.v[1] = kNan;  // a NaN bound gives NaN there
      if (is_float(c.hi) && hi.numel() > 2) hi.v[2] = kNan;
      SCOPED_TRACE("clamp_tensor(" + dtype_name(c.a) + " " + shape_str(c.sa) + ", " +
                   (c.has_lo ? dtype_name(c.lo) + " " + shape_str(c.slo) : "NULL") + ", " +
                   (c.has_hi ? dtype_name(c.hi) + " " + shape_str(c.shi) : "NULL") + ")");
      Tensor ta = upload(a, dev(), Layout::Transposed), tlo = upload(lo, dev()), thi = upload(hi, dev()), out;
      CHECK_OK(porta_clamp_tensor(ta, c.has_lo ? tlo.get() : nullptr, c.has_hi ? thi.get() : nullptr, out.out()));
      expect_close(download(out), ref_clamp_tensor(a, c.has_lo ? &lo : nullptr, c.has_hi ? &hi : nullptr), kExact,
                   "clamp_tensor");
    });
}

TEST_P(Composite, ClampRefusals) {
  Tensor mask = upload(sample_host(porta_bool, {3}, 1), dev()), f = upload(sample_host(porta_float32, {3}, 2), dev());
  Tensor f4 = upload(sample_host(porta_float32, {4}, 3), dev());
  const double lo = 0, hi = 1;
  op_case("clamp", porta_bool, [&] {
    expect_failure(PORTA_ERROR_UNSUPPORTED_DTYPE, [&](porta_tensor** o) { return porta_clamp(mask, &lo, &hi, o); });
    expect_failure(PORTA_ERROR_UNSUPPORTED_DTYPE, [&](porta_tensor** o) { return porta_clamp_tensor(mask, f, f, o); });
  });
  op_case("clamp", porta_float32, [&] {
    expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return porta_clamp(f, nullptr, nullptr, o); });
    expect_failure(PORTA_ERROR_INVALID_ARGUMENT,
                   [&](porta_tensor** o) { return porta_clamp_tensor(f, nullptr, nullptr, o); });
    expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return porta_clamp_tensor(f, f4, nullptr, o); });
    expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return porta_clamp_tensor(f, nullptr, f4, o); });
  });
}

// ---- lerp

// PyTorch's formula (ATen/native/Lerp.h): from start when |weight| < 0.5, else from end.
double lerp_ref(double s, double e, double w) { return std::fabs(w) < 0.5 ? s + w * (e - s) : e - (e - s) * (1 - w); }

TEST_P(Composite, LerpBroadcastAgainstTheReference) {
  struct Case {
    Shape s, e, w;
  };
  const Case cases[] = {
      {{4, 5}, {4, 5}, {4, 5}}, {{3, 4}, {4}, {3, 1}}, {{4}, {2, 4}, {}}, {{}, {}, {}}, {{0, 3}, {3}, {1}}};
  uint32_t seed = 200;
  for (DLDataType dt : {porta_float32, porta_float64})
    for (const Case& c : cases)
      op_case("lerp", dt, [&] {
        SCOPED_TRACE("lerp " + dtype_name(dt) + " " + shape_str(c.s) + " " + shape_str(c.e) + " " + shape_str(c.w));
        const HostTensor s = sample_host(dt, c.s, next_seed(seed)), e = sample_host(dt, c.e, next_seed(seed));
        HostTensor w = sample_host(dt, c.w, next_seed(seed));
        for (double& x : w.v) x = store_as(dt, x / 2);  // [-2, 2]: both formulas, negative weights too
        Tensor ts = upload(s, dev(), Layout::Transposed), te = upload(e, dev()), tw = upload(w, dev()), out;
        CHECK_OK(porta_lerp(ts, te, tw, out.out()));
        Shape shape = broadcast_all({&s, &e, &w});
        const HostTensor bs = broadcast_host(s, shape), be = broadcast_host(e, shape), bw = broadcast_host(w, shape);
        HostTensor ref{dt, shape, {}};
        std::vector<double> scale;
        for (size_t i = 0; i < bs.v.size(); ++i) {
          ref.v.push_back(store_as(dt, lerp_ref(bs.v[i], be.v[i], bw.v[i])));
          scale.push_back((std::fabs(bs.v[i]) + std::fabs(be.v[i])) * (1 + std::fabs(bw.v[i])));
        }
        expect_close(download(out), ref, tolerance_for(dt), "lerp", &scale);
      });
}

// Step by step in the dtype, as the kernels round: the result is exactly
// PyTorch's, and lerp(a, b, 1) is b, lerp(a, b, 0) is a.
template <typename T>
double lerp_rounded(double s_, double e_, double w_) {
  const T s = static_cast<T>(s_), e = static_cast<T>(e_), w = static_cast<T>(w_);
  // volatile: each step rounded on its own, never fused into an FMA.
  const volatile T diff = e - s;
  if (std::fabs(w) < T(0.5)) {
    const volatile T step = w * diff;
    return static_cast<T>(s + step);
  }
  const volatile T one_minus_w = T(1) - w;
  const volatile T step = diff * one_minus_w;
  return static_cast<T>(e - step);
}

// The start-based formula at any weight (to see that the data tells the branches apart).
template <typename T>
double lerp_from_start(double s_, double e_, double w_) {
  const T s = static_cast<T>(s_), e = static_cast<T>(e_), w = static_cast<T>(w_);
  const volatile T diff = e - s;
  const volatile T step = w * diff;
  return static_cast<T>(s + step);
}

TEST_P(Composite, LerpTakesPyTorchsBranchExactly) {
  const std::vector<double> weights = {0, 1, -0.75, -0.5, -0.4921875, 0.25, 0.4990234375, 0.5, 0.75, 1.5, -1};
  const int64_t n = 16, m = static_cast<int64_t>(weights.size());
  for (DLDataType dt : {porta_float32, porta_float64})
    op_case("lerp", dt, [&] {
      const HostTensor s = sample_host(dt, {m, n}, 300), e = sample_host(dt, {m, n}, 301);
      HostTensor w{dt, {m, 1}, {}};
      for (double x : weights) w.v.push_back(store_as(dt, x));
      Tensor ts = upload(s, dev()), te = upload(e, dev()), tw = upload(w, dev()), out;
      CHECK_OK(porta_lerp(ts, te, tw, out.out()));
      HostTensor ref{dt, {m, n}, {}};
      int other_branch_differs = 0;
      for (int64_t i = 0; i < m * n; ++i) {
        const double wi = w.v[i / n], si = s.v[i], ei = e.v[i];
        const bool f32 = same_dtype(dt, porta_float32);
        const double r = f32 ? lerp_rounded<float>(si, ei, wi) : lerp_rounded<double>(si, ei, wi);
        const double from_start = f32 ? lerp_from_start<float>(si, ei, wi) : lerp_from_start<double>(si, ei, wi);
        ref.v.push_back(r);
        if (std::fabs(wi) >= 0.5 && from_start != r) ++other_branch_differs;
        if (wi == 1) {
          EXPECT_EQ(r, ei);
        }
        if (wi == 0) {
          EXPECT_EQ(r, si);
        }
      }
      EXPECT_GT(other_branch_differs, 0) << "the data cannot tell PyTorch's branches apart";
      expect_close(download(out), ref, kExact, "lerp, rounded as PyTorch");
    });
}

TEST_P(Composite, LerpRefusals) {
  Tensor f = upload(sample_host(porta_float32, {3}, 1), dev()), d = upload(sample_host(porta_float64, {3}, 2), dev());
  Tensor i = upload(sample_host(porta_int32, {3}, 3), dev()), f4 = upload(sample_host(porta_float32, {4}, 4), dev());
  op_case("lerp", porta_float32, [&] {
    expect_failure(PORTA_ERROR_UNSUPPORTED_DTYPE, [&](porta_tensor** o) { return porta_lerp(f, d, f, o); });
    expect_failure(PORTA_ERROR_UNSUPPORTED_DTYPE, [&](porta_tensor** o) { return porta_lerp(f, f, d, o); });
    expect_failure(PORTA_ERROR_UNSUPPORTED_DTYPE, [&](porta_tensor** o) { return porta_lerp(d, f, f, o); });
    expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return porta_lerp(f, f4, f, o); });
    expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return porta_lerp(f, f, f4, o); });
  });
  op_case("lerp", porta_int32, [&] {
    expect_failure(PORTA_ERROR_UNSUPPORTED_DTYPE, [&](porta_tensor** o) { return porta_lerp(i, i, i, o); });
  });
}

// ---- logsumexp

// Over `dims` (empty: all), in double as PyTorch: NaN if any element is,
// +inf if one is, -inf over nothing or only -inf; else m + log(sum(exp(x - m))).
Reduction ref_logsumexp(const HostTensor& t, std::vector<int32_t> dims, bool keepdim) {
  const size_t nd = t.shape.size();
  std::vector<bool> reduced(nd, dims.empty());
  if (nd > 0)  // a 0-d tensor takes dim 0 or -1 and reduces to itself
    for (int32_t d : dims) reduced[static_cast<size_t>(d < 0 ? d + static_cast<int32_t>(nd) : d)] = true;
  Shape out_shape, kept;  // kept: the sizes of the dims that stay, in order
  for (size_t d = 0; d < nd; ++d) {
    if (!reduced[d]) kept.push_back(t.shape[d]);
    if (!reduced[d] || keepdim) out_shape.push_back(reduced[d] ? 1 : t.shape[d]);
  }
  std::vector<std::vector<double>> groups(static_cast<size_t>(numel(kept)));
  const Shape strides = contiguous_strides(t.shape);
  for (int64_t i = 0; i < t.numel(); ++i) {
    int64_t o = 0;
    for (size_t d = 0; d < nd; ++d)
      if (!reduced[d]) o = o * t.shape[d] + (i / strides[d]) % t.shape[d];
    groups[static_cast<size_t>(o)].push_back(t.v[static_cast<size_t>(i)]);
  }
  Reduction r{HostTensor{floating_or_float32(t.dtype), out_shape, {}}, {}};
  for (const std::vector<double>& g : groups) {
    double m = -kInf, sum = 0;
    bool nan = false;
    for (double x : g) {
      nan = nan || std::isnan(x);
      m = std::max(m, x);
    }
    double v;
    if (nan)
      v = kNan;
    else if (std::isinf(m))
      v = m;  // +inf wins; -inf: nothing or only -inf
    else {
      for (double x : g) sum += std::exp(x - m);
      v = m + std::log(sum);
    }
    r.value.v.push_back(store_as(r.value.dtype, v));
    r.scale.push_back(std::isfinite(m) ? std::fabs(m) + std::log(static_cast<double>(g.size())) : 0);
  }
  return r;
}

class CompositeLogSumExp : public DeviceTest {
 protected:
  void check(const HostTensor& in, const std::vector<int32_t>& dims, bool keepdim, Layout layout = Layout::Contiguous) {
    op_case("logsumexp", in.dtype, [&] {
      std::string d;
      for (int32_t x : dims) d += std::to_string(x) + " ";
      SCOPED_TRACE("logsumexp " + dtype_name(in.dtype) + " " + shape_str(in.shape) + " dims {" + d + "} keepdim " +
                   std::to_string(keepdim) + " " + layout_name(layout));
      Tensor t = upload(in, dev(), layout), out;
      CHECK_OK(porta_logsumexp(t, dims.empty() ? nullptr : dims.data(), static_cast<int32_t>(dims.size()), keepdim,
                               out.out()));
      const Reduction ref = ref_logsumexp(in, dims, keepdim);
      expect_close(download(out), ref.value, tolerance_for(ref.value.dtype, true), "logsumexp", &ref.scale);
    });
  }
};
PORTA_INSTANTIATE_FOR_EVERY_DEVICE(CompositeLogSumExp);

TEST_P(CompositeLogSumExp, DimsAndKeepdim) {
  const std::vector<int32_t> dim_sets[] = {{}, {1}, {-1}, {0, 2}, {0, 1, 2}};
  uint32_t seed = 400;
  for (DLDataType dt : {porta_float32, porta_float64, porta_int32, porta_bool})
    for (const auto& dims : dim_sets)
      for (bool keepdim : {false, true}) check(sample_host(dt, {3, 4, 5}, seed++), dims, keepdim, Layout::Transposed);
}

TEST_P(CompositeLogSumExp, LargeAndInfiniteInputs) {
  // Rows: no overflow at 1000 in float32; +inf; only -inf; NaN; -inf beside finite; +inf beside -inf; very negative.
  const std::vector<double> v = {1000,  1000, -kInf, 88,   kInf,  1, -kInf, -kInf, -kInf, kNan, 1,   2,
                                 -kInf, 3,    -kInf, kInf, -kInf, 0, -1000, -1000, -1001, 50,   -50, 0};
  for (DLDataType dt : {porta_float32, porta_float64}) {
    const HostTensor t = make_host(dt, {8, 3}, v);
    check(t, {1}, false);
    check(t, {-1}, true);
    check(t, {0}, false);
    check(t, {}, false);
  }
}

TEST_P(CompositeLogSumExp, ZeroDimAndEmpty) {
  check(sample_host(porta_float32, {}, 1), {}, false);
  check(sample_host(porta_float32, {}, 2), {0}, true);
  check(sample_host(porta_float64, {0}, 3), {}, false);      // -inf, as PyTorch
  check(sample_host(porta_float32, {2, 0}, 4), {1}, false);  // [-inf, -inf]
  check(sample_host(porta_float32, {0, 3}, 5), {1}, true);   // [0, 1]
}

// ---- isnan, isinf, isfinite

TEST_P(Composite, FloatClassesOnEveryDtype) {
  const struct {
    const char* name;
    porta_status (*fn)(porta_tensor*, porta_tensor**);
    Ref1 ref;
  } classes[] = {{"isnan", porta_isnan, [](double x) { return std::isnan(x) ? 1.0 : 0.0; }},
                 {"isinf", porta_isinf, [](double x) { return std::isinf(x) ? 1.0 : 0.0; }},
                 {"isfinite", porta_isfinite, [](double x) { return std::isfinite(x) ? 1.0 : 0.0; }}};
  uint32_t seed = 500;
  for (const auto& c : classes)
    for (DLDataType dt : kAllDtypes) {
      const HostTensor in = is_float(dt) ? specials(dt) : sample_host(dt, {3, 4}, seed++);
      exact(c.name, c.fn, in, map_host(in, porta_bool, c.ref));
      const HostTensor t = sample_host(dt, {2, 0}, seed++);
      exact(c.name, c.fn, t, map_host(t, porta_bool, c.ref));
    }
  // Strided, and the extremes of float32 (finite, not inf).
  const float big = std::numeric_limits<float>::max(), tiny = std::numeric_limits<float>::denorm_min();
  const HostTensor edge = make_host(porta_float32, {2, 3}, {big, -big, tiny, kInf, kNan, -kInf});
  for (const auto& c : classes)
    op_case(c.name, porta_float32, [&] {
      Tensor a = upload(edge, dev(), Layout::Transposed), out;
      CHECK_OK(c.fn(a, out.out()));
      expect_close(download(out), map_host(edge, porta_bool, c.ref), kExact, c.name);
    });
}

// ---- nan_to_num

TEST_P(Composite, NanToNum) {
  struct Values3 {
    std::optional<double> nan, posinf, neginf;
  };
  const Values3 cases[] = {{std::nullopt, std::nullopt, std::nullopt},
                           {1.5, 100, -100},
                           {std::nullopt, 7, std::nullopt},
                           {-2.5, std::nullopt, 0}};
  for (DLDataType dt : {porta_float32, porta_float64})
    for (const Values3& c : cases)
      op_case("nan_to_num", dt, [&] {
        const double largest =
            same_dtype(dt, porta_float32) ? std::numeric_limits<float>::max() : std::numeric_limits<double>::max();
        const HostTensor in = specials(dt);
        const HostTensor ref = map_host(in, dt, [&](double x) {
          if (std::isnan(x)) return c.nan.value_or(0.0);
          if (x == kInf) return c.posinf.value_or(largest);
          if (x == -kInf) return c.neginf.value_or(-largest);
          return x;
        });
        Tensor a = upload(in, dev(), Layout::Strided), out;
        const double n = c.nan.value_or(0), p = c.posinf.value_or(0), m = c.neginf.value_or(0);
        CHECK_OK(
            porta_nan_to_num(a, c.nan ? &n : nullptr, c.posinf ? &p : nullptr, c.neginf ? &m : nullptr, out.out()));
        expect_close(download(out), ref, kExact, "nan_to_num");
      });
  // Integers and bool: a copy.
  uint32_t seed = 600;
  const double n = 1, p = 2, m = 3;
  for (DLDataType dt : {porta_int32, porta_int64, porta_uint8, porta_bool}) {
    const HostTensor in = sample_host(dt, {3, 4}, seed++);
    exact(
        "nan_to_num",
        [](porta_tensor* a, porta_tensor** o) { return porta_nan_to_num(a, nullptr, nullptr, nullptr, o); }, in, in);
    exact(
        "nan_to_num", [&](porta_tensor* a, porta_tensor** o) { return porta_nan_to_num(a, &n, &p, &m, o); }, in, in);
  }
}

// ---- logical ops

// Values with zeros among them (and -0.0, NaN and inf for floats, which are truthy but -0.0).
HostTensor truthy_values(DLDataType d, const Shape& shape, uint32_t seed) {
  HostTensor t = sample_host(d, shape, seed, Values::Grid);
  for (size_t i = 0; i < t.v.size(); ++i) {
    if (i % 3 == seed % 3) t.v[i] = 0;
    if (is_float(d) && i % 7 == 1) t.v[i] = kNan;
    if (is_float(d) && i % 7 == 4) t.v[i] = -0.0;
    if (is_float(d) && i % 11 == 5) t.v[i] = -kInf;
  }
  return t;
}

TEST_P(Composite, LogicalOpsOnEveryDtypePair) {
  const struct {
    const char* name;
    porta_status (*fn)(porta_tensor*, porta_tensor*, porta_tensor**);
    bool (*ref)(bool, bool);
  } ops[] = {{"logical_and", porta_logical_and, [](bool a, bool b) { return a && b; }},
             {"logical_or", porta_logical_or, [](bool a, bool b) { return a || b; }},
             {"logical_xor", porta_logical_xor, [](bool a, bool b) { return a != b; }}};
  uint32_t seed = 700;
  for (DLDataType da : kAllDtypes)
    for (DLDataType db : kAllDtypes) {
      // Same shapes for every pair; broadcasting (and a 0-d operand) for a few.
      const bool bc = same_dtype(da, db) || same_dtype(db, porta_bool);
      const HostTensor a = truthy_values(da, {4, 5}, next_seed(seed));
      const HostTensor b = truthy_values(db, bc ? Shape{5} : Shape{4, 5}, next_seed(seed));
      for (const auto& op : ops)
        op_case(op.name, promote(da, db), [&] {
          SCOPED_TRACE(std::string(op.name) + "(" + dtype_name(da) + ", " + dtype_name(db) + " " + shape_str(b.shape) +
                       ")");
          Tensor ta = upload(a, dev(), Layout::Transposed), tb = upload(b, dev()), out;
          CHECK_OK(op.fn(ta, tb, out.out()));
          const HostTensor bb = broadcast_host(b, a.shape);
          HostTensor ref{porta_bool, a.shape, {}};
          for (size_t i = 0; i < a.v.size(); ++i) ref.v.push_back(op.ref(a.v[i] != 0, bb.v[i] != 0) ? 1 : 0);
          expect_close(download(out), ref, kExact, op.name);
        });
    }
  // A 0-d operand on either side, and a shape that does not broadcast.
  for (const auto& op : ops)
    op_case(op.name, porta_float32, [&] {
      const HostTensor a = truthy_values(porta_float32, {2, 3}, 1);
      for (double s : {0.0, kNan, 2.0}) {
        const HostTensor z = make_host(porta_int64, {}, {std::isnan(s) ? 0.0 : s});
        const HostTensor zf = make_host(porta_float64, {}, {s});
        for (const HostTensor* zero_d : {&z, &zf}) {
          Tensor ta = upload(a, dev()), tz = upload(*zero_d, dev()), out, out2;
          CHECK_OK(op.fn(ta, tz, out.out()));
          CHECK_OK(op.fn(tz, ta, out2.out()));
          HostTensor ref{porta_bool, a.shape, {}}, ref2 = ref;
          for (double x : a.v) {
            ref.v.push_back(op.ref(x != 0, zero_d->v[0] != 0) ? 1 : 0);
            ref2.v.push_back(op.ref(zero_d->v[0] != 0, x != 0) ? 1 : 0);
          }
          expect_close(download(out), ref, kExact, std::string(op.name) + " with a 0-d b");
          expect_close(download(out2), ref2, kExact, std::string(op.name) + " with a 0-d a");
        }
      }
      Tensor ta = upload(a, dev()), wide = upload(sample_host(porta_float32, {4}, 2), dev());
      expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return op.fn(ta, wide, o); });
    });
}

TEST_P(Composite, LogicalNotOnEveryDtype) {
  uint32_t seed = 800;
  for (DLDataType dt : kAllDtypes) {
    const HostTensor in = truthy_values(dt, {3, 7}, seed++);
    exact("logical_not", porta_logical_not, in, map_host(in, porta_bool, [](double x) { return x == 0 ? 1.0 : 0.0; }));
  }
}

}  // namespace
}  // namespace conformance
