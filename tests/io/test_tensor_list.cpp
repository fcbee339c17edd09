// porta_tensor_list: access, bounds, NULL handling and tensor lifetimes.
#include "io_test_util.hpp"

using namespace porta_io_test;

namespace {

List saved_and_loaded(const ScratchDir& dir) {
  Tensor a = from(std::vector<float>{1, 2}, porta_float32, {2}, device("cpu"));
  Tensor b = from(std::vector<int64_t>{7}, porta_int64, {}, device("cpu"));
  const char* names[] = {"a", "b"};
  porta_tensor* tensors[] = {a.get(), b.get()};
  const std::string path = dir.file("list.safetensors");
  EXPECT_EQ(porta_safetensors_save(path.c_str(), names, tensors, 2), PORTA_OK) << error();
  porta_tensor_list* raw = nullptr;
  EXPECT_EQ(porta_safetensors_load(path.c_str(), device("mock:0"), &raw), PORTA_OK) << error();
  return List(raw);
}

}  // namespace

TEST(TensorList, TensorsOutliveTheList) {
  ScratchDir dir;
  List list = saved_and_loaded(dir);
  ASSERT_TRUE(list);
  const char* name = nullptr;
  porta_tensor* t = nullptr;
  PORTA_ASSERT_OK(porta_tensor_list_get(list.get(), 1, &name, &t));
  EXPECT_STREQ(name, "b");
  Tensor b(t);
  list.reset();
  EXPECT_EQ(values<int64_t>(b.get()), std::vector<int64_t>{7});
}

TEST(TensorList, GetReturnsANewReferenceEachTime) {
  ScratchDir dir;
  List list = saved_and_loaded(dir);
  ASSERT_TRUE(list);
  auto [n1, t1] = entry(list.get(), 0);
  auto [n2, t2] = entry(list.get(), 0);
  EXPECT_EQ(t1.get(), t2.get());
  t1.reset();
  EXPECT_EQ(values<float>(t2.get()), (std::vector<float>{1, 2}));
}

TEST(TensorList, BadArgumentsAreRefused) {
  ScratchDir dir;
  List list = saved_and_loaded(dir);
  ASSERT_TRUE(list);
  int32_t n = -1;
  EXPECT_EQ(porta_tensor_list_size(nullptr, &n), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(has(error(), "list must not be NULL")) << error();
  EXPECT_EQ(porta_tensor_list_size(list.get(), nullptr), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(n, -1);

  const char* const name_sentinel = "untouched";
  const char* name = name_sentinel;
  porta_tensor* const sentinel = reinterpret_cast<porta_tensor*>(0x1);
  porta_tensor* t = sentinel;
  EXPECT_EQ(porta_tensor_list_get(list.get(), 2, &name, &t), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(has(error(), "index 2 is out of range [0, 2)")) << error();
  EXPECT_EQ(porta_tensor_list_get(list.get(), -1, &name, &t), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(porta_tensor_list_get(nullptr, 0, &name, &t), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(porta_tensor_list_get(list.get(), 0, nullptr, &t), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(porta_tensor_list_get(list.get(), 0, &name, nullptr), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(name, name_sentinel);
  EXPECT_EQ(t, sentinel);
  porta_tensor_list_release(nullptr);  // a no-op
}
