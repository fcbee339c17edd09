// Kernel programs: one per (family, dtype) and device, built from the
// embedded sources on first use (through the on-disk binary cache of
// program_cache.hpp), with all their kernels created once.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "device.hpp"

namespace porta::opencl {

// A kernel object shared by every caller: hold `mutex` from the first
// clSetKernelArg to the enqueue (kernel_launch.hpp does).
struct Kernel {
  cl_kernel handle = nullptr;
  size_t max_group = 1;                         // CL_KERNEL_WORK_GROUP_SIZE on the program's device
  bool lazy_compiler = false;                   // Device::lazy_compiler
  std::vector<std::array<size_t, 3>> launched;  // work-group shapes run so far (lazy compilers only)
  std::mutex mutex;
};

// A built program's kernels (each kernel keeps its cl_program alive).
class Program {
 public:
  explicit Program(std::map<std::string, std::unique_ptr<Kernel>> kernels) : kernels_(std::move(kernels)) {}
  // nullptr when the program has no kernel `name`.
  Kernel* kernel(const std::string& name) const {
    auto it = kernels_.find(name);
    return it == kernels_.end() ? nullptr : it->second.get();
  }

 private:
  std::map<std::string, std::unique_ptr<Kernel>> kernels_;
};

// "float32" etc. for Porta dtype index `dt`.
const char* dtype_label(int dt);

// The kernel `name` of `family`'s program for dtype `dt` on `dev`; builds
// the program on first use. Reports UNSUPPORTED_DTYPE for float64 on a
// device without cl_khr_fp64, INTERNAL for an unknown kernel name.
porta_status find_cl_kernel(Device& dev, Family family, int dt, const std::string& name, Kernel** out);

}  // namespace porta::opencl
