// operator<< prints tensors as PyTorch does (dtype names without "torch.").
#include <cmath>
#include <sstream>

#include "mock_device.hpp"

using porta::Tensor;

namespace {

std::string str(const Tensor& t) {
  std::ostringstream os;
  os << t;
  return os.str();
}

template <class T>
Tensor vec(std::vector<T> values) {
  return Tensor::from_vector(values);
}

}  // namespace

TEST(Print, FloatsLikePyTorch) {
  EXPECT_EQ(str(vec<float>({1, 2, 3})), "tensor([1., 2., 3.])");
  EXPECT_EQ(str(vec<float>({1.5, -2.25})), "tensor([ 1.5000, -2.2500])");
  EXPECT_EQ(str(vec<float>({1e-5f, 1})), "tensor([1.0000e-05, 1.0000e+00])");
  EXPECT_EQ(str(vec<float>({NAN, INFINITY, 1.5})), "tensor([   nan,    inf, 1.5000])");
  EXPECT_EQ(str(vec<double>({1, 2})), "tensor([1., 2.], dtype=float64)");
  EXPECT_EQ(str(Tensor::full({}, 3)), "tensor(3.)");
}

TEST(Print, OtherDtypes) {
  EXPECT_EQ(str(vec<int64_t>({1, -20, 3})), "tensor([  1, -20,   3])");
  EXPECT_EQ(str(vec<int32_t>({1, 2, 3})), "tensor([1, 2, 3], dtype=int32)");
  EXPECT_EQ(str(vec<uint8_t>({0, 255})), "tensor([  0, 255], dtype=uint8)");
  EXPECT_EQ(str(vec<bool>({true, false})), "tensor([ True, False])");
}

TEST(Print, Nesting) {
  EXPECT_EQ(str(Tensor::from_vector(std::vector<float>{1, 2, 3, 4}, {2, 2})),
            "tensor([[1., 2.],\n"
            "        [3., 4.]])");
  EXPECT_EQ(str(Tensor::ones({2, 2, 2})),
            "tensor([[[1., 1.],\n"
            "         [1., 1.]],\n"
            "\n"
            "        [[1., 1.],\n"
            "         [1., 1.]]])");
  EXPECT_EQ(str(Tensor::arange(0, 2).t()), "tensor([0., 1.])");
  EXPECT_EQ(str(Tensor::arange(0, 6).view({2, 3}).t()),
            "tensor([[0., 3.],\n"
            "        [1., 4.],\n"
            "        [2., 5.]])")
      << "strided views print in logical order";
}

TEST(Print, LongRowsWrapAt80Columns) {
  EXPECT_EQ(str(Tensor::arange(0, 30)),
            "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n"
            "        14., 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., 26., 27.,\n"
            "        28., 29.])");
}

TEST(Print, LargeTensorsAreSummarized) {
  EXPECT_EQ(str(Tensor::arange(0, 2000)),
            "tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03,\n"
            "        1.9990e+03])");
  EXPECT_EQ(str(Tensor::ones({1001, 2})),
            "tensor([[1., 1.],\n"
            "        [1., 1.],\n"
            "        [1., 1.],\n"
            "        ...,\n"
            "        [1., 1.],\n"
            "        [1., 1.],\n"
            "        [1., 1.]])");
}

TEST(Print, EmptyAndUndefined) {
  EXPECT_EQ(str(Tensor::zeros({0})), "tensor([])");
  EXPECT_EQ(str(Tensor::zeros({0, 3})), "tensor([], size=(0, 3))");
  EXPECT_EQ(str(Tensor::zeros({0}, {}, porta::kInt64)), "tensor([], dtype=int64)");
  EXPECT_EQ(str(Tensor()), "tensor(undefined)");
}

TEST(Print, DtypesStreamByName) {
  std::ostringstream os;
  os << porta::kFloat32 << " " << porta::kBool;
  EXPECT_EQ(os.str(), "float32 bool");
  EXPECT_EQ(porta::dtype_name(porta::kBFloat16), "bfloat16");
  EXPECT_EQ(porta::dtype_name(DLDataType{kDLFloat, 8, 1}), "dtype(code=2, bits=8, lanes=1)");
}

class PrintOnMock : public MockDeviceTest {};

TEST_F(PrintOnMock, NamesTheDeviceUnlessCpu) {
  EXPECT_EQ(str(Tensor::ones({1, 3}, "mock:0")), "tensor([[1., 1., 1.]], device='mock:0')");
  EXPECT_EQ(str(Tensor::from_vector(std::vector<uint8_t>{0, 255}, "mock:1")),
            "tensor([  0, 255], device='mock:1', dtype=uint8)");
  EXPECT_EQ(str(Tensor::zeros({0, 2}, "mock:1", porta::kInt32)), "tensor([], device='mock:1', size=(0, 2), dtype=int32)");
}

TEST_F(PrintOnMock, SuffixesWrapPastTheLineWidth) {
  EXPECT_EQ(str(Tensor::arange(0, 14, 1, "mock:0")),
            "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.],\n"
            "       device='mock:0')");
}

TEST_F(PrintOnMock, ASummaryReadsOnlyTheEdgesFromTheDevice) {
  const Tensor big = Tensor::ones({1024, 1024}, "mock:0");  // 4 MiB
  auto bytes_read = [] {
    return porta::detail::get<porta_memory_stats>(porta_device_memory_stats, porta::Device("mock:0").dl())
        .bytes_from_device;
  };
  const uint64_t before = bytes_read();
  const std::string text = str(big);
  EXPECT_LE(bytes_read() - before, uint64_t{6 * 6 * 4}) << "printing copied more than the 6 x 6 edges";
  EXPECT_EQ(text.substr(0, 26), "tensor([[1., 1., 1.,  ...,");
}
