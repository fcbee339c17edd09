// Tensor life cycle and argument validation at the C boundary.
#include <thread>

#include "unit_util.hpp"

using namespace porta_test;

TEST(TensorApi, MetadataRoundTrips) {
  Tensor t = from({1, 2, 3, 4, 5, 6}, {2, 3}, device("mock:1"));
  int32_t nd = 0;
  int64_t shape[2], strides[2], n = 0;
  DLDevice d{};
  DLDataType dt{};
  int contiguous = -1;
  uint64_t offset = 99;
  PORTA_ASSERT_OK(porta_tensor_ndim(t.get(), &nd));
  PORTA_ASSERT_OK(porta_tensor_shape(t.get(), shape));
  PORTA_ASSERT_OK(porta_tensor_strides(t.get(), strides));
  PORTA_ASSERT_OK(porta_tensor_numel(t.get(), &n));
  PORTA_ASSERT_OK(porta_tensor_device(t.get(), &d));
  PORTA_ASSERT_OK(porta_tensor_dtype(t.get(), &dt));
  PORTA_ASSERT_OK(porta_tensor_is_contiguous(t.get(), &contiguous));
  PORTA_ASSERT_OK(porta_tensor_byte_offset(t.get(), &offset));
  EXPECT_EQ(nd, 2);
  EXPECT_EQ(shape[0], 2);
  EXPECT_EQ(shape[1], 3);
  EXPECT_EQ(strides[0], 3);
  EXPECT_EQ(strides[1], 1);
  EXPECT_EQ(n, 6);
  EXPECT_EQ(d.device_type, kDLExtDev);
  EXPECT_EQ(d.device_id, 1);
  EXPECT_EQ(dt.code, kDLFloat);
  EXPECT_EQ(dt.bits, 32);
  EXPECT_EQ(contiguous, 1);
  EXPECT_EQ(offset, 0u);
}

TEST(TensorApi, NullHandlesAndOutPointersAreRefused) {
  Tensor t = from({1}, {1}, device("cpu"));
  porta_tensor* out = nullptr;
  EXPECT_EQ(porta_add(nullptr, t.get(), &out), PORTA_ERROR_INVALID_HANDLE);
  EXPECT_NE(error().find("a is NULL"), std::string::npos) << error();
  EXPECT_EQ(porta_add(t.get(), t.get(), nullptr), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(error().find("out must not be NULL"), std::string::npos) << error();
  int32_t nd = 0;
  EXPECT_EQ(porta_tensor_ndim(nullptr, &nd), PORTA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(porta_tensor_ndim(t.get(), nullptr), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(porta_tensor_to_host(nullptr, &nd, 4), PORTA_ERROR_INVALID_HANDLE);
  porta_tensor_release(nullptr);  // a no-op, never a crash
  porta_tensor_retain(nullptr);
}

TEST(TensorApi, BadShapesAndDtypesAreRefused) {
  porta_tensor* out = nullptr;
  const int64_t neg[2] = {2, -3};
  EXPECT_EQ(porta_tensor_empty(porta_float32, neg, 2, device("cpu"), &out), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(error().find("negative"), std::string::npos) << error();
  EXPECT_EQ(porta_tensor_empty(porta_float32, neg, PORTA_MAX_DIMS + 1, device("cpu"), &out),
            PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(porta_tensor_empty(porta_float32, nullptr, 2, device("cpu"), &out), PORTA_ERROR_INVALID_ARGUMENT);
  const DLDataType f16{kDLFloat, 8, 1}, vec{kDLFloat, 32, 4};  // float8: not a Porta dtype
  const int64_t one[1] = {1};
  EXPECT_EQ(porta_tensor_empty(f16, one, 1, device("cpu"), &out), PORTA_ERROR_UNSUPPORTED_DTYPE);
  EXPECT_NE(error().find("supported: bool, uint8, int32, int64, float32, float64, int8, int16, float16, bfloat16"),
            std::string::npos)
      << error();
  EXPECT_EQ(porta_tensor_empty(vec, one, 1, device("cpu"), &out), PORTA_ERROR_UNSUPPORTED_DTYPE);
  EXPECT_EQ(out, nullptr);
}

TEST(TensorApi, HostBuffersMustBeLargeEnough) {
  Tensor t = from({1, 2, 3}, {3}, device("mock:0"));
  float small[2];
  EXPECT_EQ(porta_tensor_to_host(t.get(), small, sizeof small), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(error().find("needs 12"), std::string::npos) << error();
  EXPECT_EQ(porta_tensor_from_host_into(t.get(), small, sizeof small), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(values(t.get()), (std::vector<float>{1, 2, 3})) << "a refused write changes nothing";
}

TEST(TensorApi, ViewsShareStorageAndOutliveTheirBase) {
  porta_tensor* view = nullptr;
  {
    Tensor base = from({1, 2, 3, 4, 5, 6}, {2, 3}, device("mock:1"));
    PORTA_ASSERT_OK(porta_select(base.get(), 0, 1, &view));
  }  // base released: the view keeps the storage alive
  Tensor v(view);
  EXPECT_EQ(values(view), (std::vector<float>{4, 5, 6}));
  const float nine[3] = {9, 9, 9};
  PORTA_ASSERT_OK(porta_tensor_from_host_into(view, nine, sizeof nine));
  EXPECT_EQ(values(view), (std::vector<float>{9, 9, 9}));
}

TEST(TensorApi, WritesThroughAStridedViewReachTheBase) {
  Tensor base = from({1, 2, 3, 4, 5, 6}, {2, 3}, device("mock:0"));
  porta_tensor* col = nullptr;
  PORTA_ASSERT_OK(porta_select(base.get(), 1, 2, &col));  // elements 3 and 6
  Tensor c(col);
  const float v[2] = {-1, -2};
  PORTA_ASSERT_OK(porta_tensor_from_host_into(col, v, sizeof v));
  EXPECT_EQ(values(base.get()), (std::vector<float>{1, 2, -1, 4, 5, -2}));
}

TEST(TensorApi, ManyThreadsCanRunOpsAtOnce) {
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      const char* dev = t % 2 ? "mock:1" : "cpu";
      for (int i = 0; i < 200; ++i) {
        Tensor a = from({float(t), float(i)}, {2}, device(dev));
        porta_tensor* s = nullptr;
        if (porta_add(a.get(), a.get(), &s) != PORTA_OK) { ++failures; continue; }
        Tensor st(s);
        if (values(s) != std::vector<float>{2.0f * t, 2.0f * i}) ++failures;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(TensorApi, VersionIsReported) {
  int32_t major = -1, minor = -1, patch = -1, abi_major = -1, abi_minor = -1;
  PORTA_ASSERT_OK(porta_version(&major, &minor, &patch, &abi_major, &abi_minor));
  EXPECT_EQ(abi_major, PORTA_ABI_MAJOR);
  EXPECT_EQ(abi_minor, PORTA_ABI_MINOR);
  EXPECT_GE(major, 0);
  EXPECT_STREQ(porta_status_name(PORTA_ERROR_DEVICE_MISMATCH), "PORTA_ERROR_DEVICE_MISMATCH");
}

// Integers beyond 2^53 keep every bit through the int64 factories, and a
// dimensioned operand decides the dtype beside a 0-d one of its category.
TEST(TensorApi, ExactIntegersAndZeroDimPromotion) {
  const DLDevice cpu{kDLCPU, 0};
  const int64_t two = 2, big = (INT64_C(1) << 53) + 1;
  porta_tensor *f = nullptr, *r = nullptr;
  PORTA_ASSERT_OK(porta_full_int64(&two, 1, big, porta_int64, cpu, &f));
  PORTA_ASSERT_OK(porta_arange_int64(big, big + 6, 3, porta_int64, cpu, &r));
  Tensor owned_f(f), owned_r(r);
  int64_t fv[2] = {}, rv[2] = {};
  PORTA_ASSERT_OK(porta_tensor_to_host(f, fv, sizeof fv));
  PORTA_ASSERT_OK(porta_tensor_to_host(r, rv, sizeof rv));
  EXPECT_EQ(fv[0], big);
  EXPECT_EQ(rv[0], big);
  EXPECT_EQ(rv[1], big + 3);

  porta_tensor *x = nullptr, *s = nullptr, *p = nullptr;
  PORTA_ASSERT_OK(porta_ones(&two, 1, porta_float32, cpu, &x));
  PORTA_ASSERT_OK(porta_full(nullptr, 0, 2.0, porta_float64, cpu, &s));
  Tensor owned_x(x), owned_s(s);
  PORTA_ASSERT_OK(porta_mul(x, s, &p));
  Tensor owned_p(p);
  DLDataType dt{};
  PORTA_ASSERT_OK(porta_tensor_dtype(p, &dt));
  EXPECT_EQ(dt.bits, 32) << "float32 [2] x float64 [] is float32, as in PyTorch";
}
