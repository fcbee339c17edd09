// The kernel families of ops 35-48 are wired into find_host_kernel for the
// float dtypes, and only for them.
#include "kernel_test_util.hpp"

namespace porta_test {
namespace {

TEST(KernelLookup, EveryNewOpHasFloatKernelsOnly) {
  for (uint32_t op = PORTA_OP_IM2COL; op <= PORTA_OP_ADAM_STEP; ++op) {
    EXPECT_NE(porta::host::find_host_kernel(op, dl_dtype<float>()), nullptr) << op;
    EXPECT_NE(porta::host::find_host_kernel(op, dl_dtype<double>()), nullptr) << op;
    EXPECT_EQ(porta::host::find_host_kernel(op, dl_dtype<int64_t>()), nullptr) << op;
    EXPECT_EQ(porta::host::find_host_kernel(op, DLDataType{kDLBool, 8, 1}), nullptr) << op;
  }
}

}  // namespace
}  // namespace porta_test
