// porta::data validates what the C ABI would: Normalize with nothing to
// divide by, sample shapes whose size overflows, and a batch size so large
// that counting batches overflowed (UBSan findings in the headers).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <porta/data.hpp>

#include <climits>
#include <stdexcept>

using porta::data::DataLoader;
using porta::data::ImageDataset;
using porta::data::Normalize;

TEST(Data, NormalizeWithoutValuesOrWithAZeroStdIsRefused) {
  std::vector<uint8_t> pixels(2 * 4, 7);
  std::vector<int64_t> labels{0, 1};
  EXPECT_THROW(ImageDataset(pixels, labels, {1, 2, 2}, Normalize{{}, {}}), porta::Error);
  EXPECT_THROW(ImageDataset(pixels, labels, {1, 2, 2}, Normalize{{0.5f}, {0.0f}}), porta::Error);
  EXPECT_THROW(ImageDataset(pixels, labels, {1, INT64_MAX, 4}), porta::Error);
  const ImageDataset ok(pixels, labels, {1, 2, 2}, Normalize{{0.5f}, {0.25f}});
  EXPECT_EQ(ok.get_batch({1}, std::nullopt).data.sum().item<float>(), 4 * (7.0f / 255.0f - 0.5f) / 0.25f);
}

TEST(Data, AHugeBatchSizeCountsOneBatch) {
  auto dataset = std::make_shared<ImageDataset>(std::vector<uint8_t>(10, 1), std::vector<int64_t>(10, 0),
                                                porta::Shape{1});
  EXPECT_EQ(DataLoader(dataset, {.batch_size = INT64_MAX}).size(), 1);
  EXPECT_EQ(DataLoader(dataset, {.batch_size = INT64_MAX, .drop_last = true}).size(), 0);
  EXPECT_EQ(DataLoader(dataset, {.batch_size = 3}).size(), 4);
}

namespace {
// The sample order of one epoch: datasets whose label is the sample's index.
std::vector<int64_t> epoch_order(DataLoader& loader) {
  std::vector<int64_t> order;
  for (auto& batch : loader)
    for (int64_t v : batch.target.to_vector<int64_t>()) order.push_back(v);
  return order;
}

std::vector<int64_t> randperm_at(int64_t n, uint64_t seed, uint64_t offset) {
  porta_tensor* p = nullptr;
  porta::detail::check(porta_randperm_at(n, seed, offset, DLDevice{kDLCPU, 0}, &p));
  return porta::Tensor::adopt(p).to_vector<int64_t>();
}
}  // namespace

// Shuffling draws from Porta's generator, as Python's loader does: with a
// seed, epoch e is the permutation at generator state (seed, e * n), so
// seed 5's epoch 1 is not seed 6's epoch 0; without one, from the global
// generator, so two loaders made at one state still differ.
TEST(Data, ShufflingDrawsFromPortasGenerator) {
  const int64_t n = 12;
  std::vector<int64_t> labels(n);
  for (int64_t i = 0; i < n; ++i) labels[size_t(i)] = i;
  auto dataset = std::make_shared<ImageDataset>(std::vector<uint8_t>(size_t(n), 1), labels, porta::Shape{1});
  DataLoader seeded(dataset, {.batch_size = 5, .shuffle = true, .seed = 5});
  const std::vector<int64_t> e0 = epoch_order(seeded), e1 = epoch_order(seeded);
  EXPECT_EQ(e0, randperm_at(n, 5, 0));
  EXPECT_EQ(e1, randperm_at(n, 5, uint64_t(n)));
  EXPECT_NE(e0, e1);
  DataLoader six(dataset, {.batch_size = 5, .shuffle = true, .seed = 6});
  EXPECT_NE(epoch_order(six), e1);

  porta::manual_seed(0);
  DataLoader a(dataset, {.batch_size = 5, .shuffle = true}), b(dataset, {.batch_size = 5, .shuffle = true});
  const std::vector<int64_t> first = epoch_order(a), second = epoch_order(b);
  EXPECT_EQ(first, randperm_at(n, 0, 0)) << "the global generator after manual_seed(0)";
  EXPECT_EQ(second, randperm_at(n, 0, uint64_t(n)));
  EXPECT_NE(first, second);
}

// An iterator from a temporary loader outlives it (range-for over a loader
// returned by value, or begin() kept): the epoch holds the dataset and a copy
// of the options, not the loader (ASan saw the loader read after its end).
TEST(Data, AnIteratorOutlivesItsTemporaryLoader) {
  std::vector<int64_t> labels{0, 1, 2, 3, 4};
  auto dataset = std::make_shared<ImageDataset>(std::vector<uint8_t>(5, 1), labels, porta::Shape{1});
  for (int workers : {0, 2}) {
    auto it = DataLoader(dataset, {.batch_size = 2, .num_workers = workers}).begin();
    std::vector<int64_t> seen;
    for (; it != DataLoader::Iterator(); ++it)
      for (int64_t v : it->target.to_vector<int64_t>()) seen.push_back(v);
    EXPECT_EQ(seen, labels) << workers << " workers";
  }
}

namespace {
// Samples whose label is their index; sample `bad` throws.
class FailingAt : public porta::data::Dataset {
 public:
  FailingAt(int64_t n, int64_t bad) : n_(n), bad_(bad) {}
  int64_t size() const override { return n_; }
  porta::data::Batch get_batch(const std::vector<int64_t>& indices, const std::optional<porta::Device>&) const override {
    for (int64_t i : indices)
      if (i == bad_) throw std::runtime_error("sample " + std::to_string(i) + " is bad");
    const porta::Tensor labels = porta::Tensor::from_vector<int64_t>(indices, {int64_t(indices.size())});
    return porta::data::Batch{labels.to(porta::kFloat32), labels};
  }

 private:
  int64_t n_, bad_;
};
}  // namespace

// A worker's error is raised at its batch's turn, after the batches before it
// (issue 49 item 6: samples 0-5 were lost when sample 6 was bad), as Python's
// loader and PyTorch's do; the batches after it still follow.
TEST(Data, AWorkersErrorComesAfterTheReadyBatchesBeforeIt) {
  auto dataset = std::make_shared<FailingAt>(10, 6);
  for (int workers : {0, 1, 3}) {
    auto epoch = std::make_shared<DataLoader::Epoch>(DataLoader(dataset, {.batch_size = 1, .num_workers = workers, .prefetch = 4}), 0);
    std::vector<int64_t> seen;
    for (int k = 0; k < 6; ++k) seen.push_back(epoch->next()->target.item<int64_t>());
    EXPECT_EQ(seen, (std::vector<int64_t>{0, 1, 2, 3, 4, 5})) << workers << " workers";
    EXPECT_THROW(
        {
          try {
            epoch->next();
          } catch (const std::runtime_error& e) {
            EXPECT_STREQ(e.what(), "sample 6 is bad");
            throw;
          }
        },
        std::runtime_error);
    EXPECT_EQ(epoch->next()->target.item<int64_t>(), 7) << workers << " workers";
  }
}
