// MATMUL's parameters, as every kernel's: NULL means alpha 1, beta 0; a
// porta_matmul_params whose struct_size is too small is refused without
// writing (it used to be read past its end).
#include "kernel_test_util.hpp"

namespace porta_test {
namespace {

TEST(MatmulKernel, ParamsAreOptionalAndTheirSizeIsChecked) {
  Tensor<float> a({1, 2, 2}), b({1, 2, 2}), c({1, 2, 2}, -7.0f);
  for (int64_t i = 0; i < 4; ++i) a[i] = float(i + 1), b[i] = float(i == 0 || i == 3);  // b = I
  EXPECT_EQ(call<float>(PORTA_OP_MATMUL, {a.dl(), b.dl()}, {c.dl()}, nullptr), PORTA_OK) << last_error();
  EXPECT_EQ(c.values(), a.values()) << "no params: C = A @ B";

  const porta_matmul_params twice{sizeof(porta_matmul_params), 2.0, 0.0};
  EXPECT_EQ(call<float>(PORTA_OP_MATMUL, {a.dl(), b.dl()}, {c.dl()}, &twice), PORTA_OK) << last_error();
  EXPECT_EQ(c.values(), (std::vector<float>{2, 4, 6, 8}));

  porta_matmul_params short_params = twice;
  short_params.struct_size = sizeof(size_t) + sizeof(double);  // beta missing
  EXPECT_EQ(call<float>(PORTA_OP_MATMUL, {a.dl(), b.dl()}, {c.dl()}, &short_params), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("struct_size"), std::string::npos) << last_error();
  EXPECT_EQ(c.values(), (std::vector<float>{2, 4, 6, 8})) << "a refused call must not write";
}

}  // namespace
}  // namespace porta_test
