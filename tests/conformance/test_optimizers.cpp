// The fused optimizer steps of PORTA_OP_LIST (SGD_STEP, ADAM_STEP) through
// porta_sgd_create / porta_adam_create / porta_adamw_create, and the composed
// ones (amsgrad; RMSprop and Adagrad: tests/python/test_optim_composed.py),
// three steps with fresh gradients each time, against torch.optim's update
// rules in double.
#include <algorithm>
#include <cmath>
#include <memory>

#include "device_params.hpp"
#include "host_tensor.hpp"

namespace conformance {
namespace {

using OptimizerPtr = std::unique_ptr<porta_optimizer, void (*)(porta_optimizer*)>;

class Optimizers : public DeviceTest {
 protected:
  // Runs `steps` steps of `opt` over one parameter; gradient k is grads[k].
  // Returns the parameter after each step.
  std::vector<HostTensor> run(porta_optimizer* opt, porta_tensor* param, const std::vector<HostTensor>& grads) {
    std::vector<HostTensor> out;
    for (const HostTensor& g : grads) {
      Tensor tg = upload(g, dev());
      CHECK_OK(porta_tensor_set_grad(param, tg));
      CHECK_OK(porta_optimizer_step(opt));
      out.push_back(download(param));
    }
    return out;
  }
  Tensor param(const HostTensor& h) {
    Tensor t = upload(h, dev());
    CHECK_OK(porta_tensor_set_requires_grad(t, 1));
    return t;
  }
};
PORTA_INSTANTIATE_FOR_EVERY_DEVICE(Optimizers);

std::vector<HostTensor> grads_for(const HostTensor& p, uint32_t seed) {
  return {sample_host(p.dtype, p.shape, seed), sample_host(p.dtype, p.shape, seed + 1),
          sample_host(p.dtype, p.shape, seed + 2)};
}

Tolerance step_tolerance(DLDataType dt) {
  return same_dtype(dt, porta_float32) ? Tolerance{2e-5, 2e-6} : Tolerance{1e-12, 1e-12};
}

TEST_P(Optimizers, Sgd) {
  const porta_sgd_options configs[] = {
      {sizeof(porta_sgd_options), 0.1, 0.0, 0.0, 0.0, 0},
      {sizeof(porta_sgd_options), 0.05, 0.9, 0.1, 0.01, 0},
      {sizeof(porta_sgd_options), 0.02, 0.8, 0.0, 0.001, 1},
      {sizeof(porta_sgd_options), 0.1, 0.0, 0.0, 0.05, 0},
  };
  uint32_t seed = 1;
  for (const porta_sgd_options& o : configs)
    for (DLDataType dt : {porta_float32, porta_float64}) {
      SCOPED_TRACE("SGD lr " + std::to_string(o.lr) + " momentum " + std::to_string(o.momentum) + " dampening " +
                   std::to_string(o.dampening) + " weight_decay " + std::to_string(o.weight_decay) + " nesterov " +
                   std::to_string(o.nesterov) + " " + dtype_name(dt));
      const HostTensor p0 = sample_host(dt, {3, 7}, seed++);
      const auto grads = grads_for(p0, seed += 3);
      op_case("sgd", dt, [&] {
        Tensor p = param(p0);
        porta_tensor* list[] = {p.get()};
        porta_optimizer* raw = nullptr;
        CHECK_OK(porta_sgd_create(list, 1, &o, &raw));
        OptimizerPtr opt(raw, porta_optimizer_release);
        const auto got = run(opt.get(), p, grads);
        // torch.optim.SGD in double.
        std::vector<double> w = p0.v, buf(w.size());
        for (size_t k = 0; k < grads.size(); ++k) {
          for (size_t i = 0; i < w.size(); ++i) {
            double d = grads[k].v[i] + o.weight_decay * w[i];
            if (o.momentum != 0) {
              buf[i] = k == 0 ? d : o.momentum * buf[i] + (1 - o.dampening) * d;
              d = o.nesterov ? d + o.momentum * buf[i] : buf[i];
            }
            w[i] -= o.lr * d;
          }
          expect_close(got[k], HostTensor{dt, p0.shape, w}, step_tolerance(dt), "after step " + std::to_string(k + 1));
        }
      });
    }
}

TEST_P(Optimizers, AdamAndAdamW) {
  const porta_adam_options configs[] = {
      {sizeof(porta_adam_options), 1e-2, 0.9, 0.999, 1e-8, 0.0, 0},
      {sizeof(porta_adam_options), 3e-2, 0.8, 0.99, 1e-6, 0.01, 0},
      {sizeof(porta_adam_options), 1e-3, 0.0, 0.5, 1e-3, 0.1, 0},
      {sizeof(porta_adam_options), 3e-2, 0.8, 0.5, 1e-6, 0.01, 1},  // amsgrad: beta2 0.5 lets v fall below its max
  };
  uint32_t seed = 100;
  for (bool decoupled : {false, true})
    for (const porta_adam_options& o : configs)
      for (DLDataType dt : {porta_float32, porta_float64}) {
        SCOPED_TRACE(std::string(decoupled ? "AdamW" : "Adam") + " lr " + std::to_string(o.lr) + " betas " +
                     std::to_string(o.beta1) + "," + std::to_string(o.beta2) + " eps " + std::to_string(o.eps) +
                     " weight_decay " + std::to_string(o.weight_decay) + " amsgrad " + std::to_string(o.amsgrad) +
                     " " + dtype_name(dt));
        const HostTensor p0 = sample_host(dt, {4, 5}, seed++);
        const auto grads = grads_for(p0, seed += 3);
        op_case(decoupled ? "adamw" : "adam", dt, [&] {
          Tensor p = param(p0);
          porta_tensor* list[] = {p.get()};
          porta_optimizer* raw = nullptr;
          CHECK_OK(decoupled ? porta_adamw_create(list, 1, &o, &raw) : porta_adam_create(list, 1, &o, &raw));
          OptimizerPtr opt(raw, porta_optimizer_release);
          const auto got = run(opt.get(), p, grads);
          // torch.optim.Adam / AdamW in double.
          std::vector<double> w = p0.v, m(w.size()), v(w.size()), v_max(w.size());
          for (size_t k = 0; k < grads.size(); ++k) {
            const double t = static_cast<double>(k + 1);
            const double bc1 = 1 - std::pow(o.beta1, t), bc2 = 1 - std::pow(o.beta2, t);
            for (size_t i = 0; i < w.size(); ++i) {
              double g = grads[k].v[i];
              if (decoupled)
                w[i] *= 1 - o.lr * o.weight_decay;
              else
                g += o.weight_decay * w[i];
              m[i] = o.beta1 * m[i] + (1 - o.beta1) * g;
              v[i] = o.beta2 * v[i] + (1 - o.beta2) * g * g;
              v_max[i] = std::max(v_max[i], v[i]);
              w[i] -= o.lr / bc1 * m[i] / (std::sqrt(o.amsgrad ? v_max[i] : v[i]) / std::sqrt(bc2) + o.eps);
            }
            expect_close(got[k], HostTensor{dt, p0.shape, w}, step_tolerance(dt),
                         "after step " + std::to_string(k + 1));
          }
        });
      }
}

TEST_P(Optimizers, ParametersWithoutGradientsStayPut) {
  const HostTensor a0 = sample_host(porta_float32, {5}, 1), b0 = sample_host(porta_float64, {2, 2}, 2);
  Tensor a = param(a0), b = param(b0);
  porta_tensor* list[] = {a.get(), b.get()};
  const porta_sgd_options o{sizeof(porta_sgd_options), 0.5, 0.0, 0.0, 0.0, 0};
  porta_optimizer* raw = nullptr;
  CHECK_OK(porta_sgd_create(list, 2, &o, &raw));
  OptimizerPtr opt(raw, porta_optimizer_release);
  const HostTensor g = sample_host(porta_float64, {2, 2}, 3);
  Tensor tg = upload(g, dev());
  CHECK_OK(porta_tensor_set_grad(b, tg));
  CHECK_OK(porta_optimizer_step(opt.get()));
  expect_close(download(a), a0, kExact, "the parameter without a gradient");
  HostTensor want = b0;
  for (size_t i = 0; i < want.v.size(); ++i) want.v[i] -= 0.5 * g.v[i];
  expect_close(download(b), want, tolerance_for(porta_float64), "the parameter with one");

  CHECK_OK(porta_optimizer_zero_grad(opt.get()));
  Tensor cleared;
  CHECK_OK(porta_tensor_grad(b, cleared.out()));
  EXPECT_EQ(cleared.get(), nullptr) << "zero_grad sets gradients to none";
  double lr = 0;
  CHECK_OK(porta_optimizer_set_lr(opt.get(), 0.25));
  CHECK_OK(porta_optimizer_get_lr(opt.get(), &lr));
  EXPECT_EQ(lr, 0.25);
}

}  // namespace
}  // namespace conformance
