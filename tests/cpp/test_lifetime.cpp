// RAII: a porta::Tensor owns exactly one reference to its handle.
#include "mock_device.hpp"

using porta::Tensor;

namespace {

uint64_t allocated_bytes(const porta::Device& d) { return d.memory_stats().allocated_bytes; }

}  // namespace

TEST(Lifetime, CopiesShareTheHandleAndMovesTransferIt) {
  Tensor a = Tensor::ones({4});
  Tensor copy = a;
  EXPECT_EQ(copy.handle(), a.handle());
  Tensor assigned;
  assigned = a;
  EXPECT_EQ(assigned.handle(), a.handle());

  porta_tensor* h = a.handle();
  Tensor moved = std::move(a);
  EXPECT_EQ(moved.handle(), h);
  EXPECT_FALSE(a.defined());  // NOLINT(bugprone-use-after-move): moved-from is documented as undefined
}

TEST(Lifetime, ACopyKeepsTheDataAliveAfterTheOriginalIsGone) {
  Tensor survivor;
  {
    Tensor original = Tensor::from_vector(std::vector<float>{1, 2, 3});
    survivor = original;
  }
  EXPECT_EQ(survivor.to_vector<float>(), (std::vector<float>{1, 2, 3}));
}

TEST(Lifetime, ReleaseHandsOutTheReferenceAndAdoptTakesItBack) {
  Tensor a = Tensor::full({2}, 7);
  porta_tensor* h = a.release();
  EXPECT_FALSE(a.defined());
  ASSERT_NE(h, nullptr);
  Tensor back = Tensor::adopt(h);
  EXPECT_EQ(back.handle(), h);
  EXPECT_EQ(back.to_vector<float>(), (std::vector<float>{7, 7}));
}

class LifetimeOnMock : public MockDeviceTest {};

// The allocator's live-byte counter shows when storage is freed: only with the last reference.
TEST_F(LifetimeOnMock, StorageIsFreedWithTheLastReference) {
  const porta::Device dev("mock:1");
  const uint64_t before = allocated_bytes(dev);
  {
    Tensor a = Tensor::zeros({256}, dev);
    const uint64_t with_one = allocated_bytes(dev);
    EXPECT_GE(with_one, before + 256 * sizeof(float));
    {
      Tensor b = a;
      Tensor view = a.view({16, 16});
      EXPECT_EQ(allocated_bytes(dev), with_one);
      a = Tensor();
      EXPECT_EQ(allocated_bytes(dev), with_one) << "copies and views keep the storage alive";
    }
  }
  EXPECT_EQ(allocated_bytes(dev), before);
}
