// Seed case 1 in C++: the tutorial's SimpleNet (Linear(10, 1)) trained with
// MSELoss and SGD(lr=0.01) for 100 epochs on the device given as the first
// argument (default: try_gpu(), the best available device).
#include <porta/nn.hpp>
#include <porta/optim.hpp>

#include <cstdio>
#include <iostream>

using namespace porta;

// class SimpleNet(nn.Module): self.fc = nn.Linear(10, 1)
struct SimpleNet : nn::Module {
  std::shared_ptr<nn::Linear> fc = register_module("fc", std::make_shared<nn::Linear>(10, 1));
  Tensor forward(const Tensor& x) override { return (*fc)(x); }
  std::string describe() const override { return "SimpleNet"; }
};

int main(int argc, char** argv) try {
  manual_seed(0);
  auto model = std::make_shared<SimpleNet>();

  // device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
  const Device device = argc > 1 ? Device(argv[1]) : try_gpu();
  std::cout << "Using device: " << device << "\n";
  model->to(device);

  Tensor input_data = Tensor::randn({5, 10}).to(device);
  Tensor target = Tensor::randn({5, 1}).to(device);

  nn::MSELoss criterion;
  optim::SGD optimizer(model->parameters(), {.lr = 0.01});

  const int num_epochs = 100;
  for (int epoch = 0; epoch < num_epochs; ++epoch) {
    Tensor output = (*model)(input_data);
    Tensor loss = criterion(output, target);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    std::printf("Epoch %d/%d, Loss: %.6f\n", epoch + 1, num_epochs, loss.item<float>());
  }
  std::cout << "Training finished!\n";
  return 0;
} catch (const porta::Error& e) {
  std::cerr << "error: " << e.what() << "\n";
  return 1;
}
