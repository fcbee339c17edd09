// porta::nn::DistributedDataParallel from C++, in the same mpirun runs as
// collectives_test.cpp (1, 2 and 4 ranks): the ranks, each on its shard of
// a batch, end with one process's parameters on the whole batch, exactly
// (integer-valued weights and data, power-of-two batch and learning rate),
// with buckets small enough that there are several, .grad copied or a view
// of its bucket (gradient_as_bucket_view); and no_sync.
#include <gtest/gtest.h>

#include <porta/distributed.hpp>
#include <porta/nn.hpp>
#include <porta/nn_parallel.hpp>
#include <porta/optim.hpp>
#include <random>
#include <vector>

#include "test_world.hpp"

namespace dist = porta::distributed;
namespace nn = porta::nn;
using porta::Tensor;

namespace {

constexpr int64_t kBatch = 16;

struct Net : nn::Module {
  std::shared_ptr<nn::Linear> fc1 = register_module("fc1", std::make_shared<nn::Linear>(6, 8));
  std::shared_ptr<nn::Linear> fc2 = register_module("fc2", std::make_shared<nn::Linear>(8, 3));
  Tensor forward(const Tensor& x) { return fc2->forward(fc1->forward(x).relu()); }
  std::string describe() const override { return "Net"; }
};

// Small integers from `seed`: the same weights on every rank only when the seed is.
std::vector<float> integers(int64_t n, unsigned seed, int lo, int hi) {
  std::mt19937 gen(seed);
  std::vector<float> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(static_cast<float>(lo + static_cast<int>(gen() % unsigned(hi - lo + 1))));
  return v;
}

std::shared_ptr<Net> integer_net(const porta::Device& dev, unsigned seed) {
  auto net = std::make_shared<Net>();
  porta::NoGradGuard no_grad;
  unsigned k = 0;
  for (const Tensor& p : net->parameters())
    p.copy_(Tensor::from_vector(integers(p.numel(), seed * 97 + k++, -2, 2), p.shape()));
  net->to(dev);
  return net;
}

// Rows [begin, end) of step's batch.
Tensor rows(int step, int64_t width, int64_t begin, int64_t end, const porta::Device& dev, unsigned salt) {
  std::vector<float> all = integers(kBatch * width, 1000u + unsigned(step) * 7u + salt, -3, 3);
  return Tensor::from_vector(std::vector<float>(all.begin() + begin * width, all.begin() + end * width),
                             {end - begin, width}, dev);
}

Tensor loss(const Tensor& out, const Tensor& y) { return (out * y).sum() / double(kBatch); }

}  // namespace

TEST(DistributedDataParallel, RanksOnShardsEqualOneProcessOnTheWholeBatch) {
  const int rank = dist::get_rank(), size = dist::get_world_size();
  for (const porta::Device& dev : test_world::devices())
    for (bool as_view : {false, true}) {
      SCOPED_TRACE(dev.str() + (as_view ? " gradient_as_bucket_view" : ""));
      nn::DistributedDataParallelOptions o;
      o.bucket_cap_mb = 100.0 / (1 << 20);
      o.gradient_as_bucket_view = as_view;
      nn::DistributedDataParallel<Net> model(integer_net(dev, unsigned(rank) + 1), o);  // rank 0's weights win
      EXPECT_GE(model.bucket_count(), 3);
      auto reference = integer_net(dev, 1);
      porta::optim::SGD opt(model.module->parameters(), {.lr = 0.125});
      porta::optim::SGD ref_opt(reference->parameters(), {.lr = 0.125});
      const int64_t per = kBatch / size;
      for (int step = 0; step < 3; ++step) {
        opt.zero_grad();
        (loss(model(rows(step, 6, rank * per, (rank + 1) * per, dev, 0)),
              rows(step, 3, rank * per, (rank + 1) * per, dev, 1)) *
         double(size))
            .backward();
        opt.step();
        ref_opt.zero_grad();
        loss(reference->forward(rows(step, 6, 0, kBatch, dev, 0)), rows(step, 3, 0, kBatch, dev, 1)).backward();
        ref_opt.step();
      }
      const std::vector<Tensor> got = model.module->parameters(), want = reference->parameters();
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_EQ(got[i].cpu().to_vector<float>(), want[i].cpu().to_vector<float>()) << i;
    }
}

TEST(DistributedDataParallel, NoSyncAccumulatesThenSynchronizesTheSum) {
  const int rank = dist::get_rank(), size = dist::get_world_size();
  const porta::Device cpu = test_world::home();
  nn::DistributedDataParallel<Net> model(integer_net(cpu, 5));
  auto reference = integer_net(cpu, 5);
  const int64_t per = kBatch / size;
  {
    auto guard = model.no_sync();
    (loss(model(rows(0, 6, rank * per, (rank + 1) * per, cpu, 0)), rows(0, 3, rank * per, (rank + 1) * per, cpu, 1)) *
     double(size))
        .backward();
  }
  (loss(model(rows(1, 6, rank * per, (rank + 1) * per, cpu, 0)), rows(1, 3, rank * per, (rank + 1) * per, cpu, 1)) *
   double(size))
      .backward();
  for (int step : {0, 1})
    loss(reference->forward(rows(step, 6, 0, kBatch, cpu, 0)), rows(step, 3, 0, kBatch, cpu, 1)).backward();
  const std::vector<Tensor> got = model.module->parameters(), want = reference->parameters();
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(got[i].grad().to_vector<float>(), want[i].grad().to_vector<float>()) << i;
}
