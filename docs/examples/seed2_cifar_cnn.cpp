// Seed case 2 in C++: the tutorial's SimpleCNN trained on CIFAR-10 with
// CrossEntropyLoss and SGD(lr=0.001, momentum=0.9), batch 4, printing the
// mean loss every 2000 mini-batches.
//
//   seed2_cifar_cnn DATA_DIR [device] [--epochs N] [--print-every N]
// DATA_DIR holds the CIFAR-10 binary files (data_batch_1.bin ... test_batch.bin,
// or a cifar-10-batches-bin/ folder with them).
#include <porta/data.hpp>
#include <porta/optim.hpp>

#include <cstdio>
#include <cstring>
#include <iostream>

#include "simple_cnn.hpp"

using namespace porta;

int main(int argc, char** argv) try {
  if (argc < 2) {
    std::cerr << "usage: " << argv[0] << " DATA_DIR [device] [--epochs N] [--print-every N]\n";
    return 2;
  }
  std::string root = argv[1];
  std::optional<Device> chosen;
  int num_epochs = 5, print_every = 2000;
  for (int i = 2; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--epochs") && i + 1 < argc) num_epochs = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--print-every") && i + 1 < argc) print_every = std::atoi(argv[++i]);
    else chosen = Device(argv[i]);
  }

  // transforms.Compose([ToTensor(), Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5))])
  data::Normalize normalize{{0.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}};
  auto trainset = data::CIFAR10(root, /*train=*/true, normalize);

  const Device device = chosen ? *chosen : try_gpu();
  std::cout << "Using device: " << device << "\n";
  data::DataLoader trainloader(trainset, {.batch_size = 4, .shuffle = true, .num_workers = 2,
                                          .pin_memory_for = device});

  manual_seed(0);
  auto model = std::make_shared<SimpleCNN>(3, 32);
  model->to(device);

  nn::CrossEntropyLoss criterion;
  optim::SGD optimizer(model->parameters(), {.lr = 0.001, .momentum = 0.9});

  for (int epoch = 0; epoch < num_epochs; ++epoch) {
    double running_loss = 0.0;
    int i = 0;
    for (auto& [inputs_cpu, labels_cpu] : trainloader) {
      Tensor inputs = inputs_cpu.to(device), labels = labels_cpu.to(device);
      optimizer.zero_grad();
      Tensor outputs = (*model)(inputs);
      Tensor loss = criterion(outputs, labels);
      loss.backward();
      optimizer.step();
      running_loss += loss.item<float>();
      if (i % print_every == print_every - 1) {
        std::printf("[%d, %d] loss: %.3f\n", epoch + 1, i + 1, running_loss / print_every);
        std::fflush(stdout);
        running_loss = 0.0;
      }
      ++i;
    }
  }
  std::cout << "Training finished!\n";
  return 0;
} catch (const porta::Error& e) {
  std::cerr << "error: " << e.what() << "\n";
  return 1;
}
