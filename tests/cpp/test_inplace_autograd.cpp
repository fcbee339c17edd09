// In-place writes under autograd, as libtorch records them: the tensor
// changes, its history is rebased onto the write (its base's, for a view),
// leaves that require grad are refused, and a tensor an op saved for
// backward and then changed in place makes backward fail naming the op.
// Expected gradients are PyTorch 2.15's for the same programs.
#include <gmock/gmock.h>

#include "mock_device.hpp"

using porta::Tensor;
using ::testing::HasSubstr;
using F = std::vector<float>;

namespace {

Tensor leaf(F v) { return Tensor::from_vector(v).requires_grad_(); }

// The message of the porta::Error `body` throws ("" when it throws none).
template <class Body>
std::string error_of(Body&& body) {
  try {
    body();
  } catch (const porta::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(InPlaceAutograd, BinaryOpOnANonLeafIsRecordedWithTheOldValues) {
  const Tensor x = leaf({1, 2, 3}), y = leaf({4, 5, 6});
  const Tensor a = x * 1;
  a.mul_(y);  // needs a's old values for y's gradient
  EXPECT_EQ(a.to_vector<float>(), (F{4, 10, 18}));
  EXPECT_FALSE(a.is_leaf());
  a.sum().backward();
  EXPECT_EQ(x.grad().to_vector<float>(), (F{4, 5, 6}));
  EXPECT_EQ(y.grad().to_vector<float>(), (F{1, 2, 3}));
}

TEST(InPlaceAutograd, UnaryAndScalarForms) {
  const Tensor x = leaf({1, 2, 3});
  const Tensor a = x * 1;
  a.pow_(2.0);
  a.sum().backward();
  EXPECT_EQ(x.grad().to_vector<float>(), (F{2, 4, 6}));

  const Tensor z = leaf({-1, 0, 1});
  const Tensor r = z * 1;
  r.relu_();  // the gradient at 0 is 0, as PyTorch's
  EXPECT_EQ(r.to_vector<float>(), (F{0, 0, 1}));
  r.sum().backward();
  EXPECT_EQ(z.grad().to_vector<float>(), (F{0, 0, 1}));
}

TEST(InPlaceAutograd, CompoundAssignmentWritesInPlace) {
  const Tensor x = leaf({1, 2, 3}), y = leaf({4, 5, 6});
  const Tensor a = x * 2;
  const Tensor alias = a;  // the same tensor: sees the write
  a += y;
  a *= 0.5;
  EXPECT_EQ(alias.to_vector<float>(), (F{3, 4.5, 6}));
  alias.sum().backward();
  EXPECT_EQ(x.grad().to_vector<float>(), (F{1, 1, 1}));
  EXPECT_EQ(y.grad().to_vector<float>(), (F{0.5, 0.5, 0.5}));
}

TEST(InPlaceAutograd, AWriteIntoAViewRebasesTheBase) {
  const Tensor x = leaf({1, 2, 3}), y = leaf({4, 5, 6});
  const Tensor h = x * 2;
  h.select(0, 1).copy_(y.select(0, 0) * 10);  // h[1] = y[0] * 10
  EXPECT_EQ(h.to_vector<float>(), (F{2, 40, 6}));
  h.sum().backward();
  EXPECT_EQ(x.grad().to_vector<float>(), (F{2, 0, 2})) << "no gradient flows to what the write replaced";
  EXPECT_EQ(y.grad().to_vector<float>(), (F{10, 0, 0}));
}

TEST(InPlaceAutograd, AViewMadeBeforeAWriteFollowsTheBase) {
  const Tensor x = leaf({1, 2, 3});
  const Tensor h = x * 2;
  const Tensor tail = h.slice(0, 1, 3);
  h.mul_(3.0);
  EXPECT_EQ(tail.to_vector<float>(), (F{12, 18}));
  tail.sum().backward();
  EXPECT_EQ(x.grad().to_vector<float>(), (F{0, 6, 6}));
}

TEST(InPlaceAutograd, ATensorThatNeedsNoGradAbsorbsOne) {
  const Tensor y = leaf({4, 5, 6});
  const Tensor buffer = Tensor::zeros({2, 3});
  buffer.select(0, 1).copy_(y);
  EXPECT_TRUE(buffer.requires_grad());
  EXPECT_FALSE(buffer.is_leaf());
  (buffer * buffer).sum().backward();
  EXPECT_EQ(y.grad().to_vector<float>(), (F{8, 10, 12}));
}

TEST(InPlaceAutograd, LeavesThatRequireGradAreRefusedOutsideNoGrad) {
  const Tensor x = leaf({1, 2, 3});
  EXPECT_THAT(error_of([&] { x.add_(1.0); }), HasSubstr("a leaf tensor that requires grad is being used in an in-place"));
  EXPECT_THAT(error_of([&] { x.select(0, 0).fill_(7); }), HasSubstr("a view of a leaf tensor that requires grad"));
  EXPECT_EQ(x.to_vector<float>(), (F{1, 2, 3})) << "a refused write changed the leaf";
  {
    porta::NoGradGuard no_grad;
    x.add_(1.0);
    x.select(0, 0).fill_(7);
  }
  EXPECT_EQ(x.to_vector<float>(), (F{7, 3, 4}));
  EXPECT_TRUE(x.is_leaf());
}

TEST(InPlaceAutograd, ChangingASavedTensorMakesBackwardFailNamingTheOp) {
  const Tensor x = leaf({1, 2, 3}), y = leaf({4, 5, 6});
  const auto fails = [](const Tensor& loss) {
    return error_of([&] { loss.sum().backward(); });
  };
  {  // directly
    const Tensor a = x * 1, s = a * y;
    a.add_(1.0);
    const std::string e = fails(s);
    EXPECT_THAT(e, HasSubstr("modified by an in-place operation"));
    EXPECT_THAT(e, HasSubstr("MulBackward"));
    EXPECT_THAT(e, HasSubstr("is at version 1; expected version 0"));
  }
  {  // under no-grad
    const Tensor a = x * 1, s = a.log();
    {
      porta::NoGradGuard no_grad;
      a.mul_(2.0);
    }
    EXPECT_THAT(fails(s), HasSubstr("LogBackward"));
  }
  {  // through a view
    const Tensor a = x * 1, s = a * y;
    a.select(0, 2).fill_(0);
    EXPECT_THAT(fails(s), HasSubstr("modified by an in-place operation"));
  }
  {  // through a detached handle
    const Tensor a = x * 1, s = a * y;
    a.detach().add_(1.0);
    EXPECT_THAT(fails(s), HasSubstr("modified by an in-place operation"));
  }
  EXPECT_FALSE(x.grad().defined()) << "a failed backward accumulated into a leaf";
}

TEST(InPlaceAutograd, OnlyWhatAFormulaReadsMustStayUnchanged) {
  // sigmoid's backward reads its output, not its input; add reads neither.
  const Tensor x = leaf({0, 0});
  const Tensor a = x * 1;
  const Tensor s = a.sigmoid() + a;
  a.mul_(5.0);
  s.sum().backward();
  EXPECT_EQ(x.grad().to_vector<float>(), (F{1.25, 1.25}));
}

TEST(InPlaceAutograd, ResultTypeAndShapeMustFit) {
  const Tensor ints = Tensor::from_vector(std::vector<int64_t>{1, 2});
  EXPECT_THAT(error_of([&] { ints.add_(0.5); }),
              HasSubstr("result type float32 can't be cast to the desired output type int64"));
  const Tensor small = Tensor::ones({3});
  EXPECT_THAT(error_of([&] { small.add_(Tensor::ones({2, 3})); }), HasSubstr("doesn't match the broadcast shape"));
  EXPECT_THAT(error_of([&] { Tensor::ones({1}).expand({3}).add_(1.0); }),
              HasSubstr("refers to a single memory location"));
  EXPECT_EQ(ints.to_vector<int64_t>(), (std::vector<int64_t>{1, 2}));
  // As libtorch's: a double is a floating scalar, even when integral; an integer keeps the integer type
  EXPECT_THAT(error_of([&] { ints.mul_(3.0); }), HasSubstr("result type float32 can't be cast"));
  ints.mul_(3);
  EXPECT_EQ(ints.to_vector<int64_t>(), (std::vector<int64_t>{3, 6}));
}

class InPlaceAutogradOnMock : public MockDeviceTest {};

TEST_F(InPlaceAutogradOnMock, RecordsAsOnTheCpu) {
  const porta::Device mock("mock:1");
  const Tensor x = Tensor::from_vector(F{1, -2, 3}, mock).requires_grad_();
  const Tensor a = x * 1;
  a.relu_();
  a.mul_(Tensor::from_vector(F{2, 2, 2}, mock));
  a.sum().backward();
  EXPECT_EQ(x.grad().to_vector<float>(), (F{2, 0, 2}));
}
