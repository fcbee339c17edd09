// Autograd graphs through the C ABI: in-place ops are recorded there too,
// and a very deep graph is freed without recursion (a chain of hundreds of
// thousands of nodes dropped without backward, and tens of thousands on a
// thread with a 1 MiB stack, used to overflow the stack).
#include <pthread.h>

#include "unit_util.hpp"

using namespace porta_test;

namespace {

// A chain of `depth` recorded multiplications from a fresh leaf, dropped
// without backward; returns "" or what failed.
std::string build_and_drop(int depth) {
  const DLDevice cpu{kDLCPU, 0};
  const int64_t two = 2;
  porta_tensor* x = nullptr;
  if (porta_ones(&two, 1, porta_float32, cpu, &x) != PORTA_OK) return porta_last_error();
  if (porta_tensor_set_requires_grad(x, 1) != PORTA_OK) return porta_last_error();
  porta_tensor* y = x;
  porta_tensor_retain(y);
  for (int i = 0; i < depth; ++i) {
    porta_tensor* next = nullptr;
    if (porta_mul_scalar(y, 1.0, &next) != PORTA_OK) return porta_last_error();
    porta_tensor_release(y);
    y = next;
  }
  porta_tensor_release(y);  // the whole chain goes here
  porta_tensor_release(x);
  return "";
}

void* drop_on_small_stack(void* result) {
  *static_cast<std::string*>(result) = build_and_drop(30000);
  return nullptr;
}

}  // namespace

TEST(AutogradGraph, ADeepGraphIsFreedWithoutRecursion) { EXPECT_EQ(build_and_drop(200000), ""); }

TEST(AutogradGraph, ADeepGraphIsFreedOnAThreadWithASmallStack) {
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, 1 << 20), 0);
  std::string result = "the thread did not run";
  pthread_t thread;
  ASSERT_EQ(pthread_create(&thread, &attr, drop_on_small_stack, &result), 0);
  ASSERT_EQ(pthread_join(thread, nullptr), 0);
  pthread_attr_destroy(&attr);
  EXPECT_EQ(result, "");
}

TEST(AutogradGraph, InPlaceOpsAreRecordedThroughTheCAbi) {
  const DLDevice cpu{kDLCPU, 0};
  Tensor x = from({1, -2, 3}, {3}, cpu), y = from({4, 5, 6}, {3}, cpu);
  PORTA_ASSERT_OK(porta_tensor_set_requires_grad(x.get(), 1));
  PORTA_ASSERT_OK(porta_tensor_set_requires_grad(y.get(), 1));
  porta_tensor* a = nullptr;
  PORTA_ASSERT_OK(porta_mul_scalar(x.get(), 1.0, &a));
  Tensor owned(a);
  PORTA_ASSERT_OK(porta_unary_inplace(PORTA_OP_RELU, a));
  PORTA_ASSERT_OK(porta_binary_inplace(PORTA_OP_MUL, a, y.get()));
  PORTA_ASSERT_OK(porta_binary_scalar_inplace(PORTA_OP_ADD, a, 1.0));
  EXPECT_EQ(values(a), (std::vector<float>{5, 1, 19}));
  porta_tensor* loss = nullptr;
  PORTA_ASSERT_OK(porta_sum(a, nullptr, 0, 0, &loss));
  Tensor owned_loss(loss);
  PORTA_ASSERT_OK(porta_backward(loss, nullptr));
  porta_tensor *gx = nullptr, *gy = nullptr;
  PORTA_ASSERT_OK(porta_tensor_grad(x.get(), &gx));
  PORTA_ASSERT_OK(porta_tensor_grad(y.get(), &gy));
  Tensor owned_gx(gx), owned_gy(gy);
  EXPECT_EQ(values(gx), (std::vector<float>{4, 0, 6}));
  EXPECT_EQ(values(gy), (std::vector<float>{1, 0, 3}));
}

TEST(AutogradGraph, ABackwardAfterAnInPlaceWriteIntoASavedTensorFails) {
  const DLDevice cpu{kDLCPU, 0};
  Tensor x = from({1, 2}, {2}, cpu);
  PORTA_ASSERT_OK(porta_tensor_set_requires_grad(x.get(), 1));
  porta_tensor *a = nullptr, *e = nullptr, *loss = nullptr;
  PORTA_ASSERT_OK(porta_mul_scalar(x.get(), 1.0, &a));
  Tensor owned_a(a);
  PORTA_ASSERT_OK(porta_exp(a, &e));
  Tensor owned_e(e);
  PORTA_ASSERT_OK(porta_sum(e, nullptr, 0, 0, &loss));
  Tensor owned_loss(loss);
  const float zeros[2] = {0, 0};
  PORTA_ASSERT_OK(porta_set_grad_enabled(0));
  PORTA_ASSERT_OK(porta_tensor_from_host_into(e, zeros, sizeof zeros));  // exp saved its output
  PORTA_ASSERT_OK(porta_set_grad_enabled(1));
  EXPECT_EQ(porta_backward(loss, nullptr), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(error().find("ExpBackward is at version 1; expected version 0"), std::string::npos) << error();
}

// An in-place op whose operand is a view of the tensor it writes (h.mul_(h[0]))
// makes the graph hold that view, and the view holds its base: saved tensors
// keep data only (no history, no base), so dropping the graph without
// backward frees everything.
TEST(AutogradGraph, AnInPlaceOpOnAViewOfItselfLeaksNothing) {
  const DLDevice cpu{kDLCPU, 0};
  porta_memory_stats before{};
  before.struct_size = sizeof before;
  PORTA_ASSERT_OK(porta_device_memory_stats(cpu, &before));
  {
    Tensor x = from({1, 2, 3}, {3}, cpu);
    PORTA_ASSERT_OK(porta_tensor_set_requires_grad(x.get(), 1));
    porta_tensor *h = nullptr, *first = nullptr;
    PORTA_ASSERT_OK(porta_mul_scalar(x.get(), 2.0, &h));
    Tensor owned_h(h);
    PORTA_ASSERT_OK(porta_select(h, 0, 0, &first));
    Tensor owned_first(first);
    PORTA_ASSERT_OK(porta_binary_inplace(PORTA_OP_MUL, h, first));
    EXPECT_EQ(values(h), (std::vector<float>{4, 8, 12}));
  }
  porta_memory_stats after{};
  after.struct_size = sizeof after;
  PORTA_ASSERT_OK(porta_device_memory_stats(cpu, &after));
  EXPECT_EQ(after.allocated_bytes, before.allocated_bytes) << "the graph kept tensors alive after its last handle";
}
