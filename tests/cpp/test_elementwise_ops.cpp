// The user ABI 1.3 elementwise ops in C++: the kernel ops generated from
// PORTA_OP_LIST (sin ... exp2, atan2, remainder, fmod, floor_divide) as
// methods, free functions, scalar overloads and operator%; the composite ops
// (clamp, lerp, logsumexp, isnan/isinf/isfinite, nan_to_num, logical_*) as
// Tensor methods and porta:: functions; the activations as
// porta::nn::functional functions and modules. Values against std:: math in
// double.
#include <gmock/gmock.h>

#include <cfloat>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <porta/nn.hpp>
#include <string>

#include "mock_device.hpp"

using porta::Tensor;
using testing::HasSubstr;
using D = std::vector<double>;
using I = std::vector<int64_t>;
using B = std::vector<bool>;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

Tensor vec(D values, porta::Shape shape = {}) {
  if (shape.empty()) shape = {static_cast<int64_t>(values.size())};
  return Tensor::from_vector(values, shape);
}
Tensor ivec(I values) { return Tensor::from_vector(values); }

// Elementwise comparison in double; NaN matches NaN, infinities match exactly.
void expect_near(const Tensor& t, const D& expected, double tol = 1e-12) {
  ASSERT_EQ(t.dtype(), porta::kFloat64);
  const D got = t.to_vector<double>();
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(expected[i])) EXPECT_TRUE(std::isnan(got[i])) << "element " << i << " is " << got[i];
    else if (std::isinf(expected[i])) EXPECT_EQ(got[i], expected[i]) << "element " << i;
    else EXPECT_NEAR(got[i], expected[i], tol) << "element " << i;
  }
}

D map(const D& x, const std::function<double(double)>& f) {
  D out;
  for (double v : x) out.push_back(f(v));
  return out;
}

// The porta::Error `f` throws (a failure if it throws none).
template <class F>
porta::Error error_of(F&& f) {
  try {
    f();
  } catch (const porta::Error& e) {
    return e;
  }
  ADD_FAILURE() << "no porta::Error was thrown";
  return porta::Error(PORTA_OK, "");
}

}  // namespace

// ============================== kernel ops ==============================

TEST(ElementwiseOps, UnaryMethodsFreeFunctionsAndInPlace) {
  struct Case {
    const char* name;
    Tensor (Tensor::*method)() const;
    const Tensor& (Tensor::*inplace)() const;
    Tensor (*free)(const Tensor&);
    double (*ref)(double);
    D x;
  };
  const D any = {-0.75, -0.3, 0.2, 0.6, 0.95};  // inside every domain but the logarithms'
  const D positive = {0.1, 0.5, 1, 2.5, 40};
  const D rounding = {-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -1.7, 1.2};  // halves to even
  const Case cases[] = {
      {"sin", &Tensor::sin, &Tensor::sin_, porta::sin, [](double v) { return std::sin(v); }, any},
      {"cos", &Tensor::cos, &Tensor::cos_, porta::cos, [](double v) { return std::cos(v); }, any},
      {"tan", &Tensor::tan, &Tensor::tan_, porta::tan, [](double v) { return std::tan(v); }, any},
      {"asin", &Tensor::asin, &Tensor::asin_, porta::asin, [](double v) { return std::asin(v); }, any},
      {"acos", &Tensor::acos, &Tensor::acos_, porta::acos, [](double v) { return std::acos(v); }, any},
      {"atan", &Tensor::atan, &Tensor::atan_, porta::atan, [](double v) { return std::atan(v); }, any},
      {"sinh", &Tensor::sinh, &Tensor::sinh_, porta::sinh, [](double v) { return std::sinh(v); }, any},
      {"cosh", &Tensor::cosh, &Tensor::cosh_, porta::cosh, [](double v) { return std::cosh(v); }, any},
      {"floor", &Tensor::floor, &Tensor::floor_, porta::floor, [](double v) { return std::floor(v); }, rounding},
      {"ceil", &Tensor::ceil, &Tensor::ceil_, porta::ceil, [](double v) { return std::ceil(v); }, rounding},
      {"round", &Tensor::round, &Tensor::round_, porta::round, [](double v) { return std::nearbyint(v); }, rounding},
      {"trunc", &Tensor::trunc, &Tensor::trunc_, porta::trunc, [](double v) { return std::trunc(v); }, rounding},
      {"sign", &Tensor::sign, &Tensor::sign_, porta::sign,
       [](double v) { return v > 0 ? 1.0 : v < 0 ? -1.0 : 0.0; }, D{-3, -0.0, 0, 2, kNaN}},
      {"erf", &Tensor::erf, &Tensor::erf_, porta::erf, [](double v) { return std::erf(v); }, any},
      {"log1p", &Tensor::log1p, &Tensor::log1p_, porta::log1p, [](double v) { return std::log1p(v); },
       D{-0.75, 1e-10, 0.2, 3}},
      {"expm1", &Tensor::expm1, &Tensor::expm1_, porta::expm1, [](double v) { return std::expm1(v); },
       D{-0.75, 1e-10, 0.2, 3}},
      {"log2", &Tensor::log2, &Tensor::log2_, porta::log2, [](double v) { return std::log2(v); }, positive},
      {"log10", &Tensor::log10, &Tensor::log10_, porta::log10, [](double v) { return std::log10(v); }, positive},
      {"exp2", &Tensor::exp2, &Tensor::exp2_, porta::exp2, [](double v) { return std::exp2(v); }, any},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const Tensor x = vec(c.x);
    const D expected = map(c.x, c.ref);
    expect_near((x.*c.method)(), expected);
    expect_near(c.free(x), expected);
    const Tensor y = x.clone();
    EXPECT_EQ(&(y.*c.inplace)(), &y);  // returns *this
    expect_near(y, expected);
  }
  // round halves to even, exactly as torch.round: 2.5 -> 2, -0.5 -> -0.
  EXPECT_EQ(vec({2.5, 3.5, -0.5}).round().to_vector<double>(), (D{2, 4, -0.0}));
}

TEST(ElementwiseOps, ErfinvInvertsErf) {
  const D y = {-0.9, -0.25, 0, 0.5, 0.99};
  const D x = vec(y).erfinv().to_vector<double>();
  for (size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(std::erf(x[i]), y[i], 1e-12) << "element " << i;
  expect_near(porta::erfinv(vec({-1, 1, 1.5})), {-kInf, kInf, kNaN});
}

TEST(ElementwiseOps, UnaryIntegerInputs) {
  const Tensor i = ivec({-3, 0, 4});
  const Tensor s = i.sin();  // integer inputs of a float op give float32
  EXPECT_EQ(s.dtype(), porta::kFloat32);
  const std::vector<float> got = s.to_vector<float>();
  EXPECT_FLOAT_EQ(got[0], static_cast<float>(std::sin(-3.0)));
  EXPECT_FLOAT_EQ(got[2], static_cast<float>(std::sin(4.0)));
  // floor/ceil/round/trunc/sign keep an integer tensor's dtype and values.
  for (const Tensor& r : {i.floor(), i.ceil(), i.round(), i.trunc()}) {
    EXPECT_EQ(r.dtype(), porta::kInt64);
    EXPECT_EQ(r.to_vector<int64_t>(), (I{-3, 0, 4}));
  }
  EXPECT_EQ(porta::sign(i).to_vector<int64_t>(), (I{-1, 0, 1}));
}

TEST(ElementwiseOps, BinaryTensorScalarAndFreeForms) {
  const D a = {-7.5, -2, 0.5, 3, 7.25}, b = {2, -3, 0.75, -1.25, 4};
  const Tensor ta = vec(a), tb = vec(b);
  D atan2_ref, rem_ref, fmod_ref, floordiv_ref;
  for (size_t i = 0; i < a.size(); ++i) {
    atan2_ref.push_back(std::atan2(a[i], b[i]));
    const double r = std::fmod(a[i], b[i]);
    rem_ref.push_back(r != 0 && ((r < 0) != (b[i] < 0)) ? r + b[i] : r);  // Python's %
    fmod_ref.push_back(std::fmod(a[i], b[i]));
    floordiv_ref.push_back(std::floor(a[i] / b[i]));
  }
  expect_near(ta.atan2(tb), atan2_ref);
  expect_near(porta::atan2(ta, tb), atan2_ref);
  expect_near(ta.remainder(tb), rem_ref);
  expect_near(porta::remainder(ta, tb), rem_ref);
  expect_near(ta.fmod(tb), fmod_ref);
  expect_near(porta::fmod(ta, tb), fmod_ref);
  expect_near(ta.floor_divide(tb), floordiv_ref);
  expect_near(porta::floor_divide(ta, tb), floordiv_ref);

  // Scalar forms: double and integer scalars, methods and free functions (atan2 takes a tensor only, as
  // PyTorch's: a 0-d one here).
  expect_near(ta.atan2(Tensor::full({}, -2.0, ta.device(), ta.dtype())), map(a, [](double v) { return std::atan2(v, -2.0); }));
  expect_near(porta::atan2(ta, Tensor::full({}, 1.0, ta.device(), ta.dtype())),
              map(a, [](double v) { return std::atan2(v, 1.0); }));
  expect_near(ta.remainder(2.0), {0.5, 0, 0.5, 1, 1.25});
  expect_near(porta::remainder(ta, -2), {-1.5, 0, -1.5, -1, -0.75});
  expect_near(ta.fmod(2), {-1.5, 0, 0.5, 1, 1.25});
  expect_near(porta::fmod(ta, -2.0), {-1.5, 0, 0.5, 1, 1.25});
  expect_near(ta.floor_divide(2), {-4, -1, 0, 1, 3});
  expect_near(porta::floor_divide(ta, -2.0), {3, 1, -1, -2, -4});

  // In place, tensor and scalar.
  const Tensor c = ta.clone();
  c.remainder_(2.0);
  expect_near(c, {0.5, 0, 0.5, 1, 1.25});
  const Tensor d = ta.clone();
  d.floor_divide_(tb);
  expect_near(d, floordiv_ref);

  // Float zero divisors follow IEEE, as in PyTorch.
  expect_near(vec({1, -1}).floor_divide(0.0), {kInf, -kInf});
  expect_near(vec({1, -1}).remainder(0.0), {kNaN, kNaN});
  expect_near(vec({1, -1}).fmod(vec({0, 0})), {kNaN, kNaN});
}

TEST(ElementwiseOps, IntegerFloorDivideAndRemainderWithNegativeOperands) {
  const Tensor a = ivec({-7, 7, -7, 7, 6}), b = ivec({2, 2, -2, -2, 3});
  const Tensor q = a.floor_divide(b), r = a.remainder(b), f = porta::fmod(a, b);
  EXPECT_EQ(q.dtype(), porta::kInt64);
  EXPECT_EQ(r.dtype(), porta::kInt64);
  EXPECT_EQ(f.dtype(), porta::kInt64);
  EXPECT_EQ(q.to_vector<int64_t>(), (I{-4, 3, 3, -4, 2}));   // Python's //
  EXPECT_EQ(r.to_vector<int64_t>(), (I{1, 1, -1, -1, 0}));   // Python's %: b's sign
  EXPECT_EQ(f.to_vector<int64_t>(), (I{-1, 1, -1, 1, 0}));   // C's fmod: a's sign
  // a == b * (a // b) + a % b for every pair.
  EXPECT_EQ((b * q + r).to_vector<int64_t>(), a.to_vector<int64_t>());

  // Integer scalars keep the dtype (int32 here).
  const Tensor a32 = Tensor::from_vector(std::vector<int32_t>{-7, 7});
  const Tensor q32 = porta::floor_divide(a32, 2), r32 = a32.remainder(2);
  EXPECT_EQ(q32.dtype(), porta::kInt32);
  EXPECT_EQ(q32.to_vector<int32_t>(), (std::vector<int32_t>{-4, 3}));
  EXPECT_EQ(r32.dtype(), porta::kInt32);
  EXPECT_EQ(r32.to_vector<int32_t>(), (std::vector<int32_t>{1, 1}));
  EXPECT_EQ(a32.remainder(-2).to_vector<int32_t>(), (std::vector<int32_t>{-1, -1}));
  // A fractional scalar with an integer tensor gives float32.
  const Tensor qf = a32.floor_divide(2.5);
  EXPECT_EQ(qf.dtype(), porta::kFloat32);
  EXPECT_EQ(qf.to_vector<float>(), (std::vector<float>{-3, 2}));
}

TEST(ElementwiseOps, IntegerZeroDivisorIsRefused) {
  const Tensor a = ivec({-7, 7}), zero = ivec({1, 0});
  const std::vector<std::pair<const char*, std::function<void()>>> calls = {
      {"remainder", [&] { (void)a.remainder(zero); }},
      {"remainder", [&] { (void)a.remainder(0); }},
      {"remainder", [&] { (void)(a % 0); }},
      {"fmod", [&] { (void)porta::fmod(a, zero); }},
      {"fmod", [&] { (void)a.fmod(0); }},
      {"floor_divide", [&] { (void)a.floor_divide(zero); }},
      {"floor_divide", [&] { (void)porta::floor_divide(a, 0); }},
      {"floor_divide", [&] { a.clone().floor_divide_(0); }},
  };
  for (const auto& [op, call] : calls) {
    SCOPED_TRACE(op);
    const porta::Error e = error_of(call);
    EXPECT_EQ(e.status(), PORTA_ERROR_INVALID_ARGUMENT);
    EXPECT_THAT(e.what(), HasSubstr("ZeroDivisionError"));
    EXPECT_THAT(e.what(), HasSubstr(op));
  }
}

TEST(ElementwiseOps, RemainderOperator) {
  const Tensor a = ivec({-7, 7, -8}), b = ivec({2, -2, 3});
  EXPECT_EQ((a % b).to_vector<int64_t>(), (I{1, -1, 1}));
  EXPECT_EQ((a % 2).to_vector<int64_t>(), (I{1, 1, 0}));
  EXPECT_EQ((a % int64_t{-3}).to_vector<int64_t>(), (I{-1, -2, -2}));
  // Scalar on the left: the scalar is the dividend.
  const Tensor l = -7 % b;
  EXPECT_EQ(l.dtype(), porta::kInt64);
  EXPECT_EQ(l.to_vector<int64_t>(), (I{1, -1, 2}));
  const Tensor x = vec({-7.5, 2, 5});
  expect_near(x % 2.0, {0.5, 0, 1});
  expect_near(x % vec({-2}), {-1.5, 0, -1});
  expect_near(7.5 % vec({2, -2, 4}), {1.5, -0.5, 3.5});
  // A fractional scalar beside an integer tensor gives float32, on either side.
  const Tensor m = 7.5 % ivec({2, -2});
  EXPECT_EQ(m.dtype(), porta::kFloat32);
  EXPECT_EQ(m.to_vector<float>(), (std::vector<float>{1.5f, -0.5f}));
  EXPECT_EQ((ivec({7, -7}) % 2.5).dtype(), porta::kFloat32);
}

// ============================= composite ops =============================

TEST(CompositeOps, ClampWithScalarBounds) {
  const Tensor x = vec({-2, -0.5, 0.25, 1, 3});
  expect_near(x.clamp(-1.0, 1.0), {-1, -0.5, 0.25, 1, 1});
  expect_near(x.clamp(0, 2), {0, 0, 0.25, 1, 2});  // integer literals convert
  expect_near(x.clamp(0.0), {0, 0, 0.25, 1, 3});   // max defaults to absent
  expect_near(x.clamp(std::nullopt, 0.5), {-2, -0.5, 0.25, 0.5, 0.5});
  expect_near(porta::clamp(x, -0.5, std::nullopt), {-0.5, -0.5, 0.25, 1, 3});
  expect_near(porta::clamp(x, std::optional<double>(-1), std::optional<double>(1)), {-1, -0.5, 0.25, 1, 1});
  expect_near(x.clamp_min(0.0), {0, 0, 0.25, 1, 3});
  expect_near(porta::clamp_min(x, 1), {1, 1, 1, 1, 3});
  expect_near(x.clamp_max(0), {-2, -0.5, 0, 0, 0});
  expect_near(porta::clamp_max(x, -1.0), {-2, -1, -1, -1, -1});
  expect_near(x.clamp(1.0, -1.0), {-1, -1, -1, -1, -1});  // min > max gives max, as PyTorch
  expect_near(vec({1, kNaN}).clamp(0.0, 2.0), {1, kNaN});
  expect_near(x.clamp(kNaN, 1.0), {kNaN, kNaN, kNaN, kNaN, kNaN});  // a NaN bound gives NaN

  // Integer tensors: integral bounds keep the dtype, a fractional one gives float32.
  const Tensor i = ivec({-5, 0, 5});
  const Tensor ci = i.clamp(-2, 2);
  EXPECT_EQ(ci.dtype(), porta::kInt64);
  EXPECT_EQ(ci.to_vector<int64_t>(), (I{-2, 0, 2}));
  const Tensor cf = i.clamp(-2.5, std::nullopt);
  EXPECT_EQ(cf.dtype(), porta::kFloat32);
  EXPECT_EQ(cf.to_vector<float>(), (std::vector<float>{-2.5f, 0, 5}));

  const porta::Error none = error_of([&] { (void)x.clamp(std::optional<double>(), std::optional<double>()); });
  EXPECT_EQ(none.status(), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_THAT(none.what(), HasSubstr("clamp"));
  const porta::Error boolean = error_of([] { (void)Tensor::from_vector(B{true, false}).clamp(0, 1); });
  EXPECT_EQ(boolean.status(), PORTA_ERROR_UNSUPPORTED_DTYPE);
}

TEST(CompositeOps, ClampWithTensorBounds) {
  const Tensor x = vec({-2, -0.5, 0.25, 1, 3});
  const Tensor lo = vec({-1, 0, 0, 0, 0}), hi = vec({1});  // hi broadcasts
  expect_near(x.clamp(lo, hi), {-1, 0, 0.25, 1, 1});
  expect_near(porta::clamp(x, lo, hi), {-1, 0, 0.25, 1, 1});
  expect_near(x.clamp(lo), {-1, 0, 0.25, 1, 3});
  expect_near(x.clamp(std::nullopt, hi), {-2, -0.5, 0.25, 1, 1});
  expect_near(x.clamp(lo, Tensor()), {-1, 0, 0.25, 1, 3});  // an undefined bound is absent, as in libtorch
  expect_near(x.clamp_min(lo), {-1, 0, 0.25, 1, 3});
  expect_near(porta::clamp_max(x, vec({0})), {-2, -0.5, 0, 0, 0});
  expect_near(porta::clamp_min(x, vec({0})), {0, 0, 0.25, 1, 3});
  expect_near(x.clamp_max(hi), {-2, -0.5, 0.25, 1, 1});
  EXPECT_EQ(error_of([&] { (void)x.clamp(Tensor(), Tensor()); }).status(), PORTA_ERROR_INVALID_ARGUMENT);
  // A bound of the wrong shape fails through the binding's error path.
  EXPECT_EQ(error_of([&] { (void)x.clamp(vec({0, 1})); }).status(), PORTA_ERROR_SHAPE_MISMATCH);
  // clamp_min/clamp_max with an undefined tensor name the problem instead of clamping nothing.
  EXPECT_EQ(error_of([&] { (void)x.clamp_min(Tensor()); }).status(), PORTA_ERROR_INVALID_HANDLE);
}

TEST(CompositeOps, Lerp) {
  const D s = {0, 1, -2, 10}, e = {4, -1, 2, 10}, w = {0.25, 0.5, 1, 0.75};
  const Tensor ts = vec(s), te = vec(e), tw = vec(w);
  D expected;
  for (size_t i = 0; i < s.size(); ++i) expected.push_back(s[i] + w[i] * (e[i] - s[i]));
  expect_near(ts.lerp(te, tw), expected);
  expect_near(porta::lerp(ts, te, tw), expected);
  expect_near(ts.lerp(te, 0.25), {1, 0.5, -1, 10});
  // A scalar weight becomes a 0-d tensor of start's dtype: float32 stays float32.
  const Tensor f = Tensor::from_vector(std::vector<float>{0, 1}).lerp(Tensor::from_vector(std::vector<float>{1, 3}), 0.5);
  EXPECT_EQ(f.dtype(), porta::kFloat32);
  EXPECT_EQ(f.to_vector<float>(), (std::vector<float>{0.5f, 2}));
  // Weight 1 gives end exactly (computed from end when |weight| >= 0.5).
  const D big = {1e-17, 0.1, 1e20};
  EXPECT_EQ(porta::lerp(vec({1, 3, -1}), vec(big), 1.0).to_vector<double>(), big);
  EXPECT_EQ(error_of([] { (void)ivec({1}).lerp(ivec({2}), 0.5); }).status(), PORTA_ERROR_UNSUPPORTED_DTYPE);
}

TEST(CompositeOps, Logsumexp) {
  const D v = {1, 2, 3, -1, 0, 4};
  const Tensor m = vec(v, {2, 3});
  auto lse = [](std::initializer_list<double> xs) {
    double s = 0;
    for (double x : xs) s += std::exp(x);
    return std::log(s);
  };
  expect_near(m.logsumexp({1}), {lse({1, 2, 3}), lse({-1, 0, 4})});
  expect_near(porta::logsumexp(m, {0}), {lse({1, -1}), lse({2, 0}), lse({3, 4})});
  const Tensor kept = m.logsumexp({-1}, /*keepdim=*/true);
  EXPECT_EQ(kept.shape(), (porta::Shape{2, 1}));
  const Tensor all = porta::logsumexp(m, {});
  EXPECT_EQ(all.ndim(), 0);
  expect_near(all, {lse({1, 2, 3, -1, 0, 4})});
  expect_near(m.logsumexp({0, 1}), {lse({1, 2, 3, -1, 0, 4})});
  // No overflow: e^1000 is inf in double.
  expect_near(vec({1000, 1000}).logsumexp({0}), {1000 + std::log(2.0)});
  expect_near(vec({-kInf, -kInf}).logsumexp({0}), {-kInf});
  const Tensor i = ivec({0, 0}).logsumexp({0});
  EXPECT_EQ(i.dtype(), porta::kFloat32);
  EXPECT_FLOAT_EQ(i.item<float>(), static_cast<float>(std::log(2.0)));
}

TEST(CompositeOps, FloatClassesAndNanToNum) {
  const Tensor x = vec({kNaN, kInf, -kInf, 1.5, 0});
  EXPECT_EQ(x.isnan().to_vector<bool>(), (B{true, false, false, false, false}));
  EXPECT_EQ(porta::isnan(x).dtype(), porta::kBool);
  EXPECT_EQ(porta::isinf(x).to_vector<bool>(), (B{false, true, true, false, false}));
  EXPECT_EQ(x.isfinite().to_vector<bool>(), (B{false, false, false, true, true}));
  EXPECT_EQ(porta::isfinite(ivec({1, 2})).to_vector<bool>(), (B{true, true}));
  EXPECT_EQ(ivec({1, 2}).isnan().to_vector<bool>(), (B{false, false}));
  EXPECT_EQ(porta::isinf(Tensor::from_vector(B{true})).to_vector<bool>(), (B{false}));

  expect_near(x.nan_to_num(), {0, DBL_MAX, -DBL_MAX, 1.5, 0});
  expect_near(porta::nan_to_num(x, 7.0), {7, DBL_MAX, -DBL_MAX, 1.5, 0});
  expect_near(x.nan_to_num(std::nullopt, 1.0), {0, 1, -DBL_MAX, 1.5, 0});
  expect_near(porta::nan_to_num(x, -1.0, 2.0, -3.0), {-1, 2, -3, 1.5, 0});
  expect_near(x.nan_to_num(std::nullopt, std::nullopt, 0.0), {0, DBL_MAX, 0, 1.5, 0});
  const Tensor f = x.cast(porta::kFloat32).nan_to_num();
  EXPECT_EQ(f.to_vector<float>(), (std::vector<float>{0, FLT_MAX, -FLT_MAX, 1.5f, 0}));
  EXPECT_EQ(ivec({3, -4}).nan_to_num(1.0).to_vector<int64_t>(), (I{3, -4}));  // integers are copied
}

TEST(CompositeOps, LogicalOps) {
  const Tensor a = vec({0, 1, kNaN, -2}), b = vec({0, 0, 3, -0.0});
  EXPECT_EQ(a.logical_not().to_vector<bool>(), (B{true, false, false, false}));
  EXPECT_EQ(porta::logical_not(ivec({0, 5})).to_vector<bool>(), (B{true, false}));
  EXPECT_EQ(a.logical_and(b).to_vector<bool>(), (B{false, false, true, false}));
  EXPECT_EQ(porta::logical_or(a, b).to_vector<bool>(), (B{false, true, true, true}));
  EXPECT_EQ(a.logical_xor(b).to_vector<bool>(), (B{false, true, false, true}));
  EXPECT_EQ(porta::logical_xor(a, b).dtype(), porta::kBool);
  // Mixed dtypes and broadcasting.
  const Tensor m = Tensor::from_vector(B{true, false});
  EXPECT_EQ(porta::logical_and(ivec({2, 0, 3, 0}).view({2, 2}), m).to_vector<bool>(), (B{true, false, true, false}));
}

// ============================ activations ============================

namespace {
double phi(double x) { return std::exp(-x * x / 2) / std::sqrt(2 * std::numbers::pi); }
double Phi(double x) { return 0.5 * (1 + std::erf(x / std::sqrt(2.0))); }
double gelu_tanh(double x) {
  return 0.5 * x * (1 + std::tanh(std::sqrt(2 / std::numbers::pi) * (x + 0.044715 * x * x * x)));
}
double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }
}  // namespace

TEST(NnActivations, FunctionalValues) {
  namespace F = porta::nn::functional;
  const D v = {-3, -0.5, 0, 0.25, 2};
  const Tensor x = vec(v);
  expect_near(F::gelu(x), map(v, [](double t) { return t * Phi(t); }));
  expect_near(F::gelu(x, "none"), map(v, [](double t) { return t * Phi(t); }));
  expect_near(F::gelu(x, "tanh"), map(v, gelu_tanh));
  expect_near(F::silu(x), map(v, [](double t) { return t * sigmoid(t); }));
  expect_near(F::softplus(x), map(v, [](double t) { return std::log1p(std::exp(t)); }));
  expect_near(F::softplus(x, 2.0, 3.0),
              map(v, [](double t) { return 2 * t > 3 ? t : std::log1p(std::exp(2 * t)) / 2; }));
  expect_near(F::softplus(vec({100})), {100});  // linear beyond the threshold: no overflow
  expect_near(F::leaky_relu(x), map(v, [](double t) { return t > 0 ? t : 0.01 * t; }));
  expect_near(F::leaky_relu(x, 0.2), map(v, [](double t) { return t > 0 ? t : 0.2 * t; }));
  expect_near(F::elu(x), map(v, [](double t) { return t > 0 ? t : std::expm1(t); }));
  expect_near(F::elu(x, 0.5), map(v, [](double t) { return t > 0 ? t : 0.5 * std::expm1(t); }));
  expect_near(F::hardtanh(x), {-1, -0.5, 0, 0.25, 1});
  expect_near(F::hardtanh(x, -0.25, 0.5), {-0.25, -0.25, 0, 0.25, 0.5});
}

TEST(NnActivations, FunctionalErrors) {
  namespace F = porta::nn::functional;
  const Tensor x = vec({1});
  const porta::Error bad = error_of([&] { (void)F::gelu(x, "exact"); });
  EXPECT_EQ(bad.status(), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_THAT(bad.what(), HasSubstr("exact"));
  EXPECT_THAT(bad.what(), HasSubstr("tanh"));
  EXPECT_EQ(error_of([] { (void)F::silu(ivec({1})); }).status(), PORTA_ERROR_UNSUPPORTED_DTYPE);
  EXPECT_EQ(error_of([] { (void)F::gelu(ivec({1}), "tanh"); }).status(), PORTA_ERROR_UNSUPPORTED_DTYPE);
  EXPECT_EQ(error_of([&] { (void)F::hardtanh(x, 1, -1); }).status(), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(error_of([&] { (void)F::softplus(x, 0.0); }).status(), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(error_of([] { (void)F::elu(Tensor()); }).status(), PORTA_ERROR_INVALID_HANDLE);
}

TEST(NnActivations, Gradients) {
  const D v = {-2, -0.5, 0.3, 1.5};
  {  // gelu: d/dx x Phi(x) = Phi(x) + x phi(x)
    const Tensor x = vec(v).requires_grad_();
    porta::nn::functional::gelu(x).sum().backward();
    expect_near(x.grad(), map(v, [](double t) { return Phi(t) + t * phi(t); }), 1e-10);
  }
  {  // softplus: sigmoid(beta x), and 1 past the threshold
    const Tensor x = vec(v).requires_grad_();
    porta::nn::functional::softplus(x, 2.0, 2.0).sum().backward();
    expect_near(x.grad(), map(v, [](double t) { return 2 * t > 2 ? 1.0 : sigmoid(2 * t); }), 1e-10);
  }
  {  // clamp with number bounds: 1 where min < x < max, else 0 (PyTorch 2.15's, the oracle's)
    const Tensor x = vec({-2, -1, 0.5, 1, 3}).requires_grad_();
    (x.clamp(-1.0, 1.0) * vec({1, 2, 3, 4, 5})).sum().backward();
    expect_near(x.grad(), {0, 0, 3, 0, 0});
  }
  {  // lerp: d/dstart = 1 - w, d/dend = w, d/dweight = end - start
    const Tensor s = vec({0, 1}).requires_grad_(), e = vec({4, -1}).requires_grad_(),
                 w = vec({0.25, 0.75}).requires_grad_();
    porta::lerp(s, e, w).sum().backward();
    expect_near(s.grad(), {0.75, 0.25});
    expect_near(e.grad(), {0.25, 0.75});
    expect_near(w.grad(), {4, -2});
  }
  {  // logsumexp: softmax
    const Tensor x = vec({1, 2, 3}).requires_grad_();
    x.logsumexp({0}).backward();
    const double z = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
    expect_near(x.grad(), {std::exp(1.0) / z, std::exp(2.0) / z, std::exp(3.0) / z});
  }
  {  // a kernel op: d/dx sin = cos
    const Tensor x = vec(v).requires_grad_();
    porta::sin(x).sum().backward();
    expect_near(x.grad(), map(v, [](double t) { return std::cos(t); }));
  }
}

TEST(NnActivations, Modules) {
  namespace F = porta::nn::functional;
  using namespace porta::nn;
  const Tensor x = vec({-3, -0.5, 0, 0.25, 2});
  struct Case {
    std::shared_ptr<Module> m;
    Tensor expected;
    const char* repr;
  };
  const Case cases[] = {
      {std::make_shared<GELU>(), F::gelu(x), "GELU(approximate='none')"},
      {std::make_shared<GELU>("tanh"), F::gelu(x, "tanh"), "GELU(approximate='tanh')"},
      {std::make_shared<SiLU>(), F::silu(x), "SiLU()"},
      {std::make_shared<Softplus>(), F::softplus(x), "Softplus(beta=1.0, threshold=20.0)"},
      {std::make_shared<Softplus>(2.0, 3.0), F::softplus(x, 2, 3), "Softplus(beta=2.0, threshold=3.0)"},
      {std::make_shared<LeakyReLU>(), F::leaky_relu(x), "LeakyReLU(negative_slope=0.01)"},
      {std::make_shared<LeakyReLU>(0.2), F::leaky_relu(x, 0.2), "LeakyReLU(negative_slope=0.2)"},
      {std::make_shared<ELU>(), F::elu(x), "ELU(alpha=1.0)"},
      {std::make_shared<ELU>(0.5), F::elu(x, 0.5), "ELU(alpha=0.5)"},
      {std::make_shared<Hardtanh>(), F::hardtanh(x), "Hardtanh(min_val=-1.0, max_val=1.0)"},
      {std::make_shared<Hardtanh>(-0.25, 0.5), F::hardtanh(x, -0.25, 0.5), "Hardtanh(min_val=-0.25, max_val=0.5)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.repr);
    EXPECT_EQ(c.m->describe(), c.repr);
    EXPECT_TRUE(c.m->parameters().empty());
    expect_near((*c.m)(x), c.expected.to_vector<double>());
    const std::shared_ptr<Module> copy = c.m->clone();
    EXPECT_EQ(copy->describe(), c.repr);
    expect_near(copy->forward(x), c.expected.to_vector<double>());
  }
  EXPECT_EQ(error_of([] { (void)GELU("erf"); }).status(), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(error_of([] { (void)Hardtanh(1, -1); }).status(), PORTA_ERROR_INVALID_ARGUMENT);

  // In a model: gradients flow through the activations to the parameters.
  Sequential net(std::make_shared<Linear>(3, 4), std::make_shared<GELU>(), std::make_shared<Linear>(4, 4),
                 std::make_shared<SiLU>(), std::make_shared<Linear>(4, 1), std::make_shared<Softplus>());
  const Tensor y = net(Tensor::randn({5, 3}));
  EXPECT_EQ(y.shape(), (porta::Shape{5, 1}));
  y.mean().backward();
  for (const Tensor& p : net.parameters()) {
    ASSERT_TRUE(p.grad().defined());
    EXPECT_TRUE(p.grad().isfinite().logical_not().sum().item<int64_t>() == 0);
  }
}

// ============================== on a device ==============================

class ElementwiseOpsOnMock : public MockDeviceTest {};

TEST_F(ElementwiseOpsOnMock, ScalarOperandsFollowTheTensorsDevice) {
  const porta::Device mock("mock:0");
  const Tensor s = vec({0, 1}).to(mock), e = vec({4, -1}).to(mock);
  const Tensor l = s.lerp(e, 0.25);  // the 0-d weight is made on mock:0
  EXPECT_EQ(l.device(), mock);
  expect_near(l.cpu(), {1, 0.5});
  const Tensor r = 7 % ivec({2, -2}).to(mock);
  EXPECT_EQ(r.device(), mock);
  EXPECT_EQ(r.cpu().to_vector<int64_t>(), (I{1, -1}));
  expect_near(porta::nn::functional::gelu(s).cpu(), {0, Phi(1)});
  expect_near(e.clamp(0.0, 2.0).cpu(), {2, 0});
  EXPECT_EQ(e.floor_divide(-3).cpu().to_vector<double>(), (D{-2, 0}));
  EXPECT_EQ(porta::isinf(e.div(0.0)).cpu().to_vector<bool>(), (B{true, true}));
  const porta::Error z = error_of([&] { (void)ivec({1}).to(mock).remainder(0); });
  EXPECT_THAT(z.what(), HasSubstr("ZeroDivisionError"));
}
