// OpenCL benchmarks on opencl:0, printed as a markdown table:
//   sgemm 512 and 1024 through Porta vs CLBlast called directly on the same
//   buffers and device, with the tuning the plugin gives CLBlast on PoCL
//   (goal >= 0.95x), and CLBlast with its own defaults, timed before Porta's
//   first matmul applies that tuning (informational);
//   the SimpleCNN training step (batch 64, 3x32x32, SGD with momentum) on
//   opencl:0 beside cpu (informational).
// Each time is the best of several timed repetitions after a warm-up, so
// program builds and first-touch costs are excluded.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <clblast_c.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <porta/optim.hpp>
#include <string>

#include "../../docs/examples/simple_cnn.hpp"

using namespace porta;

namespace {

double seconds(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Best time of `reps` runs of f after `warmup` untimed ones.
double best_of(int warmup, int reps, const std::function<void()>& f) {
  for (int i = 0; i < warmup; ++i) f();
  double best = 1e30;
  for (int i = 0; i < reps; ++i) best = std::min(best, seconds(f));
  return best;
}

void check_cl(cl_int err, const char* what) {
  if (err != CL_SUCCESS) {
    std::fprintf(stderr, "%s failed: %d\n", what, err);
    std::exit(1);
  }
}

// The cl_mem behind a contiguous Porta tensor on opencl (DLPack's convention).
cl_mem buffer_of(const Tensor& t, DLManagedTensorVersioned** keep) {
  detail::check(porta_to_dlpack_versioned(t.handle(), 0, keep));
  return static_cast<cl_mem>((*keep)->dl_tensor.data);
}

struct Row {
  std::string name, porta, baseline, ratio, goal;
};

// n x n operands on `dev` and a queue of their context for direct CLBlast calls.
struct Sgemm {
  int64_t n;
  Tensor a, b, c;
  DLManagedTensorVersioned *ka = nullptr, *kb = nullptr, *kc = nullptr;
  cl_mem ma, mb, mc;
  cl_command_queue queue = nullptr;

  Sgemm(const Device& dev, int64_t size)
      : n(size),
        a(Tensor::full({size, size}, 0.5).to(dev)),
        b(Tensor::full({size, size}, 0.25).to(dev)),
        c(Tensor::zeros({size, size}).to(dev)),
        ma(buffer_of(a, &ka)),
        mb(buffer_of(b, &kb)),
        mc(buffer_of(c, &kc)) {
    cl_context ctx = nullptr;
    check_cl(clGetMemObjectInfo(ma, CL_MEM_CONTEXT, sizeof(ctx), &ctx, nullptr), "clGetMemObjectInfo");
    cl_device_id id = nullptr;
    check_cl(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof(id), &id, nullptr), "clGetContextInfo");
    cl_int err = CL_SUCCESS;
    queue = clCreateCommandQueue(ctx, id, 0, &err);
    check_cl(err, "clCreateCommandQueue");
  }
  ~Sgemm() {
    clReleaseCommandQueue(queue);
    for (auto* k : {ka, kb, kc}) k->deleter(k);
  }
  int reps() const { return n <= 512 ? 20 : 8; }
  double flops() const { return 2.0 * n * n * n; }
  double clblast() {
    return best_of(3, reps(), [&] {
      const CLBlastStatusCode s = CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, n, n, n,
                                               1.0f, ma, 0, n, mb, 0, n, 0.0f, mc, 0, n, &queue, nullptr);
      if (s != CLBlastSuccess) std::exit(1);
      clFinish(queue);
    });
  }
  double porta(const Device& dev) {
    return best_of(3, reps(), [&] {
      Tensor out = matmul(a, b);
      synchronize(dev);
    });
  }
};

std::string gflops(double flops, double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GFLOP/s", flops / seconds / 1e9);
  return buf;
}

void sgemm_rows(const Device& dev, std::vector<Row>& rows) {
  Sgemm s512(dev, 512), s1024(dev, 1024);
  const double default512 = s512.clblast(), default1024 = s1024.clblast();  // before Porta tunes CLBlast
  for (Sgemm* s : {&s512, &s1024}) {
    const double t_porta = s->porta(dev), t_clblast = s->clblast(), ratio = t_clblast / t_porta;
    char r[32];
    std::snprintf(r, sizeof r, "%.2fx", ratio);
    rows.push_back({"sgemm " + std::to_string(s->n) + " (opencl:0)", gflops(s->flops(), t_porta),
                    "CLBlast " + gflops(s->flops(), t_clblast), r,
                    std::string("goal >= 0.95x: ") + (ratio >= 0.95 ? "met" : "NOT met")});
  }
  for (auto [s, t] : {std::pair<Sgemm*, double>{&s512, default512}, {&s1024, default1024}}) {
    const double t_porta = s->porta(dev);
    char r[32];
    std::snprintf(r, sizeof r, "%.2fx", t / t_porta);
    rows.push_back({"sgemm " + std::to_string(s->n) + " vs untuned CLBlast", gflops(s->flops(), t_porta),
                    "CLBlast defaults " + gflops(s->flops(), t), r, "informational"});
  }
}

// Seconds per SimpleCNN training step (batch 64) on `dev`.
double cnn_step(const Device& dev) {
  manual_seed(0);
  auto model = std::make_shared<SimpleCNN>(3, 32);
  model->to(dev);
  optim::SGD opt(model->parameters(), {.lr = 0.001, .momentum = 0.9});
  nn::CrossEntropyLoss criterion;
  const int64_t batch = 64;
  Tensor x = Tensor::randn({batch, 3, 32, 32}).to(dev);
  std::vector<int64_t> labels(static_cast<size_t>(batch));
  for (size_t i = 0; i < labels.size(); ++i) labels[i] = int64_t(i % 10);
  Tensor y = Tensor::from_vector(labels).to(dev);
  return best_of(2, 5, [&] {
    Tensor loss = criterion((*model)(x), y);
    opt.zero_grad();
    loss.backward();
    opt.step();
    (void)loss.item<float>();
  });
}

}  // namespace

int main() {
  const Device dev("opencl:0");
  std::vector<Row> rows;
  sgemm_rows(dev, rows);
  const double t_cl = cnn_step(dev), t_cpu = cnn_step(Device("cpu"));
  char a[64], b[64], r[32];
  std::snprintf(a, sizeof a, "%.0f ms/step (%.0f samples/s)", t_cl * 1e3, 64 / t_cl);
  std::snprintf(b, sizeof b, "cpu %.0f ms/step (%.0f samples/s)", t_cpu * 1e3, 64 / t_cpu);
  std::snprintf(r, sizeof r, "%.2fx", t_cpu / t_cl);
  rows.push_back({"SimpleCNN step, batch 64 (opencl:0)", a, b, r, "informational"});

  std::printf("| benchmark | Porta | baseline (same run) | Porta / baseline | goal |\n|---|---|---|---|---|\n");
  for (const Row& row : rows)
    std::printf("| %s | %s | %s | %s | %s |\n", row.name.c_str(), row.porta.c_str(), row.baseline.c_str(),
                row.ratio.c_str(), row.goal.c_str());
  return 0;
}
