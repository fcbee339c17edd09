// The AVX-512 gathers of plugins/common/gather_wide.hpp against the scalar
// loop they replace: 4- and 8-byte elements, every count up to a few
// vectors, positions that walk forward, stand still (a = 0) and go by rows.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "gather_wide.hpp"

namespace {

template <class T>
void expect_same_as_scalar(std::mt19937_64& rng) {
  const int64_t rows = 7, row = 11;
  std::vector<T> base(static_cast<size_t>(rows * row + 64 * 3));
  for (T& v : base) v = static_cast<T>(rng());
  for (const auto& [a, b] : {std::pair<int64_t, int64_t>{0, 1}, {1, 0}, {1, row}, {3, 1}}) {
    for (int64_t count = 8; count <= 40; ++count) {
      std::vector<int64_t> index(static_cast<size_t>(count));
      for (int64_t& i : index) i = static_cast<int64_t>(rng() % (b == row ? rows : row));
      std::vector<T> got(static_cast<size_t>(count)), want(got.size());
      for (int64_t t = 0; t < count; ++t) want[t] = base[t * a + index[t] * b];
      if (!porta::host::gather_wide(got.data(), base.data(), index.data(), a, b, count, sizeof(T)))
        GTEST_SKIP() << "this CPU has no AVX-512 F and DQ";
      ASSERT_EQ(got, want) << sizeof(T) << " bytes, a " << a << ", b " << b << ", count " << count;
    }
  }
}

TEST(GatherWide, SameElementsAsTheScalarLoop) {
  std::mt19937_64 rng(9);
  expect_same_as_scalar<uint32_t>(rng);
  expect_same_as_scalar<uint64_t>(rng);
  int16_t out[8], base[8] = {};
  const int64_t index[8] = {};
  EXPECT_FALSE(porta::host::gather_wide(out, base, index, 1, 0, 8, 2)) << "2-byte elements are not its";
}

}  // namespace
