// What every op implementation needs to run an OpenCL kernel: operands
// (cl_mem + element offset, never sub-buffers), the layout of elementwise
// launches (shape + per-operand strides, with a contiguous fast path), and
// a launcher that sets arguments and enqueues under the kernel's lock.
#pragma once

#include <dlpack/dlpack.h>

#include <cstdint>
#include <mutex>
#include <string>

#include "plugin_support.hpp"
#include "program.hpp"

namespace porta::opencl {

// A tensor as kernels address it: the buffer and its first element.
struct Operand {
  cl_mem mem = nullptr;
  int64_t offset = 0;  // elements
};

// Bytes per element of `t`.
inline int64_t element_size(const DLTensor& t) { return (t.dtype.bits * t.dtype.lanes + 7) / 8; }

using plugin::numel;

// `t`'s buffer and element offset; INVALID_ARGUMENT when byte_offset is not
// a whole number of elements.
porta_status operand(const DLTensor& t, const char* op, Operand* out);

// Matches porta_layout in kernels/common.cl.
struct Layout {
  int64_t shape[16];
  int64_t stride[4][16];
};

// How an elementwise kernel addresses its operands (kernels/common.cl).
enum LayoutMode : int32_t { kContiguous = 0, kStrided = 1 };

// The leading arguments of every elementwise-shaped kernel for operands of
// one shape (operand 0 the output), and the range to launch.
struct ElementwiseLayout {
  int64_t n = 1;
  int32_t mode = kContiguous;
  cl_long4 ext{};      // range extents: innermost dimension first
  cl_long4 step[3]{};  // per range dimension, operand k's stride in component k
  int32_t ndim = 0;
  Layout layout{};
  // More than three dimensions: the kernel's "_nd" variant loops over the outer ones.
  const char* variant() const { return mode == kStrided && ndim > 3 ? "_nd" : ""; }
};
// For ts[0..k) of ts[0]'s shape; dimensions are taken as given (the core
// has coalesced them).
ElementwiseLayout elementwise_layout(const DLTensor* const* ts, int k);

// One kernel launch: holds the kernel's lock from the first argument to the
// enqueue; the first failure is remembered and reported by enqueue().
class Launch {
 public:
  Launch(Kernel& kernel, std::string name) : lock_(kernel.mutex), kernel_(kernel), name_(std::move(name)) {}

  template <class V>
  Launch& arg(const V& v) {
    set(sizeof(V), &v);
    return *this;
  }
  Launch& arg(const Operand& o) { return arg(o.mem).arg(static_cast<cl_long>(o.offset)); }
  // A float argument as real_t: double where the device has fp64, else float.
  Launch& real(const Device& dev, double v) {
    if (dev.fp64) return arg(v);
    return arg(static_cast<float>(v));
  }
  // Local memory of `bytes`.
  Launch& local(size_t bytes) {
    set(bytes, nullptr);
    return *this;
  }
  Launch& elementwise(const ElementwiseLayout& l) {
    return arg(static_cast<cl_long>(l.n))
        .arg(l.mode)
        .arg(l.ext)
        .arg(l.step[0])
        .arg(l.step[1])
        .arg(l.step[2])
        .arg(l.ndim)
        .arg(l.layout);
  }

  // The work-group size to use when `wanted` (a power of two) is best: the
  // largest power of two not above it or the kernel's limit.
  size_t group_size(size_t wanted = kGroup) const;

  // Enqueues `items` work-items on `queue`, rounded up to whole work-groups
  // of group_size(group) (the kernels ignore the extra items).
  porta_status enqueue(cl_command_queue queue, int64_t items, size_t group = kGroup);
  // Enqueues a 2- or 3-D range covering sizes[0] x sizes[1] (x sizes[2]),
  // in work-groups of about kGroup items spread over the first two ids.
  porta_status enqueue(cl_command_queue queue, cl_uint dims, const int64_t* sizes);
  // Enqueues the range an ElementwiseLayout's mode asks for.
  porta_status enqueue(cl_command_queue queue, const ElementwiseLayout& layout);

  static constexpr size_t kGroup = 256;

 private:
  void set(size_t size, const void* value);
  porta_status run(cl_command_queue queue, cl_uint dims, const size_t* global, const size_t* local);

  std::lock_guard<std::mutex> lock_;
  Kernel& kernel_;
  std::string name_;
  cl_uint index_ = 0;
  cl_int error_ = CL_SUCCESS;
  cl_uint error_index_ = 0;
};

}  // namespace porta::opencl
