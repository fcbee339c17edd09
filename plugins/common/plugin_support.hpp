// Header-only helpers every plugin needs, whatever it links: the dense dtype
// index (the core's dispatch order) and the struct_size-respecting copy of
// device properties. No dependencies beyond plugin.h, so the CUDA and OpenCL
// plugins use it without linking the host kernels (and OpenBLAS).
#pragma once

#include <porta/plugin.h>

#include <cstring>

namespace porta::plugin {

// Index of a Porta dtype (bool, uint8, int32, int64, float32, float64 -> 0..5),
// or -1 for a dtype Porta does not support.
inline int dtype_index(DLDataType t) {
  if (t.lanes != 1) return -1;
  if (t.code == kDLBool && t.bits == 8) return 0;
  if (t.code == kDLUInt && t.bits == 8) return 1;
  if (t.code == kDLInt && t.bits == 32) return 2;
  if (t.code == kDLInt && t.bits == 64) return 3;
  if (t.code == kDLFloat && t.bits == 32) return 4;
  if (t.code == kDLFloat && t.bits == 64) return 5;
  return -1;
}

// Copies `props` into the core's struct, writing only the fields its
// struct_size covers (the core may be older than the plugin).
inline void copy_device_props(const porta_device_props& props, porta_device_props* out) {
  const size_t keep = out->struct_size;
  std::memcpy(static_cast<void*>(out), &props, keep < sizeof(props) ? keep : sizeof(props));
  out->struct_size = keep;
}

}  // namespace porta::plugin
