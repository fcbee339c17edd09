// The OpenCL C sources of kernels/ (and plugins/common/philox.h), embedded
// at build time by embed_kernels.cmake.
#pragma once

#include <cstddef>
#include <string>

namespace porta::opencl {

struct KernelSource {
  const char* name;  // file name: "elementwise.cl", "philox.h"
  const char* text;
};

extern const KernelSource kKernelSources[];
extern const size_t kKernelSourceCount;

// The text of `name`; empty when there is no such source.
inline std::string kernel_source(const std::string& name) {
  for (size_t i = 0; i < kKernelSourceCount; ++i)
    if (name == kKernelSources[i].name) return kKernelSources[i].text;
  return {};
}

}  // namespace porta::opencl
