// Views share storage; transfers return the same handle when nothing moves.
#include "mock_device.hpp"

using porta::Shape;
using porta::Tensor;
using F = std::vector<float>;

namespace {

Tensor iota(Shape shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return Tensor::arange(0, static_cast<double>(n)).view(shape);
}

}  // namespace

TEST(Views, WritesThroughAViewAreSeenByTheBase) {
  const Tensor base = iota({2, 3});
  base.view({6}).slice(0, 1, 6, 2).fill_(-1);
  EXPECT_EQ(base.to_vector<float>(), (F{0, -1, 2, -1, 4, -1}));
  base[1].copy_(Tensor::full({}, 9));
  EXPECT_EQ(base.to_vector<float>(), (F{0, -1, 2, 9, 9, 9}));
  base.t()[2].fill_(7);  // column 2
  EXPECT_EQ(base.to_vector<float>(), (F{0, -1, 7, 9, 9, 7}));
}

TEST(Views, WritesThroughTheBaseAreSeenByAView) {
  const Tensor base = Tensor::zeros({2, 2});
  const Tensor column = base.select(1, 0);
  base.copy_(Tensor::from_vector(F{1, 2, 3, 4}, {2, 2}));
  EXPECT_EQ(column.to_vector<float>(), (F{1, 3}));
}

TEST(Views, ShapesAndStrides) {
  const Tensor x = iota({2, 3, 4});
  EXPECT_EQ(x.transpose(0, 2).shape(), (Shape{4, 3, 2}));
  EXPECT_EQ(x.transpose(0, 2).strides(), (Shape{1, 4, 12}));
  EXPECT_FALSE(x.transpose(0, 2).is_contiguous());
  EXPECT_EQ(x.permute({2, 0, 1}).shape(), (Shape{4, 2, 3}));
  EXPECT_EQ(x.unsqueeze(1).shape(), (Shape{2, 1, 3, 4}));
  EXPECT_EQ(x.unsqueeze(-1).shape(), (Shape{2, 3, 4, 1}));
  EXPECT_EQ(x.unsqueeze(0).squeeze(0).shape(), (Shape{2, 3, 4}));
  EXPECT_EQ(iota({1, 3, 1}).squeeze().shape(), (Shape{3}));
  EXPECT_EQ(x.view({-1, 4}).shape(), (Shape{6, 4}));
  EXPECT_EQ(x[1][2].to_vector<float>(), (F{20, 21, 22, 23}));
  EXPECT_EQ(x.select(-1, 0).shape(), (Shape{2, 3}));
  EXPECT_EQ(x.slice(2, -2, 100).to_vector<float>().size(), 12u);
  const Tensor e = Tensor::from_vector(F{1, 2, 3}).expand({2, 3});
  EXPECT_EQ(e.strides(), (Shape{0, 1}));
  EXPECT_EQ(e.to_vector<float>(), (F{1, 2, 3, 1, 2, 3}));
  EXPECT_EQ(iota({3}).t().shape(), (Shape{3})) << "t() of a vector is itself";
  EXPECT_THROW(x.t(), porta::Error);
}

TEST(Views, ReshapeCopiesOnlyWhenAViewIsImpossible) {
  const Tensor x = iota({2, 3});
  const Tensor tr = x.t();
  EXPECT_THROW(tr.view({6}), porta::Error);
  const Tensor flat = tr.reshape({6});
  EXPECT_EQ(flat.to_vector<float>(), (F{0, 3, 1, 4, 2, 5}));
  flat.fill_(0);
  EXPECT_EQ(x.to_vector<float>(), (F{0, 1, 2, 3, 4, 5})) << "the reshape was a copy";
  x.reshape({3, 2}).fill_(1);
  EXPECT_EQ(x.to_vector<float>(), F(6, 1.f)) << "this reshape was a view";
}

TEST(Views, ContiguousAndClone) {
  const Tensor x = iota({2, 3});
  EXPECT_EQ(x.contiguous().handle(), x.handle());
  const Tensor c = x.t().contiguous();
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_EQ(c.to_vector<float>(), (F{0, 3, 1, 4, 2, 5}));
  const Tensor copy = x.clone();
  EXPECT_NE(copy.handle(), x.handle());
  copy.fill_(5);
  EXPECT_EQ(x.to_vector<float>(), (F{0, 1, 2, 3, 4, 5}));
}

TEST(Transfers, ToTheSameDeviceIsTheSameHandle) {
  const Tensor x = Tensor::ones({3});
  EXPECT_EQ(x.to("cpu").handle(), x.handle());
  EXPECT_EQ(x.cpu().handle(), x.handle());
  EXPECT_EQ(x.to(porta::Device()).handle(), x.handle());
}

class TransfersOnMock : public MockDeviceTest {};

TEST_F(TransfersOnMock, ToAnotherDeviceCopies) {
  const Tensor x = iota({2, 3});
  const Tensor m0 = x.to("mock:0");
  EXPECT_NE(m0.handle(), x.handle());
  EXPECT_EQ(m0.device(), porta::Device("mock:0"));
  EXPECT_EQ(m0.to("mock:0").handle(), m0.handle());
  const Tensor m1 = m0.t().to("mock:1");
  EXPECT_EQ(m1.device(), porta::Device("mock:1"));
  EXPECT_TRUE(m1.is_contiguous());
  EXPECT_EQ(m1.cpu().to_vector<float>(), (F{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(m1.to_vector<float>(), (F{0, 3, 1, 4, 2, 5})) << "to_vector reads any device";
  m0.fill_(1);
  EXPECT_EQ(x.to_vector<float>(), (F{0, 1, 2, 3, 4, 5})) << "the copy shares nothing";
}

TEST_F(TransfersOnMock, CopyIntoCrossesDevicesAndCasts) {
  const Tensor dst = Tensor::zeros({2, 2}, "mock:1", porta::kFloat64);
  dst.copy_(Tensor::from_vector(std::vector<int32_t>{1, 2}));
  EXPECT_EQ(dst.to_vector<double>(), (std::vector<double>{1, 2, 1, 2})) << "broadcast, cast, cpu -> mock:1";
  const Tensor view = dst.to("mock:1")[0];
  view.copy_(Tensor::full({2}, 5, "mock:0"));
  EXPECT_EQ(dst.to_vector<double>(), (std::vector<double>{5, 5, 1, 2}));
}
