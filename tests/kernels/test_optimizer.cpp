// SGD and Adam/AdamW steps, run several times in place, against a double
// reference written from the PyTorch formulas in porta_sgd_params and
// porta_adam_params.
#include <cmath>
#include <cstring>
#include <limits>

#include "kernel_test_util.hpp"
#include "optimizer_loops.hpp"

namespace porta_test {
namespace {

constexpr int kSteps = 5;
const std::vector<int64_t> kShape = {300, 257};  // big enough to run on several threads

template <class T>
std::vector<double> as_double(const Tensor<T>& t) {
  std::vector<double> v(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) v[static_cast<size_t>(i)] = static_cast<double>(t[i]);
  return v;
}

template <class T>
class OptimizerKernels : public ::testing::Test {};
TYPED_TEST_SUITE(OptimizerKernels, FloatTypes);

TYPED_TEST(OptimizerKernels, SgdMatchesThePyTorchFormula) {
  using T = TypeParam;
  struct Config {
    double lr, momentum, dampening, weight_decay;
    int32_t nesterov;
  };
  const Config configs[] = {
      {0.1, 0, 0, 0, 0},      {0.1, 0, 0, 0.01, 0},          {0.05, 0.9, 0, 0, 0},
      {0.05, 0.9, 0, 0, 1},   {0.05, 0.9, 0.1, 0.001, 0},    {0.01, 0.5, 0.5, 0.1, 1},
  };
  uint32_t seed = 1;
  for (const Config& cfg : configs) {
    SCOPED_TRACE(testing::Message() << "lr " << cfg.lr << " momentum " << cfg.momentum << " dampening "
                                    << cfg.dampening << " weight_decay " << cfg.weight_decay << " nesterov "
                                    << cfg.nesterov);
    Tensor<T> param = random_tensor<T>(kShape, seed++), buf(kShape);
    std::vector<double> p = as_double(param), b(p.size(), 0.0);
    for (int step = 0; step < kSteps; ++step) {
      Tensor<T> grad = random_tensor<T>(kShape, seed++);
      const porta_sgd_params params{sizeof(porta_sgd_params), cfg.lr,           cfg.momentum, cfg.dampening,
                                    cfg.weight_decay,         cfg.nesterov, step == 0 ? 1 : 0};
      std::vector<DLTensor> ins = {param.dl(), grad.dl()};
      if (cfg.momentum != 0) ins.push_back(buf.dl());
      ASSERT_EQ(call<T>(PORTA_OP_SGD_STEP, ins, {param.dl()}, &params), PORTA_OK) << last_error();
      for (size_t i = 0; i < p.size(); ++i) {
        double d = static_cast<double>(grad[static_cast<int64_t>(i)]) + cfg.weight_decay * p[i];
        if (cfg.momentum != 0) {
          b[i] = step == 0 ? d : cfg.momentum * b[i] + (1 - cfg.dampening) * d;
          d = cfg.nesterov ? d + cfg.momentum * b[i] : b[i];
        }
        p[i] -= cfg.lr * d;
      }
    }
    expect_near_all(param, p, tolerance<T>(), "param");
    if (cfg.momentum != 0) expect_near_all(buf, b, tolerance<T>(), "momentum_buffer");
  }
}

TYPED_TEST(OptimizerKernels, AdamAndAdamWMatchThePyTorchFormula) {
  using T = TypeParam;
  struct Config {
    double lr, beta1, beta2, eps, weight_decay;
    int32_t decoupled;
  };
  const Config configs[] = {
      {1e-3, 0.9, 0.999, 1e-8, 0, 0},   {1e-3, 0.9, 0.999, 1e-8, 0.01, 0}, {1e-3, 0.9, 0.999, 1e-8, 0.01, 1},
      {1e-2, 0.8, 0.99, 1e-6, 0.1, 1},  {5e-2, 0.3, 0.9, 1e-3, 0.05, 0},   {1e-2, 0.9, 0.999, 1e-8, 0, 1},
  };
  uint32_t seed = 100;
  for (const Config& cfg : configs) {
    SCOPED_TRACE(testing::Message() << "lr " << cfg.lr << " betas " << cfg.beta1 << ", " << cfg.beta2 << " eps "
                                    << cfg.eps << " weight_decay " << cfg.weight_decay << " decoupled "
                                    << cfg.decoupled);
    Tensor<T> param = random_tensor<T>(kShape, seed++), m(kShape), v(kShape);
    std::vector<double> p = as_double(param), rm(p.size(), 0.0), rv(p.size(), 0.0);
    for (int64_t step = 1; step <= kSteps; ++step) {
      Tensor<T> grad = random_tensor<T>(kShape, seed++);
      const porta_adam_params params{sizeof(porta_adam_params), cfg.lr, cfg.beta1, cfg.beta2, cfg.eps,
                                     cfg.weight_decay,          step,   cfg.decoupled};
      ASSERT_EQ(call<T>(PORTA_OP_ADAM_STEP, {param.dl(), grad.dl(), m.dl(), v.dl()}, {param.dl()}, &params), PORTA_OK)
          << last_error();
      const double bias1 = 1 - std::pow(cfg.beta1, static_cast<double>(step));
      const double bias2 = 1 - std::pow(cfg.beta2, static_cast<double>(step));
      for (size_t i = 0; i < p.size(); ++i) {
        double g = static_cast<double>(grad[static_cast<int64_t>(i)]);
        if (cfg.decoupled) p[i] *= 1 - cfg.lr * cfg.weight_decay;
        else g += cfg.weight_decay * p[i];
        rm[i] = cfg.beta1 * rm[i] + (1 - cfg.beta1) * g;
        rv[i] = cfg.beta2 * rv[i] + (1 - cfg.beta2) * g * g;
        p[i] -= cfg.lr / bias1 * rm[i] / (std::sqrt(rv[i]) / std::sqrt(bias2) + cfg.eps);
      }
    }
    expect_near_all(param, p, tolerance<T>(), "param");
    expect_near_all(m, rm, tolerance<T>(), "exp_avg");
    expect_near_all(v, rv, tolerance<T>(), "exp_avg_sq");
  }
}

// Every vector width the CPU runs gives the baseline's bits
// (optimizer_loops.hpp): each of the step's branches, arrays ending inside a
// vector, and gradients that are zero, tiny, subnormal, huge, infinite or NaN.
TYPED_TEST(OptimizerKernels, AdamGivesTheBaselinesBitsAtEveryVectorWidth) {
  using T = TypeParam;
  using porta::host::Isa;
  const std::vector<Isa> isas = porta::host::runnable_isas();
  if (isas.size() == 1) GTEST_SKIP() << "this CPU runs neither AVX2 nor AVX-512F: the baseline is its only width";
  const T lim_max = std::numeric_limits<T>::max(), inf = std::numeric_limits<T>::infinity();
  const T special[] = {T(0),    -T(0), T(1e-30), std::numeric_limits<T>::denorm_min(),
                       lim_max, -inf,  inf,      std::numeric_limits<T>::quiet_NaN()};
  struct Config {
    double beta1, weight_decay;
    int32_t decoupled;
  };
  // beta1 0.9 and 0.3: lerp's two formulas; no decay, L2 decay, decoupled decay.
  const Config configs[] = {{0.9, 0, 0}, {0.9, 0.01, 0}, {0.9, 0.01, 1}, {0.3, 0, 0}, {0.3, 0.05, 0}, {0.3, 0.05, 1}};
  uint32_t seed = 500;
  for (const Config& cfg : configs) {
    for (int64_t n : {1, 7, 15, 16, 17, 33, 1003}) {
      const std::vector<int64_t> shape = {n};
      const Tensor<T> p0 = random_tensor<T>(shape, seed++, -2, 2);
      std::vector<Tensor<T>> grads;
      for (int step = 0; step < 3; ++step) {
        grads.push_back(random_tensor<T>(shape, seed++, -3, 3));
        for (int64_t i = step; i < n; i += 5) grads.back()[i] = special[(i + step) % std::size(special)];
      }
      std::vector<T> want[3];  // the baseline's param, m and v after three steps
      for (Isa isa : isas) {
        SCOPED_TRACE(testing::Message() << porta::host::isa_name(isa) << ", n " << n << ", beta1 " << cfg.beta1
                                        << ", weight_decay " << cfg.weight_decay << ", decoupled " << cfg.decoupled);
        std::vector<T> p(p0.data(), p0.data() + n), m(static_cast<size_t>(n)), v(static_cast<size_t>(n));
        for (int64_t step = 1; step <= 3; ++step) {
          const porta_adam_params params{sizeof(porta_adam_params), 1e-2, cfg.beta1,    0.999, 1e-8,
                                         cfg.weight_decay,          step, cfg.decoupled};
          porta::host::adam_loop(isa, porta::math::AdamStep<T>(params), p.data(), grads[step - 1].data(), m.data(),
                                 v.data(), n);
        }
        const std::vector<T>* got[3] = {&p, &m, &v};
        for (int k = 0; k < 3; ++k) {
          if (isa == Isa::Baseline) {
            want[k] = *got[k];
            continue;
          }
          for (int64_t i = 0; i < n; ++i) {
            const T w = want[k][static_cast<size_t>(i)], g = (*got[k])[static_cast<size_t>(i)];
            if (std::isnan(w))
              EXPECT_TRUE(std::isnan(g)) << "array " << k << " element " << i << ": " << g << ", baseline NaN";
            else
              EXPECT_EQ(std::memcmp(&w, &g, sizeof(T)), 0)
                  << "array " << k << " element " << i << ": " << g << ", baseline " << w;
          }
        }
      }
    }
  }
}

TYPED_TEST(OptimizerKernels, RejectsBadCalls) {
  using T = TypeParam;
  Tensor<T> param(kShape, T(1)), grad(kShape, T(1)), m(kShape), v(kShape);
  const porta_sgd_params sgd{sizeof(porta_sgd_params), 0.1, 0.9, 0, 0, 0, 1};
  EXPECT_EQ(call<T>(PORTA_OP_SGD_STEP, {param.dl(), grad.dl()}, {param.dl()}, &sgd), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("momentum"), std::string::npos) << last_error();
  EXPECT_EQ(call<T>(PORTA_OP_SGD_STEP, {param.dl(), grad.dl()}, {param.dl()}, nullptr), PORTA_ERROR_INVALID_ARGUMENT);
  porta_adam_params adam{sizeof(porta_adam_params), 1e-3, 0.9, 0.999, 1e-8, 0, 0, 0};
  EXPECT_EQ(call<T>(PORTA_OP_ADAM_STEP, {param.dl(), grad.dl(), m.dl(), v.dl()}, {param.dl()}, &adam),
            PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("step"), std::string::npos) << last_error();
  adam.step = 1;
  adam.struct_size = sizeof(porta_adam_params) - sizeof(int64_t) - sizeof(int32_t) - 4;
  EXPECT_EQ(call<T>(PORTA_OP_ADAM_STEP, {param.dl(), grad.dl(), m.dl(), v.dl()}, {param.dl()}, &adam),
            PORTA_ERROR_INVALID_ARGUMENT);
  for (int64_t i = 0; i < param.numel(); ++i) ASSERT_EQ(param[i], T(1)) << "a rejected step must not write";
}

}  // namespace
}  // namespace porta_test
