// Porta's demo: the tutorial's SimpleCNN, adapted to 1x28x28 inputs, trained
// on real Fashion-MNIST on the best available device (or the one given),
// with a progress bar, then evaluated on the 10,000 test images.
//
//   porta-demo [--device D] [--data DIR] [--full] [--epochs E] [--batch-size B]
//              [--train-samples N] [--test-samples N] [--lr LR] [--distributed]
//              [--amp bf16|fp16]
// Default: Adam, batch 64, the first 32,000 training samples (one pass),
// about 2 minutes on an idle 2-core CPU. --full trains 3 epochs over all 60,000.
// --distributed, under mpirun -n W: the same training as W processes with
// DistributedDataParallel, each rank a DistributedSampler's share and batch / W
// samples a step (the same global batch); rank 0 evaluates and prints.
// --amp: mixed precision, as torch.autocast: the forward pass and the loss in
// an autocast region (convolutions and linear layers in bfloat16 or float16,
// the loss in float32), float32 parameters; fp16 scales the loss
// (GradScaler) so that small gradients do not underflow.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <porta/amp.hpp>
#include <porta/data.hpp>
#include <porta/distributed.hpp>
#include <porta/nn_parallel.hpp>
#include <porta/optim.hpp>
#include <string>

#include "simple_cnn.hpp"

using namespace porta;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
  std::optional<std::string> device;
  std::string data = "/usr/share/datasets/fashion-mnist";
  int epochs = 1;
  int64_t batch_size = 64;
  int64_t train_samples = 32000;
  int64_t test_samples = 10000;  // the whole test set
  double lr = 1e-3;
  bool distributed = false;
  std::optional<DLDataType> amp;  // the autocast dtype (--amp)
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    auto value = [&](const char* flag) -> std::string {
      if (i + 1 >= argc) throw Error(PORTA_ERROR_INVALID_ARGUMENT, std::string(flag) + " needs a value");
      return argv[++i];
    };
    if (!std::strcmp(argv[i], "--device"))
      o.device = value("--device");
    else if (!std::strcmp(argv[i], "--data"))
      o.data = value("--data");
    else if (!std::strcmp(argv[i], "--epochs"))
      o.epochs = std::stoi(value("--epochs"));
    else if (!std::strcmp(argv[i], "--batch-size"))
      o.batch_size = std::stoll(value("--batch-size"));
    else if (!std::strcmp(argv[i], "--train-samples"))
      o.train_samples = std::stoll(value("--train-samples"));
    else if (!std::strcmp(argv[i], "--test-samples"))
      o.test_samples = std::stoll(value("--test-samples"));
    else if (!std::strcmp(argv[i], "--lr"))
      o.lr = std::stod(value("--lr"));
    else if (!std::strcmp(argv[i], "--full"))
      o.epochs = 3, o.train_samples = 60000;
    else if (!std::strcmp(argv[i], "--amp")) {
      const std::string v = value("--amp");
      if (v != "bf16" && v != "fp16")
        throw Error(PORTA_ERROR_INVALID_ARGUMENT, "--amp takes bf16 or fp16, got '" + v + "'");
      o.amp = v == "bf16" ? kBFloat16 : kFloat16;
    } else if (!std::strcmp(argv[i], "--distributed"))
      o.distributed = true;
    else
      throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                  std::string("unknown option ") + argv[i] + " (see the header of fashion_mnist_demo.cpp)");
  }
  return o;
}

// The first n samples of a dataset.
class Prefix : public data::Dataset {
 public:
  Prefix(std::shared_ptr<const data::Dataset> d, int64_t n) : d_(std::move(d)), n_(std::min(n, d_->size())) {}
  int64_t size() const override { return n_; }
  data::Batch get_batch(const std::vector<int64_t>& idx, const std::optional<Device>& pin) const override {
    return d_->get_batch(idx, pin);
  }

 private:
  std::shared_ptr<const data::Dataset> d_;
  int64_t n_;
};

void progress(int epoch, int epochs, int64_t done, int64_t total, double loss, double rate, const Device& dev) {
  const int width = 30, filled = int(width * done / std::max<int64_t>(total, 1));
  std::printf("\repoch %d/%d [%s%s] %6lld/%lld  loss %.4f  %7.1f samples/s  %s ", epoch, epochs,
              std::string(size_t(filled), '#').c_str(), std::string(size_t(width - filled), '.').c_str(),
              static_cast<long long>(done), static_cast<long long>(total), loss, rate, dev.str().c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) try {
  const Options o = parse(argc, argv);
  int rank = 0, world = 1;
  if (o.distributed) {
    distributed::init_process_group();
    rank = distributed::get_rank(), world = distributed::get_world_size();
    if (o.batch_size % world)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, "--batch-size must be a multiple of the number of processes");
  }
  const Device device = o.device ? Device(*o.device) : try_gpu();
  const data::Normalize normalize{{0.2860f}, {0.3530f}};  // Fashion-MNIST's pixel mean and std
  auto train = std::make_shared<Prefix>(data::FashionMNIST(o.data, true, normalize), o.train_samples);
  auto test = std::make_shared<Prefix>(data::FashionMNIST(o.data, false, normalize), o.test_samples);
  if (rank == 0)
    std::cout << "Porta demo: SimpleCNN on Fashion-MNIST (" << train->size() << " training, " << test->size()
              << " test images) on " << device << " [" << device.info().name << "]"
              << (o.distributed ? " x " + std::to_string(world) + " processes" : "") << "\n";

  manual_seed(0);
  auto model = std::make_shared<SimpleCNN>(1, 28);
  model->to(device);
  nn::CrossEntropyLoss criterion;
  optim::Adam optimizer(model->parameters(), {.lr = o.lr});
  // Distributed: each rank its share of every epoch's order, batch / world samples a step.
  std::shared_ptr<data::samplers::DistributedSampler> share;
  std::optional<nn::DistributedDataParallel<SimpleCNN>> ddp;
  if (o.distributed) {
    share = std::make_shared<data::samplers::DistributedSampler>(train->size(), world, rank, true, 0, true);
    // The gradients live in the buckets the all-reduce fills (no copy per step): torch's gradient_as_bucket_view.
    ddp.emplace(model, nn::DistributedDataParallelOptions{.gradient_as_bucket_view = true});
  }
  data::DataLoader loader(train, {.batch_size = o.batch_size / world,
                                  .shuffle = !share,
                                  .seed = share ? std::nullopt : std::optional<uint64_t>(0),
                                  .drop_last = true,
                                  .num_workers = 1,
                                  .pin_memory_for = device,
                                  .sampler = share});

  // Loss scaling for float16 (bfloat16 has float32's range and needs none); disabled, it passes through.
  amp::GradScaler scaler({.enabled = o.amp && *o.amp == kFloat16});
  const auto start = Clock::now();
  for (int epoch = 1; epoch <= o.epochs; ++epoch) {
    model->train();
    if (share) share->set_epoch(uint64_t(epoch));
    const auto t0 = Clock::now();
    int64_t seen = 0;
    double smooth = 0;
    auto last_print = t0;
    for (auto& [x, y] : loader) {
      // Pinned batches: the copies are only enqueued (PyTorch's non_blocking=True).
      const Tensor input = x.to(device, /*non_blocking=*/true);
      Tensor loss;
      {
        std::optional<amp::Autocast> region;
        if (o.amp) region.emplace(device.type_name(), *o.amp);
        Tensor out = ddp ? (*ddp)(input) : (*model)(input);
        loss = criterion(out, y.to(device, /*non_blocking=*/true));
      }
      optimizer.zero_grad();
      scaler.scale(loss).backward();
      scaler.step(optimizer);
      scaler.update();
      seen += x.size(0) * world;
      const double l = loss.item<float>();
      smooth = seen == x.size(0) * world ? l : 0.95 * smooth + 0.05 * l;
      const auto now = Clock::now();
      const int64_t total = loader.size() * o.batch_size;
      if (rank == 0 && (now - last_print > std::chrono::milliseconds(250) || seen >= total)) {
        const double secs = std::chrono::duration<double>(now - t0).count();
        progress(epoch, o.epochs, seen, total, smooth, seen / secs, device);
        last_print = now;
      }
    }
    if (rank == 0) std::printf("\n");
  }
  const double train_secs = std::chrono::duration<double>(Clock::now() - start).count();
  if (rank != 0) {  // rank 0 evaluates; the ranks' models are the same
    distributed::destroy_process_group();
    return 0;
  }

  model->eval();
  NoGradGuard no_grad;
  int64_t correct = 0;
  data::DataLoader test_loader(test, {.batch_size = 500, .num_workers = 1, .pin_memory_for = device});
  for (auto& [x, y] : test_loader) {
    std::optional<amp::Autocast> region;
    if (o.amp) region.emplace(device.type_name(), *o.amp);
    Tensor pred = (*model)(x.to(device)).argmax(1);
    correct += pred.eq(y.to(device)).sum().item<int64_t>();
  }
  const double total_secs = std::chrono::duration<double>(Clock::now() - start).count();
  std::printf("test accuracy: %.2f%% (%lld/%lld) | training %.1f s, total %.1f s on %s%s\n",
              100.0 * double(correct) / double(test->size()), static_cast<long long>(correct),
              static_cast<long long>(test->size()), train_secs, total_secs, device.str().c_str(),
              !o.amp                ? ""
              : *o.amp == kBFloat16 ? " (amp bf16)"
                                    : " (amp fp16)");
  if (o.distributed) distributed::destroy_process_group();
  return 0;
} catch (const porta::Error& e) {
  std::cerr << "\nerror: " << e.what() << "\n";
  return 1;
}
