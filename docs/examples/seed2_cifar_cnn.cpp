// Seed case 2 in C++: the tutorial's SimpleCNN trained on CIFAR-10 with
// CrossEntropyLoss and SGD(lr=0.001, momentum=0.9), batch 4, printing the
// mean loss every 2000 mini-batches, then the accuracy on the test images.
//
//   seed2_cifar_cnn DATA_DIR [device] [--epochs N] [--print-every N] [--distributed]
// DATA_DIR holds the CIFAR-10 binary files (data_batch_1.bin ... test_batch.bin,
// or a cifar-10-batches-bin/ folder with them).
// --distributed, under porta-run -n W (W dividing 4): the same training as W
// processes with DistributedDataParallel, each rank a DistributedSampler's
// share and 4 / W images a step (the same global batch); rank 0 prints.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <porta/data.hpp>
#include <porta/distributed.hpp>
#include <porta/nn_parallel.hpp>
#include <porta/optim.hpp>

#include "simple_cnn.hpp"

using namespace porta;

int main(int argc, char** argv) try {
  if (argc < 2) {
    std::cerr << "usage: " << argv[0] << " DATA_DIR [device] [--epochs N] [--print-every N] [--distributed]\n";
    return 2;
  }
  std::string root = argv[1];
  std::optional<Device> chosen;
  int num_epochs = 5, print_every = 2000;
  bool distributed = false;
  for (int i = 2; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--epochs") && i + 1 < argc)
      num_epochs = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--print-every") && i + 1 < argc)
      print_every = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--distributed"))
      distributed = true;
    else
      chosen = Device(argv[i]);
  }
  const int batch_size = 4;
  int rank = 0, world = 1;
  if (distributed) {
    distributed::init_process_group();
    rank = distributed::get_rank(), world = distributed::get_world_size();
    if (batch_size % world) throw Error(PORTA_ERROR_INVALID_ARGUMENT, "--distributed: 1, 2 or 4 processes");
  }

  // transforms.Compose([ToTensor(), Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5))])
  data::Normalize normalize{{0.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}};
  auto trainset = data::CIFAR10(root, /*train=*/true, normalize);

  const Device device = chosen ? *chosen : try_gpu();
  if (rank == 0) std::cout << "Using device: " << device << (distributed ? " x " + std::to_string(world) : "") << "\n";
  // Distributed: each rank its share of every epoch's order.
  std::shared_ptr<data::samplers::DistributedSampler> share;
  if (distributed) share = std::make_shared<data::samplers::DistributedSampler>(trainset->size(), world, rank);
  data::DataLoader trainloader(trainset, {.batch_size = batch_size / world,
                                          .shuffle = !share,
                                          .num_workers = 2,
                                          .pin_memory_for = device,
                                          .sampler = share});

  manual_seed(0);
  auto model = std::make_shared<SimpleCNN>(3, 32);
  model->to(device);
  std::optional<nn::DistributedDataParallel<SimpleCNN>> ddp;
  if (distributed) ddp.emplace(model);

  nn::CrossEntropyLoss criterion;
  optim::SGD optimizer(model->parameters(), {.lr = 0.001, .momentum = 0.9});

  for (int epoch = 0; epoch < num_epochs; ++epoch) {
    if (share) share->set_epoch(uint64_t(epoch));
    double running_loss = 0.0;
    int i = 0;
    for (auto& [inputs_cpu, labels_cpu] : trainloader) {
      Tensor inputs = inputs_cpu.to(device), labels = labels_cpu.to(device);
      optimizer.zero_grad();
      Tensor outputs = ddp ? (*ddp)(inputs) : (*model)(inputs);
      Tensor loss = criterion(outputs, labels);
      loss.backward();
      optimizer.step();
      running_loss += loss.item<float>();
      if (rank == 0 && i % print_every == print_every - 1) {
        std::printf("[%d, %d] loss: %.3f\n", epoch + 1, i + 1, running_loss / print_every);
        std::fflush(stdout);
        running_loss = 0.0;
      }
      ++i;
    }
  }
  if (rank == 0) std::cout << "Training finished!\n";

  // The tutorial's test: the accuracy on the test images (rank 0: the ranks' models are the same).
  if (rank == 0) {
    data::DataLoader testloader(data::CIFAR10(root, /*train=*/false, normalize), {.batch_size = 4});
    NoGradGuard no_grad;
    int64_t correct = 0, total = 0;
    for (auto& [images, labels] : testloader) {
      Tensor predicted = (*model)(images.to(device)).argmax(1);
      correct += predicted.eq(labels.to(device)).sum().item<int64_t>();
      total += labels.size(0);
    }
    std::printf("Accuracy of the network on the %lld test images: %.2f %%\n", static_cast<long long>(total),
                100.0 * double(correct) / double(total));
  }
  if (distributed) distributed::destroy_process_group();
  return 0;
} catch (const porta::Error& e) {
  std::cerr << "error: " << e.what() << "\n";
  return 1;
}
