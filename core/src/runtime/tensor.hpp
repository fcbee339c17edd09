// Tensors inside the core: the porta_tensor handle (refcounted, with shape,
// strides in elements and a byte offset into shared, refcounted storage),
// the TensorPtr smart pointer, and Dims, a fixed-capacity shape vector.
#pragma once

#include <porta/porta.h>

#include <array>
#include <atomic>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/handle_kinds.hpp"
#include "runtime/dtype.hpp"
#include "runtime/registry.hpp"
#include "runtime/scalar.hpp"

namespace porta {

// A shape or stride vector of at most PORTA_MAX_DIMS entries, without heap.
struct Dims {
  int32_t n = 0;
  std::array<int64_t, PORTA_MAX_DIMS> v;  // only the first n are meaningful (not zeroed: hot path)

  Dims() = default;
  Dims(std::initializer_list<int64_t> l);
  // Throws INVALID_ARGUMENT when ndim is out of range or data is NULL with ndim > 0.
  static Dims from(const int64_t* data, int32_t ndim, const char* what);
  int64_t& operator[](int32_t i) { return v[i]; }
  int64_t operator[](int32_t i) const { return v[i]; }
  void push_back(int64_t x);
  const int64_t* begin() const { return v.data(); }
  const int64_t* end() const { return v.data() + n; }
  bool operator==(const Dims& o) const;
  bool operator!=(const Dims& o) const { return !(*this == o); }
  std::string str() const;  // "[2, 3]"
};

// Product of dims; throws INVALID_ARGUMENT on a negative dim or overflow.
int64_t checked_numel(const Dims& shape);
Dims contiguous_strides(const Dims& shape);

// Device memory shared by a tensor and its views. Memory comes from the
// device's caching allocator unless `release` is set (pinned host memory,
// memory imported through DLPack), in which case release(context, handle)
// gives it back.
struct Storage {
  DeviceState* device = nullptr;
  Block block;  // handle NULL for 0 bytes
  void (*release)(void* context, void* handle) = nullptr;
  void* release_context = nullptr;
  bool pinned = false;
  bool read_only = false;  // imported with DLPACK_FLAG_BITMASK_READ_ONLY: in-place writes are refused
  // The version counter autograd checks: bumped by every in-place write into
  // this memory, so it is shared by a tensor, its views and detach()ed
  // handles (PyTorch shares it the same way, but not with .data: Porta's
  // `.data` shares the storage, so a write through it is caught too).
  std::atomic<uint64_t> version{0};
  ~Storage();
};

namespace autograd {
struct Node;
struct GradHook;
struct RetainedGrad;
void drop_hooks(porta_tensor& t) noexcept;
}

}  // namespace porta

inline constexpr uint32_t kPortaTensorMagic = porta::HandleKind<porta_tensor>::live;
inline constexpr uint32_t kPortaTensorDead = porta::HandleKind<porta_tensor>::dead;

struct porta_tensor {
  uint32_t magic = kPortaTensorMagic;
  std::atomic<int64_t> refcount{1};
  porta::Dtype dtype = porta::Dtype::Float32;
  porta::Dims shape, strides;
  uint64_t byte_offset = 0;
  porta::DeviceState* device = nullptr;
  std::shared_ptr<porta::Storage> storage;

  // Autograd: a leaf has no grad_fn; grad accumulates on the leaf's device.
  bool requires_grad = false;
  porta_tensor* grad = nullptr;  // owned reference (or NULL)
  std::shared_ptr<porta::autograd::Node> grad_fn;
  std::weak_ptr<porta::autograd::Node> grad_accumulator;  // leaves only, shared by all uses
  // register_hook on a leaf (a non-leaf's hooks live on its grad_fn), and
  // retain_grad()'s slot, read by the node that produces this tensor.
  std::vector<std::shared_ptr<porta::autograd::GradHook>> hooks;
  std::shared_ptr<porta::autograd::RetainedGrad> retained_grad;

  // Differentiable views: the tensor whose memory this one views (owned
  // reference; never itself a view), set by the view ops of ops/ag.hpp.
  // An in-place write into a view rebases the history of `view_base`
  // (autograd/inplace.cpp). `history` counts such rebases of a base;
  // `base_history_seen` is the count this view's grad_fn was made against,
  // so a view made before a rebase is re-derived from its base on next use.
  porta_tensor* view_base = nullptr;
  std::atomic<uint64_t> history{0};
  uint64_t base_history_seen = 0;
  // One of several views a split/chunk/unbind made of a tensor that requires grad: an in-place write into it
  // under autograd is refused, as PyTorch refuses it (the write cannot be recorded for all the outputs).
  bool multi_output_view = false;

  // A number the caller typed as bool, int or float, as a 0-d tensor
  // (ops::wrapped_number, porta_scalar_tensor): PyTorch's "wrapped number",
  // which promotes below every tensor of its category (ops::result_type);
  // its value, on the host, for the checks PyTorch makes of a scalar
  // operand (pow's exponent, clamp's bounds) without reading the device.
  std::optional<porta::Scalar> wrapped;

  porta_tensor() = default;
  porta_tensor(const porta_tensor&) = delete;
  porta_tensor& operator=(const porta_tensor&) = delete;
  ~porta_tensor();

  int32_t ndim() const { return shape.n; }
  int64_t numel() const;
  size_t itemsize() const { return porta::dtype_size(dtype); }
  bool is_contiguous() const;
};

namespace porta {

// Intrusive owning pointer to a porta_tensor.
class TensorPtr {
 public:
  TensorPtr() = default;
  // Takes over one reference the caller owns.
  static TensorPtr adopt(porta_tensor* p) { TensorPtr t; t.p_ = p; return t; }
  // Adds a reference to a borrowed handle (validating it).
  static TensorPtr borrow(porta_tensor* p);
  TensorPtr(const TensorPtr& o) : p_(o.p_) { if (p_) p_->refcount.fetch_add(1, std::memory_order_relaxed); }
  TensorPtr(TensorPtr&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  TensorPtr& operator=(TensorPtr o) noexcept { std::swap(p_, o.p_); return *this; }
  ~TensorPtr() { reset(); }
  void reset();
  // Gives the reference to the caller (for C out-parameters).
  porta_tensor* release() { porta_tensor* p = p_; p_ = nullptr; return p; }
  porta_tensor* get() const { return p_; }
  porta_tensor* operator->() const { return p_; }
  porta_tensor& operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }

 private:
  porta_tensor* p_ = nullptr;
};

// Throws INVALID_HANDLE when `t` is NULL or not a live tensor.
const porta_tensor& check_handle(const porta_tensor* t, const char* what);
void release_handle(porta_tensor* t) noexcept;

// Throws INVALID_ARGUMENT naming `op` when `t` is read-only (imported through
// DLPack with the read-only flag).
void require_writable(const porta_tensor& t, const char* op);
// Fails (UNSUPPORTED_DTYPE) unless `t` is floating: "<op>: <what>
// must be floating (float16, bfloat16, float32 or float64)".
void check_float(const char* op, const char* what, const porta_tensor& t);
// Every in-place write into a tensor's memory starts here: refuses a
// read-only tensor and one whose elements overlap (an expanded view: several
// elements in one memory location, as PyTorch refuses), then bumps the
// storage's version counter so backward can tell saved tensors were changed.
void begin_write(const porta_tensor& t, const char* op);
// begin_write's checks alone (read-only, overlapping elements), for an
// in-place op to refuse before it computes anything.
void check_writable_memory(const porta_tensor& t, const char* op);

// A new contiguous tensor with uninitialized contents.
TensorPtr empty(DeviceState& dev, Dtype dtype, const Dims& shape);
// A view of `base`'s storage with the given geometry.
TensorPtr make_view(const porta_tensor& base, const Dims& shape, const Dims& strides, uint64_t byte_offset);

}  // namespace porta
