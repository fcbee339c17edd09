// DataLoader: batching, seeded shuffle, drop_last, a partial final batch,
// background workers (same order as without), pinned batches.
#include <porta/data.hpp>

#include <filesystem>
#include <set>

#include "training_util.hpp"

using namespace porta;

namespace {

// 10 one-pixel "images" whose pixel value is their label (so batches can be traced).
std::shared_ptr<data::ImageDataset> tiny_dataset() {
  std::vector<uint8_t> pixels;
  std::vector<int64_t> labels;
  for (int i = 0; i < 10; ++i) pixels.push_back(uint8_t(i)), labels.push_back(i);
  return std::make_shared<data::ImageDataset>(pixels, labels, Shape{1, 1, 1});
}

std::vector<std::vector<int64_t>> epoch(const data::DataLoader& loader) {
  std::vector<std::vector<int64_t>> out;
  for (auto& b : loader) {
    auto labels = b.target.to_vector<int64_t>();
    auto pixels = b.data.to_vector<float>();
    for (size_t i = 0; i < labels.size(); ++i) EXPECT_FLOAT_EQ(pixels[i] * 255.0f, float(labels[i]));
    out.push_back(labels);
  }
  return out;
}

}  // namespace

TEST(DataLoader, BatchesInOrderWithAPartialFinalBatch) {
  data::DataLoader loader(tiny_dataset(), {.batch_size = 4});
  EXPECT_EQ(loader.size(), 3);
  auto batches = epoch(loader);
  ASSERT_EQ(batches.size(), 3u);
  EXPECT_EQ(batches[0], (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(batches[2], (std::vector<int64_t>{8, 9}));
}

TEST(DataLoader, DropLastDropsThePartialBatch) {
  data::DataLoader loader(tiny_dataset(), {.batch_size = 4, .drop_last = true});
  EXPECT_EQ(loader.size(), 2);
  EXPECT_EQ(epoch(loader).size(), 2u);
}

TEST(DataLoader, ShuffleIsSeededAndChangesEveryEpoch) {
  data::DataLoader a(tiny_dataset(), {.batch_size = 10, .shuffle = true, .seed = 7});
  data::DataLoader b(tiny_dataset(), {.batch_size = 10, .shuffle = true, .seed = 7});
  auto a1 = epoch(a), b1 = epoch(b), a2 = epoch(a);
  EXPECT_EQ(a1, b1) << "same seed, same order";
  EXPECT_NE(a1, a2) << "a new permutation each epoch";
  std::set<int64_t> seen(a1[0].begin(), a1[0].end());
  EXPECT_EQ(seen.size(), 10u) << "a permutation: every sample once";
  EXPECT_NE(a1[0], (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

TEST(DataLoader, WorkersPrefetchInTheSameOrder) {
  data::DataLoader serial(tiny_dataset(), {.batch_size = 3, .shuffle = true, .seed = 3});
  data::DataLoader parallel(tiny_dataset(), {.batch_size = 3, .shuffle = true, .seed = 3, .num_workers = 3});
  for (int e = 0; e < 3; ++e) EXPECT_EQ(epoch(serial), epoch(parallel));
}

TEST(DataLoader, PinnedBatchesAreCpuTensors) {
  // mock has no pinned allocator: batches fall back to ordinary cpu memory.
  data::DataLoader loader(tiny_dataset(), {.batch_size = 5, .pin_memory_for = Device("mock:1")});
  for (auto& b : loader) {
    EXPECT_TRUE(b.data.device().is_cpu());
    EXPECT_EQ(b.data.shape(), (Shape{5, 1, 1, 1}));
  }
}

TEST(DataLoader, NormalizeAppliesMeanAndStd) {
  std::vector<uint8_t> pixels{0, 255};
  auto ds = std::make_shared<data::ImageDataset>(pixels, std::vector<int64_t>{0, 1}, Shape{1, 1, 1},
                                                 data::Normalize{{0.5f}, {0.5f}});
  data::DataLoader loader(ds, {.batch_size = 2});
  for (auto& b : loader) EXPECT_EQ(b.data.to_vector<float>(), (std::vector<float>{-1.0f, 1.0f}));
}

TEST(DataLoader, BadOptionsAreRefused) {
  EXPECT_THROW(data::DataLoader(tiny_dataset(), {.batch_size = 0}), Error);
  EXPECT_THROW(data::DataLoader(tiny_dataset(), {.num_workers = -1}), Error);
}

TEST(Datasets, FashionMnistLoadsFromTheDebianPackage) {
  const char* root = "/usr/share/datasets/fashion-mnist";
  if (!std::filesystem::exists(root)) GTEST_SKIP() << "dataset-fashion-mnist is not installed (scripts/install-deps.sh installs it)";
  auto test = data::FashionMNIST(root, false);
  EXPECT_EQ(test->size(), 10000);
  EXPECT_EQ(test->sample_shape(), (Shape{1, 28, 28}));
  EXPECT_GE(test->label(0), 0);
  EXPECT_LT(test->label(0), 10);
}

TEST(Datasets, MissingFilesSayWhere) {
  try {
    data::FashionMNIST("/nonexistent", true);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent"), std::string::npos) << e.what();
  }
}
