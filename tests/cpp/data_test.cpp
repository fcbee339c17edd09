// porta::data validates what the C ABI would: Normalize with nothing to
// divide by, sample shapes whose size overflows, and a batch size so large
// that counting batches overflowed (UBSan findings in the headers).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <porta/data.hpp>

#include <climits>

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
