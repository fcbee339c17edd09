// porta::nn::DistributedDataParallel from C++, in the same mpirun runs as
// test_collectives.cpp (1, 2 and 4 ranks): the ranks, each on its shard of
// a batch, end with one process's parameters on the whole batch, exactly
// (integer-valued weights and data, power-of-two batch and learning rate),
// with buckets small enough that there are several, .grad copied or a view
// of its bucket (gradient_as_bucket_view); a wide layer's gradient gathered
// as factors, on uneven shards; and no_sync.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <porta/distributed.hpp>
#include <porta/nn.hpp>
#include <porta/nn_parallel.hpp>
#include <porta/optim.hpp>
#include <random>
#include <string>
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

// A net of small integer weights in [-hi, hi] from `seed`.
template <typename N = Net>
std::shared_ptr<N> integer_net(const porta::Device& dev, unsigned seed, int hi = 2) {
  auto net = std::make_shared<N>();
  porta::NoGradGuard no_grad;
  unsigned k = 0;
  for (const Tensor& p : net->parameters())
    p.copy_(Tensor::from_vector(integers(p.numel(), seed * 97 + k++, -hi, hi), p.shape()));
  net->to(dev);
  return net;
}

// Rows [begin, end) of step's batch of `total` rows.
Tensor rows(int step, int64_t width, int64_t begin, int64_t end, const porta::Device& dev, unsigned salt,
            int64_t total = kBatch) {
  std::vector<float> all = integers(total * width, 1000u + unsigned(step) * 7u + salt, -3, 3);
  return Tensor::from_vector(std::vector<float>(all.begin() + begin * width, all.begin() + end * width),
                             {end - begin, width}, dev);
}

Tensor loss(const Tensor& out, const Tensor& y) { return (out * y).sum() / double(kBatch); }

// A 64 x 64 layer, which a batch of 8 rows or fewer over the ranks makes
// worth gathering as factors, and a 64 -> 2 one, which no batch does.
struct WideNet : nn::Module {
  std::shared_ptr<nn::Linear> fc1 = register_module("fc1", std::make_shared<nn::Linear>(64, 64));
  std::shared_ptr<nn::Linear> fc2 = register_module("fc2", std::make_shared<nn::Linear>(64, 2));
  Tensor forward(const Tensor& x) { return fc2->forward(fc1->forward(x).relu()); }
  std::string describe() const override { return "WideNet"; }
};

// The log lines of the core while it lives (at INFO), for the reducer's report.
struct LogLines {
  std::mutex mu;
  std::vector<std::string> lines;
  porta_log_level was = porta::get_log_level();
  LogLines() {
    porta::set_log_handler([this](porta_log_level, const std::string& line) {
      std::lock_guard<std::mutex> lock(mu);
      lines.push_back(line);
    });
    porta::set_log_level(PORTA_LOG_INFO);
  }
  ~LogLines() {
    porta::set_log_level(was);
    porta::set_log_handler(nullptr);
  }
  bool has(const std::string& text) {
    std::lock_guard<std::mutex> lock(mu);
    for (const std::string& l : lines)
      if (l.find(text) != std::string::npos) return true;
    return false;
  }
};

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

// A subgroup without rank 0 (issue 49 item 8): its first member, global rank
// 1, is the source of the weights, named by its global rank.
TEST(DistributedDataParallel, ASubgroupWithoutRank0StartsFromItsFirstMember) {
  const int rank = dist::get_rank(), size = dist::get_world_size();
  if (size < 2) GTEST_SKIP() << "needs 2 ranks or more (this run has 1)";
  std::vector<int32_t> members;
  for (int32_t r = 1; r < size; ++r) members.push_back(r);
  const dist::ProcessGroup group = dist::new_group(members);  // every rank calls it
  if (rank == 0) {
    EXPECT_FALSE(group);
    return;
  }
  EXPECT_EQ(dist::get_global_rank(group, 0), 1);
  EXPECT_EQ(dist::get_global_rank(group, size - 2), size - 1);
  EXPECT_THROW(dist::get_global_rank(group, size - 1), porta::Error);
  nn::DistributedDataParallelOptions o;
  o.process_group = group;
  const porta::Device dev = test_world::home();  // a device the backend serves (nccl: cuda)
  nn::DistributedDataParallel<Net> model(integer_net(dev, unsigned(rank) + 1), o);
  const std::vector<Tensor> got = model.module->parameters(), want = integer_net(dev, 2)->parameters();
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(got[i].cpu().to_vector<float>(), want[i].cpu().to_vector<float>()) << i;
}

// 6 rows a backward, split unevenly (2 / 4 on two ranks, 1 / 2 / 1 / 2 on
// four), on integer weights and data: fc1's gradient is gathered as rows,
// padded to the largest shard, in the first two backwards; in the third
// rank 0 holds a .grad of its own (zeros), so every rank falls back to the
// all-reduce, and stays with it in the fourth; fc2's never pays. Either way
// every gradient is one process's on the whole batch, exactly.
TEST(DistributedDataParallel, WideLayerGradientsGatheredAsFactorsEqualOneProcess) {
  const int rank = dist::get_rank(), size = dist::get_world_size();
  const std::vector<int64_t> shard = size == 1   ? std::vector<int64_t>{6}
                                     : size == 2 ? std::vector<int64_t>{2, 4}
                                                 : std::vector<int64_t>{1, 2, 1, 2};
  ASSERT_EQ(int(shard.size()), size);
  int64_t begin = 0;
  for (int r = 0; r < rank; ++r) begin += shard[size_t(r)];
  const int64_t end = begin + shard[size_t(rank)];
  const auto wide_loss = [](const Tensor& out, const Tensor& y) { return (out * y).sum() / 8.0; };
  for (const porta::Device& dev : test_world::devices())
    for (bool as_view : {false, true}) {
      SCOPED_TRACE(dev.str() + (as_view ? " gradient_as_bucket_view" : ""));
      LogLines log;
      {
        nn::DistributedDataParallelOptions o;
        o.bucket_cap_mb = 100.0 / (1 << 20);  // each weight alone in its bucket
        o.gradient_as_bucket_view = as_view;
        nn::DistributedDataParallel<WideNet> model(integer_net<WideNet>(dev, unsigned(rank) + 1, 1), o);
        auto reference = integer_net<WideNet>(dev, 1, 1);  // rank 0's weights
        for (int step = 0; step < 4; ++step) {
          SCOPED_TRACE("backward " + std::to_string(step));
          for (const Tensor& p : model.module->parameters()) p.set_grad(Tensor());
          if (step == 2 && rank == 0) model.module->fc1->weight.set_grad(Tensor::zeros({64, 64}, dev));
          (wide_loss(model(rows(step, 64, begin, end, dev, 0, 6)), rows(step, 2, begin, end, dev, 1, 6)) * double(size))
              .backward();
          for (const Tensor& p : reference->parameters()) p.set_grad(Tensor());
          wide_loss(reference->forward(rows(step, 64, 0, 6, dev, 0, 6)), rows(step, 2, 0, 6, dev, 1, 6)).backward();
          const std::vector<Tensor> got = model.module->parameters(), want = reference->parameters();
          for (size_t i = 0; i < got.size(); ++i)
            EXPECT_EQ(got[i].grad().cpu().to_vector<float>(), want[i].grad().cpu().to_vector<float>()) << i;
        }
      }  // the reducer reports as it goes
      EXPECT_TRUE(log.has("4 synchronized backwards")) << "no report of 4 synchronized backwards";
      EXPECT_TRUE(log.has("2 bucket reductions gathered as factors")) << "fc1 was not gathered as factors twice";
    }
}

// PORTA_DDP_FACTORED_GRADIENTS=0 on one rank (rank 0) turns the factors
// off for every rank, through the header; a value that is neither 0 nor 1
// is refused by name.
TEST(DistributedDataParallel, FactoredGradientsOffOnOneRankAreOffForAll) {
  const int rank = dist::get_rank(), size = dist::get_world_size();
  const porta::Device dev = test_world::home();
  nn::DistributedDataParallelOptions o;
  o.bucket_cap_mb = 100.0 / (1 << 20);
  ::setenv("PORTA_DDP_FACTORED_GRADIENTS", "yes", 1);
  try {
    nn::DistributedDataParallel<WideNet> refused(integer_net<WideNet>(dev, 1, 1), o);
    ADD_FAILURE() << "PORTA_DDP_FACTORED_GRADIENTS=yes was accepted";
  } catch (const porta::Error& e) {
    EXPECT_NE(std::string(e.what()).find("PORTA_DDP_FACTORED_GRADIENTS='yes'"), std::string::npos) << e.what();
  }
  if (rank == 0)
    ::setenv("PORTA_DDP_FACTORED_GRADIENTS", "0", 1);
  else
    ::unsetenv("PORTA_DDP_FACTORED_GRADIENTS");
  LogLines log;
  {
    nn::DistributedDataParallel<WideNet> model(integer_net<WideNet>(dev, 1, 1), o);
    auto reference = integer_net<WideNet>(dev, 1, 1);
    const int64_t per = 8 / size;
    (model(rows(0, 64, rank * per, (rank + 1) * per, dev, 0, 8)).sum() * (double(size) / 8.0)).backward();
    (reference->forward(rows(0, 64, 0, 8, dev, 0, 8)).sum() / 8.0).backward();
    const std::vector<Tensor> got = model.module->parameters(), want = reference->parameters();
    for (size_t i = 0; i < got.size(); ++i)
      EXPECT_EQ(got[i].grad().cpu().to_vector<float>(), want[i].grad().cpu().to_vector<float>()) << i;
  }
  ::unsetenv("PORTA_DDP_FACTORED_GRADIENTS");
  EXPECT_TRUE(log.has("1 synchronized backwards")) << "no report of the synchronized backward";
  EXPECT_TRUE(log.has("0 bucket reductions gathered as factors")) << "a rank gathered factors";
}

// Every rank multiplies the gathered rows itself, so the ranks must end
// with the same bits: three Adam steps on random (not integer) data, each
// rank its own rows, then every parameter compared across the ranks.
TEST(DistributedDataParallel, FactoredGradientsLeaveEveryRankTheSameBits) {
  const int rank = dist::get_rank(), size = dist::get_world_size();
  const porta::Device dev = test_world::home();
  LogLines log;
  {
    porta::manual_seed(uint64_t(rank) + 11);  // different weights: the broadcast makes them rank 0's
    auto net = std::make_shared<WideNet>();
    net->to(dev);
    nn::DistributedDataParallelOptions o;
    o.bucket_cap_mb = 100.0 / (1 << 20);
    nn::DistributedDataParallel<WideNet> model(net, o);
    porta::optim::Adam opt(model.module->parameters(), {.lr = 0.01});
    for (int step = 0; step < 3; ++step) {
      opt.zero_grad();
      const Tensor x = Tensor::randn({8 / size, 64}, dev), y = Tensor::randn({8 / size, 2}, dev);
      (model(x) * y).sum().backward();
      opt.step();
    }
    for (const Tensor& p : model.module->parameters()) {
      const Tensor mine = p.detach().reshape({-1}).contiguous();
      const Tensor all = Tensor::zeros({int64_t(size) * mine.numel()}, dev);
      dist::all_gather_into_tensor(all, mine);
      const std::vector<float> v = all.cpu().to_vector<float>();
      for (int r = 1; r < size; ++r)
        EXPECT_TRUE(std::equal(v.begin(), v.begin() + mine.numel(), v.begin() + r * mine.numel()))
            << "rank " << r << " differs from rank 0";
    }
  }
  EXPECT_TRUE(log.has("3 bucket reductions gathered as factors")) << "fc1 was not gathered as factors";
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
