// The host kernels' vector math (plugins/common/vector_math.hpp): every
// function at every level this CPU runs, against long double references
// within SLEEF's stated accuracy, with C99's special values; the levels of
// one FMA class agree to the bit; an element's result does not depend on its
// position, the array's length or whether the output is the input.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "vector_math.hpp"

namespace {

using porta::host::vecmath::Level;
namespace vm = porta::host::vecmath;

struct FnCase {
  porta_op fn;
  const char* name;
  long double (*ref)(long double);
  double ulps;  // SLEEF's bound
};
long double sigmoid_ref(long double x) { return 1.0L / (1.0L + std::exp(-x)); }
const FnCase kFns[] = {
    {PORTA_OP_EXP, "exp", [](long double x) { return std::exp(x); }, 1},
    {PORTA_OP_LOG, "log", [](long double x) { return std::log(x); }, 1},
    {PORTA_OP_TANH, "tanh", [](long double x) { return std::tanh(x); }, 3.5},
    {PORTA_OP_SIGMOID, "sigmoid", sigmoid_ref, 3},  // exp's ulp, then 1 + e and a division
    {PORTA_OP_ERF, "erf", [](long double x) { return std::erf(x); }, 1},
    {PORTA_OP_SIN, "sin", [](long double x) { return std::sin(x); }, 1},
    {PORTA_OP_COS, "cos", [](long double x) { return std::cos(x); }, 1},
    {PORTA_OP_TAN, "tan", [](long double x) { return std::tan(x); }, 1},
    {PORTA_OP_ASIN, "asin", [](long double x) { return std::asin(x); }, 1},
    {PORTA_OP_ACOS, "acos", [](long double x) { return std::acos(x); }, 1},
    {PORTA_OP_ATAN, "atan", [](long double x) { return std::atan(x); }, 1},
    {PORTA_OP_SINH, "sinh", [](long double x) { return std::sinh(x); }, 1},
    {PORTA_OP_COSH, "cosh", [](long double x) { return std::cosh(x); }, 1},
    {PORTA_OP_LOG1P, "log1p", [](long double x) { return std::log1p(x); }, 1},
    {PORTA_OP_EXPM1, "expm1", [](long double x) { return std::expm1(x); }, 1},
    {PORTA_OP_LOG2, "log2", [](long double x) { return std::log2(x); }, 1},
    {PORTA_OP_LOG10, "log10", [](long double x) { return std::log10(x); }, 1},
    {PORTA_OP_EXP2, "exp2", [](long double x) { return std::exp2(x); }, 1},
    {PORTA_OP_ASINH, "asinh", [](long double x) { return std::asinh(x); }, 1},
};
// Every row of porta/ops.h with a SLEEF vector column has its case here (VectorMath.EveryVectorizedOpHasACase).

// Values across each function's domain, the special ones and a sweep.
template <class T>
std::vector<T> inputs() {
  constexpr T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  std::vector<T> v = {T(0), -T(0), inf, -inf, nan, T(1), T(-1), T(0.5), T(-0.5), T(1e-30), T(-1e-30),
                      std::numeric_limits<T>::denorm_min(), std::numeric_limits<T>::min(), T(80), T(-80),
                      T(700), T(-700), T(1e6), T(-1e6)};
  for (int i = -4000; i <= 4000; ++i) v.push_back(static_cast<T>(i) / T(97));  // [-41, 41]
  for (int e = -40; e <= 40; ++e) v.push_back(std::ldexp(T(1.3), e));
  return v;
}

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

template <class T>
void check_against_reference(Level level, const FnCase& f) {
  SCOPED_TRACE(std::string(f.name) + " " + (sizeof(T) == 4 ? "float" : "double") + " at " + vm::level_name(level));
  const std::vector<T> x = inputs<T>();
  std::vector<T> y(x.size());
  ASSERT_TRUE(vm::apply_at(level, f.fn, x.data(), y.data(), static_cast<int64_t>(x.size())));
  int bad = 0;
  for (size_t i = 0; i < x.size() && bad < 5; ++i) {
    const long double want = f.ref(static_cast<long double>(x[i]));
    const T rounded = static_cast<T>(want);
    const T got = y[i];
    if (std::isnan(rounded) || std::isnan(got)) {
      if (std::isnan(rounded) != std::isnan(got)) ++bad, ADD_FAILURE() << "x = " << x[i] << ": got " << got << ", want " << rounded;
      continue;
    }
    if (std::isinf(rounded) || rounded == T(0)) {  // exact, sign included
      if (!same_bits(got, rounded) && !(rounded == T(0) && std::fabs(got) <= std::numeric_limits<T>::denorm_min()))
        ++bad, ADD_FAILURE() << "x = " << x[i] << ": got " << got << ", want " << rounded;
      continue;
    }
    // |got - want| in units of the last place of want's binade
    const T ulp = std::nextafter(std::fabs(rounded), std::numeric_limits<T>::infinity()) - std::fabs(rounded);
    const long double err = std::fabs(static_cast<long double>(got) - want) / static_cast<long double>(ulp);
    if (err > f.ulps + 0.5L) ++bad, ADD_FAILURE() << "x = " << x[i] << ": got " << got << ", want " << static_cast<double>(want) << " (" << static_cast<double>(err) << " ulp)";
  }
}

class VectorMath : public testing::Test {
 protected:
  void SetUp() override {
    // SLEEF (libsleef3) is one of scripts/install-deps.sh's packages: the kernels' fast path is tested, never skipped.
    ASSERT_NE(vm::level(), Level::None) << "SLEEF could not be loaded: install libsleef3 (scripts/install-deps.sh)";
  }
};

TEST_F(VectorMath, EveryFunctionAtEveryLevelWithinItsBound) {
  for (Level level : vm::available_levels())
    for (const FnCase& f : kFns) {
      check_against_reference<float>(level, f);
      check_against_reference<double>(level, f);
    }
}

TEST_F(VectorMath, LevelsWithFmaAgreeToTheBit) {
  std::vector<Level> fma;
  for (Level level : vm::available_levels())
    if (level != Level::Sse2) fma.push_back(level);
  if (fma.size() < 2) GTEST_SKIP() << "this CPU has one FMA level (" << fma.size() << "): nothing to compare";
  const std::vector<float> xf = inputs<float>();
  const std::vector<double> xd = inputs<double>();
  for (const FnCase& f : kFns) {
    std::vector<float> a(xf.size()), b(xf.size());
    std::vector<double> c(xd.size()), d(xd.size());
    vm::apply_at(fma[0], f.fn, xf.data(), a.data(), static_cast<int64_t>(xf.size()));
    vm::apply_at(fma[1], f.fn, xf.data(), b.data(), static_cast<int64_t>(xf.size()));
    vm::apply_at(fma[0], f.fn, xd.data(), c.data(), static_cast<int64_t>(xd.size()));
    vm::apply_at(fma[1], f.fn, xd.data(), d.data(), static_cast<int64_t>(xd.size()));
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)), 0) << f.name << " float";
    EXPECT_EQ(std::memcmp(c.data(), d.data(), c.size() * sizeof(double)), 0) << f.name << " double";
  }
}

// Every length up to three blocks, at every offset: an element's bits are
// those it gets alone, and the output may be the input.
TEST_F(VectorMath, ResultsDoNotDependOnPositionLengthOrAliasing) {
  std::vector<float> x(53);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) * 0.37f - 9.0f;
  for (porta_op fn : {PORTA_OP_EXP, PORTA_OP_TANH, PORTA_OP_SIGMOID, PORTA_OP_LOG1P}) {
    std::vector<float> alone(x.size());
    for (size_t i = 0; i < x.size(); ++i) vm::apply(fn, &x[i], &alone[i], 1);
    for (int64_t n = 1; n <= 50; ++n)
      for (int64_t off : {0, 1, 3}) {
        std::vector<float> y(static_cast<size_t>(n)), in(x.begin() + off, x.begin() + off + n);
        vm::apply(fn, in.data(), y.data(), n);
        vm::apply(fn, in.data(), in.data(), n);  // in place
        for (int64_t i = 0; i < n; ++i) {
          ASSERT_TRUE(same_bits(y[i], alone[off + i])) << "fn " << static_cast<int>(fn) << " n " << n << " at " << off + i;
          ASSERT_TRUE(same_bits(in[i], y[i])) << "in place, fn " << static_cast<int>(fn) << " n " << n;
        }
      }
  }
}

TEST(VectorMathTable, EveryVectorizedOpHasACase) {
  for (int op = 0; op < PORTA_OP_COUNT; ++op) {
    int cases = 0;
    for (const FnCase& f : kFns) cases += f.fn == op;
    EXPECT_EQ(cases, vm::vectorized(static_cast<porta_op>(op)) ? 1 : 0) << "op id " << op;
  }
}

TEST_F(VectorMath, NothingToDoAndNoLevel) {
  float x = 1, y = 7;
  EXPECT_TRUE(vm::apply(PORTA_OP_EXP, &x, &y, 0));
  EXPECT_EQ(y, 7.0f);
  EXPECT_FALSE(vm::apply_at(Level::None, PORTA_OP_EXP, &x, &y, 1));
  EXPECT_EQ(y, 7.0f);
}

}  // namespace
