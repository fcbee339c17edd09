// NCCL's reductions on the CPU, for the NCCL emulation: the element types it
// emulates and how ranks' values combine.
#pragma once

#include <nccl.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace cuda_emulator::nccl {

// Calls f(T{}) for the C++ type of `type`; false for a type not emulated
// (float16, bfloat16, fp8, or not a type at all).
template <class F>
bool with_type(ncclDataType_t type, F&& f) {
  switch (type) {
    case ncclInt8:
      return f(int8_t{}), true;
    case ncclUint8:
      return f(uint8_t{}), true;
    case ncclInt32:
      return f(int32_t{}), true;
    case ncclUint32:
      return f(uint32_t{}), true;
    case ncclInt64:
      return f(int64_t{}), true;
    case ncclUint64:
      return f(uint64_t{}), true;
    case ncclFloat32:
      return f(float{}), true;
    case ncclFloat64:
      return f(double{}), true;
    default:
      return false;
  }
}

// The type `a op b` is computed in: unsigned for integers (wrapping as on the GPU, with no UB).
template <class T, bool = std::is_integral_v<T>>
struct Arithmetic {
  using type = T;
};
template <class T>
struct Arithmetic<T, true> {
  using type = std::make_unsigned_t<T>;
};

template <class T>
T combine(ncclRedOp_t op, T a, T b) {
  using A = typename Arithmetic<T>::type;
  switch (op) {
    case ncclProd:
      return static_cast<T>(static_cast<A>(a) * static_cast<A>(b));
    case ncclMax:
      return a < b ? b : a;
    case ncclMin:
      return b < a ? b : a;
    default:
      return static_cast<T>(static_cast<A>(a) + static_cast<A>(b));  // ncclSum, ncclAvg's sum
  }
}

// out[i] = the reduction of in[0][i], ..., in[n - 1][i], in rank order, so
// every rank computes the same bits. ncclAvg is NCCL's: on floating types
// each value times 1/n, then summed (its PreMulSum); on integers the sum
// divided by n, truncated (its SumPostDiv).
template <class T>
void reduce(T* out, const T* const* in, int n, size_t count, ncclRedOp_t op) {
  const T scale = static_cast<T>(std::is_floating_point_v<T> ? 1.0 / n : 1);
  for (size_t i = 0; i < count; ++i) {
    T acc = in[0][i];
    if constexpr (std::is_floating_point_v<T>) {
      if (op == ncclAvg) {
        acc *= scale;
        for (int j = 1; j < n; ++j) acc += in[j][i] * scale;
        out[i] = acc;
        continue;
      }
    }
    for (int j = 1; j < n; ++j) acc = combine(op, acc, in[j][i]);
    if constexpr (std::is_integral_v<T>) {
      if (op == ncclAvg) {
        if constexpr (std::is_signed_v<T>)
          acc = static_cast<T>(static_cast<int64_t>(acc) / n);
        else
          acc = static_cast<T>(static_cast<uint64_t>(acc) / static_cast<uint64_t>(n));
      }
    }
    out[i] = acc;
  }
}

}  // namespace cuda_emulator::nccl
