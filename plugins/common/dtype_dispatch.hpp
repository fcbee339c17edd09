// Maps a host dtype index to its C++ storage type and instantiates a kernel
// template for it. Bool is stored as uint8_t holding 0 or 1.
#pragma once

#include <cstdint>

#include "host_kernels.hpp"

namespace porta::host {

template <int DT> struct Storage;
template <> struct Storage<kDtBool> { using type = uint8_t; };  // 0 or 1
template <> struct Storage<kDtUInt8> { using type = uint8_t; };
template <> struct Storage<kDtInt32> { using type = int32_t; };
template <> struct Storage<kDtInt64> { using type = int64_t; };
template <> struct Storage<kDtFloat32> { using type = float; };
template <> struct Storage<kDtFloat64> { using type = double; };
template <int DT> using storage_t = typename Storage<DT>::type;

// Calls f.template operator()<DT>() for the runtime dtype index `dt`.
template <typename F>
auto visit_dtype(int dt, F&& f) {
  static_assert(kDtCount == 6, "a new dtype needs its case here and its Storage above");
  switch (dt) {
    case kDtBool: return f.template operator()<kDtBool>();
    case kDtUInt8: return f.template operator()<kDtUInt8>();
    case kDtInt32: return f.template operator()<kDtInt32>();
    case kDtInt64: return f.template operator()<kDtInt64>();
    case kDtFloat32: return f.template operator()<kDtFloat32>();
    default: return f.template operator()<kDtFloat64>();
  }
}

}  // namespace porta::host
