#include <porta/nn.hpp>
#include <porta/optim.hpp>
#include <iostream>
using namespace porta;

int main() {
  Device device = try_gpu();                        // cuda:0 if there is one, else cpu
  auto model = std::make_shared<nn::Sequential>(std::make_shared<nn::Linear>(10, 32), std::make_shared<nn::ReLU>(),
                                                std::make_shared<nn::Linear>(32, 1));
  model->to(device);                                // in place: parameters keep their identity
  Tensor x = Tensor::randn({64, 10}).to(device), y = Tensor::randn({64, 1}).to(device);
  optim::SGD opt(model->parameters(), {.lr = 0.01, .momentum = 0.9});
  nn::MSELoss criterion;
  for (int step = 0; step < 100; ++step) {
    Tensor loss = criterion((*model)(x), y);
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 20 == 0) std::cout << "loss " << loss.item<float>() << " on " << device << "\n";
  }
}
