// Uses the installed C++ headers and library through find_package(porta);
// every installed header is included, so one that includes a header the
// install left out fails here.
#include <porta/data.hpp>
#include <porta/nn.hpp>
#include <porta/optim.hpp>
#include <porta/porta.hpp>

#include <iostream>

int main() {
  porta::Device dev = porta::try_gpu();
  auto a = porta::Tensor::ones({64, 32}, dev);
  auto b = porta::Tensor::ones({32, 16}, dev);
  auto c = a.matmul(b);
  const float v = c.sum().item<float>();
  std::cout << "consumer: " << dev << " sum=" << v << "\n";
  return v == 64.0f * 16.0f * 32.0f ? 0 : 1;
}
