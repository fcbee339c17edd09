// SimpleCNN (3x32x32 inputs) training step on a GPU: forward, cross entropy,
// backward, SGD-momentum step, loss.item() (which synchronizes), as
// tests/bench/bench_training.cpp on the cpu; bench_training_torch_gpu.py is
// PyTorch's side. Batch 64 and 256. With "bf16", forward and loss run under
// autocast in bfloat16 (no GradScaler: bfloat16 has float32's range).
//   porta_bench_gpu_training [device [bf16]]   (default cuda:0) -> one JSON object
#include <cstdio>
#include <optional>
#include <porta/amp.hpp>
#include <porta/optim.hpp>
#include <string>

#include "../../../docs/examples/simple_cnn.hpp"
#include "timing.hpp"

using namespace porta;

namespace {

bench::Timing step_time(const Device& device, int64_t batch, bool amp) {
  manual_seed(0);
  auto model = std::make_shared<SimpleCNN>(3, 32);
  model->to(device);
  optim::SGD opt(model->parameters(), {.lr = 0.001, .momentum = 0.9});
  nn::CrossEntropyLoss criterion;
  Tensor x = Tensor::randn({batch, 3, 32, 32}, device);
  std::vector<int64_t> labels(static_cast<size_t>(batch));
  for (size_t i = 0; i < labels.size(); ++i) labels[i] = int64_t(i % 10);
  Tensor y = Tensor::from_vector(labels).to(device);
  float last = 0;
  const bench::Timing t = bench::time_it(
      [&] {
        Tensor loss;
        {
          std::optional<amp::Autocast> region;
          if (amp) region.emplace(device.type_name(), kBFloat16);
          loss = criterion((*model)(x), y);
        }
        opt.zero_grad();
        loss.backward();
        opt.step();
        last = loss.item<float>();
      },
      [&] { synchronize(device); }, 3.0, 10, 5);
  std::fprintf(stderr, "batch %lld: last loss %g\n", (long long)batch, last);
  return t;
}

}  // namespace

int main(int argc, char** argv) try {
  const Device device(argc > 1 ? argv[1] : "cuda:0");
  const bool amp = argc > 2 && std::string(argv[2]) == "bf16";
  if (argc > 3 || (argc > 2 && !amp)) {
    std::fprintf(stderr, "usage: porta_bench_gpu_training [device [bf16]]\n");
    return 2;
  }
  const bench::Timing b64 = step_time(device, 64, amp), b256 = step_time(device, 256, amp);
  std::printf(
      "{\"bench\": \"%s\", \"device\": \"%s\", \"batch64_ms\": %.4f, \"batch64_samples_per_s\": %.1f, "
      "\"batch256_ms\": %.4f, \"batch256_samples_per_s\": %.1f}\n",
      amp ? "simple_cnn_step_amp" : "simple_cnn_step", device.str().c_str(), b64.ms_per_iter, 64e3 / b64.ms_per_iter,
      b256.ms_per_iter, 256e3 / b256.ms_per_iter);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "porta_bench_gpu_training: %s\n", e.what());
  return 1;
}
