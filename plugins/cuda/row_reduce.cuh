// Warp-wide reductions for the row kernels (softmax, cross entropy): a warp
// owns a row and its 32 lanes stride over it.
#pragma once

#include <cuda_runtime.h>

namespace porta::cuda {

inline constexpr int kWarp = 32;

// The row maximum as the cpu plugin's loop sees it for rows without NaN;
// with a NaN the result is NaN (the rows then come out NaN either way).
template <class T>
__device__ inline T nan_max(T a, T b) {
  return (a != a || !(b <= a)) ? (a != a ? a : b) : a;
}

template <class T>
__device__ inline T warp_max(T v) {
  for (int s = kWarp / 2; s > 0; s >>= 1) v = nan_max(v, __shfl_xor_sync(0xffffffffu, v, s));
  return v;
}

__device__ inline double warp_sum(double v) {
  for (int s = kWarp / 2; s > 0; s >>= 1) v += __shfl_xor_sync(0xffffffffu, v, s);
  return v;
}

}  // namespace porta::cuda
