// The tutorial's SimpleCNN, for inputs of `channels` x `size` x `size`:
// Conv2d(channels, 64, 3, padding=1), ReLU, Conv2d(64, 128, 3, padding=1),
// ReLU, MaxPool2d(2, 2), Linear(128 * size/2 * size/2, 512), ReLU,
// Linear(512, 10). CIFAR-10: channels 3, size 32; Fashion-MNIST: 1, 28.
#pragma once

#include <porta/nn.hpp>

struct SimpleCNN : porta::nn::Module {
  SimpleCNN(int channels, int size) : flat_(128 * (size / 2) * (size / 2)) {
    using namespace porta::nn;
    conv1 = register_module("conv1", std::make_shared<Conv2d>(channels, 64, 3, 1, 1));
    conv2 = register_module("conv2", std::make_shared<Conv2d>(64, 128, 3, 1, 1));
    fc1 = register_module("fc1", std::make_shared<Linear>(flat_, 512));
    fc2 = register_module("fc2", std::make_shared<Linear>(512, 10));
  }

  porta::Tensor forward(const porta::Tensor& input) override {
    porta::Tensor x = (*conv1)(input).relu();
    x = pool((*conv2)(x).relu());
    x = x.view({-1, flat_});
    x = (*fc1)(x).relu();
    return (*fc2)(x);
  }
  std::string describe() const override { return "SimpleCNN"; }

  std::shared_ptr<porta::nn::Conv2d> conv1, conv2;
  std::shared_ptr<porta::nn::Linear> fc1, fc2;
  porta::nn::MaxPool2d pool{2, 2};

 private:
  int64_t flat_;
};
