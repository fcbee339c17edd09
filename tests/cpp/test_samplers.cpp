// porta::data::samplers and the datasets built from datasets (Subset,
// ConcatDataset, random_split): index coverage, seeded orders that match
// Python's for the same generator state, weighted frequencies, batching, and
// the DataLoader taking a sampler or a batch sampler.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <porta/data.hpp>

using porta::Generator;
using porta::data::DataLoader;
using porta::data::ImageDataset;
namespace samplers = porta::data::samplers;

namespace {
std::vector<int64_t> iota(int64_t n, int64_t from = 0) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), from);
  return v;
}

std::vector<int64_t> sorted(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<int64_t> randperm_at(int64_t n, uint64_t seed, uint64_t offset) {
  porta_tensor* p = nullptr;
  porta::detail::check(porta_randperm_at(n, seed, offset, DLDevice{kDLCPU, 0}, &p));
  return porta::Tensor::adopt(p).to_vector<int64_t>();
}

// n one-pixel samples whose labels are `labels` (default: the sample's index).
std::shared_ptr<ImageDataset> labelled(int64_t n, std::vector<int64_t> labels = {}) {
  if (labels.empty()) labels = iota(n);
  return std::make_shared<ImageDataset>(std::vector<uint8_t>(size_t(n), 1), labels, porta::Shape{1});
}

std::vector<std::vector<int64_t>> epoch_batches(const DataLoader& loader) {
  std::vector<std::vector<int64_t>> out;
  for (auto& batch : loader) out.push_back(batch.target.to_vector<int64_t>());
  return out;
}
}  // namespace

// Epoch e of RandomSampler(n, Generator(s)) is the permutation at state (s, e * n): Python's
// RandomSampler(generator=porta.Generator().manual_seed(s)) and the loader's {.seed = s} give the same.
TEST(Samplers, PermutationsGiveEveryIndexOnceAndRepeatWithASeed) {
  samplers::RandomSampler random(10, Generator(7));
  const std::vector<int64_t> e0 = random.indices(), e1 = random.indices();
  EXPECT_EQ(sorted(e0), iota(10));
  EXPECT_EQ(e0, randperm_at(10, 7, 0));
  EXPECT_EQ(e1, randperm_at(10, 7, 10));
  EXPECT_EQ(random.size(), 10);
  EXPECT_EQ(samplers::RandomSampler(10, Generator(7)).indices(), e0);

  std::map<int64_t, int> counts;
  for (int64_t i : samplers::RandomSampler(10, false, 25, Generator(7)).indices()) ++counts[i];
  std::vector<int> seen;
  for (auto [i, c] : counts) seen.push_back(c);
  EXPECT_THAT(seen,
              testing::UnorderedElementsAre(2, 2, 2, 2, 2, 3, 3, 3, 3, 3));  // two whole permutations, half a third

  const std::vector<int64_t> drawn = samplers::RandomSampler(10, true, 50, Generator(7)).indices();
  EXPECT_EQ(drawn.size(), 50u);
  EXPECT_THAT(drawn, testing::Each(testing::AllOf(testing::Ge(0), testing::Lt(10))));

  const std::vector<int64_t> subset{4, 8, 15, 16, 23, 42};
  const std::vector<int64_t> picked = samplers::SubsetRandomSampler(subset, Generator(7)).indices();
  EXPECT_EQ(sorted(picked), subset);
  EXPECT_EQ(picked, samplers::SubsetRandomSampler(subset, Generator(7)).indices());
  EXPECT_EQ(samplers::SequentialSampler(4).indices(), iota(4));
}

// DistributedSampler: the order of seed + epoch (Python's: porta_randperm_at(seed + epoch, 0)), split by rank,
// padded with its first indices (or its tail dropped) so that every rank has the same number.
TEST(Samplers, DistributedSamplerSplitsOneOrderAmongTheRanks) {
  for (int64_t epoch : {0, 1}) {
    const std::vector<int64_t> order = randperm_at(10, 7 + epoch, 0);
    std::vector<int64_t> padded = order;
    padded.push_back(order[0]), padded.push_back(order[1]);  // 10 -> 12 = 3 x 4
    for (int64_t r = 0; r < 4; ++r) {
      samplers::DistributedSampler s(10, 4, r, /*shuffle=*/true, /*seed=*/7);
      s.set_epoch(uint64_t(epoch));
      EXPECT_EQ(s.size(), 3);
      EXPECT_EQ(s.indices(), (std::vector<int64_t>{padded[size_t(r)], padded[size_t(r + 4)], padded[size_t(r + 8)]}));
    }
  }
  EXPECT_EQ(samplers::DistributedSampler(10, 4, 1, false).indices(), (std::vector<int64_t>{1, 5, 9}));
  EXPECT_EQ(samplers::DistributedSampler(10, 4, 3, false, 0, /*drop_last=*/true).indices(),
            (std::vector<int64_t>{3, 7}));
  EXPECT_EQ(samplers::DistributedSampler(3, 4, 3, false).indices(), (std::vector<int64_t>{0}));  // all padding
  EXPECT_THROW(samplers::DistributedSampler(10, 4, 4), porta::Error);
  EXPECT_THROW(samplers::DistributedSampler(10, 0, 0), porta::Error);
}

// A fixed seed, and a bound six times the standard error (< 0.008): it cannot flake.
TEST(Samplers, WeightedRandomSamplerFollowsTheWeights) {
  samplers::WeightedRandomSampler weighted({1.0, 2.0, 0.0, 7.0}, 4000, true, Generator(7));
  std::map<int64_t, int> freq;
  for (int64_t i : weighted.indices()) ++freq[i];
  EXPECT_EQ(freq.count(2), 0u);
  EXPECT_NEAR(freq[0] / 4000.0, 0.1, 0.04);
  EXPECT_NEAR(freq[1] / 4000.0, 0.2, 0.04);
  EXPECT_NEAR(freq[3] / 4000.0, 0.7, 0.04);
  EXPECT_EQ(sorted(samplers::WeightedRandomSampler({1.0, 1.0, 0.0, 1.0}, 3, false, Generator(7)).indices()),
            (std::vector<int64_t>{0, 1, 3}));
}

TEST(Samplers, BatchSamplerBatchesAndDropsTheLast) {
  auto seven = std::make_shared<samplers::SequentialSampler>(7);
  using Batches = std::vector<std::vector<int64_t>>;
  samplers::BatchSampler keep(seven, 3, false), drop(seven, 3, true);
  EXPECT_EQ(keep.batches(), (Batches{{0, 1, 2}, {3, 4, 5}, {6}}));
  EXPECT_EQ(drop.batches(), (Batches{{0, 1, 2}, {3, 4, 5}}));
  EXPECT_EQ(keep.size(), 3);
  EXPECT_EQ(drop.size(), 2);
}

TEST(Samplers, BadArgumentsAreRefused) {
  EXPECT_THROW(samplers::RandomSampler(0), porta::Error);
  EXPECT_THROW(samplers::RandomSampler(5, false, 0), porta::Error);
  EXPECT_THROW(samplers::WeightedRandomSampler({1.0}, 0), porta::Error);
  EXPECT_THROW(samplers::BatchSampler(nullptr, 2, false), porta::Error);
  EXPECT_THAT(
      [] { samplers::BatchSampler(std::make_shared<samplers::SequentialSampler>(3), 0, false); },
      testing::ThrowsMessage<porta::Error>(testing::HasSubstr("batch_size should be a positive integer value")));
}

TEST(Samplers, TheLoaderTakesASamplerOrABatchSampler) {
  auto dataset = labelled(10);
  auto odd = std::make_shared<samplers::SubsetRandomSampler>(std::vector<int64_t>{1, 3, 5, 7, 9}, Generator(3));
  DataLoader loader(dataset, {.batch_size = 2, .sampler = odd});
  EXPECT_EQ(loader.size(), 3);
  std::vector<int64_t> seen;
  for (const auto& b : epoch_batches(loader)) seen.insert(seen.end(), b.begin(), b.end());
  EXPECT_EQ(sorted(seen), (std::vector<int64_t>{1, 3, 5, 7, 9}));

  auto batches = std::make_shared<samplers::BatchSampler>(std::make_shared<samplers::SequentialSampler>(10), 4, true);
  for (int workers : {0, 2}) {
    DataLoader by_batch(dataset, {.num_workers = workers, .batch_sampler = batches});
    EXPECT_EQ(by_batch.size(), 2);
    EXPECT_EQ(epoch_batches(by_batch), (std::vector<std::vector<int64_t>>{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  }
  EXPECT_THROW(DataLoader(dataset, {.shuffle = true, .sampler = odd}), porta::Error);
  EXPECT_THAT([&] { DataLoader(dataset, {.batch_size = 2, .batch_sampler = batches}); },
              testing::ThrowsMessage<porta::Error>(testing::HasSubstr("batch_sampler option is mutually exclusive")));
  EXPECT_THROW(DataLoader(dataset, {.drop_last = true, .batch_sampler = batches}), porta::Error);
}

TEST(Datasets, ConcatDatasetIndexesAcrossItsPartsAndFromTheEnd) {
  auto both = std::make_shared<porta::data::ConcatDataset>(
      std::vector<std::shared_ptr<const porta::data::Dataset>>{labelled(3), labelled(4, {10, 11, 12, 13})});
  EXPECT_EQ(both->size(), 7);
  EXPECT_EQ(both->cumulative_sizes(), (std::vector<int64_t>{3, 7}));
  EXPECT_EQ(both->get_batch({0, 2, 3, 6, 1}, std::nullopt).target.to_vector<int64_t>(),
            (std::vector<int64_t>{0, 2, 10, 13, 1}));
  EXPECT_EQ(both->get_batch({-1, -7, -4}, std::nullopt).target.to_vector<int64_t>(), (std::vector<int64_t>{13, 0, 10}));
  EXPECT_EQ(both->get_batch({4, 5}, std::nullopt).data.shape(), (porta::Shape{2, 1}));
  EXPECT_THROW(both->get_batch({7}, std::nullopt), porta::Error);
  EXPECT_THROW(both->get_batch({-8}, std::nullopt), porta::Error);
  EXPECT_THROW(porta::data::ConcatDataset({}), porta::Error);
  EXPECT_EQ(epoch_batches(DataLoader(both, {.batch_size = 4})),
            (std::vector<std::vector<int64_t>>{{0, 1, 2, 10}, {11, 12, 13}}));

  porta::data::Subset evens(both, {0, 2, 4, 6});
  EXPECT_EQ(evens.size(), 4);
  EXPECT_EQ(evens.get_batch({3, 1}, std::nullopt).target.to_vector<int64_t>(), (std::vector<int64_t>{13, 2}));
  EXPECT_THROW(porta::data::Subset(both, {7}), porta::Error);
  EXPECT_THROW(evens.get_batch({4}, std::nullopt), porta::Error);
}

// PyTorch's rule for fractions: floor(n * f) each, the remainder one at a time to the splits in turn.
TEST(Datasets, RandomSplitDistributesTheRemainderRoundRobin) {
  auto lengths = [](int64_t n, const std::vector<double>& fractions) {
    std::vector<int64_t> out;
    for (const auto& s : porta::data::random_split(labelled(n), fractions)) out.push_back(s->size());
    return out;
  };
  EXPECT_EQ(lengths(11, {0.25, 0.25, 0.25, 0.25}), (std::vector<int64_t>{3, 3, 3, 2}));  // floors 2 each, 3 left
  EXPECT_EQ(lengths(10, {0.3, 0.3, 0.4}), (std::vector<int64_t>{3, 3, 4}));
  EXPECT_EQ(lengths(7, {0.1, 0.1, 0.8}), (std::vector<int64_t>{1, 1, 5}));  // floors 0, 0, 5; 2 left
  EXPECT_EQ(lengths(10, {4, 6}), (std::vector<int64_t>{4, 6}));

  Generator g(1);
  const auto parts = porta::data::random_split(labelled(12), {4, 8}, &g);
  const std::vector<int64_t> perm = randperm_at(12, 1, 0);  // Python's random_split from the same state
  EXPECT_EQ(parts[0]->indices(), std::vector<int64_t>(perm.begin(), perm.begin() + 4));
  EXPECT_EQ(parts[1]->indices(), std::vector<int64_t>(perm.begin() + 4, perm.end()));
  EXPECT_EQ(g.get_state(), (std::pair<uint64_t, uint64_t>{1, 12}));
  auto split = [](const std::vector<double>& lengths) { porta::data::random_split(labelled(10), lengths); };
  EXPECT_THAT(
      [&] {
        split({4, 5});
      },
      testing::ThrowsMessage<porta::Error>(testing::HasSubstr("sum of input lengths does not equal")));
  EXPECT_THAT(
      [&] {
        split({0.5, 0.6});
      },
      testing::ThrowsMessage<porta::Error>(testing::HasSubstr("neither a whole count nor one of fractions")));
  EXPECT_THROW(porta::data::random_split(labelled(10), {1.5, -0.5}), porta::Error);
  EXPECT_THROW(porta::data::random_split(labelled(10), {2.5, 7.5}), porta::Error);
}
