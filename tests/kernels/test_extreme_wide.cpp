// The int64 extremes at AVX-512 and AVX2 width (plugins/common/extreme_wide.hpp)
// against std::max_element / min_element: every length up to a few blocks,
// the extremes anywhere, INT64_MIN and INT64_MAX among the values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "extreme_wide.hpp"

namespace {

TEST(ExtremeWide, EveryWidthFindsTheExtremes) {
  std::mt19937_64 rng(5);
  int widths = 0;
  for (int width : {512, 256}) {
    int64_t probe = 0;
    const int64_t one[16] = {};
    if (!porta::host::int64_extreme_wide_at(width, one, 16, true, &probe)) continue;
    ++widths;
    for (int64_t n = 16; n <= 70; ++n)
      for (int trial = 0; trial < 4; ++trial) {
        std::vector<int64_t> x(static_cast<size_t>(n));
        for (int64_t& v : x) v = static_cast<int64_t>(rng() >> (trial * 16));  // wide to narrow ranges
        if (trial == 3) x[rng() % n] = std::numeric_limits<int64_t>::max(), x[rng() % n] = std::numeric_limits<int64_t>::min();
        for (bool want_max : {true, false}) {
          int64_t got = 0;
          ASSERT_TRUE(porta::host::int64_extreme_wide_at(width, x.data(), n, want_max, &got));
          const int64_t want = want_max ? *std::max_element(x.begin(), x.end()) : *std::min_element(x.begin(), x.end());
          ASSERT_EQ(got, want) << width << " bits, n " << n << (want_max ? " max" : " min");
        }
      }
  }
  if (widths == 0) GTEST_SKIP() << "this CPU has neither AVX-512 nor AVX2";
}

}  // namespace
