// The opencl plugin: devices of every OpenCL platform (device.hpp), memory
// as cl_mem buffers (DLPack's OpenCL convention), transfers through the
// device's in-order queue, and kernels compiled from kernels/*.cl
// (kernel_table.cpp) with GEMM through CLBlast.
#include <porta/plugin.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "device.hpp"
#include "plugin_support.hpp"

namespace porta::opencl {
porta_kernel_fn find_kernel(uint32_t op, DLDataType dtype);  // kernel_table.cpp
}

namespace {

using namespace porta::opencl;

porta_status initialize(const porta_host_api* host) {
  set_host_api(host);
  enumerate_devices();
  return PORTA_OK;
}

porta_status count(int32_t* out) {
  *out = device_count();
  return PORTA_OK;
}

porta_status no_such_device(int32_t device) {
  return report(PORTA_ERROR_NO_SUCH_DEVICE, "opencl:" + std::to_string(device) + " does not exist (" +
                                                std::to_string(device_count()) + " devices)");
}

porta_status props(int32_t device, porta_device_props* out) {
  const Device* d = device_at(device);
  if (d == nullptr) return no_such_device(device);
  porta_device_props p{};
  std::snprintf(p.name, sizeof(p.name), "%s", d->name.c_str());
  p.memory_total = d->memory;
  const uint64_t used = d->allocated.load(std::memory_order_relaxed);
  p.memory_free = used < d->memory ? d->memory - used : 0;  // what Porta's buffers leave
  p.compute_units = static_cast<int32_t>(d->compute_units);
  p.kind = (d->type & CL_DEVICE_TYPE_CPU)   ? PORTA_DEVICE_KIND_CPU
           : (d->type & CL_DEVICE_TYPE_GPU) ? PORTA_DEVICE_KIND_GPU
                                            : PORTA_DEVICE_KIND_ACCELERATOR;
  porta::plugin::copy_device_props(p, out);
  return PORTA_OK;
}

porta_status alloc(int32_t device, size_t bytes, void** out) {
  Device* d = nullptr;
  if (const porta_status st = open_device(device, &d); st != PORTA_OK) return st;
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(d->context(), CL_MEM_READ_WRITE, bytes, nullptr, &err);
  if (err != CL_SUCCESS) {
    const porta_status st = report_cl("clCreateBuffer", err, std::to_string(bytes) + " bytes on " + d->name);
    return err == CL_OUT_OF_RESOURCES ? PORTA_ERROR_OUT_OF_MEMORY : st;
  }
  d->allocated.fetch_add(bytes, std::memory_order_relaxed);
  *out = m;
  return PORTA_OK;
}

// The buffer is released once the commands already enqueued on it finish.
void release(int32_t device, void* handle) {
  if (handle == nullptr) return;
  cl_mem m = static_cast<cl_mem>(handle);
  size_t bytes = 0;
  if (clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof(bytes), &bytes, nullptr) == CL_SUCCESS)
    if (Device* d = device_at(device)) d->allocated.fetch_sub(bytes, std::memory_order_relaxed);
  clReleaseMemObject(m);
}

cl_bool blocking(uint32_t flags) { return (flags & PORTA_COPY_NONBLOCKING) ? CL_FALSE : CL_TRUE; }

porta_status copy_to_device(int32_t device, void* dst, size_t dst_offset, const void* src, size_t bytes,
                            uint32_t flags) {
  Device* d = nullptr;
  if (const porta_status st = open_device(device, &d); st != PORTA_OK) return st;
  const cl_int err = clEnqueueWriteBuffer(d->queue(), static_cast<cl_mem>(dst), blocking(flags), dst_offset, bytes, src,
                                          0, nullptr, nullptr);
  return err == CL_SUCCESS ? PORTA_OK : report_cl("clEnqueueWriteBuffer", err);
}

// The queue is in order, so the read waits for every kernel enqueued before it.
porta_status copy_to_host(int32_t device, void* dst, const void* src, size_t src_offset, size_t bytes, uint32_t flags) {
  Device* d = nullptr;
  if (const porta_status st = open_device(device, &d); st != PORTA_OK) return st;
  const cl_int err = clEnqueueReadBuffer(d->queue(), static_cast<cl_mem>(const_cast<void*>(src)), blocking(flags),
                                         src_offset, bytes, dst, 0, nullptr, nullptr);
  return err == CL_SUCCESS ? PORTA_OK : report_cl("clEnqueueReadBuffer", err);
}

// Stream-ordered like a kernel, whatever the flags.
porta_status copy_on_device(int32_t device, void* dst, size_t dst_offset, const void* src, size_t src_offset,
                            size_t bytes, uint32_t) {
  Device* d = nullptr;
  if (const porta_status st = open_device(device, &d); st != PORTA_OK) return st;
  cl_mem from = static_cast<cl_mem>(const_cast<void*>(src)), to = static_cast<cl_mem>(dst);
  const bool overlap = from == to && src_offset < dst_offset + bytes && dst_offset < src_offset + bytes;
  if (overlap) {  // OpenCL refuses overlapping copies (CL_MEM_COPY_OVERLAP): go through the host
    if (src_offset == dst_offset) return PORTA_OK;
    std::vector<char> staging(bytes);
    cl_int err = clEnqueueReadBuffer(d->queue(), from, CL_TRUE, src_offset, bytes, staging.data(), 0, nullptr, nullptr);
    if (err == CL_SUCCESS)
      err = clEnqueueWriteBuffer(d->queue(), to, CL_TRUE, dst_offset, bytes, staging.data(), 0, nullptr, nullptr);
    return err == CL_SUCCESS ? PORTA_OK : report_cl("overlapping copy on device", err);
  }
  const cl_int err = clEnqueueCopyBuffer(d->queue(), from, to, src_offset, dst_offset, bytes, 0, nullptr, nullptr);
  return err == CL_SUCCESS ? PORTA_OK : report_cl("clEnqueueCopyBuffer", err);
}

porta_status synchronize(int32_t device) {
  Device* d = device_at(device);
  if (d == nullptr) return no_such_device(device);
  if (!d->is_open()) return PORTA_OK;  // never used: nothing to wait for
  const cl_int err = clFinish(d->queue());
  return err == CL_SUCCESS ? PORTA_OK : report_cl("clFinish", err);
}

const char* reason() { return unavailable_reason(); }

const porta_plugin_api kApi = {
    sizeof(porta_plugin_api),
    PORTA_PLUGIN_ABI_MAJOR,
    PORTA_PLUGIN_ABI_MINOR,
    "opencl",
    kDLOpenCL,
    "0.1.0",
    initialize,
    count,
    reason,
    props,
    alloc,
    release,
    copy_to_device,
    copy_to_host,
    copy_on_device,
    synchronize,
    porta::opencl::find_kernel,
    nullptr,  // copy_between_devices: one context per device, so the core stages through the host
    nullptr,  // alloc_pinned_host
    nullptr,
    0,        // capabilities: OpenCL drivers (PoCL included) do not survive fork()
    nullptr,  // native_stream: no communicator plugin serves OpenCL (the core stages through host memory)
};

}  // namespace

extern "C" PORTA_EXPORT const porta_plugin_api* porta_plugin_get_api(void) { return &kApi; }
