// The user ABI 1.4 indexing ops in C++: gather / scatter / scatter_reduce,
// index_select / index_add / index_copy / index_fill, masked_fill /
// masked_select, nonzero, take, cat / stack / split / chunk / unbind,
// cumsum / cumprod as Tensor methods and porta:: functions, their in-place
// forms, and nn::Embedding; values and gradients checked exactly (the
// per-device, per-dtype conformance is tests/conformance/test_index.cpp).
#include <gmock/gmock.h>

#include <porta/nn.hpp>

#include "mock_device.hpp"
#include "tensor_values.hpp"

using porta::Tensor;
using testing::HasSubstr;
using porta_test::D;
using porta_test::values;
using porta_test::vec;
using porta_test::I;
using porta_test::ivec;

namespace {

TEST(Indexing, GatherAndScatterFamily) {
  const Tensor x = vec({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_EQ(values(x.gather(1, ivec({2, 0, 1, 1}, {2, 2}))), (D{3, 1, 5, 5}));
  EXPECT_EQ(values(porta::gather(x, 0, ivec({1, 0, 1}, {1, 3}))), (D{4, 2, 6}));
  const Tensor zeros = Tensor::zeros({4}, porta::Device(), porta::kFloat64);
  const Tensor idx = ivec({1, 1, 3});
  EXPECT_EQ(values(zeros.scatter(0, idx, vec({5, 6, 7}))), (D{0, 6, 0, 7}));  // the last repeat wins
  EXPECT_EQ(values(zeros.scatter(0, idx, 2.0)), (D{0, 2, 0, 2}));
  EXPECT_EQ(values(porta::scatter_add(zeros, 0, idx, vec({5, 6, 7}))), (D{0, 11, 0, 7}));
  EXPECT_EQ(values(vec({1, 2, 3}).scatter_reduce(0, ivec({1, 1}), vec({3, 7}), "mean", false)), (D{1, 5, 3}));
  EXPECT_EQ(values(vec({1, 2, 3}).scatter_reduce(0, ivec({1, 1}), vec({3, 7}), "amax")), (D{1, 7, 3}));
  EXPECT_THAT([&] { (void)zeros.scatter_reduce(0, idx, vec({1, 2, 3}), "max"); },
              testing::ThrowsMessage<porta::Error>(HasSubstr("\"amax\"")));
  EXPECT_THAT([&] { (void)x.gather(1, ivec({3}, {1, 1})); },
              testing::ThrowsMessage<porta::Error>(HasSubstr("index 3 is out of bounds for dimension 1 with size 3")));
}

TEST(Indexing, IndexSelectAddCopyFillAndMasks) {
  const Tensor x = vec({1, 2, 3, 4, 5, 6}, {3, 2});
  EXPECT_EQ(values(porta::index_select(x, 0, ivec({2, 0}))), (D{5, 6, 1, 2}));
  EXPECT_EQ(values(x.index_add(0, ivec({1, 1}), vec({1, 1, 1, 1}, {2, 2}), 2.0)), (D{1, 2, 7, 8, 5, 6}));
  EXPECT_EQ(values(x.index_copy(1, ivec({0}), vec({0, 0, 0}, {3, 1}))), (D{0, 2, 0, 4, 0, 6}));
  EXPECT_EQ(values(x.index_fill(0, ivec({0, 2}), -1.0)), (D{-1, -1, 3, 4, -1, -1}));
  const Tensor mask = x.gt(3.5);
  EXPECT_EQ(values(x.masked_fill(mask, 0.0)), (D{1, 2, 3, 0, 0, 0}));
  EXPECT_EQ(values(x.masked_select(mask)), (D{4, 5, 6}));
  EXPECT_EQ(values(porta::nonzero(mask)), (D{1, 1, 2, 0, 2, 1}));
  EXPECT_EQ(values(x.take(ivec({-1, 0}))), (D{6, 1}));
  Tensor y = x.clone();
  y.masked_fill_(mask, 9.0).index_fill_(1, ivec({0}), 0.0);
  EXPECT_EQ(values(y), (D{0, 2, 0, 9, 0, 9}));
}

TEST(Indexing, JoinsAndSplitsAreDifferentiable) {
  Tensor a = vec({1, 2}, {1, 2}).requires_grad_();
  Tensor b = vec({3, 4, 5, 6}, {2, 2}).requires_grad_();
  const Tensor c = porta::cat({a, b});
  EXPECT_EQ(c.shape(), (porta::Shape{3, 2}));
  (c * vec({1, 2, 3}, {3, 1})).sum().backward();
  EXPECT_EQ(values(a.grad()), (D{1, 1}));
  EXPECT_EQ(values(b.grad()), (D{2, 2, 3, 3}));
  EXPECT_EQ(porta::stack({vec({1, 2}), vec({3, 4})}, 1).shape(), (porta::Shape{2, 2}));
  const Tensor x = vec({1, 2, 3, 4, 5}, {5});
  EXPECT_EQ(x.split(2).size(), 3u);
  EXPECT_EQ(values(x.split(porta::Shape{1, 4})[1]), (D{2, 3, 4, 5}));
  EXPECT_EQ(x.chunk(2).size(), 2u);
  Tensor h = vec({1, 2, 3, 4}, {2, 2}).requires_grad_();
  const auto rows = h.unbind(0);
  ASSERT_EQ(rows.size(), 2u);
  (rows[0] * 2.0 + rows[1]).sum().backward();
  EXPECT_EQ(values(h.grad()), (D{2, 2, 1, 1}));
  EXPECT_THAT([&] { (void)x.split(porta::Shape{1, 1}); },
              testing::ThrowsMessage<porta::Error>(HasSubstr("add up to 2 but dimension 0 has size 5")));
}

TEST(Indexing, Scans) {
  const Tensor x = vec({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_EQ(values(x.cumsum(1)), (D{1, 3, 6, 4, 9, 15}));
  EXPECT_EQ(values(porta::cumprod(x, 0)), (D{1, 2, 3, 4, 10, 18}));
  const Tensor ints = ivec({1, 2, 3}).cast(porta::kInt32);
  EXPECT_EQ(ints.cumsum(0).dtype(), porta::kInt64);
  Tensor t = vec({1, 2, 3}).requires_grad_();
  t.cumprod(0).sum().backward();
  EXPECT_EQ(values(t.grad()), (D{9, 4, 2}));
}

TEST(Indexing, EmbeddingModule) {
  porta::manual_seed(0);
  porta::nn::Embedding emb(4, 2, /*padding_idx=*/0);
  EXPECT_EQ(values(emb.weight.select(0, 0)), (D{0, 0}));
  const Tensor out = emb.forward(ivec({0, 3, 3}, {3}));
  EXPECT_EQ(out.shape(), (porta::Shape{3, 2}));
  out.sum().backward();
  EXPECT_EQ(values(emb.weight.grad()), (D{0, 0, 0, 0, 0, 0, 2, 2}));
  EXPECT_THAT(emb.describe(), HasSubstr("Embedding(4, 2, padding_idx=0)"));
}

}  // namespace
