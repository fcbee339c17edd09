// The 16-bit float storage dtypes as C++ types for kernels: float16 and
// bfloat16 bit patterns, converted only through porta/float16.h (so every
// device rounds alike). Arithmetic happens in float32, never on these.
#pragma once

#include <porta/float16.h>

#include <cstdint>
#include <type_traits>

#include "host_device.hpp"

namespace porta::math {

struct Float16 {
  uint16_t bits;
};
struct BFloat16 {
  uint16_t bits;
};

template <class T>
inline constexpr bool is_float16_type = std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>;

PORTA_HD inline float to_float(Float16 h) { return porta_float16_to_float32(h.bits); }
PORTA_HD inline float to_float(BFloat16 h) { return porta_bfloat16_to_float32(h.bits); }

// float32 rounded to T (Float16 or BFloat16), to nearest even.
template <class T>
PORTA_HD T from_float(float f) {
  if constexpr (std::is_same_v<T, Float16>) return Float16{porta_float32_to_float16(f)};
  else return BFloat16{porta_float32_to_bfloat16(f)};
}

}  // namespace porta::math
