// Moving data: host <-> device, device <-> device, and `to` semantics.
// Nothing here is implicit: ops never call these behind the user's back.
#include <cstring>
#include <vector>

#include "runtime/error.hpp"
#include "runtime/kernel_rules.hpp"
#include "ops/ops.hpp"

namespace porta::ops {
namespace {

size_t nbytes(const porta_tensor& t) { return static_cast<size_t>(t.numel()) * t.itemsize(); }

void count_transfer(DeviceState& from, DeviceState& to, size_t bytes) {
  from.bytes_out.fetch_add(bytes, std::memory_order_relaxed);
  to.bytes_in.fetch_add(bytes, std::memory_order_relaxed);
}

bool is_host(const DeviceState& d) { return d.dl.device_type == kDLCPU; }

// Host pointer to a contiguous CPU tensor's first element.
char* host_ptr(const porta_tensor& t) {
  return static_cast<char*>(t.storage->block.handle) + t.byte_offset;
}

// Whether a copy from host tensor `src` to `dev` may be stream-ordered only:
// the source must be pinned by dev's own plugin, whose free_pinned_host
// waits for such copies before the memory goes.
bool may_skip_wait(const porta_tensor& src, const DeviceState& dev) {
  return src.storage->pinned && src.storage->release_context == &dev.backend->api;
}

// Copies contiguous `src` into contiguous `dst` of the same size on another
// device; non_blocking as in to().
void copy_across(const porta_tensor& src, const porta_tensor& dst, bool non_blocking = false) {
  const size_t bytes = nbytes(src);
  if (bytes == 0) return;
  DeviceState& s = *src.device;
  DeviceState& d = *dst.device;
  require_usable(*s.backend, s.name);
  require_usable(*d.backend, d.name);
  if (s.backend == d.backend && s.backend->api.copy_between_devices) {
    check_plugin(s.backend->api.copy_between_devices(d.index, dst.storage->block.handle, dst.byte_offset, s.index,
                                                     src.storage->block.handle, src.byte_offset, bytes, 0),
                 *s.backend, cat("copy from ", s.name, " to ", d.name));
  } else if (is_host(s)) {
    const uint32_t flags = non_blocking && may_skip_wait(src, d) ? PORTA_COPY_NONBLOCKING : 0u;
    check_plugin(d.backend->api.copy_to_device(d.index, dst.storage->block.handle, dst.byte_offset, host_ptr(src), bytes,
                                               flags),
                 *d.backend, cat("copy from ", s.name, " to ", d.name));
  } else if (is_host(d)) {
    check_plugin(s.backend->api.copy_to_host(s.index, host_ptr(dst), src.storage->block.handle, src.byte_offset, bytes, 0),
                 *s.backend, cat("copy from ", s.name, " to ", d.name));
  } else {  // staged through host memory
    std::vector<char> staging(bytes);
    check_plugin(s.backend->api.copy_to_host(s.index, staging.data(), src.storage->block.handle, src.byte_offset, bytes, 0),
                 *s.backend, cat("copy from ", s.name, " to host"));
    check_plugin(d.backend->api.copy_to_device(d.index, dst.storage->block.handle, dst.byte_offset, staging.data(), bytes, 0),
                 *d.backend, cat("copy from host to ", d.name));
  }
  count_transfer(s, d, bytes);
}

}  // namespace

TensorPtr from_host(const void* data, Dtype dtype, const Dims& shape, DeviceState& dev) {
  TensorPtr t = empty(dev, dtype, shape);
  const size_t bytes = nbytes(*t);
  if (bytes == 0) return t;
  require(data, "data");
  check_plugin(dev.backend->api.copy_to_device(dev.index, t->storage->block.handle, 0, data, bytes, 0), *dev.backend,
               cat("copy from host to ", dev.name));
  dev.bytes_in.fetch_add(bytes, std::memory_order_relaxed);
  return t;
}

void to_host(const porta_tensor& t, void* dst, size_t dst_bytes) {
  const size_t bytes = nbytes(t);
  if (dst_bytes < bytes)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "to_host: destination has ", dst_bytes, " bytes but the tensor ", t.shape.str(),
         " of ", dtype_name(t.dtype), " needs ", bytes);
  if (bytes == 0) return;
  require(dst, "dst");
  require_usable(*t.device->backend, t.device->name);
  TensorPtr c = contiguous(TensorPtr::borrow(const_cast<porta_tensor*>(&t)));
  DeviceState& dev = *t.device;
  check_plugin(dev.backend->api.copy_to_host(dev.index, dst, c->storage->block.handle, c->byte_offset, bytes, 0),
               *dev.backend, cat("copy from ", dev.name, " to host"));
  dev.bytes_out.fetch_add(bytes, std::memory_order_relaxed);
}

void from_host_into(const TensorPtr& t, const void* src, size_t src_bytes) {
  const size_t bytes = nbytes(*t);
  if (src_bytes != bytes)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "from_host_into: source has ", src_bytes, " bytes but the tensor ",
         t->shape.str(), " of ", dtype_name(t->dtype), " holds ", bytes);
  if (bytes == 0) return;
  require(src, "src");
  DeviceState& dev = *t->device;
  require_usable(*dev.backend, dev.name);
  if (!t->is_contiguous()) {
    copy_into(t, from_host(src, t->dtype, t->shape, dev));
    return;
  }
  begin_write(*t, "from_host_into");
  check_plugin(dev.backend->api.copy_to_device(dev.index, t->storage->block.handle, t->byte_offset, src, bytes, 0),
               *dev.backend, cat("copy from host to ", dev.name));
  dev.bytes_in.fetch_add(bytes, std::memory_order_relaxed);
}

TensorPtr to(const TensorPtr& t, DeviceState& dev, bool non_blocking) {
  if (t->device == &dev) return t;
  TensorPtr src = contiguous(t);
  TensorPtr out = empty(dev, t->dtype, t->shape);
  copy_across(*src, *out, non_blocking);
  return out;
}

void copy_into(const TensorPtr& dst, const TensorPtr& src) {
  const Dims shape = broadcast_shapes("copy_into", src->shape, dst->shape);
  if (shape != dst->shape)
    fail(PORTA_ERROR_SHAPE_MISMATCH, "copy_into: source of shape ", src->shape.str(),
         " cannot be broadcast to the destination's shape ", dst->shape.str());
  begin_write(*dst, "copy_into");
  TensorPtr s = to(src, *dst->device);
  if (s->storage == dst->storage) s = clone(s);  // the source may overlap the destination
  if (dst->numel() == 0) return;
  if (s->dtype != dst->dtype && rule_predating_plugin(*dst->device, PORTA_OP_CAST, s->dtype, dst->dtype))
    s = cast(s, dst->dtype);  // the rule applied by the core (kernel_rules.hpp), then a plain copy
  launch_elementwise(s->dtype == dst->dtype ? PORTA_OP_COPY : PORTA_OP_CAST, dst->dtype, {s.get()}, *dst);
}

}  // namespace porta::ops
