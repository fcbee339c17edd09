#include "runtime/tensor.hpp"

#include <utility>

#include "runtime/error.hpp"
#include "runtime/handle_kinds.hpp"

namespace porta {

Dims::Dims(std::initializer_list<int64_t> l) {
  for (int64_t x : l) push_back(x);
}

Dims Dims::from(const int64_t* data, int32_t ndim, const char* what) {
  if (ndim < 0 || ndim > PORTA_MAX_DIMS)
    fail(PORTA_ERROR_INVALID_ARGUMENT, what, ": ndim ", ndim, " is out of range [0, ", PORTA_MAX_DIMS, "]");
  if (ndim > 0 && data == nullptr) fail(PORTA_ERROR_INVALID_ARGUMENT, what, " must not be NULL when ndim > 0");
  Dims d;
  for (int32_t i = 0; i < ndim; ++i) d.push_back(data[i]);
  return d;
}

void Dims::push_back(int64_t x) {
  if (n >= PORTA_MAX_DIMS) fail(PORTA_ERROR_INVALID_ARGUMENT, "more than ", PORTA_MAX_DIMS, " dimensions");
  v[n++] = x;
}

bool Dims::operator==(const Dims& o) const {
  if (n != o.n) return false;
  for (int32_t i = 0; i < n; ++i)
    if (v[i] != o.v[i]) return false;
  return true;
}

std::string Dims::str() const {
  std::string s = "[";
  for (int32_t i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

int64_t checked_numel(const Dims& shape) {
  int64_t n = 1, span = 1;  // span: n with size-0 dimensions counted as 1, as the row-major strides count them
  for (int64_t d : shape) {
    if (d < 0) fail(PORTA_ERROR_INVALID_ARGUMENT, "shape ", shape.str(), " has a negative dimension");
    if (__builtin_mul_overflow(span, d > 0 ? d : 1, &span))
      fail(PORTA_ERROR_INVALID_ARGUMENT, "shape ", shape.str(), " has more elements than int64 can count ",
           "(size-0 dimensions count as 1 here: the row-major strides of the others must still fit)");
    n *= d;
  }
  return n;
}

Dims contiguous_strides(const Dims& shape) {
  Dims s;
  s.n = shape.n;
  int64_t acc = 1;
  for (int32_t i = shape.n - 1; i >= 0; --i) {
    s[i] = acc;
    // Size-0 dimensions count as 1, so even a tensor without elements can have strides beyond int64.
    if (i > 0 && __builtin_mul_overflow(acc, shape[i] > 0 ? shape[i] : 1, &acc))
      fail(PORTA_ERROR_INVALID_ARGUMENT, "shape ", shape.str(), " has row-major strides beyond int64 (a size-0 ",
           "dimension does not make the others smaller); use smaller dimensions");
  }
  return s;
}

Storage::~Storage() {
  if (release) release(release_context, block.handle);
  else if (device && block.handle) device->allocator->deallocate(block);
}

TensorPtr TensorPtr::borrow(porta_tensor* p) {
  check_handle(p, "tensor");
  p->refcount.fetch_add(1, std::memory_order_relaxed);
  return adopt(p);
}

void TensorPtr::reset() {
  if (p_) release_handle(p_);
  p_ = nullptr;
}

const porta_tensor& check_handle(const porta_tensor* t, const char* what) {
  if (t == nullptr) fail(PORTA_ERROR_INVALID_HANDLE, what, " is NULL");
  if (t->magic == kPortaTensorDead)
    fail(PORTA_ERROR_INVALID_HANDLE, what, " is not a live porta_tensor (already released?): its last reference was "
         "given back with porta_tensor_release; hold a reference (porta_tensor_retain) for as long as you use it");
  if (t->magic != kPortaTensorMagic)
    fail(PORTA_ERROR_INVALID_HANDLE, what, " is not a live porta_tensor (already released, or not a tensor at all)");
  return *t;
}

void release_handle(porta_tensor* t) noexcept {
  if (t == nullptr || t->magic != kPortaTensorMagic) return;
  if (t->refcount.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  // Dead first, then free what it owns; the shell itself waits in quarantine.
  t->magic = kPortaTensorDead;
  t->storage.reset();
  t->grad_fn.reset();
  t->grad_accumulator.reset();
  autograd::drop_hooks(*t);
  release_handle(std::exchange(t->grad, nullptr));
  release_handle(std::exchange(t->view_base, nullptr));
  retire_handle(t);
}

void require_writable(const porta_tensor& t, const char* op) {
  if (t.storage->read_only)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": the tensor is read-only (imported through DLPack with the read-only "
         "flag); clone it first (porta_clone) and write into the clone");
}

void begin_write(const porta_tensor& t, const char* op) {
  check_writable_memory(t, op);
  t.storage->version.fetch_add(1, std::memory_order_acq_rel);
}

void check_writable_memory(const porta_tensor& t, const char* op) {
  require_writable(t, op);
  for (int32_t i = 0; i < t.ndim(); ++i)
    if (t.strides[i] == 0 && t.shape[i] > 1)
      fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": unsupported operation: more than one element of the written-to "
           "tensor refers to a single memory location (dimension ", i, " of shape ", t.shape.str(),
           " has stride 0, as after expand()); clone() the tensor before writing into it");
}

TensorPtr empty(DeviceState& dev, Dtype dtype, const Dims& shape) {
  const int64_t n = checked_numel(shape);
  const size_t item = dtype_size(dtype);
  if (n > 0 && static_cast<uint64_t>(n) > SIZE_MAX / item)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "shape ", shape.str(), " of ", dtype_name(dtype), " needs more bytes than size_t holds");
  auto storage = std::make_shared<Storage>();
  storage->device = &dev;
  if (n > 0) storage->block = dev.allocator->allocate(static_cast<size_t>(n) * item);
  auto* t = new porta_tensor();
  t->dtype = dtype;
  t->shape = shape;
  t->strides = contiguous_strides(shape);
  t->device = &dev;
  t->storage = std::move(storage);
  return TensorPtr::adopt(t);
}

TensorPtr make_view(const porta_tensor& base, const Dims& shape, const Dims& strides, uint64_t byte_offset) {
  auto* t = new porta_tensor();
  t->dtype = base.dtype;
  t->shape = shape;
  t->strides = strides;
  t->byte_offset = byte_offset;
  t->device = base.device;
  t->storage = base.storage;
  return TensorPtr::adopt(t);
}

void check_float(const char* op, const char* what, const porta_tensor& t) {
  if (!is_floating(t.dtype))
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op, ": ", what,
         " must be floating (float16, bfloat16, float32 or float64), got ", dtype_name(t.dtype), "; cast it first");
}

}  // namespace porta

porta_tensor::~porta_tensor() { porta::release_handle(grad); }

int64_t porta_tensor::numel() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

bool porta_tensor::is_contiguous() const {
  for (int64_t d : shape)
    if (d == 0) return true;
  int64_t expected = 1;
  for (int32_t i = shape.n - 1; i >= 0; --i) {
    if (shape[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}
