// Maps a host dtype index to its C++ storage type and instantiates a kernel
// template for it. Bool is stored as uint8_t holding 0 or 1.
#pragma once

#include <cstdint>

#include "elementwise_math.hpp"
#include "float16_types.hpp"
#include "host_kernels.hpp"

namespace porta::host {

template <int DT> struct Storage;
template <> struct Storage<kDtBool> { using type = uint8_t; };  // 0 or 1
template <> struct Storage<kDtUInt8> { using type = uint8_t; };
template <> struct Storage<kDtInt32> { using type = int32_t; };
template <> struct Storage<kDtInt64> { using type = int64_t; };
template <> struct Storage<kDtFloat32> { using type = float; };
template <> struct Storage<kDtFloat64> { using type = double; };
template <> struct Storage<kDtInt8> { using type = int8_t; };
template <> struct Storage<kDtInt16> { using type = int16_t; };
template <> struct Storage<kDtFloat16> { using type = math::Float16; };
template <> struct Storage<kDtBFloat16> { using type = math::BFloat16; };
template <int DT> using storage_t = typename Storage<DT>::type;

// Whether dtype index DT holds floating values (the storage ones included).
inline constexpr bool is_floating_dt(int dt) { return is_float_dt(dt) || dt == kDtFloat16 || dt == kDtBFloat16; }

// FULL's value for dtype index DT: `value` converted for floating dtypes,
// `int_value` for the others, with Porta's conversion rules.
template <int DT>
storage_t<DT> fill_value(const porta_fill_params& p) {
  using T = storage_t<DT>;
  return is_floating_dt(DT) ? math::Convert<T, false>{}(p.value) : math::Convert<T, DT == kDtBool>{}(p.int_value);
}

// Calls f.template operator()<DT>() for the runtime compute dtype index `dt`
// (the kernels that compute: the storage dtypes never reach them).
template <typename F>
auto visit_dtype(int dt, F&& f) {
  static_assert(kDtCount == 6, "a new compute dtype needs its case here and its Storage above");
  switch (dt) {
    case kDtBool: return f.template operator()<kDtBool>();
    case kDtUInt8: return f.template operator()<kDtUInt8>();
    case kDtInt32: return f.template operator()<kDtInt32>();
    case kDtInt64: return f.template operator()<kDtInt64>();
    case kDtFloat32: return f.template operator()<kDtFloat32>();
    default: return f.template operator()<kDtFloat64>();
  }
}

// As visit_dtype, over every dtype index, storage dtypes included (the
// conversion kernels: FULL, COPY, CAST).
template <typename F>
auto visit_any_dtype(int dt, F&& f) {
  static_assert(kDtAllCount == 10, "a new dtype needs its case here and its Storage above");
  switch (dt) {
    case kDtInt8: return f.template operator()<kDtInt8>();
    case kDtInt16: return f.template operator()<kDtInt16>();
    case kDtFloat16: return f.template operator()<kDtFloat16>();
    case kDtBFloat16: return f.template operator()<kDtBFloat16>();
    default: return visit_dtype(dt, f);
  }
}

}  // namespace porta::host
