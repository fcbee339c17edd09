// Training-step benchmarks, mirrored by bench_training_torch.py for PyTorch:
//   SimpleCNN (3x32x32 inputs) forward + backward + SGD-momentum step, batch 64 and 4;
//   the same SimpleCNN step, batch 64, with the forward pass and the loss in an
//   autocast region in bfloat16 (mixed precision, as torch.autocast("cpu"));
//   seed case 1 (Linear(10, 1), MSE, SGD) step.
// Reported in samples/s (items_per_second) and time per step.
#include <benchmark/benchmark.h>

#include <optional>
#include <porta/amp.hpp>
#include <porta/optim.hpp>

#include "../../docs/examples/simple_cnn.hpp"

using namespace porta;

namespace {

// state.range(0): the batch; state.range(1): 1 for autocast in bfloat16.
void BM_SimpleCNN_Step(benchmark::State& state) {
  const int64_t batch = state.range(0);
  const bool amp = state.range(1) != 0;
  manual_seed(0);
  auto model = std::make_shared<SimpleCNN>(3, 32);
  optim::SGD opt(model->parameters(), {.lr = 0.001, .momentum = 0.9});
  nn::CrossEntropyLoss criterion;
  Tensor x = Tensor::randn({batch, 3, 32, 32});
  std::vector<int64_t> labels(static_cast<size_t>(batch));
  for (size_t i = 0; i < labels.size(); ++i) labels[i] = int64_t(i % 10);
  Tensor y = Tensor::from_vector(labels);
  for (auto _ : state) {
    Tensor loss;
    {
      std::optional<porta::amp::Autocast> region;
      if (amp) region.emplace("cpu", kBFloat16);
      loss = criterion((*model)(x), y);
    }
    opt.zero_grad();
    loss.backward();
    opt.step();
    benchmark::DoNotOptimize(loss.item<float>());
  }
  state.SetItemsProcessed(state.iterations() * batch);
}
BENCHMARK(BM_SimpleCNN_Step)
    ->Args({64, 0})
    ->Args({4, 0})
    ->Args({64, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(5.0);

void BM_Seed1_Step(benchmark::State& state) {
  manual_seed(0);
  nn::Linear model(10, 1);
  optim::SGD opt(model.parameters(), {.lr = 0.01});
  nn::MSELoss criterion;
  Tensor x = Tensor::randn({5, 10}), y = Tensor::randn({5, 1});
  for (auto _ : state) {
    Tensor loss = criterion(model(x), y);
    opt.zero_grad();
    loss.backward();
    opt.step();
    benchmark::DoNotOptimize(loss.item<float>());
  }
  state.SetItemsProcessed(state.iterations() * 5);
}
BENCHMARK(BM_Seed1_Step)->Unit(benchmark::kMicrosecond)->UseRealTime()->MinTime(2.0);

}  // namespace

BENCHMARK_MAIN();
