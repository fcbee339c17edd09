// Maps a host dtype index to its C++ storage type and instantiates a kernel
// template for it. Bool is stored as uint8_t holding 0 or 1.
#pragma once

#include <cstdint>

#include "host_kernels.hpp"

namespace porta::host {

template <int DT> struct Storage;
template <> struct Storage<0> { using type = uint8_t; };  // bool
template <> struct Storage<1> { using type = uint8_t; };
template <> struct Storage<2> { using type = int32_t; };
template <> struct Storage<3> { using type = int64_t; };
template <> struct Storage<4> { using type = float; };
template <> struct Storage<5> { using type = double; };
template <int DT> using storage_t = typename Storage<DT>::type;

inline constexpr bool is_float_dt(int dt) { return dt == 4 || dt == 5; }

// Calls f.template operator()<DT>() for the runtime dtype index `dt`.
template <typename F>
auto visit_dtype(int dt, F&& f) {
  switch (dt) {
    case 0: return f.template operator()<0>();
    case 1: return f.template operator()<1>();
    case 2: return f.template operator()<2>();
    case 3: return f.template operator()<3>();
    case 4: return f.template operator()<4>();
    default: return f.template operator()<5>();
  }
}

}  // namespace porta::host
