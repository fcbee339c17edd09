// Faults injected underneath the core through the mock plugin: a failed
// allocation, kernel launch or copy surfaces as a status from the operation
// that hit it, leaves out-parameters, autograd and optimizer state as they
// were, leaks nothing (these tests also run under LeakSanitizer), and the
// next operation works.
#include <cmath>
#include <string>
#include <vector>

#include "fault_hooks.hpp"

namespace porta_test {
namespace {

porta_tensor* const kUntouched = reinterpret_cast<porta_tensor*>(0x1234);

class FaultInjection : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(hooks.ok()) << "the mock plugin exports no fault-injection hooks";
    dev = device("mock:0");
    PORTA_ASSERT_OK(porta_device_empty_cache(dev));
    baseline = memory_stats(dev).allocated_bytes;
  }
  void TearDown() override {
    hooks.disarm();
    // Every tensor a test made is released by now: nothing may stay allocated.
    EXPECT_EQ(memory_stats(dev).allocated_bytes, baseline) << "a failed operation leaked device memory";
  }

  FaultHooks hooks;
  DLDevice dev{};
  uint64_t baseline = 0;
};

TEST_F(FaultInjection, FailedAllocationIsReportedByTheOpAndTheNextOneWorks) {
  Tensor a = from({1, 2, 3}, {3}, dev), b = from({10, 20, 30}, {3}, dev);
  hooks.fail_nth("alloc", 1);
  porta_tensor* out = kUntouched;
  EXPECT_EQ(porta_add(a.get(), b.get(), &out), PORTA_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(out, kUntouched);
  EXPECT_TRUE(contains(error(), "mock:0")) << error();
  EXPECT_TRUE(contains(error(), "injected allocation fault")) << error();

  PORTA_ASSERT_OK(porta_add(a.get(), b.get(), &out));
  Tensor sum(out);
  EXPECT_EQ(values(sum.get()), (std::vector<float>{11, 22, 33}));
  EXPECT_EQ(values(a.get()), (std::vector<float>{1, 2, 3}));
}

TEST_F(FaultInjection, FailedAllocationReturnsTheCacheAndRetries) {
  {
    std::vector<float> big(1 << 18);  // 1 MiB: cached after release, too large to serve a small request
    Tensor t = from(big, {1 << 18}, dev);
  }
  const porta_memory_stats before = memory_stats(dev);
  ASSERT_GT(before.reserved_bytes, before.allocated_bytes);
  Tensor a = from({1, 2}, {2}, dev);
  hooks.fail_nth("alloc", 1);
  porta_tensor* out = nullptr;
  PORTA_ASSERT_OK(porta_neg(a.get(), &out));  // first try fails, the cache goes back, the retry succeeds
  Tensor r(out);
  EXPECT_EQ(values(r.get()), (std::vector<float>{-1, -2}));
  const porta_memory_stats after = memory_stats(dev);
  EXPECT_GT(after.device_frees, before.device_frees);
  EXPECT_EQ(after.reserved_bytes, after.allocated_bytes) << "the cache was not returned before the retry";
}

TEST_F(FaultInjection, OutOfMemoryNamesBytesAndDeviceAndClearsWhenTensorsAreFreed) {
  hooks.set_memory_cap(1 << 20);
  const int64_t n = 200 * 1024;  // 800 KiB of float32
  std::vector<float> host(n, 1.0f);
  {
    Tensor first = from(host, {n}, dev);
    porta_tensor* out = kUntouched;
    EXPECT_EQ(porta_tensor_from_host(host.data(), porta_float32, &n, 1, dev, &out), PORTA_ERROR_OUT_OF_MEMORY);
    EXPECT_EQ(out, kUntouched);
    EXPECT_TRUE(contains(error(), "mock:0")) << error();
    EXPECT_TRUE(contains(error(), std::to_string(n * 4) + " bytes")) << error();
  }
  // The first tensor is freed (and cached): the same request succeeds again,
  // and so does a different size that needs the cache handed back.
  Tensor again = from(host, {n}, dev);
  again.reset();
  const int64_t m = n + 16 * 1024;
  std::vector<float> larger(m, 2.0f);
  Tensor t = from(larger, {m}, dev);
  EXPECT_EQ(values(t.get())[m - 1], 2.0f);
}

TEST_F(FaultInjection, FailedKernelLaunchLeavesInputsAndOutputUntouched) {
  Tensor a = from({1, 2, 3, 4}, {2, 2}, dev);
  hooks.fail_nth("kernel", 1);
  porta_tensor* out = kUntouched;
  EXPECT_EQ(porta_matmul(a.get(), a.get(), &out), PORTA_ERROR_BACKEND);
  EXPECT_EQ(out, kUntouched);
  EXPECT_TRUE(contains(error(), "injected kernel launch fault")) << error();
  EXPECT_TRUE(contains(error(), "mock:0")) << error();
  PORTA_ASSERT_OK(porta_matmul(a.get(), a.get(), &out));
  Tensor r(out);
  EXPECT_EQ(values(r.get()), (std::vector<float>{7, 10, 15, 22}));
}

// loss = sum(relu(x @ w + b)), with w and b leaves.
porta_status forward_loss(porta_tensor* x, porta_tensor* w, porta_tensor* b, Tensor* loss) {
  porta_tensor *xw = nullptr, *z = nullptr, *r = nullptr, *l = nullptr;
  porta_status s = porta_matmul(x, w, &xw);
  if (s == PORTA_OK) s = porta_add(xw, b, &z);
  if (s == PORTA_OK) s = porta_relu(z, &r);
  if (s == PORTA_OK) s = porta_sum(r, nullptr, 0, 0, &l);
  for (porta_tensor* t : {xw, z, r}) porta_tensor_release(t);
  loss->reset(l);
  return s;
}

std::vector<float> grad_of(porta_tensor* t) {
  porta_tensor* g = nullptr;
  EXPECT_EQ(porta_tensor_grad(t, &g), PORTA_OK) << porta_last_error();
  if (g == nullptr) return {};
  Tensor owned(g);
  return values(g);
}

TEST_F(FaultInjection, BackwardThatFailsAnywhereLeavesEveryGradAsItWas) {
  Tensor x = from({1, -2, 3, 4, 5, -6}, {2, 3}, dev);
  Tensor w = from({0.5f, -1, 2, 0.25f, -0.5f, 1}, {3, 2}, dev);
  Tensor b = from({0.1f, -0.2f}, {2}, dev);
  PORTA_ASSERT_OK(porta_tensor_set_requires_grad(w.get(), 1));
  PORTA_ASSERT_OK(porta_tensor_set_requires_grad(b.get(), 1));
  Tensor loss;
  PORTA_ASSERT_OK(forward_loss(x.get(), w.get(), b.get(), &loss));
  PORTA_ASSERT_OK(porta_backward(loss.get(), nullptr));
  const std::vector<float> gw1 = grad_of(w.get()), gb1 = grad_of(b.get());

  // Fail the k-th kernel of backward, for every k until backward gets through.
  int failures = 0;
  for (int k = 1; k < 64; ++k) {
    PORTA_ASSERT_OK(forward_loss(x.get(), w.get(), b.get(), &loss));
    hooks.fail_nth("kernel", k);
    const porta_status s = porta_backward(loss.get(), nullptr);
    hooks.disarm();
    if (s == PORTA_OK) break;
    ++failures;
    EXPECT_EQ(s, PORTA_ERROR_BACKEND) << error();
    EXPECT_EQ(grad_of(w.get()), gw1) << "kernel " << k << ": w.grad changed by a failed backward";
    EXPECT_EQ(grad_of(b.get()), gb1) << "kernel " << k << ": b.grad changed by a failed backward";
  }
  EXPECT_GE(failures, 3) << "backward ran too few kernels for this test to mean anything";
  // The backward that got through accumulated once more: grads doubled.
  const std::vector<float> gw2 = grad_of(w.get());
  ASSERT_EQ(gw2.size(), gw1.size());
  for (size_t i = 0; i < gw1.size(); ++i) EXPECT_FLOAT_EQ(gw2[i], 2 * gw1[i]);
}

struct Optimizer {
  porta_optimizer* p = nullptr;
  ~Optimizer() { porta_optimizer_release(p); }
};

TEST_F(FaultInjection, OptimizerStepStopsAtTheFailedParameterAndResumesConsistently) {
  const float lr = 0.5f, momentum = 0.9f;
  std::vector<Tensor> params;
  for (float v : {1.0f, 2.0f, 3.0f}) {
    params.push_back(from({v, v}, {2}, dev));
    PORTA_ASSERT_OK(porta_tensor_set_requires_grad(params.back().get(), 1));
  }
  // loss = sum(p0) + sum(p1) + sum(p2): every grad is ones.
  auto backward = [&] {
    for (Tensor& p : params) {
      Tensor loss;
      porta_tensor* l = nullptr;
      PORTA_ASSERT_OK(porta_sum(p.get(), nullptr, 0, 0, &l));
      loss.reset(l);
      PORTA_ASSERT_OK(porta_backward(loss.get(), nullptr));
    }
  };
  porta_tensor* raw[3] = {params[0].get(), params[1].get(), params[2].get()};
  porta_sgd_options o{};
  o.struct_size = sizeof(o);
  o.lr = lr;
  o.momentum = momentum;
  Optimizer opt;
  PORTA_ASSERT_OK(porta_sgd_create(raw, 3, &o, &opt.p));
  backward();

  hooks.fail_nth("kernel", 2);  // one update kernel per parameter: parameter 1's fails
  EXPECT_EQ(porta_optimizer_step(opt.p), PORTA_ERROR_BACKEND);
  EXPECT_TRUE(contains(error(), "stopped at parameter 1 of 3")) << error();
  EXPECT_EQ(values(params[0].get()), (std::vector<float>{1 - lr, 1 - lr}));
  EXPECT_EQ(values(params[1].get()), (std::vector<float>{2, 2}));
  EXPECT_EQ(values(params[2].get()), (std::vector<float>{3, 3}));

  // The next step works, and each parameter's momentum matches the number of
  // steps it really took: p0 its second (buf = 0.9 + 1), p1 and p2 their first.
  PORTA_ASSERT_OK(porta_optimizer_step(opt.p));
  const float p0 = 1 - lr - lr * (momentum + 1);
  for (float v : values(params[0].get())) EXPECT_FLOAT_EQ(v, p0);
  for (float v : values(params[1].get())) EXPECT_FLOAT_EQ(v, 2 - lr);
  for (float v : values(params[2].get())) EXPECT_FLOAT_EQ(v, 3 - lr);
}

TEST_F(FaultInjection, FailedCopiesLeaveSourceAndDestinationAsTheyWere) {
  const std::vector<float> data{1, 2, 3, 4};
  const int64_t n = 4;
  porta_tensor* out = kUntouched;
  hooks.fail_nth("copy", 1);
  EXPECT_EQ(porta_tensor_from_host(data.data(), porta_float32, &n, 1, dev, &out), PORTA_ERROR_BACKEND);
  EXPECT_EQ(out, kUntouched);
  EXPECT_TRUE(contains(error(), "injected copy fault")) << error();

  Tensor t = from(data, {4}, dev);
  hooks.fail_nth("copy", 1);
  EXPECT_EQ(porta_tensor_to(t.get(), device("cpu"), &out), PORTA_ERROR_BACKEND);
  EXPECT_EQ(out, kUntouched);
  hooks.fail_nth("copy", 1);
  EXPECT_EQ(porta_tensor_to(t.get(), device("mock:1"), &out), PORTA_ERROR_BACKEND);
  EXPECT_EQ(out, kUntouched);
  std::vector<float> dst(4, -1.0f);
  hooks.fail_nth("copy", 1);
  EXPECT_EQ(porta_tensor_to_host(t.get(), dst.data(), dst.size() * sizeof(float)), PORTA_ERROR_BACKEND);
  EXPECT_EQ(dst, (std::vector<float>(4, -1.0f)));

  EXPECT_EQ(values(t.get()), data);
  PORTA_ASSERT_OK(porta_tensor_to(t.get(), device("mock:1"), &out));
  Tensor moved(out);
  EXPECT_EQ(values(moved.get()), data);
}

}  // namespace
}  // namespace porta_test
