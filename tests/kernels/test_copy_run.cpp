// copy_run (plugins/common/copy_run.hpp) against memcpy: lengths on both
// sides of its forward-loop range and every length across it, sources and
// destinations off a vector's alignment, and the bytes around the
// destination left as they were.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "copy_run.hpp"

namespace {

TEST(CopyRun, SameBytesAsMemcpyAndNothingAround) {
  std::vector<size_t> lengths = {0, 1, 63, 64, 65, 255, 4096};
  for (size_t n = 500; n <= 2240; ++n) lengths.push_back(n);
  std::vector<uint8_t> src(4096 + 64), dst(4096 + 256);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 131 + 7);
  for (size_t n : lengths) {
    for (size_t src_offset : {0, 13, 64}) {
      for (size_t dst_offset : {0, 7}) {
        std::fill(dst.begin(), dst.end(), uint8_t{0xA5});
        std::vector<uint8_t> want = dst;
        std::memcpy(want.data() + 64 + dst_offset, src.data() + src_offset, n);
        porta::host::copy_run(dst.data() + 64 + dst_offset, src.data() + src_offset, n);
        ASSERT_EQ(dst, want) << n << " bytes, source offset " << src_offset << ", destination offset " << dst_offset;
      }
    }
  }
}

}  // namespace
