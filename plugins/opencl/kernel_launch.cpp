#include "kernel_launch.hpp"

#include <algorithm>

namespace porta::opencl {

porta_status operand(const DLTensor& t, const char* op, Operand* out) {
  const int64_t es = element_size(t);
  if (es == 0 || t.byte_offset % static_cast<uint64_t>(es) != 0)
    return report(PORTA_ERROR_INVALID_ARGUMENT, std::string(op) + ": byte_offset " + std::to_string(t.byte_offset) +
                                                    " is not a multiple of the element size " + std::to_string(es));
  out->mem = static_cast<cl_mem>(t.data);
  out->offset = static_cast<int64_t>(t.byte_offset) / es;
  return PORTA_OK;
}

namespace {

// Row-major contiguous, ignoring dimensions of size 1 (NULL strides: compact).
bool contiguous(const DLTensor& t) {
  if (t.strides == nullptr) return true;
  int64_t expect = 1;
  for (int32_t d = t.ndim - 1; d >= 0; --d) {
    if (t.shape[d] == 1) continue;
    if (t.strides[d] != expect) return false;
    expect *= t.shape[d];
  }
  return true;
}

}  // namespace

ElementwiseLayout elementwise_layout(const DLTensor* const* ts, int k) {
  ElementwiseLayout l;
  const DLTensor& out = *ts[0];
  const int32_t nd = out.ndim;
  l.n = numel(out);
  l.ndim = nd;
  bool all_contiguous = true;
  for (int j = 0; j < k; ++j) {
    const DLTensor& t = *ts[j];
    all_contiguous = all_contiguous && contiguous(t);
    int64_t compact = 1;
    for (int32_t d = nd - 1; d >= 0; --d) {
      l.layout.stride[j][d] = t.strides != nullptr ? t.strides[d] : compact;
      compact *= t.shape[d];
    }
  }
  for (int32_t d = 0; d < nd; ++d) l.layout.shape[d] = out.shape[d];
  l.mode = all_contiguous ? kContiguous : kStrided;
  // Range dimension r walks shape dimension nd-1-r; with more than three,
  // dimension 2 covers all the outer ones (the "_nd" kernels split it).
  for (int r = 0; r < 3; ++r) {
    const int32_t d = nd - 1 - r;
    l.ext.s[r] = d >= 0 ? out.shape[d] : 1;
    for (int j = 0; j < k; ++j) l.step[r].s[j] = d >= 0 ? l.layout.stride[j][d] : 0;
  }
  if (nd > 3)
    for (int32_t d = 0; d < nd - 3; ++d) l.ext.s[2] *= out.shape[d];
  return l;
}

namespace {

size_t pow2_at_least(int64_t v, size_t cap) {
  size_t p = 1;
  while (p < cap && static_cast<int64_t>(p) < v) p *= 2;
  return p;
}

}  // namespace

void Launch::set(size_t size, const void* value) {
  if (error_ == CL_SUCCESS) {
    error_ = clSetKernelArg(kernel_.handle, index_, size, value);
    error_index_ = index_;
  }
  ++index_;
}

size_t Launch::group_size(size_t wanted) const {
  size_t g = 1;
  while (g * 2 <= std::min(wanted, kernel_.max_group)) g *= 2;
  return g;
}

porta_status Launch::enqueue(cl_command_queue queue, int64_t items, size_t group) {
  if (error_ != CL_SUCCESS)
    return report_cl("clSetKernelArg", error_, name_ + ", argument " + std::to_string(error_index_));
  if (items <= 0) return PORTA_OK;
  const size_t local = group_size(group);
  const size_t global = (static_cast<size_t>(items) + local - 1) / local * local;
  return run(queue, 1, &global, &local);
}

porta_status Launch::run(cl_command_queue queue, cl_uint dims, const size_t* global, const size_t* local) {
  const cl_int err = clEnqueueNDRangeKernel(queue, kernel_.handle, dims, nullptr, global, local, 0, nullptr, nullptr);
  if (err != CL_SUCCESS) return report_cl("clEnqueueNDRangeKernel", err, name_);
  if (kernel_.lazy_compiler) {  // wait for the first launch of each shape: it compiles (device.hpp)
    const std::array<size_t, 3> shape = {local[0], dims > 1 ? local[1] : 1, dims > 2 ? local[2] : 1};
    if (std::find(kernel_.launched.begin(), kernel_.launched.end(), shape) == kernel_.launched.end()) {
      if (const cl_int e = clFinish(queue); e != CL_SUCCESS) return report_cl("clFinish", e, name_);
      kernel_.launched.push_back(shape);
    }
  }
  return PORTA_OK;
}

porta_status Launch::enqueue(cl_command_queue queue, cl_uint dims, const int64_t* sizes) {
  if (error_ != CL_SUCCESS)
    return report_cl("clSetKernelArg", error_, name_ + ", argument " + std::to_string(error_index_));
  for (cl_uint d = 0; d < dims; ++d)
    if (sizes[d] <= 0) return PORTA_OK;
  const size_t group = group_size();
  size_t local[3] = {pow2_at_least(sizes[0], group), 1, 1};
  local[1] = pow2_at_least(sizes[1], group / local[0]);
  size_t global[3];
  for (cl_uint d = 0; d < dims; ++d) global[d] = (static_cast<size_t>(sizes[d]) + local[d] - 1) / local[d] * local[d];
  return run(queue, dims, global, local);
}

porta_status Launch::enqueue(cl_command_queue queue, const ElementwiseLayout& layout) {
  if (layout.mode == kContiguous) return enqueue(queue, layout.n);
  const int64_t sizes[3] = {layout.ext.s[0], layout.ext.s[1], layout.ext.s[2]};
  return enqueue(queue, 3, sizes);
}

}  // namespace porta::opencl
