#include "gradcheck.hpp"

#include <cmath>
#include <random>

#include "../conformance/missing_kernel.hpp"

namespace gradcheck {
namespace {

// Expects PORTA_OK; a kernel the plugin lacks ends the case instead (missing_kernel.hpp).
void expect_ok(porta_status status) {
  conformance::throw_if_missing_kernel(status, __FILE__, __LINE__);
  EXPECT_EQ(status, PORTA_OK) << porta_last_error();
}

// Sets grad mode for one evaluation of L and restores it, also when a missing kernel ends the case.
class GradMode {
 public:
  explicit GradMode(bool enabled) { porta_set_grad_enabled(enabled); }
  ~GradMode() { porta_set_grad_enabled(1); }
  GradMode(const GradMode&) = delete;
  GradMode& operator=(const GradMode&) = delete;
};

struct Release {
  void operator()(porta_tensor* t) const { porta_tensor_release(t); }
};
using Owned = std::unique_ptr<porta_tensor, Release>;

int64_t count(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::vector<double> read(porta_tensor* t) {
  int64_t n = 0;
  EXPECT_EQ(porta_tensor_numel(t, &n), PORTA_OK);
  std::vector<double> v(static_cast<size_t>(n));
  expect_ok(porta_tensor_to_host(t, v.data(), v.size() * sizeof(double)));
  return v;
}

std::vector<int64_t> shape_of(porta_tensor* t) {
  int32_t nd = 0;
  porta_tensor_ndim(t, &nd);
  std::vector<int64_t> s(static_cast<size_t>(nd));
  porta_tensor_shape(t, s.data());
  return s;
}

// sum(a * b): L's weighting of f(x) by W, and G's of dL/dx by V.
Owned sum_of_product(porta_tensor* a, porta_tensor* b) {
  porta_tensor* p = nullptr;
  expect_ok(porta_mul(a, b, &p));
  Owned prod(p);
  porta_tensor* s = nullptr;
  expect_ok(porta_sum(prod.get(), nullptr, 0, 0, &s));
  return Owned(s);
}

// L = sum(f(x) * W); W drawn once per case from the output's shape.
class Loss {
 public:
  Loss(const Case& c, DLDevice dev) : c_(c), dev_(dev) {}

  // Evaluates L for host inputs; with grads != nullptr also runs backward
  // and returns dL/dx per input.
  double eval(const std::vector<std::vector<double>>& xs, std::vector<std::vector<double>>* grads) {
    const GradMode grad_mode(grads != nullptr);
    porta_generator_set_state(1234, 0);  // random ops (dropout) see the same numbers every time
    std::vector<Owned> leaves;
    std::vector<porta_tensor*> raw;
    for (size_t i = 0; i < xs.size(); ++i) {
      leaves.emplace_back(constant(xs[i], c_.inputs[i].shape, dev_));
      if (grads) {
        expect_ok(porta_tensor_set_requires_grad(leaves.back().get(), 1));
      }
      raw.push_back(leaves.back().get());
    }
    Owned out(c_.f(raw));
    if (!out) return NAN;
    if (w_.empty()) {
      out_shape_ = shape_of(out.get());
      std::mt19937_64 rng(99);
      std::uniform_real_distribution<double> u(-1, 1);
      w_.resize(static_cast<size_t>(count(out_shape_)));
      for (double& v : w_) v = u(rng);
    }
    Owned w(constant(w_, out_shape_, dev_));
    Owned loss = sum_of_product(out.get(), w.get());
    const double value = read(loss.get()).at(0);
    if (grads) {
      expect_ok(porta_backward(loss.get(), nullptr));
      grads->clear();
      for (auto& leaf : leaves) {
        porta_tensor* g = nullptr;
        EXPECT_EQ(porta_tensor_grad(leaf.get(), &g), PORTA_OK);
        if (g == nullptr) {
          grads->emplace_back(static_cast<size_t>(count(shape_of(leaf.get()))), 0.0);
          continue;
        }
        DLDevice gd = device_of(g);
        EXPECT_EQ(gd.device_type, dev_.device_type) << "gradients land on the leaf's device";
        EXPECT_EQ(gd.device_id, dev_.device_id);
        grads->push_back(read(g));
        porta_tensor_release(g);
      }
    }
    return value;
  }

 private:
  const Case& c_;
  DLDevice dev_;
  std::vector<double> w_;
  std::vector<int64_t> out_shape_;
};


// G(x) = sum_i sum(dL/dx_i * V_i), L = sum(f(x) * W), dL/dx by porta_backward_ex
// with grads_out. eval(xs, nullptr): G. eval(xs, &grads): G and dG/dx by
// differentiating the recorded first backward (create_graph) again.
class SecondOrder {
 public:
  SecondOrder(const Case& c, DLDevice dev) : c_(c), dev_(dev) {}
  double eval(const std::vector<std::vector<double>>& xs, std::vector<std::vector<double>>* grads) {
    porta_generator_set_state(1234, 0);
    std::vector<Owned> leaves;
    std::vector<porta_tensor*> raw;
    for (size_t i = 0; i < xs.size(); ++i) {
      leaves.emplace_back(constant(xs[i], c_.inputs[i].shape, dev_));
      expect_ok(porta_tensor_set_requires_grad(leaves.back().get(), 1));
      raw.push_back(leaves.back().get());
    }
    Owned out(c_.f(raw));
    if (!out) return NAN;
    if (w_.empty()) {
      std::mt19937_64 rng(99);
      std::uniform_real_distribution<double> u(-1, 1);
      out_shape_ = shape_of(out.get());
      w_.resize(static_cast<size_t>(count(out_shape_)));
      for (double& v : w_) v = u(rng);
      for (const Input& in : c_.inputs) {
        v_.emplace_back(static_cast<size_t>(count(in.shape)));
        for (double& v : v_.back()) v = u(rng);
      }
    }
    Owned w(constant(w_, out_shape_, dev_));
    Owned loss = sum_of_product(out.get(), w.get());
    std::vector<porta_tensor*> first(raw.size(), nullptr);
    porta_backward_options o{};
    o.struct_size = sizeof(o);
    o.create_graph = o.retain_graph = grads != nullptr;
    o.inputs = raw.data(), o.num_inputs = static_cast<int32_t>(raw.size());
    o.allow_unused = 1, o.grads_out = first.data();
    porta_tensor* root = loss.get();
    expect_ok(porta_backward_ex(&root, nullptr, 1, &o));
    std::vector<Owned> firsts;
    for (porta_tensor* g : first) firsts.emplace_back(g);
    // G, summed from the inputs that got a gradient.
    Owned total(constant({0.0}, {}, dev_));
    for (size_t i = 0; i < firsts.size(); ++i) {
      if (!firsts[i]) continue;
      Owned v(constant(v_[i], c_.inputs[i].shape, dev_));
      Owned s = sum_of_product(firsts[i].get(), v.get());
      porta_tensor* next = nullptr;
      expect_ok(porta_add(total.get(), s.get(), &next));
      total.reset(next);
    }
    const double value = read(total.get()).at(0);
    if (grads) {
      grads->assign(raw.size(), {});
      std::vector<porta_tensor*> second(raw.size(), nullptr);
      int g_requires_grad = 0;
      porta_tensor_requires_grad(total.get(), &g_requires_grad);
      if (g_requires_grad) {  // else G is constant: every second derivative is 0
        porta_backward_options o2 = o;
        o2.create_graph = o2.retain_graph = 0;
        o2.grads_out = second.data();
        porta_tensor* g_root = total.get();
        expect_ok(porta_backward_ex(&g_root, nullptr, 1, &o2));
      }
      for (size_t i = 0; i < raw.size(); ++i) {
        (*grads)[i] = second[i] ? read(second[i]) : std::vector<double>(xs[i].size(), 0.0);
        porta_tensor_release(second[i]);
      }
    }
    return value;
  }

 private:
  const Case& c_;
  DLDevice dev_;
  std::vector<double> w_;
  std::vector<std::vector<double>> v_;
  std::vector<int64_t> out_shape_;
};

// dF/dx of `f` at xs (analytic, from eval) against central differences of F.
template <typename F>
void compare_with_differences(F& f, std::vector<std::vector<double>> xs, double tolerance) {
  std::vector<std::vector<double>> analytic;
  f.eval(xs, &analytic);
  ASSERT_EQ(analytic.size(), xs.size());
  const double h = 1e-6;
  for (size_t i = 0; i < xs.size(); ++i)
    for (size_t j = 0; j < xs[i].size(); ++j) {
      const double saved = xs[i][j];
      xs[i][j] = saved + h;
      const double up = f.eval(xs, nullptr);
      xs[i][j] = saved - h;
      const double down = f.eval(xs, nullptr);
      xs[i][j] = saved;
      const double numeric = (up - down) / (2 * h);
      EXPECT_NEAR(analytic[i][j], numeric, tolerance * (1 + std::fabs(numeric)))
          << "d/d input " << i << " element " << j;
    }
}

std::vector<std::vector<double>> sample(const Case& c) {
  std::mt19937_64 rng(std::hash<std::string>{}(c.name));
  std::vector<std::vector<double>> xs;
  for (const Input& in : c.inputs) {
    std::uniform_real_distribution<double> u(in.low, in.high);
    std::vector<double> v(static_cast<size_t>(count(in.shape)));
    for (double& x : v) x = u(rng);
    xs.push_back(std::move(v));
  }
  return xs;
}
}  // namespace

porta_tensor* ok(porta_status status, porta_tensor* const& result) {
  expect_ok(status);
  return status == PORTA_OK ? result : nullptr;
}

porta_tensor* constant(std::vector<double> values, std::vector<int64_t> shape, DLDevice device) {
  porta_tensor* t = nullptr;
  expect_ok(porta_tensor_from_host(values.data(), porta_float64, shape.data(), static_cast<int32_t>(shape.size()),
                                   device, &t));
  return t;
}

DLDevice device_of(const porta_tensor* t) {
  DLDevice d{};
  porta_tensor_device(t, &d);
  return d;
}

void check(const Case& c, DLDevice device) {
  SCOPED_TRACE(c.name);
  Loss loss(c, device);
  compare_with_differences(loss, sample(c), c.tolerance);
}

void check_second_order(const Case& c, DLDevice device) {
  SCOPED_TRACE(c.name + " (second order)");
  SecondOrder g(c, device);
  compare_with_differences(g, sample(c), c.tolerance);
}

}  // namespace gradcheck
