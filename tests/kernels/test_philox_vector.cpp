// The vectorized Philox uniform samples (plugins/common/philox_vector.hpp)
// against philox.h's scalar reference, bit for bit, at every width this CPU
// runs: lengths around the vector width, counters that carry into their high
// word (2^32) and wrap (2^64), any a and scale.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "philox.h"
#include "philox_vector.hpp"

namespace {

TEST(PhiloxVector, EveryWidthGivesTheScalarBits) {
  int widths = 0;
  for (int lanes : {16, 8, 1}) {
    std::vector<float> got(1100);
    if (!porta::host::philox_uniform_f32_at(lanes, 1, 0, got.data(), 1, 0.0f, 1.0f)) continue;
    ++widths;
    for (uint64_t offset : {uint64_t{0}, uint64_t{5}, (uint64_t{1} << 32) - 7, ~uint64_t{0} - 20})
      for (int64_t n : {0, 1, 7, 8, 9, 15, 16, 17, 31, 33, 1000})
        for (auto [a, scale] : {std::pair{0.0f, 1.0f}, std::pair{-2.5f, 0.75f}}) {
          const uint64_t seed = 0x123456789abcdefULL ^ offset;
          std::fill(got.begin(), got.end(), -7.0f);
          ASSERT_TRUE(porta::host::philox_uniform_f32_at(lanes, seed, offset, got.data(), n, a, scale));
          for (int64_t i = 0; i < n; ++i) {
            const float want = a + porta_uniform_f32(seed, offset + static_cast<uint64_t>(i)) * scale;
            ASSERT_EQ(std::memcmp(&got[i], &want, sizeof want), 0)
                << lanes << " lanes, offset " << offset << ", n " << n << ", sample " << i << ": " << got[i]
                << " != " << want;
          }
          EXPECT_EQ(got[static_cast<size_t>(n)], -7.0f) << "wrote past the end";
        }
  }
  EXPECT_GE(widths, 1);
}

}  // namespace
